// gw ca install / uninstall (docs/decisions.md#browsers-and-hosted-pages): a normal browser refuses the local engine's pages
// (ERR_CERT_AUTHORITY_INVALID) until the CA is trusted. In a HOME of its own, Debian's chromium
// (no --ignore-certificate-errors) opens a hosted page after `gw ca install --no-system` and
// refuses it again after `gw ca uninstall`. Needs the build and certutil (libnss3-tools).
import {execFile} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {launchChromium} from './support/browser.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../src/engine/test-support/harness.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
let t: TestEngine
let home: string
let caFile: string
let page: string

beforeAll(async () => {
  t = await bootEngine()
  home = mkdtempSync(join(tmpdir(), 'gw-ca-home-'))
  caFile = join(home, 'ca.pem')
  writeFileSync(caFile, t.engine.caCertPem!) // (the test engine's own CA)
  page = (await t.api('POST', '/checkout_sessions', {amount: 2000, currency: 'EUR'})).body.url
})
afterAll(async () => {
  await t?.stop()
  rmSync(home, {recursive: true, force: true})
})

const gw = async (...args: string[]) => {
  const r = await promisify(execFile)(process.execPath, [join(ROOT, 'bin/run.js'), ...args], {cwd: ROOT, env: {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GW_PROFILE: '', GW_CA_FILE: ''}})
  return r.stdout
}

/** What a browser with this HOME's trust says about the hosted page. */
async function open(): Promise<number | string> {
  const browser = await launchChromium({trustAll: false, home})
  try {
    const p = await browser.newPage()
    return (await p.goto(page))!.status()
  } catch (e) {
    return /ERR_CERT_AUTHORITY_INVALID/.exec((e as Error).message)?.[0] ?? (e as Error).message
  } finally {
    await browser.close()
  }
}

describe('gw ca install / uninstall', () => {
  it('a browser refuses the page, trusts it after install, and refuses it again after uninstall', async () => {
    expect(await open()).toBe('ERR_CERT_AUTHORITY_INVALID')
    const installed = JSON.parse(await gw('ca', 'install', '--ca', caFile, '--no-system', '--json'))
    expect(installed.nickname).toMatch(/^gw local CA [0-9a-f]{12}$/)
    expect(installed.places).toEqual([{place: `sql:${join(home, '.pki', 'nssdb')}`, result: 'installed'}])
    expect(await open()).toBe(200)
    // again: nothing to do
    expect(JSON.parse(await gw('ca', 'install', '--ca', caFile, '--no-system', '--json')).places[0].result).toBe('already')
    const removed = JSON.parse(await gw('ca', 'uninstall', '--ca', caFile, '--no-system', '--json'))
    expect(removed.places).toEqual([{place: `sql:${join(home, '.pki', 'nssdb')}`, result: 'removed'}])
    expect(await open()).toBe('ERR_CERT_AUTHORITY_INVALID')
  }, 60_000)

  it('the system store in a directory standing in for /usr/local/share/ca-certificates; words for a person', async () => {
    const dir = join(home, 'system-cas')
    const out = await promisify(execFile)(process.execPath, [join(ROOT, 'bin/run.js'), 'ca', 'install', '--ca', caFile, '--no-browsers'], {cwd: ROOT, env: {...process.env, HOME: home, GW_CA_SYSTEM_DIR: dir}})
    expect(out.stdout).toMatch(/installed\s+system \(.*system-cas\/gw-local-CA-[0-9a-f]{12}\.crt\)/)
    const back = await promisify(execFile)(process.execPath, [join(ROOT, 'bin/run.js'), 'ca', 'uninstall', '--ca', caFile, '--no-browsers'], {cwd: ROOT, env: {...process.env, HOME: home, GW_CA_SYSTEM_DIR: dir}})
    expect(back.stdout).toMatch(/removed\s+system/)
  })

  it('a file that is not a CA, or no CA at all, is a usage error naming the fix', async () => {
    writeFileSync(join(home, 'not.pem'), 'hello')
    await expect(gw('ca', 'install', '--ca', join(home, 'not.pem'))).rejects.toMatchObject({code: 2})
    await expect(gw('ca', 'install')).rejects.toMatchObject({code: 2, stderr: expect.stringContaining('gw login --local')})
  })
})
