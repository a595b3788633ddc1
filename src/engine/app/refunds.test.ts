import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'
import {REFUND_DELAY_S} from '../domain/refund.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => t.stop())

async function cardPayment(amount = 2000, currency = 'EUR', number = '4242424242424242', extra: Record<string, unknown> = {}) {
  const r = await t.api('POST', '/payments', {amount, currency, payment_method: 'card', payment_method_data: card(number), reference: `order-${amount}`, ...extra})
  expect(r.status).toBe(201)
  return r.body
}

/** A redirect-style method: create, then the customer approves on the hosted page. */
async function methodPayment(payment_method: string, currency: string, amount = 2000) {
  const c = await t.api('POST', '/payments', {amount, currency, payment_method, return_url: 'https://shop.example/back'})
  expect(c.status).toBe(201)
  expect(c.body.status).toBe('requires_action')
  const a = await t.api('POST', `/test_helpers/payments/${c.body.id}/action`, {outcome: 'approve'})
  expect(a.status).toBe(200)
  expect(a.body.status).toBe('succeeded')
  return a.body
}

const getPayment = async (id: string) => (await t.api('GET', `/payments/${id}`)).body
const getRefund = async (id: string) => (await t.api('GET', `/refunds/${id}`)).body

async function eventsFor(type: string, objectId: string) {
  const r = await t.api('GET', `/events?type=${type}&limit=100`)
  expect(r.status).toBe(200)
  return (r.body.data as any[]).filter((e) => e.data.object.id === objectId)
}

describe('POST /refunds: the refund object', () => {
  it('creates a pending full refund when amount is omitted and marks the payment refunded', async () => {
    const p = await cardPayment(2000)
    const r = await t.api('POST', '/refunds', {payment: p.id})
    expect(r.status).toBe(201)
    expect(r.body).toEqual({
      id: expect.stringMatching(/^rf_/),
      object: 'refund',
      payment: p.id,
      amount: 2000,
      currency: 'EUR',
      status: 'pending',
      reason: null,
      failure_reason: null,
      reference: 'order-2000',
      metadata: {},
      livemode: false,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    })
    const after = await getPayment(p.id)
    // pending refunds count in amount_refunded: the refundable amount can never be exceeded
    expect(after).toMatchObject({status: 'succeeded', amount_refunded: 2000, refunded: true, partially_refunded: false})
    expect(await getRefund(r.body.id)).toEqual(r.body)
  })

  it('echoes reason and metadata', async () => {
    const p = await cardPayment(1500)
    const r = await t.api('POST', '/refunds', {payment: p.id, amount: 500, reason: 'requested_by_customer', metadata: {ticket: 'T-1'}})
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({amount: 500, reason: 'requested_by_customer', metadata: {ticket: 'T-1'}})
  })

  it('accepts each documented reason and rejects others', async () => {
    const p = await cardPayment(3000)
    for (const reason of ['duplicate', 'fraudulent', 'requested_by_customer']) {
      const r = await t.api('POST', '/refunds', {payment: p.id, amount: 100, reason})
      expect(r.status).toBe(201)
      expect(r.body.reason).toBe(reason)
    }
    const bad = await t.api('POST', '/refunds', {payment: p.id, amount: 100, reason: 'changed_mind'})
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatchObject({type: 'invalid_request_error', code: 'parameter_invalid', param: 'reason'})
  })

  it('validates the body: missing payment, non-integer amount, unknown parameter, unknown payment', async () => {
    const p = await cardPayment(1000)
    const missing = await t.api('POST', '/refunds', {amount: 100})
    expect(missing.status).toBe(400)
    expect(missing.body.error).toMatchObject({code: 'parameter_missing', param: 'payment'})
    const float = await t.api('POST', '/refunds', {payment: p.id, amount: 10.5})
    expect(float.status).toBe(400)
    expect(float.body.error).toMatchObject({type: 'invalid_request_error', code: 'parameter_invalid', param: 'amount'})
    const zero = await t.api('POST', '/refunds', {payment: p.id, amount: 0})
    expect(zero.status).toBe(400)
    const unknown = await t.api('POST', '/refunds', {payment: p.id, charge: 'x'})
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.code).toBe('parameter_unknown')
    const nf = await t.api('POST', '/refunds', {payment: 'pay_doesnotexist'})
    expect(nf.status).toBe(404)
    expect(nf.body.error).toMatchObject({code: 'resource_missing', param: 'payment'})
    expect((await getPayment(p.id)).amount_refunded).toBe(0)
  })

  it('replays the same Idempotency-Key without refunding twice', async () => {
    const p = await cardPayment(2000)
    const h = {'idempotency-key': `rf-replay-${p.id}`}
    const a = await t.api('POST', '/refunds', {payment: p.id, amount: 700}, h)
    const b = await t.api('POST', '/refunds', {payment: p.id, amount: 700}, h)
    expect(a.status).toBe(201)
    expect(b.status).toBe(201)
    expect(b.headers['idempotent-replayed']).toBe('true')
    expect(b.body.id).toBe(a.body.id)
    expect((await getPayment(p.id)).amount_refunded).toBe(700)
    const list = await t.api('GET', `/refunds?payment=${p.id}`)
    expect(list.body.data).toHaveLength(1)
  })
})

