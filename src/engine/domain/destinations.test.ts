import {describe, expect, it} from 'vitest'
import {guardedLookup} from '../adapters/guarded-lookup.js'
import {DestinationPolicy} from './destinations.js'

describe('webhook destinations', () => {
  it('link-local and cloud-metadata addresses are always refused, however written; everything else is allowed by default', () => {
    const p = new DestinationPolicy()
    for (const a of ['169.254.169.254', '169.254.0.1', '::ffff:169.254.169.254', 'fe80::1', 'fd00:ec2::254', '100.100.100.200', '0.0.0.0']) expect(p.refusal(a), a).toMatch(/link-local, unspecified or cloud-metadata/)
    for (const a of ['127.0.0.1', '::1', '10.1.2.3', '192.168.1.10', '93.184.216.34', '2001:db8::1']) expect(p.refusal(a), a).toBeUndefined()
    expect(p.urlRefusal(new URL('https://[fe80::1]/hook'))).toMatch(/link-local/)
    expect(p.urlRefusal(new URL('https://169.254.169.254/latest/meta-data'))).toMatch(/cloud-metadata/)
    expect(p.urlRefusal(new URL('https://example.com/hook'))).toBeUndefined()
  })

  // every IPv6 spelling of a refused IPv4 address is refused as it is, and :: as 0.0.0.0
  const REFUSED_V6: [string, string][] = [
    ['::', 'unspecified (as 0.0.0.0)'],
    ['0:0:0:0:0:0:0:0', 'unspecified, written out'],
    ['::ffff:169.254.169.254', 'IPv4-mapped, dotted'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped, hex (as a URL writes it)'],
    ['::ffff:0.0.0.0', 'IPv4-mapped this-network'],
    ['::169.254.169.254', 'IPv4-compatible, dotted'],
    ['::a9fe:a9fe', 'IPv4-compatible, hex'],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated (RFC 6145)'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 well-known prefix'],
    ['64:ff9b::169.254.169.254', 'NAT64, dotted'],
    ['64:ff9b::6464:64c8', 'NAT64 of 100.100.100.200'],
    ['2002:a9fe:a9fe::', '6to4'],
    ['2002:a9fe:a9fe:1::1', '6to4 host in its /48'],
    ['2001:0:a9fe:a9fe::1', 'Teredo server'],
    ['2001:0:4136:e378:8000:63bf:5601:5601', 'Teredo client (bits inverted: 169.254.169.254)'],
    ['fe80::1%eth0', 'link-local with a zone'],
  ]
  it.each(REFUSED_V6)('%s (%s) is refused', (address) => {
    expect(new DestinationPolicy().refusal(address)).toMatch(/link-local, unspecified or cloud-metadata/)
  })

  const ALLOWED_V6: [string, string][] = [
    ['::1', "IPv6's loopback (not 0.0.0.1)"],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback, as 127.0.0.1 is'],
    ['64:ff9b::5db8:d822', 'NAT64 of a public address'],
    ['2002:5db8:d822::1', '6to4 of a public address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo of public addresses'],
    ['2001:db8::1', 'documentation prefix (no IPv4 inside)'],
    ['2606:4700::6810:84e5', 'a public address'],
  ]
  it.each([['64:ff9b:1::a9fe:a9fe'], ['64:ff9b:1:a9fe:a9:fe00::'], ['64:ff9b:1::5db8:d822']])('%s, in the local-use NAT64 prefix, is refused whole (where it holds an IPv4 address is the translator\'s choice)', (address) => {
    expect(new DestinationPolicy().refusal(address)).toMatch(/local-use NAT64/)
  })

  it.each(ALLOWED_V6)('%s (%s) is allowed by default', (address) => {
    expect(new DestinationPolicy().refusal(address)).toBeUndefined()
  })

  it.each([
    ['https://[::]:8443/hook'],
    ['https://[::ffff:169.254.169.254]/hook'],
    ['https://[::a9fe:a9fe]/hook'],
    ['https://[64:ff9b::a9fe:a9fe]/hook'],
    ['https://[2002:a9fe:a9fe::]/hook'],
    ['https://[0::0]:9/'],
  ])('the URL %s is refused as its IPv4 form is', (url) => {
    expect(new DestinationPolicy().urlRefusal(new URL(url))).toMatch(/never reach/)
  })

  it('under an allow list, an IPv6 form of an address outside it is outside it too (a mapped one counts as its IPv4 address)', () => {
    const p = new DestinationPolicy(['127.0.0.1/32', '2002::/16', '64:ff9b::/96'])
    expect(p.refusal('::ffff:127.0.0.1')).toBeUndefined()
    expect(p.refusal('64:ff9b::7f00:1')).toBeUndefined()
    expect(p.refusal('2002:0a00:0001::1')).toMatch(/outside the destinations .*carries 10\.0\.0\.1/)
    expect(p.refusal('64:ff9b::a00:1')).toMatch(/carries 10\.0\.0\.1/)
    expect(p.refusal('::ffff:10.0.0.1')).toMatch(/outside/)
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

  it('at connection time, a name resolving to IPv6 forms of refused addresses is never connected to; its allowed addresses are', async () => {
    const answers = (list: string[]) => (_host: string, _o: unknown, cb: (err: null, a: {address: string; family: number}[]) => void) => cb(null, list.map((address) => ({address, family: address.includes(':') ? 6 : 4})))
    const resolve = (list: string[]) =>
      new Promise<{err: NodeJS.ErrnoException | null; address: unknown}>((r) => guardedLookup(() => new DestinationPolicy(), answers(list))('hooks.example', {all: true}, (err, address) => r({err, address})))
    const blocked = await resolve(['::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::', '::'])
    expect(blocked.err?.code).toBe('EDESTBLOCKED')
    expect(blocked.err?.message).toMatch(/hooks\.example resolves to ::ffff:a9fe:a9fe is a link-local/)
    const mixed = await resolve(['::a9fe:a9fe', '2606:4700::6810:84e5', '93.184.216.34'])
    expect(mixed.err).toBeNull()
    expect((mixed.address as {address: string}[]).map((a) => a.address)).toEqual(['2606:4700::6810:84e5', '93.184.216.34'])
  })
})
