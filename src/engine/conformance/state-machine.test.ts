// The payment state machine (docs/api.md#payment-lifecycle), row by row, observed over HTTPS only.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {entriesFor} from '../app/ledger.js'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {card, cardPayment, createPayment, customerAction, eventTypes, expectError, getPayment, RETURN_URL} from './helpers.js'

const THREE_DS = '4000000000003220'
const AMEX = '378282246310005'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

const manual = (number = '4242424242424242', extra: Record<string, unknown> = {}) =>
  cardPayment({capture_method: 'manual', ...extra}, number)

function expectPendingAction(p: any) {
  expect(p.status).toBe('requires_action')
  expect(p.next_action.type).toBe('redirect')
  expect(p.next_action.url.startsWith(t.engine.checkoutUrl + '/')).toBe(true)
  expect(p.provider_attempts).toHaveLength(1)
  expect(p.provider_attempts[0].outcome).toBe('pending')
  expect(p.provider_attempts[0].latency_ms).toBeNull()
  expect(p.provider_attempts[0].provider).toMatch(/^prov_/)
  expect(p.provider).toBe(p.provider_attempts[0].provider)
}

/** Status ranks (docs/api.md#webhook-delivery); a payment's events never go back in rank (forward-only). */
const RANK: Record<string, number> = {
  requires_confirmation: 0,
  requires_action: 1,
  processing: 2,
  requires_capture: 3,
  succeeded: 4,
  failed: 4,
  canceled: 4,
}

async function expectForwardOnly(id: string) {
  const r = await t.api('GET', '/events?type=payment.*&limit=100')
  const statuses = r.body.data
    .filter((e: any) => e.data.object.id === id)
    .reverse()
    .map((e: any) => e.data.object.status)
  statuses.push((await getPayment(t, id)).status)
  for (let i = 1; i < statuses.length; i++) expect(RANK[statuses[i]]!, statuses.join(' → ')).toBeGreaterThanOrEqual(RANK[statuses[i - 1]]!)
}

describe('(new) → POST /payments', () => {
  it('3-D Secure card 4000000000003220 → requires_action with a pending attempt and next_action.url', async () => {
    const p = await createPayment(t, cardPayment({}, THREE_DS))
    expectPendingAction(p)
    expect(p.amount_captured).toBe(0)
    expect(await eventTypes(t, p.id)).toEqual(['payment.requires_action'])
  })

  it.each([
    ['ideal', 'EUR'],
    ['pix', 'BRL'],
    ['paypal', 'USD'],
    ['klarna', 'EUR'],
    ['boleto', 'BRL'],
  ])('redirect-style method %s → requires_action with a pending attempt', async (method, currency) => {
    const p = await createPayment(t, {amount: 1500, currency, payment_method: method, return_url: RETURN_URL})
    expectPendingAction(p)
  })

  it('confirm: false → requires_confirmation, nothing routed', async () => {
    const p = await createPayment(t, cardPayment({confirm: false}))
    expect(p.status).toBe('requires_confirmation')
    expect(p.provider_attempts).toEqual([])
    expect(p.next_action).toBeNull()
    expect(p.amount_captured).toBe(0)
  })

  it('risk block (amount 4992) → 201 failed payment_blocked, no provider attempted', async () => {
    const r = await t.api('POST', '/payments', cardPayment({amount: 4992}))
    expect(r.status).toBe(201)
    expect(r.body.status).toBe('failed')
    expect(r.body.failure_code).toBe('payment_blocked')
    expect(r.body.failure_message).toEqual(expect.any(String))
    expect(r.body.risk.decision).toBe('blocked')
    expect(r.body.provider_attempts).toEqual([])
    expect(await eventTypes(t, r.body.id)).toEqual(['payment.failed'])
  })

  it('frictionless, automatic capture → succeeded with payment.succeeded', async () => {
    const p = await createPayment(t, cardPayment())
    expect(p.status).toBe('succeeded')
    expect(p.amount_captured).toBe(2000)
    expect(p.next_action).toBeNull()
    expect(p.provider_attempts.map((a: any) => a.outcome)).toEqual(['approved'])
    expect(p.provider_attempts[0].latency_ms).toEqual(expect.any(Number))
    expect(await eventTypes(t, p.id)).toContain('payment.succeeded')
  })

  it('card with capture_method manual → requires_capture', async () => {
    const p = await createPayment(t, manual())
    expect(p.status).toBe('requires_capture')
    expect(p.capture_method).toBe('manual')
    expect(p.amount_captured).toBe(0)
    expect(p.provider_attempts.map((a: any) => a.outcome)).toEqual(['approved'])
  })
})

