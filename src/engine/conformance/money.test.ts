// Money rules (docs/api.md#money-rules) and the method catalog (docs/api.md#payment-methods): integer minor units, exponents, method/currency
// binding for all 43 codes, card details, refund flags.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {METHODS} from '../../api/catalog.js'
import {SPEC_CODES} from '../../api/test-support/spec-methods.js'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {cardPayment, createPayment, expectError, RETURN_URL} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

/** Currencies bound by the method catalog (docs/api.md#payment-methods). */
const SPEC_BOUND: Record<string, string[]> = {
  satispay: ['EUR'], mobilepay: ['DKK', 'EUR'], vipps: ['NOK'], twint: ['CHF'], cashapp: ['USD'], kakao_pay: ['KRW'], gopay: ['IDR'],
  bancontact: ['EUR'], p24: ['PLN'], eps: ['EUR'], fpx: ['MYR'],
  blik: ['PLN'], mb_way: ['EUR'], swish: ['SEK'], pix: ['BRL'], upi: ['INR'], paynow: ['SGD'], promptpay: ['THB'],
  multibanco: ['EUR'], boleto: ['BRL'], oxxo: ['MXN'], konbini: ['JPY'],
  bacs_debit: ['GBP'], ach: ['USD'], acss_debit: ['CAD'], becs_debit: ['AUD', 'NZD'],
  sepa_credit: ['EUR'], spei: ['MXN'], mpesa: ['KES'],
}

const WRONG_CANDIDATES = ['XOF', 'ISK', 'EGP', 'BRL', 'EUR', 'USD']

describe('integer minor units', () => {
  it('amount is returned exactly as sent, in minor units', async () => {
    const p = await createPayment(t, cardPayment({amount: 1}))
    expect(p.amount).toBe(1)
    expect(p.amount_captured).toBe(1)
    expect(p.amount_refunded).toBe(0)
  })

  it('JPY (exponent 0) is accepted: 500 means ¥500', async () => {
    const p = await createPayment(t, cardPayment({amount: 500, currency: 'JPY'}))
    expect(p.status).toBe('succeeded')
    expect(p.amount).toBe(500)
    expect(p.currency).toBe('JPY')
    expect(p.amount_captured).toBe(500)
  })

  it('KWD (exponent 3) is accepted: 1500 means 1.500 KWD', async () => {
    const p = await createPayment(t, cardPayment({amount: 1500, currency: 'KWD'}))
    expect(p.status).toBe('succeeded')
    expect(p.amount).toBe(1500)
    expect(p.currency).toBe('KWD')
  })

  it('non-integer amounts are rejected in every currency', async () => {
    for (const currency of ['EUR', 'JPY', 'KWD']) {
      const e = expectError(await t.api('POST', '/payments', cardPayment({amount: 10.5, currency})), 400, 'invalid_request_error')
      expect(e.param).toBe('amount')
    }
    expectError(await t.api('POST', '/payments', cardPayment({amount: 1e21})), 400, 'invalid_request_error')
  })

  it('integral floats in JSON (2000.0) are the integer 2000', async () => {
    const body = JSON.stringify(cardPayment()).replace('"amount":2000', '"amount":2000.0')
    const r = await t.api('POST', '/payments', body)
    expect(r.status, r.text).toBe(201)
    expect(r.body.amount).toBe(2000)
  })
})

