// Instruments and customers (docs/decisions.md#saved-and-one-time-instruments, docs/decisions.md#resource-paths) and risk (docs/api.md#risk-screening).
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {card, cardPayment, createPayment, expectError, getPayment, RETURN_URL} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

describe('POST /payment_methods', () => {
  it('saves a Visa card with a network token and no raw number', async () => {
    const r = await t.api('POST', '/payment_methods', card())
    expect(r.status, r.text).toBe(201)
    expect(r.body).toMatchObject({
      object: 'payment_method',
      type: 'card',
      card: {brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, funding: 'credit', country: 'US', network_token: true},
      customer: null,
      livemode: false,
    })
    expect(r.body.id).toMatch(/^pm_/)
    expect(new Date(r.body.created_at).toISOString()).toBe(r.body.created_at)
    expect(r.text).not.toContain('4242424242424242')
    expect(r.text).not.toContain('"cvc"')
    const g = await t.api('GET', `/payment_methods/${r.body.id}`)
    expect(g.body).toEqual(r.body)
  })

  it('network_token per scheme: visa, mastercard and amex true', async () => {
    for (const n of ['4242424242424242', '5555555555554444', '378282246310005']) {
      const r = await t.api('POST', '/payment_methods', card(n))
      expect(r.body.card.network_token, n).toBe(true)
    }
  })

  it('attaches to a customer and lists by customer', async () => {
    const cus = (await t.api('POST', '/customers', {email: 'pm@example.com'})).body.id
    const r = await t.api('POST', '/payment_methods', {...card(), customer: cus, billing_details: {name: 'Ada', address: {postal_code: '1011', country: 'NL'}}})
    expect(r.status, r.text).toBe(201)
    expect(r.body.customer).toBe(cus)
    const l = await t.api('GET', `/payment_methods?customer=${cus}`)
    expect(l.body.object).toBe('list')
    expect(l.body.url).toBe('/v1/payment_methods')
    expect(l.body.data.map((x: any) => x.id)).toEqual([r.body.id])
  })

  it('rejects a bad number, an expired card, a wrong cvc, an unknown customer', async () => {
    expectError(await t.api('POST', '/payment_methods', card('1234')), 400, 'invalid_request_error')
    expectError(await t.api('POST', '/payment_methods', card('4242424242424242', {exp_year: 2001})), 400, 'invalid_request_error')
    expectError(await t.api('POST', '/payment_methods', card('4242424242424242', {exp_month: 13})), 400, 'invalid_request_error')
    expectError(await t.api('POST', '/payment_methods', card('4242424242424242', {cvc: '12'})), 400, 'invalid_request_error')
    expectError(await t.api('POST', '/payment_methods', {...card(), customer: 'cus_nobody'}), 404, 'invalid_request_error', 'resource_missing')
    expectError(await t.api('POST', '/payment_methods', {type: 'card'}), 400, 'invalid_request_error', 'parameter_missing')
  })

  it('a saved instrument pays by payment_method_id', async () => {
    const pm = (await t.api('POST', '/payment_methods', card())).body
    const p = await createPayment(t, {amount: 1200, currency: 'EUR', payment_method: 'card', payment_method_id: pm.id, return_url: RETURN_URL})
    expect(p.status).toBe('succeeded')
    expect(p.payment_method_id).toBe(pm.id)
    expect(p.payment_method_details.card).toMatchObject({brand: 'visa', last4: '4242'})
  })

  it('payment_method alone can be omitted when an instrument is given', async () => {
    const pm = (await t.api('POST', '/payment_methods', card())).body
    const p = await createPayment(t, {amount: 1200, currency: 'EUR', payment_method_id: pm.id, return_url: RETURN_URL})
    expect(p.payment_method).toBe('card')
  })

  it('an unknown payment_method_id → 404', async () => {
    expectError(
      await t.api('POST', '/payments', {amount: 1200, currency: 'EUR', payment_method: 'card', payment_method_id: 'pm_nope'}),
      404,
      'invalid_request_error',
      'resource_missing',
    )
  })

  it('payment_method_data is used once and not saved', async () => {
    const before = (await t.api('GET', '/payment_methods?limit=100')).body.data.length
    const p = await createPayment(t, cardPayment())
    expect(p.payment_method_id).toBeNull()
    expect(p.payment_method_details.card.last4).toBe('4242')
    expect((await t.api('GET', '/payment_methods?limit=100')).body.data.length).toBe(before)
  })
})