describe('requires_confirmation', () => {
  it('confirm without payment_method_id routes the instrument given at creation', async () => {
    const p = await createPayment(t, cardPayment({confirm: false}))
    const r = await t.api('POST', `/payments/${p.id}/confirm`)
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('succeeded')
    expect(r.body.amount_captured).toBe(2000)
  })

  it('confirm with payment_method_id replaces the instrument', async () => {
    const pm = await t.api('POST', '/payment_methods', card('5555555555554444'))
    expect(pm.status, pm.text).toBe(201)
    const p = await createPayment(t, cardPayment({confirm: false}))
    const r = await t.api('POST', `/payments/${p.id}/confirm`, {payment_method_id: pm.body.id})
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('succeeded')
    expect(r.body.payment_method_id).toBe(pm.body.id)
    expect(r.body.payment_method_details.card.brand).toBe('mastercard')
    expect(r.body.payment_method_details.card.last4).toBe('4444')
  })

  it('confirm of a card payment created without an instrument, with payment_method_id', async () => {
    const pm = await t.api('POST', '/payment_methods', card())
    const p = await createPayment(t, {amount: 900, currency: 'EUR', payment_method: 'card', confirm: false, return_url: RETURN_URL})
    expect(p.status).toBe('requires_confirmation')
    expect(p.payment_method_details).toBeNull()
    const r = await t.api('POST', `/payments/${p.id}/confirm`, {payment_method_id: pm.body.id})
    expect(r.body.status).toBe('succeeded')
  })

  it('confirm can lead to requires_action (3-D Secure) and to requires_capture (manual)', async () => {
    const a = await createPayment(t, cardPayment({confirm: false}, THREE_DS))
    const ra = await t.api('POST', `/payments/${a.id}/confirm`)
    expectPendingAction(ra.body)
    const b = await createPayment(t, manual('4242424242424242', {confirm: false}))
    const rb = await t.api('POST', `/payments/${b.id}/confirm`)
    expect(rb.body.status).toBe('requires_capture')
  })

  it('confirm of a declined card → 402 and the payment is failed', async () => {
    const p = await createPayment(t, cardPayment({confirm: false}, '4000000000000002'))
    const r = await t.api('POST', `/payments/${p.id}/confirm`)
    expectError(r, 402, 'card_error', 'card_declined')
    expect(r.body.error.payment).toBe(p.id)
    expect((await getPayment(t, p.id)).status).toBe('failed')
  })

  it('cancel → canceled', async () => {
    const p = await createPayment(t, cardPayment({confirm: false}))
    const r = await t.api('POST', `/payments/${p.id}/cancel`)
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('canceled')
    expect((await getPayment(t, p.id)).status).toBe('canceled')
  })
})

