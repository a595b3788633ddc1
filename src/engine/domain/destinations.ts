// Where the engine may send webhooks (docs/decisions.md#webhook-destinations). In a shared sandbox the engine calls URLs that
// users give it, so some addresses are never reachable: link-local addresses, where clouds serve
// instance metadata and credentials (169.254.0.0/16, fe80::/10, AWS's fd00:ec2::254, Alibaba's
// 100.100.100.200), and "this network" (0.0.0.0/8, and IPv6's unspecified ::). An operator may
// restrict destinations further to a list of CIDRs (`gw serve --webhook-allow`); without one,
// every other address — loopback included, for the local single-user case — is allowed.
// An IPv6 address that stands for or carries an IPv4 one is refused when that IPv4 address is
// as well: ::ffff:169.254.169.254 and [64:ff9b::a9fe:a9fe] reach what 169.254.169.254 does.
import {BlockList, isIP} from 'node:net'
import ipaddr from 'ipaddr.js'

const NEVER = new BlockList()
NEVER.addSubnet('169.254.0.0', 16, 'ipv4')
NEVER.addSubnet('0.0.0.0', 8, 'ipv4')
NEVER.addAddress('100.100.100.200', 'ipv4')
NEVER.addAddress('::', 'ipv6')
NEVER.addSubnet('fe80::', 10, 'ipv6')
NEVER.addAddress('fd00:ec2::254', 'ipv6')
/** local-use NAT64 (RFC 8215): its translators reach IPv4 addresses at a place only they know */
const LOCAL_NAT64 = new BlockList()
LOCAL_NAT64.addSubnet('64:ff9b:1::', 48, 'ipv6')

const v4 = (b: number[], at: number[]): string => at.map((i) => b[i]!).join('.')
const zeros = (b: number[], from: number, to: number) => b.slice(from, to).every((x) => x === 0)

/**
 * How an IPv6 address (16 bytes) carries an IPv4 one: `same` when the IPv6 address is only
 * another spelling of it (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, RFC 6145's
 * ::ffff:0:a.b.c.d), `carried` when a translator or relay on the way reaches it (NAT64's
 * 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32 — its server and its client, whose bits are
 * inverted). (The local-use NAT64 prefix 64:ff9b:1::/48 is refused whole: where it holds the IPv4
 * address depends on the translator's prefix length, which the engine cannot know.)
 */
export function embeddedIPv4(bytes: number[]): {same?: string; carried: string[]} {
  const b = bytes
  const word = (i: number) => (b[2 * i]! << 8) | b[2 * i + 1]!
  const tail = v4(b, [12, 13, 14, 15])
  if (zeros(b, 0, 10) && word(5) === 0xffff) return {same: tail, carried: []}
  if (zeros(b, 0, 8) && word(4) === 0xffff && word(5) === 0) return {same: tail, carried: []}
  // ::1 is IPv6's loopback, not 0.0.0.1; :: is "this network" as 0.0.0.0 is
  if (zeros(b, 0, 12) && !(zeros(b, 12, 15) && b[15] === 1)) return {same: tail, carried: []}
  if (word(0) === 0x64 && word(1) === 0xff9b && zeros(b, 4, 12)) return {carried: [tail]}
  if (word(0) === 0x2002) return {carried: [v4(b, [2, 3, 4, 5])]}
  if (word(0) === 0x2001 && word(1) === 0) return {carried: [v4(b, [4, 5, 6, 7]), b.slice(12).map((x) => x ^ 0xff).join('.')]}
  return {carried: []}
}

export class DestinationPolicy {
  private readonly allow: BlockList | undefined

  /** `allow`: CIDRs such as 10.0.0.0/8 or ::1/128 (a bare address is a /32 or /128); none: everything not always refused. */
  constructor(readonly allowList: readonly string[] = []) {
    if (allowList.length === 0) return
    this.allow = new BlockList()
    for (const raw of allowList) {
      const [addr, bits, extra] = raw.trim().split('/')
      const v = isIP(addr ?? '')
      const max = v === 4 ? 32 : 128
      const n = bits === undefined ? max : Number(bits)
      if (!v || extra !== undefined || !Number.isInteger(n) || n < 0 || n > max || (bits !== undefined && !/^\d+$/.test(bits)))
        throw new Error(`--webhook-allow takes CIDRs such as 10.0.0.0/8,127.0.0.1/32,::1/128; '${raw}' is not one.`)
      this.allow.addSubnet(addr!, n, v === 4 ? 'ipv4' : 'ipv6')
    }
  }

  /**
   * Answers by address, kept: a webhook attempt asks for its endpoint's address every time, and
   * each check builds SocketAddress objects (a policy never changes; a fleet's new one is a new policy)
   */
  private readonly answers = new Map<string, string | undefined>()

  /** Why an address may not be reached, or undefined when it may. */
  refusal(address: string): string | undefined {
    if (this.answers.has(address)) return this.answers.get(address)
    const why = this.decide(address)
    if (this.answers.size >= 1024) this.answers.clear()
    this.answers.set(address, why)
    return why
  }

  private decide(address: string): string | undefined {
    const v = isIP(address)
    if (!v) return `${address} is not an IP address`
    if (v === 4) return this.refusedAs(address, 'ipv4', address)
    // (a zone, fe80::1%eth0, names the interface, not the address)
    const bytes = ipaddr.IPv6.parse(address.split('%')[0]!).toByteArray()
    const {same, carried} = embeddedIPv4(bytes)
    if (same !== undefined) return this.refusedAs(same, 'ipv4', address)
    const plain = (ipaddr.fromByteArray(bytes) as ipaddr.IPv6).toString()
    if (LOCAL_NAT64.check(plain, 'ipv6')) return `${address} is in the local-use NAT64 prefix 64:ff9b:1::/48, which webhooks never reach (it may stand for any IPv4 address)`
    const own = this.refusedAs(plain, 'ipv6', address)
    if (own) return own
    for (const inner of carried) {
      const why = this.refusedAs(inner, 'ipv4', address)
      if (why) return `${why} (it carries ${inner})`
    }
    return undefined
  }

  private refusedAs(a: string, family: 'ipv4' | 'ipv6', address: string): string | undefined {
    if (NEVER.check(a, family)) return `${address} is a link-local, unspecified or cloud-metadata address, which webhooks never reach`
    if (this.allow && !this.allow.check(a, family)) return `${address} is outside the destinations this engine allows (--webhook-allow ${this.allowList.join(',')})`
    return undefined
  }

  /** Why a URL's host may not be reached when it names an address itself (a host name is checked once resolved). */
  urlRefusal(url: URL): string | undefined {
    const host = url.hostname.replace(/^\[|\]$/g, '')
    if (isIP(host)) return this.refusal(host)
    if (host.toLowerCase() === 'localhost') return this.refusal('127.0.0.1')
    return undefined
  }
}
