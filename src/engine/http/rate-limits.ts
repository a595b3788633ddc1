// The API's rate limits (docs/decisions.md#rate-limits), token buckets in the store (so a fleet shares them): one per
// account and mode for its secret and restricted keys; one per account and mode for its
// publishable key, which is public by design (any page may send it), so browser traffic never
// takes from the server's budget; and one per client address for failed authentications, so
// guessing keys is not free.
import type {IncomingMessage} from 'node:http'
import {isIP} from 'node:net'
import {performance} from 'node:perf_hooks'
import type {Caller} from '../app/keys.js'
import type {Store} from '../ports/store.js'
import {ApiError} from './errors.js'

/** Failed authentications a client address may make per second, and in a burst. */
export const AUTH_FAILURES_PER_S = 5
export const AUTH_FAILURE_BURST = 20
/** Addresses remembered as refused at most (each for a second or so): beyond, the oldest go. */
const REFUSED_MAX = 10_000

/** The bucket a request authenticated with `caller`'s key takes from: its account's and mode's, the publishable key's of its own. */
export function bucketOf(caller: Caller): string {
  const mode = caller.livemode ? 'live' : 'test'
  return caller.key.type === 'publishable' ? `${caller.account}:${mode}:publishable` : `${caller.account}:${mode}`
}

/** 429 rate_limit_exceeded with Retry-After (whole seconds) and, for a request budget, RateLimit-Limit. */
export function tooManyRequests(message: string, retryAfter: number, limit?: number): ApiError {
  const headers: Record<string, string> = {'Retry-After': String(retryAfter)}
  if (limit !== undefined) Object.assign(headers, {'RateLimit-Limit': String(limit), 'RateLimit-Remaining': '0'})
  return new ApiError(429, 'rate_limit_error', 'rate_limit_exceeded', message, {headers})
}

/**
 * Who a request comes from: the socket's peer; behind `trustedProxies` proxies (gw serve
 * --trusted-proxies N), the address the farthest of them saw — the Nth entry from the right of
 * X-Forwarded-For, which those proxies append to (entries further left are the client's own
 * to write, so they are never believed). IPv4-mapped IPv6 addresses count as IPv4; an IPv6
 * address counts as its /64 (one host usually holds a whole /64).
 */
export function clientAddress(req: Pick<IncomingMessage, 'socket' | 'headers'>, trustedProxies = 0): string {
  let address = req.socket.remoteAddress ?? 'unknown'
  if (trustedProxies > 0) {
    const header = req.headers['x-forwarded-for']
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((h) => h.trim()).filter(Boolean)
    if (hops.length > 0) address = hops[Math.max(0, hops.length - trustedProxies)]!.slice(0, 64)
  }
  return addressKey(address)
}

/** An address as its bucket's name: IPv4 as it is (also when IPv4-mapped), IPv6 as its /64. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped) return mapped[1]!
  const bare = address.split('%')[0]!
  if (isIP(bare) !== 6) return address
  const [head, tail] = bare.split('::') as [string, string | undefined]
  const h = head ? head.split(':') : []
  const t = tail ? tail.split(':') : []
  // an embedded IPv4 address is two groups
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0)
  const groups = tail === undefined ? h : [...h, ...Array<string>(Math.max(0, 8 - width(h) - width(t))).fill('0'), ...t]
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`
}

/**
 * Failed authentications by client address: each one takes a token from the address's bucket
 * in the store (AUTH_FAILURES_PER_S, bursts of AUTH_FAILURE_BURST); once it is empty the
 * address's failures are answered 429 instead of 401 until the bucket has a token again. Only
 * failures count and only failures are refused: a request whose key authenticates never asks
 * (behind a NAT, one tenant's revoked key in a retry loop must not lock the others out). Which
 * addresses are refused is also remembered here, as the store said it, so a refused address's
 * failures cost no store round trip.
 */
export class FailedAuthentications {
  /** refused addresses and until when (performance.now() ms), in the order they were refused */
  private readonly refused = new Map<string, number>()

  constructor(
    private readonly store: Pick<Store, 'takeToken'>,
    private readonly trustedProxies = 0,
    private readonly perSecond = AUTH_FAILURES_PER_S,
    private readonly burst = AUTH_FAILURE_BURST,
  ) {}

  /** The refusal of a failed authentication from an address whose failures ran out; undefined otherwise (a Map lookup: nothing at all while no address is refused). */
  refusal(req: Pick<IncomingMessage, 'socket' | 'headers'>): ApiError | undefined {
    if (this.refused.size === 0) return undefined
    const address = clientAddress(req, this.trustedProxies)
    const until = this.refused.get(address)
    if (until === undefined) return undefined
    const left = until - performance.now()
    if (left <= 0) return void this.refused.delete(address)
    return this.error(address, Math.ceil(left / 1000))
  }

  /** A failed authentication of a request: its address's budget is taken from; the refusal to answer instead of the 401 once it is spent. */
  async failed(req: Pick<IncomingMessage, 'socket' | 'headers'>): Promise<ApiError | undefined> {
    const address = clientAddress(req, this.trustedProxies)
    const {retryAfter} = await this.store.takeToken(`auth:${address}`, this.perSecond, this.burst)
    if (retryAfter <= 0) return undefined
    this.refused.delete(address)
    this.refused.set(address, performance.now() + retryAfter * 1000)
    if (this.refused.size > REFUSED_MAX) this.prune()
    return this.error(address, retryAfter)
  }

  private prune(): void {
    const now = performance.now()
    for (const [a, until] of this.refused) if (until <= now) this.refused.delete(a)
    // still too many: the oldest refusals go (the store's buckets still hold them)
    for (const a of this.refused.keys()) {
      if (this.refused.size <= REFUSED_MAX) break
      this.refused.delete(a)
    }
  }

  private error(address: string, retryAfter: number): ApiError {
    return tooManyRequests(
      `Too many failed authentications from ${address}: at most ${this.perSecond} per second (bursts of ${this.burst}). Check the key you send (gw keys list shows yours); retry after ${retryAfter}s.`,
      retryAfter,
    )
  }
}
