// One CA for a test run (issue 27): engines that share a certificate directory create the CA once,
// even when they start at the same instant, and each serves a certificate that CA signed.
import {mkdtempSync, readFileSync, rmSync, existsSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {X509Certificate} from 'node:crypto'
import {afterEach, expect, it} from 'vitest'
import {tlsPathsIn} from '../../local-engine.js'
import {ensureCertificates} from './certificates.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
})

it('engines starting together on one directory make one CA, and every certificate they serve is signed by it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-tls-'))
  dirs.push(dir)
  const paths = tlsPathsIn(dir)
  const all = await Promise.all(Array.from({length: 6}, (_, i) => ensureCertificates(paths, i % 2 ? '127.0.0.1' : 'localhost')))
  const ca = new X509Certificate(readFileSync(paths.caCert))
  expect(new Set(all.map((m) => m.caCert)).size).toBe(1)
  for (const m of all) {
    expect(m.caFile).toBe(paths.caCert)
    expect(new X509Certificate(m.cert).verify(ca.publicKey)).toBe(true)
  }
  // a later engine reuses them; no lock is left behind
  const again = await ensureCertificates(paths, '127.0.0.1')
  expect(again.caCert).toBe(all[0]!.caCert)
  expect(again.cert).toBe(readFileSync(paths.serverCert, 'utf8'))
  expect(existsSync(join(dir, '.lock'))).toBe(false)
})

it('an engine on another host widens the shared certificate without dropping the hosts it covered', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-tls-'))
  dirs.push(dir)
  const paths = tlsPathsIn(dir)
  await ensureCertificates(paths, '127.0.0.1')
  const wider = await ensureCertificates(paths, 'gw.test')
  const alt = new X509Certificate(wider.cert).subjectAltName ?? ''
  expect(alt).toContain('DNS:gw.test')
  expect(alt).toContain('DNS:localhost')
  expect(alt).toContain('IP Address:127.0.0.1')
})
