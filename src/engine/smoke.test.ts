import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from './test-support/harness.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

describe('engine smoke', () => {
  it('creates a frictionless card payment that succeeds', async () => {
    const r = await t.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
    expect(r.status).toBe(201)
    expect(r.body.status).toBe('succeeded')
    expect(r.body.amount_captured).toBe(2000)
    expect(r.headers['request-id']).toMatch(/^req_/)
    expect(r.body.provider_attempts).toHaveLength(1)
    expect(r.body.risk.decision).toBe('approved')
  })

  it('fails over on amount 4999', async () => {
    const r = await t.api('POST', '/payments', {amount: 4999, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
    expect(r.body.status).toBe('succeeded')
    expect(r.body.provider_attempts.map((a: any) => a.outcome)).toEqual(['timeout', 'approved'])
  })

  it('declines with 402 and stores the failed payment', async () => {
    const r = await t.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000000002')})
    expect(r.status).toBe(402)
    expect(r.body.error.code).toBe('card_declined')
    const g = await t.api('GET', `/payments/${r.body.error.payment}`)
    expect(g.body.status).toBe('failed')
    expect(g.body.provider_attempts).toHaveLength(1)
  })
})
