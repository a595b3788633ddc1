// Files the embedded engine (`gw serve`) keeps in its data dir. The engine writes them;
// `gw login --local` reads them. Nothing here imports engine code.
import {homedir} from 'node:os'
import {join} from 'node:path'
import {readFileSync} from 'node:fs'

export interface LocalEngineInfo {
  base_url: string
  checkout_url: string
  /** PEM file of the local CA that signed the engine's certificate (or the --tls-ca brought with a certificate); null: a public CA's certificate */
  ca_file: string | null
  /** file (0600) holding the engine's test secret key */
  secret_key_file: string
  pid: number
  started_at: string
}

export function defaultDataDir(): string {
  return process.env.GW_DATA_DIR || join(homedir(), '.gw', 'engine')
}

/** The certificate files of a TLS directory (the data dir's tls/, or a shared --tls-dir). */
export const tlsPathsIn = (tlsDir: string) => ({
  tlsDir,
  caCert: join(tlsDir, 'ca.crt'),
  caKey: join(tlsDir, 'ca.key'),
  serverCert: join(tlsDir, 'server.crt'),
  serverKey: join(tlsDir, 'server.key'),
})

export const localEnginePaths = (dataDir: string) => ({
  info: join(dataDir, 'engine.json'),
  secretKey: join(dataDir, 'secret_key'),
  tlsDir: join(dataDir, 'tls'),
  caCert: join(dataDir, 'tls', 'ca.crt'),
  caKey: join(dataDir, 'tls', 'ca.key'),
  serverCert: join(dataDir, 'tls', 'server.crt'),
  serverKey: join(dataDir, 'tls', 'server.key'),
  database: join(dataDir, 'gw.db'),
})

/** Reads engine.json of a data dir; throws a readable error when the engine never ran there. */
export function readLocalEngineInfo(dataDir = defaultDataDir()): LocalEngineInfo {
  const p = localEnginePaths(dataDir).info
  try {
    return JSON.parse(readFileSync(p, 'utf8')) as LocalEngineInfo
  } catch {
    throw new Error(`No local engine found in ${dataDir} (missing ${p}). Start one with \`gw serve\` first.`)
  }
}