describe('customers', () => {
  it('inline customer {email, name} creates one; the response returns the cus_ id string', async () => {
    const p = await createPayment(t, cardPayment({customer: {email: 'ada@example.com', name: 'Ada Lovelace'}}))
    expect(typeof p.customer).toBe('string')
    expect(p.customer).toMatch(/^cus_/)
    const c = await t.api('GET', `/customers/${p.customer}`)
    expect(c.status).toBe(200)
    expect(c.body).toMatchObject({id: p.customer, object: 'customer', email: 'ada@example.com', name: 'Ada Lovelace', livemode: false})
    expect((await getPayment(t, p.id)).customer).toBe(p.customer)
  })

  it('inline customer {id} reuses the customer', async () => {
    const cus = (await t.api('POST', '/customers', {name: 'Grace'})).body.id
    const p = await createPayment(t, cardPayment({customer: {id: cus}}))
    expect(p.customer).toBe(cus)
  })

  it('{id} of an unknown customer → 404 and no payment', async () => {
    const before = (await t.api('GET', '/payments?limit=100')).body.data.length
    const e = expectError(await t.api('POST', '/payments', cardPayment({customer: {id: 'cus_doesnotexist'}})), 404, 'invalid_request_error', 'resource_missing')
    expect(e.message).toContain('cus_doesnotexist')
    expect((await t.api('GET', '/payments?limit=100')).body.data.length).toBe(before)
  })

  it('GET /customers lists customers newest first in a list envelope', async () => {
    const a = (await t.api('POST', '/customers', {email: 'first@example.com'})).body
    const b = (await t.api('POST', '/customers', {email: 'second@example.com'})).body
    const l = await t.api('GET', '/customers?limit=2')
    expect(l.status).toBe(200)
    expect(l.body.object).toBe('list')
    expect(l.body.url).toBe('/v1/customers')
    expect(l.body.data.map((c: any) => c.id)).toEqual([b.id, a.id])
    expect(l.body.has_more).toBe(true)
  })

  it('update and delete', async () => {
    const c = (await t.api('POST', '/customers', {email: 'old@example.com'})).body
    const u = await t.api('POST', `/customers/${c.id}`, {email: 'new@example.com', metadata: {tier: 'gold'}})
    expect(u.body).toMatchObject({email: 'new@example.com', metadata: {tier: 'gold'}})
    const d = await t.api('DELETE', `/customers/${c.id}`)
    expect(d.status).toBe(200)
    expect(d.body).toMatchObject({id: c.id, deleted: true})
    expectError(await t.api('GET', `/customers/${c.id}`), 404, 'invalid_request_error', 'resource_missing')
  })
})

describe('risk', () => {
  it('card payments carry risk: score 0-99, decision, avs and cvv checks', async () => {
    const p = await createPayment(t, cardPayment())
    expect(Number.isInteger(p.risk.score)).toBe(true)
    expect(p.risk.score).toBeGreaterThanOrEqual(0)
    expect(p.risk.score).toBeLessThanOrEqual(99)
    expect(p.risk.decision).toBe('approved')
    expect(['pass', 'fail', 'unavailable']).toContain(p.risk.checks.avs_result)
    expect(p.risk.checks.cvv_result).toBe('pass')
  })

  it('iDEAL is not risk-scored: risk null', async () => {
    const p = await createPayment(t, {amount: 2000, currency: 'EUR', payment_method: 'ideal', return_url: RETURN_URL})
    expect(p.risk).toBeNull()
    const r = await t.api('POST', `/test_helpers/payments/${p.id}/action`, {outcome: 'approve'})
    expect(r.body.risk).toBeNull()
  })

  it('card 4000000000000101: cvv_result fail, the payment proceeds, the score is higher than 4242', async () => {
    const ok = await createPayment(t, cardPayment())
    const p = await createPayment(t, cardPayment({}, '4000000000000101'))
    expect(p.risk.checks.cvv_result).toBe('fail')
    expect(p.status).toBe('succeeded')
    expect(p.risk.score).toBeGreaterThan(ok.risk.score)
  })

  it('a saved network-token card charges with a cryptogram: cvv unavailable', async () => {
    const pm = (await t.api('POST', '/payment_methods', card())).body
    const p = await createPayment(t, {amount: 1200, currency: 'EUR', payment_method: 'card', payment_method_id: pm.id})
    expect(p.risk.checks.cvv_result).toBe('unavailable')
  })

  it('a wallet charge (Apple Pay) carries a cryptogram: risk scored, cvv unavailable', async () => {
    const p = await createPayment(t, {amount: 2000, currency: 'EUR', payment_method: 'apple_pay', return_url: RETURN_URL})
    expect(p.risk).not.toBeNull()
    expect(p.risk.checks.cvv_result).toBe('unavailable')
  })

  it('review and block test amounts', async () => {
    const review = await createPayment(t, cardPayment({amount: 4991}))
    expect(review.risk.decision).toBe('review')
    expect(review.risk.score).toBeLessThanOrEqual(99)
    const block = await createPayment(t, cardPayment({amount: 4992}))
    expect(block.risk.decision).toBe('blocked')
    expect(block.risk.score).toBeGreaterThan(review.risk.score)
  })

  it('risk is set before routing on 3-D Secure payments too', async () => {
    const p = await createPayment(t, cardPayment({}, '4000000000003220'))
    expect(p.status).toBe('requires_action')
    expect(p.risk).not.toBeNull()
  })
})
