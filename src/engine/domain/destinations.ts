// Where the engine may send webhooks (issue 24). In a shared sandbox the engine calls URLs that
// users give it, so some addresses are never reachable: link-local addresses, where clouds serve
// instance metadata and credentials (169.254.0.0/16, fe80::/10, AWS's fd00:ec2::254, Alibaba's
// 100.100.100.200), and "this network" (0.0.0.0/8). An operator may restrict destinations
// further to a list of CIDRs (`gw serve --webhook-allow`); without one, every other address —
// loopback included, for the local single-user case — is allowed.
import {BlockList, isIP} from 'node:net'

const NEVER = new BlockList()
NEVER.addSubnet('169.254.0.0', 16, 'ipv4')
NEVER.addSubnet('0.0.0.0', 8, 'ipv4')
NEVER.addAddress('100.100.100.200', 'ipv4')
NEVER.addSubnet('fe80::', 10, 'ipv6')
NEVER.addAddress('fd00:ec2::254', 'ipv6')

/** The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:169.254.169.254), else the address. */
function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  return m ? m[1]! : address
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
    const a = unmapped(address)
    const v = isIP(a)
    if (!v) return `${address} is not an IP address`
    const family = v === 4 ? 'ipv4' : 'ipv6'
    if (NEVER.check(a, family)) return `${address} is a link-local or cloud-metadata address, which webhooks never reach`
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
