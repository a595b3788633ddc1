import {describe, expect, it} from 'vitest'
import {guardedLookup} from '../adapters/guarded-lookup.js'
import {DestinationPolicy} from './destinations.js'

describe('webhook destinations', () => {
  it('link-local and cloud-metadata addresses are always refused, however written; everything else is allowed by default', () => {
    const p = new DestinationPolicy()
    for (const a of ['169.254.169.254', '169.254.0.1', '::ffff:169.254.169.254', 'fe80::1', 'fd00:ec2::254', '100.100.100.200', '0.0.0.0']) expect(p.refusal(a), a).toMatch(/link-local or cloud-metadata/)
    for (const a of ['127.0.0.1', '::1', '10.1.2.3', '192.168.1.10', '93.184.216.34', '2001:db8::1']) expect(p.refusal(a), a).toBeUndefined()
    expect(p.urlRefusal(new URL('https://[fe80::1]/hook'))).toMatch(/link-local/)
    expect(p.urlRefusal(new URL('https://169.254.169.254/latest/meta-data'))).toMatch(/cloud-metadata/)
    expect(p.urlRefusal(new URL('https://example.com/hook'))).toBeUndefined()
  })

  it('an allow list restricts destinations to its CIDRs (loopback only when listed); the always-refused stay refused', () => {
    const p = new DestinationPolicy(['10.0.0.0/8', '::1/128', '192.168.1.7'])
    expect(p.refusal('10.200.1.1')).toBeUndefined()
    expect(p.refusal('::1')).toBeUndefined()
    expect(p.refusal('192.168.1.7')).toBeUndefined()
    expect(p.refusal('192.168.1.8')).toMatch(/outside the destinations .*--webhook-allow 10\.0\.0\.0\/8/)
    expect(p.refusal('127.0.0.1')).toMatch(/outside/)
    expect(p.urlRefusal(new URL('https://localhost:8443/hook'))).toMatch(/outside/)
    expect(new DestinationPolicy(['169.254.0.0/16']).refusal('169.254.169.254')).toMatch(/cloud-metadata/)
  })

  it('a malformed CIDR is refused at start, naming it', () => {
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/8/1', '::1/129', '10.0.0.0/x']) expect(() => new DestinationPolicy([bad]), bad).toThrow(new RegExp(`'${bad.replace(/[.*/]/g, '\\$&')}' is not one`))
  })

  it('a host name whose every address is refused fails to resolve with EDESTBLOCKED; allowed addresses pass', async () => {
    const resolve = (policy: DestinationPolicy, all: boolean) =>
      new Promise<{err: NodeJS.ErrnoException | null; address: unknown}>((r) => guardedLookup(() => policy)('localhost', {all}, (err, address) => r({err, address})))
    const refused = await resolve(new DestinationPolicy(['10.0.0.0/8']), false)
    expect(refused.err?.code).toBe('EDESTBLOCKED')
    expect(refused.err?.message).toMatch(/localhost resolves to .* outside the destinations/)
    const allowed = await resolve(new DestinationPolicy(), true)
    expect(allowed.err).toBeNull()
    expect((allowed.address as {address: string}[]).length).toBeGreaterThan(0)
  })
})
