import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

describe('concurrent writes to one payment', () => {
  it('parallel partial captures serialise: every one lands, none is lost or doubled', async () => {
    const p = await t.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'card', capture_method: 'manual', payment_method_data: card()})
    expect(p.body.status).toBe('requires_capture')
    const results = await Promise.all(Array.from({length: 8}, () => t.api('POST', `/payments/${p.body.id}/capture`, {amount: 100})))
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200))
    const got = await t.api('GET', `/payments/${p.body.id}`)
    expect(got.body.amount_captured).toBe(800)
    expect(got.body.status).toBe('requires_capture')
  })

  it('parallel capture and cancel: exactly one wins, the other gets a clear 400', async () => {
    const p = await t.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'card', capture_method: 'manual', payment_method_data: card()})
    const [a, b] = await Promise.all([t.api('POST', `/payments/${p.body.id}/capture`), t.api('POST', `/payments/${p.body.id}/cancel`)])
    const statuses = [a.status, b.status].sort()
    expect(statuses).toEqual([200, 400])
    const loser = a.status === 400 ? a : b
    expect(['payment_not_capturable', 'payment_not_cancelable']).toContain(loser.body.error.code)
  })
})