describe('requires_action', () => {
  it('cancel → canceled; the pending attempt is no longer pending and next_action is cleared', async () => {
    const p = await createPayment(t, cardPayment({}, THREE_DS))
    const r = await t.api('POST', `/payments/${p.id}/cancel`)
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('canceled')
    expect(r.body.next_action).toBeNull()
    expect(r.body.provider_attempts.some((a: any) => a.outcome === 'pending')).toBe(false)
  })

  it('customer completes 3-D Secure (automatic) → processing, then succeeded', async () => {
    const p = await createPayment(t, cardPayment({}, THREE_DS))
    const r = await customerAction(t, p.id, 'approve')
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('succeeded')
    expect(r.body.amount_captured).toBe(2000)
    expect(r.body.next_action).toBeNull()
    expect(r.body.provider_attempts.at(-1).outcome).toBe('approved')
    expect(r.body.provider_attempts.some((a: any) => a.outcome === 'pending')).toBe(false)
    const types = await eventTypes(t, p.id)
    expect(types).toEqual(['payment.requires_action', 'payment.processing', 'payment.succeeded'])
    const processing = (await (async () => (await t.api('GET', '/events?type=payment.processing&limit=100')).body.data)()).find(
      (e: any) => e.data.object.id === p.id,
    )
    expect(processing.data.object.status).toBe('processing')
  })

  it('customer completes 3-D Secure (manual capture) → processing, then requires_capture', async () => {
    const p = await createPayment(t, manual(THREE_DS))
    const r = await customerAction(t, p.id, 'approve')
    expect(r.body.status).toBe('requires_capture')
    expect(await eventTypes(t, p.id)).toEqual(['payment.requires_action', 'payment.processing'])
  })

  it('customer approves a bank redirect (iDEAL) → succeeded, capture on approval', async () => {
    const p = await createPayment(t, {amount: 1000, currency: 'EUR', payment_method: 'ideal', return_url: RETURN_URL})
    const r = await customerAction(t, p.id, 'approve')
    expect(r.body.status).toBe('succeeded')
    expect(r.body.amount_captured).toBe(1000)
    expect(r.body.payment_method_details.ideal).toEqual({bank: expect.any(String), iban_last4: expect.stringMatching(/^\d{4}$/)})
    expect(await eventTypes(t, p.id)).toEqual(['payment.requires_action', 'payment.processing', 'payment.succeeded'])
  })

  it('customer fails the challenge → failed authentication_required, payment.failed', async () => {
    const p = await createPayment(t, cardPayment({}, THREE_DS))
    const r = await customerAction(t, p.id, 'fail')
    expect(r.body.status).toBe('failed')
    expect(r.body.failure_code).toBe('authentication_required')
    expect(r.body.next_action).toBeNull()
    expect((await eventTypes(t, p.id)).at(-1)).toBe('payment.failed')
  })

  it('customer abandons → failed', async () => {
    const p = await createPayment(t, cardPayment({}, THREE_DS))
    const r = await customerAction(t, p.id, 'abandon')
    expect(r.body.status).toBe('failed')
    expect(r.body.failure_code).toEqual(expect.any(String))
    expect((await eventTypes(t, p.id)).at(-1)).toBe('payment.failed')
  })

  it('the session expires while abandoned (clock advance past the lifetime) → failed', async () => {
    const a = await createPayment(t, cardPayment({}, THREE_DS))
    const b = await createPayment(t, {amount: 1000, currency: 'EUR', payment_method: 'ideal', return_url: RETURN_URL})
    await t.advance(2 * 3600)
    for (const id of [a.id, b.id]) {
      const p = await getPayment(t, id)
      expect(p.status).toBe('failed')
      expect(p.failure_code).toEqual(expect.any(String))
      expect(p.next_action).toBeNull()
      expect((await eventTypes(t, id)).at(-1)).toBe('payment.failed')
    }
    expect((await getPayment(t, a.id)).failure_code).toBe('authentication_required')
  })

  it('a completed step cannot be completed again', async () => {
    const p = await createPayment(t, cardPayment({}, THREE_DS))
    await customerAction(t, p.id, 'approve')
    const r = await customerAction(t, p.id, 'approve')
    expectError(r, 400, 'invalid_request_error')
  })
})

