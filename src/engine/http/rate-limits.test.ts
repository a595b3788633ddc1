import {describe, expect, it} from 'vitest'
import {addressKey, clientAddress, FailedAuthentications} from './rate-limits.js'

const req = (peer: string, xff?: string | string[]) => ({socket: {remoteAddress: peer}, headers: xff === undefined ? {} : {'x-forwarded-for': xff}}) as Parameters<typeof clientAddress>[0]

describe('client address', () => {
  it("is the socket's peer unless proxies are trusted: a client cannot name an address of its choosing", () => {
    expect(clientAddress(req('203.0.113.9', '198.51.100.1'))).toBe('203.0.113.9')
    expect(clientAddress(req('::ffff:203.0.113.9'))).toBe('203.0.113.9')
  })

  it('behind N trusted proxies, the Nth X-Forwarded-For entry from the right (what the farthest trusted proxy saw)', () => {
    // the client wrote 1.1.1.1 itself; the balancer appended the address it saw
    expect(clientAddress(req('10.0.0.2', '1.1.1.1, 198.51.100.7'), 1)).toBe('198.51.100.7')
    expect(clientAddress(req('10.0.0.2', ['1.1.1.1', '198.51.100.7, 10.0.0.1']), 2)).toBe('198.51.100.7')
    // fewer entries than proxies: the leftmost; none: the peer
    expect(clientAddress(req('10.0.0.2', '198.51.100.7'), 3)).toBe('198.51.100.7')
    expect(clientAddress(req('10.0.0.2'), 1)).toBe('10.0.0.2')
  })

  it('an IPv6 address counts as its /64: a host cannot get a fresh budget from each of its addresses', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64')
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1')
  })
})

describe('failed authentications', () => {
  /** token buckets that do not refill (the test takes less than a second of them), counting what was asked */
  function bucketStore() {
    const state = {taken: [] as string[]}
    const tokens = new Map<string, number>()
    return {
      state,
      async takeToken(scope: string, rate: number, capacity: number) {
        state.taken.push(scope)
        const left = tokens.get(scope) ?? capacity
        if (left < 1) return {retryAfter: Math.ceil(1 / rate), remaining: 0}
        tokens.set(scope, left - 1)
        return {retryAfter: 0, remaining: left - 1}
      },
    }
  }

  it("a burst of failures from an address is answered, then 429 with Retry-After — a refused address's next failure without the store; other addresses are not touched", async () => {
    const store = bucketStore()
    const f = new FailedAuthentications(store, 0, 5, 20)
    const guesser = req('203.0.113.9')
    for (let i = 0; i < 20; i++) expect(await f.failed(guesser)).toBeUndefined()
    const refused = await f.failed(guesser)
    expect(refused?.status).toBe(429)
    expect(Number(refused?.extra.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1)
    expect(refused?.body('req_x').error.message).toMatch(/failed authentications from 203\.0\.113\.9/)
    // the next failure from it is refused here, without the store
    const before = store.state.taken.length
    expect(f.refusal(guesser)?.status).toBe(429)
    expect(store.state.taken.length).toBe(before)
    expect(f.refusal(req('203.0.113.10'))).toBeUndefined()
    expect(await f.failed(req('203.0.113.10'))).toBeUndefined()
    expect(store.state.taken.at(-1)).toBe('auth:203.0.113.10')
  })
})
