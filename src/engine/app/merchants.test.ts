import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

describe('merchants and routing rules', () => {
  it('a merchant becomes active with a MID after KYB review, with merchant.updated', async () => {
    const m = await t.api('POST', '/merchants', {business_name: 'Shop', legal_name: 'Shop BV', country: 'NL'})
    expect(m.status).toBe(201)
    expect(m.body).toMatchObject({object: 'merchant', kyb_status: 'pending', mid: null})
    const early = await t.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), merchant: m.body.id})
    expect(early.status).toBe(400)
    expect(early.body.error.code).toBe('merchant_inactive')
    await t.advance(61)
    const got = await t.api('GET', `/merchants/${m.body.id}`)
    expect(got.body.kyb_status).toBe('active')
    expect(got.body.mid).toMatch(/^MID\d{10}$/)
    const ev = await t.api('GET', '/events?type=merchant.updated')
    expect(ev.body.data[0].data.object.id).toBe(m.body.id)
  })

  it('a prefer rule puts its provider first; a block rule fails the payment; rules are scoped by merchant', async () => {
    const base = await t.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
    const smartFirst = base.body.provider
    const other = (await t.api('GET', '/providers?payment_method=card&currency=EUR')).body.data.map((p: any) => p.id).find((id: string) => id !== smartFirst)
    const rule = await t.api('POST', '/routing_rules', {priority: 1, action: 'prefer', providers: [{provider: other}], conditions: {currency: 'EUR', payment_method: 'card'}})
    expect(rule.status).toBe(201)
    const routed = await t.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
    expect(routed.body.provider).toBe(other)
    const block = await t.api('POST', '/routing_rules', {priority: 0, action: 'block', conditions: {amount_gte: 90000}})
    const blocked = await t.api('POST', '/payments', {amount: 95000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
    expect(blocked.status).toBe(201)
    expect(blocked.body).toMatchObject({status: 'failed', failure_code: 'routing_blocked', provider_attempts: []})
    await t.api('DELETE', `/routing_rules/${block.body.id}`)
    await t.api('DELETE', `/routing_rules/${rule.body.id}`)
    const again = await t.api('POST', '/payments', {amount: 95000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
    expect(again.body.status).toBe('succeeded')
  })

  it('validates rules: unknown provider, missing providers on prefer', async () => {
    const bad = await t.api('POST', '/routing_rules', {priority: 1, action: 'prefer', providers: [{provider: 'prov_nope'}]})
    expect(bad.status).toBe(400)
    expect(bad.body.error.param).toBe('providers[0].provider')
    const none = await t.api('POST', '/routing_rules', {priority: 1, action: 'split'})
    expect(none.body.error.param).toBe('providers')
  })
})