describe('processing', () => {
  it('hard decline → failed with failure_code and payment.failed', async () => {
    const r = await t.api('POST', '/payments', cardPayment({}, '4000000000000002'))
    expect(r.status).toBe(402)
    const p = await getPayment(t, r.body.error.payment)
    expect(p.status).toBe('failed')
    expect(p.failure_code).toBe('card_declined')
    expect(await eventTypes(t, p.id)).toEqual(['payment.failed'])
  })

  it('3-D Secure approved, then the issuer declines → failed', async () => {
    const p = await createPayment(t, cardPayment({amount: 4002}, THREE_DS))
    const r = await customerAction(t, p.id, 'approve')
    expect(r.body.status).toBe('failed')
    expect(r.body.failure_code).toBe('card_declined')
    expect(await eventTypes(t, p.id)).toEqual(['payment.requires_action', 'payment.processing', 'payment.failed'])
  })

  it('risk review (amount 4991) → processing with payment.risk_review; operator approves → succeeded', async () => {
    const p = await createPayment(t, cardPayment({amount: 4991}))
    expect(p.status).toBe('processing')
    expect(p.risk.decision).toBe('review')
    expect(p.next_action).toBeNull()
    expect(await eventTypes(t, p.id)).toEqual(['payment.risk_review'])
    expect((await getPayment(t, p.id)).status).toBe('processing')
    const r = await t.api('POST', `/test_helpers/payments/${p.id}/review`, {decision: 'approve'})
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('succeeded')
    expect(r.body.amount_captured).toBe(4991)
    expect((await eventTypes(t, p.id)).at(-1)).toBe('payment.succeeded')
  })

  it('risk review with manual capture; operator approves → requires_capture', async () => {
    const p = await createPayment(t, manual('4242424242424242', {amount: 4991}))
    expect(p.status).toBe('processing')
    const r = await t.api('POST', `/test_helpers/payments/${p.id}/review`, {decision: 'approve'})
    expect(r.body.status).toBe('requires_capture')
  })

  it('risk review; operator blocks → failed payment_blocked, no provider attempted', async () => {
    const p = await createPayment(t, cardPayment({amount: 4991}))
    const r = await t.api('POST', `/test_helpers/payments/${p.id}/review`, {decision: 'block'})
    expect(r.body.status).toBe('failed')
    expect(r.body.failure_code).toBe('payment_blocked')
    expect(r.body.provider_attempts).toEqual([])
    expect((await eventTypes(t, p.id)).at(-1)).toBe('payment.failed')
  })

  it('risk review on a 3-D Secure card: the challenge comes first, then the hold in processing (forward-only)', async () => {
    const p = await createPayment(t, cardPayment({amount: 4991}, THREE_DS))
    expect(p.status).toBe('requires_action')
    expect(p.risk.decision).toBe('review')
    const a = await customerAction(t, p.id, 'approve')
    expect(a.body.status).toBe('processing')
    expect(a.body.risk.decision).toBe('review')
    expect(await eventTypes(t, p.id)).toEqual(['payment.requires_action', 'payment.processing', 'payment.risk_review'])
    const r = await t.api('POST', `/test_helpers/payments/${p.id}/review`, {decision: 'approve'})
    expect(r.body.status).toBe('succeeded')
    expect(r.body.provider_attempts.map((x: any) => x.outcome)).toEqual(['approved'])
    await expectForwardOnly(p.id)
  })

  it('risk review on a wallet (Apple Pay): the wallet step first, then the hold (forward-only)', async () => {
    const p = await createPayment(t, {amount: 4991, currency: 'EUR', payment_method: 'apple_pay', return_url: RETURN_URL})
    expect(p.status).toBe('requires_action')
    expect(p.risk.decision).toBe('review')
    expect((await customerAction(t, p.id, 'approve')).body.status).toBe('processing')
    const r = await t.api('POST', `/test_helpers/payments/${p.id}/review`, {decision: 'approve'})
    expect(r.body.status).toBe('succeeded')
    await expectForwardOnly(p.id)
  })

  it('risk review after the hosted card form with a 3-D Secure card (forward-only)', async () => {
    const p = await createPayment(t, {amount: 4991, currency: 'EUR', payment_method: 'card', return_url: RETURN_URL})
    const form = await t.raw('POST', p.next_action.url, {
      body: new URLSearchParams({outcome: 'approve', number: THREE_DS, exp: '12/34', cvc: '123'}).toString(),
      headers: {'content-type': 'application/x-www-form-urlencoded'},
    })
    expect(form.status).toBe(303)
    expect((await getPayment(t, p.id)).status).toBe('requires_action')
    expect((await customerAction(t, p.id, 'approve')).body.status).toBe('processing')
    const blocked = await t.api('POST', `/test_helpers/payments/${p.id}/review`, {decision: 'block'})
    expect(blocked.body.status).toBe('failed')
    expect(blocked.body.failure_code).toBe('payment_blocked')
    expect(blocked.body.provider_attempts.some((x: any) => x.outcome === 'pending')).toBe(false)
    await expectForwardOnly(p.id)
  })

  it('a payment held in review cannot be captured, confirmed or reviewed twice', async () => {
    const p = await createPayment(t, cardPayment({amount: 4991}))
    expectError(await t.api('POST', `/payments/${p.id}/capture`), 400, 'invalid_request_error', 'payment_not_capturable')
    expectError(await t.api('POST', `/payments/${p.id}/confirm`), 400, 'invalid_request_error')
    await t.api('POST', `/test_helpers/payments/${p.id}/review`, {decision: 'approve'})
    expectError(await t.api('POST', `/test_helpers/payments/${p.id}/review`, {decision: 'block'}), 400, 'invalid_request_error')
  })
})