describe('partial refunds and the payment refund flags', () => {
  it('no refunds -> partially refunded -> fully refunded; status stays succeeded', async () => {
    const p = await cardPayment(2000)
    expect(p).toMatchObject({amount_refunded: 0, refunded: false, partially_refunded: false})
    const a = await t.api('POST', '/refunds', {payment: p.id, amount: 500})
    expect(a.status).toBe(201)
    expect(await getPayment(p.id)).toMatchObject({status: 'succeeded', amount_refunded: 500, partially_refunded: true, refunded: false})
    const b = await t.api('POST', '/refunds', {payment: p.id, amount: 1000})
    expect(b.status).toBe(201)
    expect(await getPayment(p.id)).toMatchObject({amount_refunded: 1500, partially_refunded: true, refunded: false})
    // omitted amount refunds the remaining 500
    const c = await t.api('POST', '/refunds', {payment: p.id})
    expect(c.status).toBe(201)
    expect(c.body.amount).toBe(500)
    expect(await getPayment(p.id)).toMatchObject({status: 'succeeded', amount_refunded: 2000, partially_refunded: false, refunded: true})
  })

  it('amount_too_large above the refundable amount, and once nothing is left', async () => {
    const p = await cardPayment(2000)
    const over = await t.api('POST', '/refunds', {payment: p.id, amount: 2001})
    expect(over.status).toBe(400)
    expect(over.body.error).toMatchObject({type: 'invalid_request_error', code: 'amount_too_large', param: 'amount'})
    expect((await t.api('POST', '/refunds', {payment: p.id, amount: 1200})).status).toBe(201)
    const rest = await t.api('POST', '/refunds', {payment: p.id, amount: 801})
    expect(rest.status).toBe(400)
    expect(rest.body.error.code).toBe('amount_too_large')
    expect((await t.api('POST', '/refunds', {payment: p.id, amount: 800})).status).toBe(201)
    const none = await t.api('POST', '/refunds', {payment: p.id})
    expect(none.status).toBe(400)
    expect(none.body.error.code).toBe('amount_too_large')
  })

  it('computes flags against amount_captured after a partial capture', async () => {
    const p = await cardPayment(2000, 'EUR', '4242424242424242', {capture_method: 'manual'})
    expect(p.status).toBe('requires_capture')
    const cap = await t.api('POST', `/payments/${p.id}/capture`, {amount: 1500, final_capture: true})
    expect(cap.body).toMatchObject({status: 'succeeded', amount_captured: 1500})
    const over = await t.api('POST', '/refunds', {payment: p.id, amount: 1600})
    expect(over.body.error.code).toBe('amount_too_large')
    const full = await t.api('POST', '/refunds', {payment: p.id})
    expect(full.body.amount).toBe(1500)
    expect(await getPayment(p.id)).toMatchObject({amount_refunded: 1500, refunded: true, partially_refunded: false})
  })

  it('works in zero-decimal and three-decimal currencies', async () => {
    const jpy = await cardPayment(1500, 'JPY')
    expect((await t.api('POST', '/refunds', {payment: jpy.id, amount: 1})).body).toMatchObject({amount: 1, currency: 'JPY'})
    const kwd = await cardPayment(12_345, 'KWD')
    expect((await t.api('POST', '/refunds', {payment: kwd.id})).body).toMatchObject({amount: 12_345, currency: 'KWD'})
  })
})

