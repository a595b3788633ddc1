// One CA for a test run (docs/decisions.md#a-throwaway-engine): engines that share a certificate directory create the CA once,
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

it('a certificate read from the directory (node:crypto, without the generator loaded) is remade 30 days before it ends, by the same CA; one without its CA is remade with a new CA', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-tls-'))
  dirs.push(dir)
  const paths = tlsPathsIn(dir)
  const first = await ensureCertificates(paths, '127.0.0.1')
  const ends = Date.parse(new X509Certificate(first.cert).validTo)
  // 31 days before its end: kept
  expect((await ensureCertificates(paths, '127.0.0.1', new Date(ends - 31 * 86_400_000))).cert).toBe(first.cert)
  // 29 days before: a new one, signed by the same CA
  const renewed = await ensureCertificates(paths, '127.0.0.1', new Date(ends - 29 * 86_400_000))
  expect(renewed.cert).not.toBe(first.cert)
  expect(renewed.caCert).toBe(first.caCert)
  expect(new X509Certificate(renewed.cert).verify(new X509Certificate(first.caCert).publicKey)).toBe(true)
  // the CA's files gone: the server certificate it signed is not served with a new CA
  rmSync(paths.caCert)
  rmSync(paths.caKey)
  const fresh = await ensureCertificates(paths, '127.0.0.1')
  expect(fresh.caCert).not.toBe(first.caCert)
  expect(new X509Certificate(fresh.cert).verify(new X509Certificate(fresh.caCert).publicKey)).toBe(true)
})