describe('requires_capture', () => {
  it('full capture → succeeded, amount_captured = amount, payment.succeeded', async () => {
    const p = await createPayment(t, manual())
    const r = await t.api('POST', `/payments/${p.id}/capture`)
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('succeeded')
    expect(r.body.amount_captured).toBe(2000)
    expect((await eventTypes(t, p.id)).at(-1)).toBe('payment.succeeded')
  })

  it('capture with an explicit full amount → succeeded', async () => {
    const p = await createPayment(t, manual())
    const r = await t.api('POST', `/payments/${p.id}/capture`, {amount: 2000})
    expect(r.body.status).toBe('succeeded')
    expect(r.body.amount_captured).toBe(2000)
  })

  it('partial captures on Visa accumulate (multi-capture); capturing the rest → succeeded', async () => {
    const p = await createPayment(t, manual())
    const r1 = await t.api('POST', `/payments/${p.id}/capture`, {amount: 500})
    expect(r1.status, r1.text).toBe(200)
    expect(r1.body.status).toBe('requires_capture')
    expect(r1.body.amount_captured).toBe(500)
    const r2 = await t.api('POST', `/payments/${p.id}/capture`, {amount: 700})
    expect(r2.body.status).toBe('requires_capture')
    expect(r2.body.amount_captured).toBe(1200)
    expect(await eventTypes(t, p.id)).not.toContain('payment.succeeded')
    const r3 = await t.api('POST', `/payments/${p.id}/capture`)
    expect(r3.body.status).toBe('succeeded')
    expect(r3.body.amount_captured).toBe(2000)
    expect(r3.body.amount).toBe(2000)
    expect((await eventTypes(t, p.id)).at(-1)).toBe('payment.succeeded')
  })

  it('a final partial capture on Visa (final_capture: true) → succeeded', async () => {
    const p = await createPayment(t, manual())
    await t.api('POST', `/payments/${p.id}/capture`, {amount: 500})
    const r = await t.api('POST', `/payments/${p.id}/capture`, {amount: 300, final_capture: true})
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('succeeded')
    expect(r.body.amount_captured).toBe(800)
    expect(r.body.amount).toBe(2000)
  })

  it('capturing more than the remaining authorization → 400', async () => {
    const p = await createPayment(t, manual())
    await t.api('POST', `/payments/${p.id}/capture`, {amount: 1500})
    const r = await t.api('POST', `/payments/${p.id}/capture`, {amount: 600})
    expectError(r, 400, 'invalid_request_error')
    const g = await getPayment(t, p.id)
    expect(g.amount_captured).toBe(1500)
    expect(g.status).toBe('requires_capture')
  })

  it('partial capture on Amex (no multi-capture) → succeeded, remainder released', async () => {
    const p = await createPayment(t, manual(AMEX))
    expect(p.payment_method_details.card.brand).toBe('amex')
    const r = await t.api('POST', `/payments/${p.id}/capture`, {amount: 500})
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('succeeded')
    expect(r.body.amount_captured).toBe(500)
    expectError(await t.api('POST', `/payments/${p.id}/capture`, {amount: 100}), 400, 'invalid_request_error', 'payment_not_capturable')
  })

  it('increment_authorization on Visa raises amount and stays requires_capture; several are allowed', async () => {
    const p = await createPayment(t, manual())
    const r1 = await t.api('POST', `/payments/${p.id}/increment_authorization`, {amount: 3000})
    expect(r1.status, r1.text).toBe(200)
    expect(r1.body.amount).toBe(3000)
    expect(r1.body.status).toBe('requires_capture')
    const r2 = await t.api('POST', `/payments/${p.id}/increment_authorization`, {amount: 3500})
    expect(r2.body.amount).toBe(3500)
    const c = await t.api('POST', `/payments/${p.id}/capture`)
    expect(c.body.status).toBe('succeeded')
    expect(c.body.amount_captured).toBe(3500)
  })

  it('increment_authorization must raise the amount', async () => {
    const p = await createPayment(t, manual())
    expectError(await t.api('POST', `/payments/${p.id}/increment_authorization`, {amount: 2000}), 400, 'invalid_request_error')
    expectError(await t.api('POST', `/payments/${p.id}/increment_authorization`, {}), 400, 'invalid_request_error', 'parameter_missing')
    expect((await getPayment(t, p.id)).amount).toBe(2000)
  })

  it('increment_authorization on Amex → 400 payment_not_incrementable, authorization unchanged', async () => {
    const p = await createPayment(t, manual(AMEX))
    const r = await t.api('POST', `/payments/${p.id}/increment_authorization`, {amount: 3000})
    expectError(r, 400, 'invalid_request_error', 'payment_not_incrementable')
    const g = await getPayment(t, p.id)
    expect(g.amount).toBe(2000)
    expect(g.status).toBe('requires_capture')
    const c = await t.api('POST', `/payments/${p.id}/capture`)
    expect(c.body.amount_captured).toBe(2000)
  })

  it('cancel → canceled, nothing captured', async () => {
    const p = await createPayment(t, manual())
    const r = await t.api('POST', `/payments/${p.id}/cancel`)
    expect(r.status, r.text).toBe(200)
    expect(r.body.status).toBe('canceled')
    expect(r.body.amount_captured).toBe(0)
  })

  it('cancel after a partial capture → succeeded with what was captured; the remainder is released (docs/api.md)', async () => {
    const p = await createPayment(t, manual('4242424242424242', {amount: 5000, reference: 'order-partial-cancel'}))
    const c = await t.api('POST', `/payments/${p.id}/capture`, {amount: 3000})
    expect(c.body.status).toBe('requires_capture')
    const r = await t.api('POST', `/payments/${p.id}/cancel`)
    expect(r.status, r.text).toBe(200)
    expect(r.body).toMatchObject({status: 'succeeded', amount: 5000, amount_captured: 3000, amount_refunded: 0})
    expect(await eventTypes(t, p.id)).toEqual(['payment.succeeded'])
    await expectForwardOnly(p.id)
    // the captured money reached the ledger like any success
    const entries = await entriesFor(t.engine.app.core.store, p.id)
    expect(entries.filter((e) => e.type === 'payment').map((e) => e.amount)).toEqual([3000])
    // and it can be refunded, against amount_captured
    const rf = await t.api('POST', '/refunds', {payment: p.id})
    expect(rf.status, rf.text).toBe(201)
    expect(rf.body.amount).toBe(3000)
    const g = await getPayment(t, p.id)
    expect(g).toMatchObject({status: 'succeeded', amount_refunded: 3000, refunded: true, partially_refunded: false})
    // the authorization expiry no longer applies
    await t.advance(8 * 86_400)
    expect(await eventTypes(t, p.id)).toEqual(['payment.succeeded'])
  })

  it('7 days without capture (clock advance) → canceled', async () => {
    const p = await createPayment(t, manual())
    const early = await createPayment(t, manual())
    await t.advance(6 * 86_400)
    expect((await getPayment(t, p.id)).status).toBe('requires_capture')
    await t.advance(86_400 + 60)
    const g = await getPayment(t, p.id)
    expect(g.status).toBe('canceled')
    expect(g.amount_captured).toBe(0)
    expectError(await t.api('POST', `/payments/${early.id}/capture`), 400, 'invalid_request_error', 'payment_not_capturable')
  })
})