describe('refund errors', () => {
  it('payment_not_refundable for payments that have not succeeded', async () => {
    const auth = await cardPayment(2000, 'EUR', '4242424242424242', {capture_method: 'manual'})
    const r1 = await t.api('POST', '/refunds', {payment: auth.id})
    expect(r1.status).toBe(400)
    expect(r1.body.error).toMatchObject({type: 'invalid_request_error', code: 'payment_not_refundable'})

    const declined = await t.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000000002')})
    expect(declined.status).toBe(402)
    const r2 = await t.api('POST', '/refunds', {payment: declined.body.error.payment})
    expect(r2.body.error.code).toBe('payment_not_refundable')

    const pending = await t.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'ideal', return_url: 'https://shop.example/back'})
    expect(pending.body.status).toBe('requires_action')
    const r3 = await t.api('POST', '/refunds', {payment: pending.body.id})
    expect(r3.body.error.code).toBe('payment_not_refundable')

    const canceled = await t.api('POST', `/payments/${auth.id}/cancel`)
    expect(canceled.body.status).toBe('canceled')
    expect((await t.api('POST', '/refunds', {payment: auth.id})).body.error.code).toBe('payment_not_refundable')
  })

  it('payment_disputed while a chargeback is open (needs_response, under_review); refundable again once won', async () => {
    const p = await cardPayment(2000)
    const dp = await t.api('POST', '/test_helpers/disputes', {payment: p.id, amount: 800})
    expect(dp.status).toBe(201)
    const r1 = await t.api('POST', '/refunds', {payment: p.id, amount: 100})
    expect(r1.status).toBe(400)
    expect(r1.body.error).toMatchObject({type: 'invalid_request_error', code: 'payment_disputed'})
    await t.api('POST', `/disputes/${dp.body.id}/evidence`, {fields: {product_description: 'A lamp'}, files: []})
    const r2 = await t.api('POST', '/refunds', {payment: p.id, amount: 100})
    expect(r2.body.error.code).toBe('payment_disputed')
    await t.api('POST', `/test_helpers/disputes/${dp.body.id}/resolve`, {outcome: 'won'})
    const r3 = await t.api('POST', '/refunds', {payment: p.id})
    expect(r3.status).toBe(201)
    expect(r3.body.amount).toBe(2000)
  })

  it('after a lost dispute only the undisputed part is refundable', async () => {
    const p = await cardPayment(2000)
    const dp = await t.api('POST', '/test_helpers/disputes', {payment: p.id, amount: 800})
    const acc = await t.api('POST', `/disputes/${dp.body.id}/accept`)
    expect(acc.body.status).toBe('accepted')
    const over = await t.api('POST', '/refunds', {payment: p.id, amount: 1201})
    expect(over.body.error.code).toBe('amount_too_large')
    const rest = await t.api('POST', '/refunds', {payment: p.id})
    expect(rest.status).toBe(201)
    expect(rest.body.amount).toBe(1200)
  })

  it('partial_refund_unsupported for every voucher method; a full voucher refund works', async () => {
    const vouchers: [string, string, number][] = [
      ['boleto', 'BRL', 5000],
      ['oxxo', 'MXN', 5000],
      ['konbini', 'JPY', 5000],
      ['multibanco', 'EUR', 5000],
    ]
    for (const [method, currency, amount] of vouchers) {
      let p
      if (method === 'multibanco') {
        // Multibanco confirms a day after the customer pays
        const c = await t.api('POST', '/payments', {amount, currency, payment_method: method, return_url: 'https://shop.example/back'})
        await t.api('POST', `/test_helpers/payments/${c.body.id}/action`, {outcome: 'approve'})
        await t.advance(86_400)
        p = await getPayment(c.body.id)
        expect(p.status).toBe('succeeded')
      } else p = await methodPayment(method, currency, amount)
      const partial = await t.api('POST', '/refunds', {payment: p.id, amount: 1000})
      expect(partial.status, method).toBe(400)
      expect(partial.body.error, method).toMatchObject({type: 'invalid_request_error', code: 'partial_refund_unsupported'})
      const full = await t.api('POST', '/refunds', {payment: p.id, amount})
      expect(full.status, method).toBe(201)
      expect(await getPayment(p.id)).toMatchObject({refunded: true, amount_refunded: amount})
    }
  })

  it('partial refunds work on non-voucher methods (iDEAL, Pix, Klarna)', async () => {
    for (const [m, c] of [['ideal', 'EUR'], ['pix', 'BRL'], ['klarna', 'EUR']]) {
      const p = await methodPayment(m!, c!)
      const r = await t.api('POST', '/refunds', {payment: p.id, amount: 300})
      expect(r.status, m).toBe(201)
      expect(await getPayment(p.id)).toMatchObject({partially_refunded: true, amount_refunded: 300})
    }
  })
})

