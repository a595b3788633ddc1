import {webcrypto, X509Certificate} from 'node:crypto'
import {chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {isIP} from 'node:net'
import {dirname, join} from 'node:path'
import type * as X509 from '@peculiar/x509'

type CryptoKey = webcrypto.CryptoKey
type CryptoKeyPair = webcrypto.CryptoKeyPair

/**
 * @peculiar/x509, loaded only to make a certificate: it is a third of the engine's first start in a
 * process (~0.5 s of module loading), and an engine whose certificate directory is already made
 * (`--tls-dir`, startGateway's tlsDir, a data dir started before) reads its files with node:crypto.
 */
let loaded: Promise<typeof X509> | undefined
function x509lib(): Promise<typeof X509> {
  loaded ??= (async () => {
    await import('reflect-metadata')
    // a CommonJS package: its module.exports is the namespace's default, in Node and in the engine's
    // bundle alike (a bundle's import() of CommonJS has no other export; scripts/bundle.mjs)
    const mod = (await import('@peculiar/x509')) as typeof X509 & {default?: typeof X509}
    const x509 = mod.default ?? mod
    x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0])
    return x509
  })()
  return loaded
}

const ALG = {name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256'} as const

export interface TlsMaterial {
  key: string
  cert: string
  caCert: string
  caFile: string
}

export interface TlsPaths {
  caCert: string
  caKey: string
  serverCert: string
  serverKey: string
}

async function exportKey(x509: typeof X509, key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey)
  return x509.PemConverter.encode(der, 'PRIVATE KEY')
}

async function importKey(x509: typeof X509, pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decode(pem)[0]!
  return (await webcrypto.subtle.importKey('pkcs8', der, ALG, true, ['sign'])) as unknown as CryptoKey
}

/**
 * Writes whole or not at all (a temp file renamed over), so an engine reading the file never sees
 * half of it; 0600 like every file the engine writes (docs/decisions.md#private-files-and-framed-pages), certificates included.
 */
function writeWhole(path: string, data: string, mode = 0o600) {
  mkdirSync(dirname(path), {recursive: true, mode: 0o700})
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  writeFileSync(tmp, data, {mode})
  chmodSync(tmp, mode)
  renameSync(tmp, path)
}

function writeSecret(path: string, data: string) {
  writeWhole(path, data, 0o600)
}

/** A lock held longer than this was left by an engine that died while writing: taken over. */
const STALE_LOCK_MS = 30_000

/**
 * Runs `fn` holding the certificate directory's lock (a file made with O_EXCL): engines that share
 * one directory (`--tls-dir`, a test run's engines) create the CA once and never read a
 * certificate another engine is replacing.
 */
async function withDirLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  mkdirSync(dir, {recursive: true, mode: 0o700})
  const lock = join(dir, '.lock')
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600))
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, {force: true})
      } catch {
        // gone meanwhile: try again
      }
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  try {
    return await fn()
  } finally {
    rmSync(lock, {force: true})
  }
}

const DAY = 86_400_000

/**
 * Creates (once) a local CA and a server certificate for localhost, 127.0.0.1, ::1 and the
 * listen host; reuses them on later starts. The server certificate is re-issued by the same
 * CA when it is near expiry or does not cover the host, so clients that trust the CA keep working.
 */
export async function ensureCertificates(paths: TlsPaths, host: string, now = new Date()): Promise<TlsMaterial> {
  return withDirLock(dirname(paths.caCert), () => ensureUnlocked(paths, host, now))
}

async function ensureUnlocked(paths: TlsPaths, host: string, now: Date): Promise<TlsMaterial> {
  const hosts = new Set(['localhost', '127.0.0.1', '::1'])
  if (host && host !== '0.0.0.0' && host !== '::') hosts.add(host)
  const hostsFile = join(dirname(paths.serverCert), 'server-hosts.json')
  const haveCa = existsSync(paths.caCert) && existsSync(paths.caKey)
  let reuse = haveCa && existsSync(paths.serverCert) && existsSync(paths.serverKey) && existsSync(hostsFile)
  if (reuse) {
    const notAfter = Date.parse(new X509Certificate(readFileSync(paths.serverCert, 'utf8')).validTo)
    const covered = new Set(JSON.parse(readFileSync(hostsFile, 'utf8')) as string[])
    reuse = notAfter - now.getTime() > 30 * DAY && [...hosts].every((h) => covered.has(h))
    // a shared directory's certificate covers every host any of its engines listens on
    for (const h of covered) hosts.add(h)
  }
  if (!reuse) {
    const x509 = await x509lib()
    let caKey: CryptoKey
    let caCert: X509.X509Certificate
    if (haveCa) {
      caCert = new x509.X509Certificate(readFileSync(paths.caCert, 'utf8'))
      caKey = await importKey(x509, readFileSync(paths.caKey, 'utf8'))
    } else {
      const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair
      caCert = await x509.X509CertificateGenerator.createSelfSigned({
        name: 'CN=gw local development CA',
        notBefore: new Date(now.getTime() - DAY),
        notAfter: new Date(now.getTime() + 3650 * DAY),
        keys,
        signingAlgorithm: ALG,
        extensions: [
          new x509.BasicConstraintsExtension(true, 0, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
          await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
        ],
      })
      caKey = keys.privateKey
      writeSecret(paths.caKey, await exportKey(x509, caKey))
      writeWhole(paths.caCert, caCert.toString('pem'))
    }
    const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair
    const cert = await x509.X509CertificateGenerator.create({
      subject: 'CN=localhost',
      issuer: caCert.subject,
      notBefore: new Date(now.getTime() - DAY),
      notAfter: new Date(now.getTime() + 397 * DAY),
      publicKey: keys.publicKey,
      signingKey: caKey,
      signingAlgorithm: ALG,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension(
          [...hosts].map((h) => ({type: isIP(h) ? ('ip' as const) : ('dns' as const), value: h})),
        ),
        await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
      ],
    })
    writeSecret(paths.serverKey, await exportKey(x509, keys.privateKey))
    writeWhole(paths.serverCert, cert.toString('pem'))
    writeWhole(hostsFile, JSON.stringify([...hosts]))
  }
  return {
    key: readFileSync(paths.serverKey, 'utf8'),
    cert: readFileSync(paths.serverCert, 'utf8'),
    caCert: readFileSync(paths.caCert, 'utf8'),
    caFile: paths.caCert,
  }
}