describe('terminal states have no outgoing moves', () => {
  const moves = async (id: string) => ({
    capture: await t.api('POST', `/payments/${id}/capture`),
    confirm: await t.api('POST', `/payments/${id}/confirm`),
    cancel: await t.api('POST', `/payments/${id}/cancel`),
    increment: await t.api('POST', `/payments/${id}/increment_authorization`, {amount: 99_999}),
  })

  async function check(id: string, status: string) {
    const m = await moves(id)
    expectError(m.capture, 400, 'invalid_request_error', 'payment_not_capturable')
    expectError(m.confirm, 400, 'invalid_request_error')
    expectError(m.cancel, 400, 'invalid_request_error')
    expectError(m.increment, 400, 'invalid_request_error', 'payment_not_incrementable')
    const g = await getPayment(t, id)
    expect(g.status).toBe(status)
    return g
  }

  it('succeeded', async () => {
    const p = await createPayment(t, cardPayment())
    const g = await check(p.id, 'succeeded')
    expect(g.amount).toBe(2000)
  })

  it('failed (decline and risk block)', async () => {
    const d = await t.api('POST', '/payments', cardPayment({}, '4000000000009995'))
    await check(d.body.error.payment, 'failed')
    const b = await createPayment(t, cardPayment({amount: 4992}))
    await check(b.id, 'failed')
  })

  it('canceled', async () => {
    const p = await createPayment(t, cardPayment({confirm: false}))
    await t.api('POST', `/payments/${p.id}/cancel`)
    await check(p.id, 'canceled')
  })

  it('non-requires_action payments have no customer step', async () => {
    const p = await createPayment(t, cardPayment())
    expectError(await customerAction(t, p.id, 'approve'), 400, 'invalid_request_error')
  })
})