describe('refund states on the engine clock', () => {
  it('pending -> succeeded after the card rail answers (30 min), event refund.succeeded', async () => {
    const p = await cardPayment(2000)
    const r = (await t.api('POST', '/refunds', {payment: p.id, amount: 600})).body
    await t.advance(REFUND_DELAY_S.card - 60)
    expect((await getRefund(r.id)).status).toBe('pending')
    await t.advance(61)
    const done = await getRefund(r.id)
    expect(done.status).toBe('succeeded')
    expect(done.failure_reason).toBeNull()
    const evs = await eventsFor('refund.succeeded', r.id)
    expect(evs).toHaveLength(1)
    expect(evs[0].data.object).toEqual(done)
    expect(await getPayment(p.id)).toMatchObject({status: 'succeeded', amount_refunded: 600, partially_refunded: true})
    expect(await eventsFor('refund.failed', r.id)).toHaveLength(0)
  })

  it('pending -> failed for card 4000 0000 0000 5126: refund.failed, refundable amount restored', async () => {
    const p = await cardPayment(2000, 'EUR', '4000000000005126')
    expect(p.status).toBe('succeeded')
    const r = (await t.api('POST', '/refunds', {payment: p.id})).body
    expect(r.status).toBe('pending')
    expect(await getPayment(p.id)).toMatchObject({amount_refunded: 2000, refunded: true})
    await t.advance(REFUND_DELAY_S.card)
    const failed = await getRefund(r.id)
    expect(failed).toMatchObject({status: 'failed', failure_reason: 'declined'})
    const evs = await eventsFor('refund.failed', r.id)
    expect(evs).toHaveLength(1)
    expect(evs[0].data.object).toMatchObject({id: r.id, status: 'failed'})
    expect(await getPayment(p.id)).toMatchObject({status: 'succeeded', amount_refunded: 0, refunded: false, partially_refunded: false})
    // the amount is refundable again
    const again = await t.api('POST', '/refunds', {payment: p.id, amount: 2000})
    expect(again.status).toBe(201)
  })

  it('a failed partial refund restores only its own amount', async () => {
    const p = await cardPayment(3000, 'EUR', '4000000000005126')
    await t.api('POST', '/refunds', {payment: p.id, amount: 1000})
    await t.api('POST', '/refunds', {payment: p.id, amount: 500})
    expect((await getPayment(p.id)).amount_refunded).toBe(1500)
    await t.advance(REFUND_DELAY_S.card)
    expect(await getPayment(p.id)).toMatchObject({amount_refunded: 0, partially_refunded: false})
  })

  it('bank rails answer after a day, instant rails after a minute', async () => {
    const ideal = await methodPayment('ideal', 'EUR')
    const pix = await methodPayment('pix', 'BRL')
    const ri = (await t.api('POST', '/refunds', {payment: ideal.id})).body
    const rp = (await t.api('POST', '/refunds', {payment: pix.id})).body
    await t.advance(REFUND_DELAY_S.real_time)
    expect((await getRefund(rp.id)).status).toBe('succeeded')
    expect((await getRefund(ri.id)).status).toBe('pending')
    await t.advance(REFUND_DELAY_S.bank_redirect - REFUND_DELAY_S.real_time)
    expect((await getRefund(ri.id)).status).toBe('succeeded')
  })

  it('refund events carry request_id null (they come from the rail, not a request)', async () => {
    const p = await cardPayment(900)
    const r = (await t.api('POST', '/refunds', {payment: p.id})).body
    await t.advance(REFUND_DELAY_S.card)
    const [e] = await eventsFor('refund.succeeded', r.id)
    expect(e.request_id).toBeNull()
  })
})

