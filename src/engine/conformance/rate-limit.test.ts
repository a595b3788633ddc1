// §8 rate limit (decisions.md: token bucket per account and mode, 100/s, holding 200).
// Its own engine: bursting here must not disturb other suites.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type Res, type TestEngine} from '../test-support/harness.js'
import {cardPayment, expectError, sleep} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

function check429(r: Res) {
  expectError(r, 429, 'rate_limit_error', 'rate_limit_exceeded')
  const ra = r.headers['retry-after']
  expect(typeof ra).toBe('string')
  expect(ra).toMatch(/^\d+$/)
  expect(Number(ra)).toBeGreaterThanOrEqual(1)
}

describe('429 rate_limit_exceeded', () => {
  it('a burst of more than 200 requests is limited with Retry-After; a 429 creates nothing', async () => {
    const cus = await t.api('POST', '/customers', {name: 'burst'})
    expect(cus.status).toBe(201)

    // 2 s worth of requests pass (the bucket holds 200), the rest of the burst is limited
    const gets = await Promise.all(Array.from({length: 240}, () => t.api('GET', '/payments?limit=1')))
    const okGets = gets.filter((r) => r.status === 200).length
    const limited = gets.filter((r) => r.status === 429)
    expect(okGets).toBeGreaterThanOrEqual(200)
    expect(limited.length).toBeGreaterThan(0)
    for (const r of limited) check429(r)
    expect(okGets + limited.length).toBe(240)

    // while limited, creates are refused before any work is done
    const posts = await Promise.all(
      Array.from({length: 40}, (_, i) => t.api('POST', '/payments', cardPayment({customer: {id: cus.body.id}, reference: `burst-${i}`}))),
    )
    const created = posts.filter((r) => r.status === 201).length
    const refused = posts.filter((r) => r.status === 429)
    expect(refused.length).toBeGreaterThan(0)
    for (const r of refused) check429(r)
    expect(created + refused.length).toBe(40)

    const wait = Math.max(...refused.map((r) => Number(r.headers['retry-after'])))
    await sleep(wait * 1000 + 100)
    const l = await t.api('GET', `/payments?customer=${cus.body.id}&limit=100`)
    expect(l.status, l.text).toBe(200)
    expect(l.body.data.length).toBe(created)

    // the same Idempotency-Key works after the wait
    const key = `after-429-${Math.random()}`
    const again = await t.api('POST', '/payments', cardPayment({customer: {id: cus.body.id}}), {'idempotency-key': key})
    expect(again.status, again.text).toBe(201)
  })

  it('a steady pace under 100/s is never limited', async () => {
    await sleep(1000)
    for (let i = 0; i < 30; i++) {
      const r = await t.api('GET', '/payments?limit=1')
      expect(r.status).toBe(200)
      await sleep(12)
    }
  })
})
