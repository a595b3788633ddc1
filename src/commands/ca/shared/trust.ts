// `gw ca install` / `uninstall` (docs/decisions.md#browsers-and-hosted-pages): make browsers trust the local engine's CA, as mkcert
// does — the system store (Debian's /usr/local/share/ca-certificates and update-ca-certificates,
// which curl, Node with --use-openssl-ca and most tools read) and the NSS databases browsers
// read (Chromium's ~/.pki/nssdb, created when missing; Firefox profiles; snap Chromium), through
// certutil of Debian's libnss3-tools. The CA is named by its fingerprint, so uninstall removes
// exactly it and several engines' CAs can sit side by side.
import {execFile} from 'node:child_process'
import {X509Certificate} from 'node:crypto'
import {copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {promisify} from 'node:util'

const run = promisify(execFile)
export const SYSTEM_CA_DIR = '/usr/local/share/ca-certificates'

export interface TrustPlace {
  /** `system`, or the NSS database (sql:DIR / dbm:DIR) */
  place: string
  /** done; or skipped with why (and what to run instead) */
  result: 'installed' | 'removed' | 'already' | 'absent' | 'skipped'
  detail?: string
}

export interface TrustResult {
  ca_file: string
  /** the name the CA has in every store: gw local CA <fingerprint start> */
  nickname: string
  sha256: string
  places: TrustPlace[]
}

export function caIdentity(caFile: string): {nickname: string; sha256: string; subject: string} {
  const cert = new X509Certificate(readFileSync(caFile))
  if (!cert.ca) throw new Error(`${caFile} is not a CA certificate (it cannot sign the engine's certificate).`)
  const sha256 = cert.fingerprint256.replaceAll(':', '').toLowerCase()
  return {nickname: `gw local CA ${sha256.slice(0, 12)}`, sha256, subject: cert.subject}
}

/** The NSS databases of this user's browsers; Chromium's is made when missing (`create`). */
export function nssDatabases(home: string, create: boolean): {db: string; made: boolean}[] {
  const out: {db: string; made: boolean}[] = []
  const chromium = join(home, '.pki', 'nssdb')
  const have = (dir: string) => existsSync(join(dir, 'cert9.db')) || existsSync(join(dir, 'cert8.db'))
  const prefix = (dir: string) => (existsSync(join(dir, 'cert9.db')) ? 'sql:' : 'dbm:')
  if (have(chromium)) out.push({db: `sql:${chromium}`, made: false})
  else if (create) out.push({db: `sql:${chromium}`, made: true})
  const snap = join(home, 'snap', 'chromium', 'current', '.pki', 'nssdb')
  if (have(snap)) out.push({db: `${prefix(snap)}${snap}`, made: false})
  const firefox = join(home, '.mozilla', 'firefox')
  if (existsSync(firefox)) for (const p of readdirSync(firefox)) if (have(join(firefox, p))) out.push({db: `${prefix(join(firefox, p))}${join(firefox, p)}`, made: false})
  return out
}

async function certutil(args: string[]): Promise<{ok: boolean; out: string}> {
  try {
    const r = await run('certutil', args)
    return {ok: true, out: r.stdout}
  } catch (e) {
    const err = e as NodeJS.ErrnoException & {stderr?: string}
    if (err.code === 'ENOENT') throw new Error('certutil is missing: install it with `sudo apt-get install libnss3-tools` (Debian), then run this again.')
    return {ok: false, out: `${err.stderr ?? ''}${err.message}`}
  }
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

export async function installCa(caFile: string, opts: {home: string; system: boolean; browsers: boolean; systemDir?: string}): Promise<TrustResult> {
  const id = caIdentity(caFile)
  const places: TrustPlace[] = []
  if (opts.browsers) {
    for (const {db, made} of nssDatabases(opts.home, true)) {
      if (made) {
        mkdirSync(db.slice(4), {recursive: true})
        const created = await certutil(['-N', '-d', db, '--empty-password'])
        if (!created.ok) {
          places.push({place: db, result: 'skipped', detail: `could not create it: ${created.out.trim()}`})
          continue
        }
      }
      if ((await certutil(['-L', '-d', db, '-n', id.nickname])).ok) {
        places.push({place: db, result: 'already'})
        continue
      }
      const added = await certutil(['-A', '-d', db, '-t', 'C,,', '-n', id.nickname, '-i', caFile])
      places.push(added.ok ? {place: db, result: 'installed'} : {place: db, result: 'skipped', detail: added.out.trim()})
    }
  }
  if (opts.system) places.push(await systemStore(caFile, id.nickname, 'install', opts.systemDir))
  return {ca_file: caFile, nickname: id.nickname, sha256: id.sha256, places}
}

export async function uninstallCa(caFile: string, opts: {home: string; system: boolean; browsers: boolean; systemDir?: string}): Promise<TrustResult> {
  const id = caIdentity(caFile)
  const places: TrustPlace[] = []
  if (opts.browsers) {
    for (const {db} of nssDatabases(opts.home, false)) {
      if (!(await certutil(['-L', '-d', db, '-n', id.nickname])).ok) {
        places.push({place: db, result: 'absent'})
        continue
      }
      const removed = await certutil(['-D', '-d', db, '-n', id.nickname])
      places.push(removed.ok ? {place: db, result: 'removed'} : {place: db, result: 'skipped', detail: removed.out.trim()})
    }
  }
  if (opts.system) places.push(await systemStore(caFile, id.nickname, 'uninstall', opts.systemDir))
  return {ca_file: caFile, nickname: id.nickname, sha256: id.sha256, places}
}

async function systemStore(caFile: string, nickname: string, what: 'install' | 'uninstall', dir = SYSTEM_CA_DIR): Promise<TrustPlace> {
  const target = join(dir, `${nickname.replaceAll(' ', '-')}.crt`)
  const place = `system (${target})`
  if (what === 'uninstall' && !existsSync(target)) return {place, result: 'absent'}
  if (what === 'install' && existsSync(target)) return {place, result: 'already'}
  if (!isRoot() && dir === SYSTEM_CA_DIR) {
    const cmd = what === 'install' ? `sudo cp ${caFile} ${target} && sudo update-ca-certificates` : `sudo rm ${target} && sudo update-ca-certificates --fresh`
    return {place, result: 'skipped', detail: `needs root: run ${cmd}`}
  }
  if (what === 'install') {
    mkdirSync(dir, {recursive: true})
    copyFileSync(caFile, target)
  } else rmSync(target)
  if (dir === SYSTEM_CA_DIR) {
    try {
      await run('update-ca-certificates', what === 'install' ? [] : ['--fresh'])
    } catch (e) {
      return {place, result: 'skipped', detail: `update-ca-certificates failed: ${(e as Error).message}`}
    }
  }
  return {place, result: what === 'install' ? 'installed' : 'removed'}
}