describe('GET /refunds and /refunds/{id}', () => {
  it('lists newest first, filters by payment and status, pages with cursors', async () => {
    const p = await cardPayment(5000)
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await t.api('POST', '/refunds', {payment: p.id, amount: 100 + i})).body.id)
    const all = await t.api('GET', `/refunds?payment=${p.id}`)
    expect(all.status).toBe(200)
    expect(all.body).toMatchObject({object: 'list', url: '/v1/refunds', has_more: false})
    expect(all.body.data.map((r: any) => r.id)).toEqual([...ids].reverse())
    expect(all.body.data.every((r: any) => r.payment === p.id && !('_x' in r))).toBe(true)

    const page1 = await t.api('GET', `/refunds?payment=${p.id}&limit=2`)
    expect(page1.body.data.map((r: any) => r.id)).toEqual([ids[4], ids[3]])
    expect(page1.body.has_more).toBe(true)
    const page2 = await t.api('GET', `/refunds?payment=${p.id}&limit=2&starting_after=${ids[3]}`)
    expect(page2.body.data.map((r: any) => r.id)).toEqual([ids[2], ids[1]])
    expect(page2.body.has_more).toBe(true)
    const back = await t.api('GET', `/refunds?payment=${p.id}&limit=2&ending_before=${ids[2]}`)
    expect(back.body.data.map((r: any) => r.id)).toEqual([ids[4], ids[3]])
    expect(back.body.has_more).toBe(false)

    const pending = await t.api('GET', `/refunds?payment=${p.id}&status=pending`)
    expect(pending.body.data).toHaveLength(5)
    const none = await t.api('GET', `/refunds?payment=${p.id}&status=succeeded`)
    expect(none.body.data).toHaveLength(0)
    const other = await t.api('GET', '/refunds?payment=pay_none')
    expect(other.body.data).toEqual([])
  })

  it('rejects bad list parameters and unknown ids', async () => {
    expect((await t.api('GET', '/refunds?status=done')).body.error.code).toBe('parameter_invalid')
    expect((await t.api('GET', '/refunds?color=red')).body.error.code).toBe('parameter_unknown')
    expect((await t.api('GET', '/refunds?starting_after=rf_missing')).status).toBe(400)
    const nf = await t.api('GET', '/refunds/rf_missing')
    expect(nf.status).toBe(404)
    expect(nf.body.error.code).toBe('resource_missing')
  })
})

describe('concurrency', () => {
  it('10 racing partial refunds never over-refund', async () => {
    const p = await cardPayment(2000)
    const results = await Promise.all(Array.from({length: 10}, () => t.api('POST', '/refunds', {payment: p.id, amount: 300})))
    const ok = results.filter((r) => r.status === 201)
    const tooLarge = results.filter((r) => r.status === 400 && r.body.error.code === 'amount_too_large')
    expect(ok).toHaveLength(6)
    expect(tooLarge).toHaveLength(4)
    expect(results.every((r) => r.status === 201 || r.status === 400)).toBe(true)
    expect(await getPayment(p.id)).toMatchObject({amount_refunded: 1800, partially_refunded: true, refunded: false})
    const list = await t.api('GET', `/refunds?payment=${p.id}&limit=100`)
    expect(list.body.data.reduce((s: number, r: any) => s + r.amount, 0)).toBe(1800)
  })

  it('10 racing full refunds: exactly one wins', async () => {
    const p = await cardPayment(2500)
    const results = await Promise.all(Array.from({length: 10}, () => t.api('POST', '/refunds', {payment: p.id})))
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    expect(results.filter((r) => r.body.error?.code === 'amount_too_large')).toHaveLength(9)
    expect((await getPayment(p.id)).amount_refunded).toBe(2500)
  })

  it('a refund racing a dispute: one of them sees the other', async () => {
    const p = await cardPayment(2000)
    const [rf, dp] = await Promise.all([
      t.api('POST', '/refunds', {payment: p.id}),
      t.api('POST', '/test_helpers/disputes', {payment: p.id}),
    ])
    const outcomes = [rf.status, dp.status].sort()
    // either the refund went first (the dispute then finds nothing left to dispute),
    // or the dispute opened first (the refund is then refused as payment_disputed)
    expect(outcomes).toEqual([201, 400])
    if (rf.status === 201) expect(dp.body.error.code).toBe('amount_too_large')
    else expect(rf.body.error.code).toBe('payment_disputed')
  })
})