describe('method catalog: all 43 codes', () => {
  it('the catalog holds exactly the spec codes', () => {
    expect([...METHODS.keys()].sort()).toEqual([...SPEC_CODES].sort())
    expect(SPEC_CODES).toHaveLength(43)
  })

  it('spec-named currency bindings hold in the catalog', () => {
    for (const [code, currencies] of Object.entries(SPEC_BOUND)) expect([...METHODS.get(code)!.currencies].sort()).toEqual([...currencies].sort())
  })

  it.each([...METHODS.values()].map((m) => [m.code, m.currencies[0]!]))(
    '%s is accepted in %s and routed',
    async (code, currency) => {
      const r = await t.api('POST', '/payments', {amount: 2500, currency, payment_method: code, return_url: RETURN_URL})
      expect(r.status, r.text).toBe(201)
      expect(r.body.payment_method).toBe(code)
      expect(r.body.currency).toBe(currency)
      expect(['requires_action', 'processing', 'succeeded']).toContain(r.body.status)
      expect(r.body.failure_code).toBeNull()
      if (r.body.status === 'requires_action') expect(r.body.next_action.url).toMatch(/^https:\/\//)
    },
  )

  it.each([...METHODS.values()].map((m) => [m.code, WRONG_CANDIDATES.find((c) => !m.currencies.includes(c))!]))(
    '%s is rejected in %s',
    async (code, currency) => {
      const r = await t.api('POST', '/payments', {amount: 2500, currency, payment_method: code, return_url: RETURN_URL})
      const e = expectError(r, 400, 'invalid_request_error')
      expect(e.param).toBe('currency')
    },
  )

  it('direct debit: processing until the rail clears, then succeeded (clock)', async () => {
    const p = await createPayment(t, {amount: 3000, currency: 'EUR', payment_method: 'sepa_debit'})
    expect(p.status).toBe('processing')
    expect(p.provider_attempts.map((a: any) => a.outcome)).toEqual(['pending'])
    await t.advance(5 * 86_400)
    const g = (await t.api('GET', `/payments/${p.id}`)).body
    expect(g.status).toBe('succeeded')
    expect(g.amount_captured).toBe(3000)
    expect(g.provider_attempts.map((a: any) => a.outcome)).toEqual(['approved'])
  })
})

describe('payment fields', () => {
  it('card payment_method_details: brand, last4, exp_month, exp_year, funding, country', async () => {
    const p = await createPayment(t, cardPayment())
    expect(p.payment_method_details).toEqual({
      card: {brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, funding: 'credit', country: 'US'},
    })
    const mc = await createPayment(t, cardPayment({}, '5555555555554444'))
    expect(mc.payment_method_details.card.brand).toBe('mastercard')
    expect(mc.payment_method_details.card.last4).toBe('4444')
    const amex = await createPayment(t, cardPayment({}, '378282246310005'))
    expect(amex.payment_method_details.card.brand).toBe('amex')
    expect(amex.payment_method_details.card.last4).toBe('0005')
  })

  it('JSON is UTF-8: non-ASCII text round-trips', async () => {
    const text = 'Café Zoë — 日本語 ✓ 💳'
    const p = await createPayment(t, cardPayment({description: text, reference: `ord-${text}`, metadata: {note: text}}))
    expect(p.description).toBe(text)
    const g = (await t.api('GET', `/payments/${p.id}`)).body
    expect(g.description).toBe(text)
    expect(g.metadata.note).toBe(text)
    const l = await t.api('GET', `/payments?reference=${encodeURIComponent(`ord-${text}`)}`)
    expect(l.body.data.map((x: any) => x.id)).toEqual([p.id])
  })

  it('no raw card data in the payment', async () => {
    const r = await t.api('POST', '/payments', cardPayment())
    expect(r.text).not.toContain('4242424242424242')
    expect(r.text).not.toContain('"cvc"')
    expect(r.text).not.toContain('"_x"')
  })

  it('a new payment has every documented field, refund flags present and false', async () => {
    const p = await createPayment(t, cardPayment({reference: 'ord-1', description: 'Two shirts', metadata: {order: '1'}}))
    for (const f of [
      'id', 'object', 'amount', 'amount_captured', 'amount_refunded', 'currency', 'status', 'payment_method', 'payment_method_id',
      'payment_method_details', 'capture_method', 'customer', 'description', 'reference', 'metadata', 'provider', 'provider_attempts',
      'risk', 'next_action', 'return_url', 'refunded', 'partially_refunded', 'failure_code', 'failure_message', 'livemode', 'created_at',
    ])
      expect(p, f).toHaveProperty(f)
    expect(p.id).toMatch(/^pay_/)
    expect(p.object).toBe('payment')
    expect(p.amount_refunded).toBe(0)
    expect(p.refunded).toBe(false)
    expect(p.partially_refunded).toBe(false)
    expect(p.livemode).toBe(false)
    expect(p.capture_method).toBe('automatic')
    expect(p.reference).toBe('ord-1')
    expect(p.description).toBe('Two shirts')
    expect(p.metadata).toEqual({order: '1'})
    expect(p.provider).toMatch(/^prov_/)
    expect(p.return_url).toBe(RETURN_URL)
    expect(new Date(p.created_at).toISOString()).toBe(p.created_at)
    const a = p.provider_attempts[0]
    expect(Object.keys(a).sort()).toEqual(['attempted_at', 'decline_code', 'latency_ms', 'outcome', 'provider'])
    expect(new Date(a.attempted_at).toISOString()).toBe(a.attempted_at)
  })

  it('defaults: metadata {}, description null, customer null, payment_method_id null; non-card payment details null until known', async () => {
    const p = await createPayment(t, {amount: 700, currency: 'EUR', payment_method: 'ideal', return_url: RETURN_URL})
    expect(p.metadata).toEqual({})
    expect(p.description).toBeNull()
    expect(p.customer).toBeNull()
    expect(p.payment_method_id).toBeNull()
    expect(p.payment_method_details).toBeNull()
    expect(p.refunded).toBe(false)
    expect(p.partially_refunded).toBe(false)
    expect(p.amount_refunded).toBe(0)
    expect(p.reference).toEqual(expect.any(String))
  })
})
