// The rate limit (docs/api.md#limits, docs/decisions.md#rate-limits: token bucket per account and mode, 100/s, holding 200).
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

    // waves of concurrent requests (GETs, then creates) until a create is refused; a slow
    // machine refills the bucket (100/s) while a wave is in flight, so one wave may not do
    let created = 0
    const refused: Res[] = []
    let refusedReq: {body: Record<string, unknown>; key: string} | undefined
    let limitedGets = 0
    for (let wave = 0; wave < 5 && refused.length === 0; wave++) {
      const gets = Array.from({length: 300}, () => t.api('GET', '/payments?limit=1'))
      const reqs = Array.from({length: 40}, (_, i) => ({
        body: cardPayment({customer: {id: cus.body.id}, reference: `burst-${wave}-${i}`}),
        key: `burst-${wave}-${i}-${Math.random()}`,
      }))
      const posts = reqs.map((q) => t.api('POST', '/payments', q.body, {'idempotency-key': q.key}))
      const got = await Promise.all(gets)
      const made = await Promise.all(posts)
      // a fresh bucket holds 200: the first wave lets at least 200 through
      if (wave === 0) expect(got.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(200)
      for (const r of got) if (r.status !== 200) check429(r)
      limitedGets += got.filter((r) => r.status === 429).length
      made.forEach((r, i) => {
        if (r.status === 201) created++
        else {
          check429(r)
          refused.push(r)
          refusedReq ??= reqs[i]
        }
      })
    }
    expect(limitedGets + refused.length).toBeGreaterThan(0)
    expect(refused.length).toBeGreaterThan(0)

    const wait = Math.max(...refused.map((r) => Number(r.headers['retry-after'])))
    await sleep(wait * 1000 + 100)
    const listed: string[] = []
    let cursor = ''
    for (;;) {
      const l = await t.api('GET', `/payments?customer=${cus.body.id}&limit=100${cursor}`)
      expect(l.status, l.text).toBe(200)
      listed.push(...l.body.data.map((p: any) => p.id))
      if (!l.body.has_more) break
      cursor = `&starting_after=${l.body.data.at(-1).id}`
    }
    expect(listed.length).toBe(created)

    // retrying a refused request with its Idempotency-Key after the wait runs it once
    const again = await t.api('POST', '/payments', refusedReq!.body, {'idempotency-key': refusedReq!.key})
    expect(again.status, again.text).toBe(201)
    const replay = await t.api('POST', '/payments', refusedReq!.body, {'idempotency-key': refusedReq!.key})
    expect(replay.text).toBe(again.text)
    expect((await t.api('GET', `/payments?reference=${refusedReq!.body.reference}`)).body.data).toHaveLength(1)
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
