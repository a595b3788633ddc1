import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'
import {EVIDENCE_WINDOW_S, type DisputeRecord} from '../domain/dispute.js'
import type {LedgerEntry} from '../domain/ledger.js'
import {TEST_CARD_DISPUTE_DELAY_S} from './disputes.js'
import {entriesFor} from './ledger.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => t.stop())

async function cardPayment(amount = 2000, currency = 'EUR', number = '4242424242424242') {
  const r = await t.api('POST', '/payments', {amount, currency, payment_method: 'card', payment_method_data: card(number), reference: `ord-${amount}`})
  expect(r.status).toBe(201)
  expect(r.body.status).toBe('succeeded')
  return r.body
}

async function methodPayment(payment_method: string, currency: string, amount = 2000) {
  const c = await t.api('POST', '/payments', {amount, currency, payment_method, return_url: 'https://shop.example/back'})
  const a = await t.api('POST', `/test_helpers/payments/${c.body.id}/action`, {outcome: 'approve'})
  expect(a.body.status).toBe('succeeded')
  return a.body
}

async function openDispute(paymentId: string, extra: Record<string, unknown> = {}) {
  const r = await t.api('POST', '/test_helpers/disputes', {payment: paymentId, ...extra})
  expect(r.status).toBe(201)
  return r.body
}

const now = async () => Date.parse((await t.api('GET', '/test_helpers/clock')).body.now)
const getDispute = async (id: string) => (await t.api('GET', `/disputes/${id}`)).body
const evidence = {fields: {product_description: 'Desk lamp, model L-2', tracking_number: '1Z999AA10123456784', note: 'Left at front door'}, files: ['https://shop.example/receipts/1.pdf']}

async function eventsOf(id: string) {
  const r = await t.api('GET', '/events?type=dispute.*&limit=100')
  return (r.body.data as any[]).filter((e) => e.data.object.id === id).reverse()
}

async function balanceOf(currency: string) {
  const b = (await t.api('GET', '/balance')).body
  return {
    available: b.available.find((x: any) => x.currency === currency)?.amount ?? 0,
    pending: b.pending.find((x: any) => x.currency === currency)?.amount ?? 0,
  }
}

/** Money of a currency paid out so far (in transit included): the payout_amount of every report a payout pays. */
async function paidOut(currency: string) {
  let sum = 0
  let after = ''
  for (;;) {
    const page = (await t.api('GET', `/payouts?limit=100${after}`)).body
    for (const po of page.data)
      for (const id of po.settlement_reports) {
        const r = (await t.api('GET', `/settlement_reports/${id}`)).body
        if (r.currency === currency) sum += r.payout_amount
      }
    if (!page.has_more) return sum
    after = `&starting_after=${page.data.at(-1).id}`
  }
}

const stored = async (id: string) => (await t.engine.app.core.store.get<DisputeRecord>('dispute', id))!.obj

describe('the network opens a dispute', () => {
  it('(new) -> needs_response at stage chargeback, 7-day deadline, dispute.created with request_id null', async () => {
    const p = await cardPayment(2000)
    const before = await now()
    const dp = await openDispute(p.id, {reason: 'product_not_received', amount: 1500})
    expect(dp).toEqual({
      id: expect.stringMatching(/^dp_/),
      object: 'dispute',
      payment: p.id,
      amount: 1500,
      currency: 'EUR',
      reason: 'product_not_received',
      stage: 'chargeback',
      status: 'needs_response',
      evidence_due_by: expect.any(String),
      evidence: null,
      previous_evidence: [],
      closed_by: null,
      livemode: false,
      created_at: expect.any(String),
    })
    const due = Date.parse(dp.evidence_due_by) - Date.parse(dp.created_at)
    expect(due).toBe(EVIDENCE_WINDOW_S.chargeback * 1000)
    expect(Date.parse(dp.created_at)).toBeGreaterThanOrEqual(before)
    const evs = await eventsOf(dp.id)
    expect(evs.map((e) => e.type)).toEqual(['dispute.created'])
    expect(evs[0].request_id).toBeNull()
    expect(evs[0].data.object).toEqual(dp)
    expect(await getDispute(dp.id)).toEqual(dp)
  })

  it('defaults: reason general, amount = captured minus refunded', async () => {
    const p = await cardPayment(3000)
    await t.api('POST', '/refunds', {payment: p.id, amount: 1000})
    const dp = await openDispute(p.id)
    expect(dp).toMatchObject({reason: 'general', amount: 2000})
  })

  it('test card 4000 0000 0000 0259: the network opens a fraudulent dispute a minute after success', async () => {
    const p = await cardPayment(2500, 'EUR', '4000000000000259')
    expect((await t.api('GET', `/disputes?payment=${p.id}`)).body.data).toHaveLength(0)
    await t.advance(TEST_CARD_DISPUTE_DELAY_S)
    const list = await t.api('GET', `/disputes?payment=${p.id}`)
    expect(list.body.data).toHaveLength(1)
    const dp = list.body.data[0]
    expect(dp).toMatchObject({payment: p.id, reason: 'fraudulent', amount: 2500, currency: 'EUR', stage: 'chargeback', status: 'needs_response'})
    const evs = await eventsOf(dp.id)
    expect(evs.map((e) => [e.type, e.request_id])).toEqual([['dispute.created', null]])
    // only once
    await t.advance(TEST_CARD_DISPUTE_DELAY_S)
    expect((await t.api('GET', `/disputes?payment=${p.id}`)).body.data).toHaveLength(1)
  })

  it('test card 0259 refunded in full before the network acts: no dispute', async () => {
    const p = await cardPayment(2600, 'EUR', '4000000000000259')
    await t.api('POST', '/refunds', {payment: p.id})
    await t.advance(TEST_CARD_DISPUTE_DELAY_S)
    expect((await t.api('GET', `/disputes?payment=${p.id}`)).body.data).toHaveLength(0)
  })

  it('card-backed wallets can be disputed; their scheme comes from the wallet card', async () => {
    const p = await methodPayment('apple_pay', 'USD')
    const dp = await openDispute(p.id, {reason: 'duplicate'})
    expect(dp.currency).toBe('USD')
    expect((await stored(dp.id))._x.network).toBe('visa')
  })

  it('refuses payments the network cannot dispute', async () => {
    const klarna = await methodPayment('klarna', 'EUR')
    const r1 = await t.api('POST', '/test_helpers/disputes', {payment: klarna.id})
    expect(r1.status).toBe(400)
    expect(r1.body.error).toMatchObject({type: 'invalid_request_error', code: 'payment_not_disputable'})
    expect(r1.body.error.message).toMatch(/chargeback-free/)

    const ideal = await methodPayment('ideal', 'EUR')
    expect((await t.api('POST', '/test_helpers/disputes', {payment: ideal.id})).body.error.code).toBe('payment_not_disputable')

    const auth = await t.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), capture_method: 'manual'})
    expect((await t.api('POST', '/test_helpers/disputes', {payment: auth.body.id})).body.error.code).toBe('payment_not_disputable')

    const nf = await t.api('POST', '/test_helpers/disputes', {payment: 'pay_nope'})
    expect(nf.status).toBe(404)
    expect(nf.body.error).toMatchObject({code: 'resource_missing', param: 'payment'})
  })

  it('validates amount and reason; one dispute per payment', async () => {
    const p = await cardPayment(2000)
    const big = await t.api('POST', '/test_helpers/disputes', {payment: p.id, amount: 2001})
    expect(big.status).toBe(400)
    expect(big.body.error.code).toBe('amount_too_large')
    const reason = await t.api('POST', '/test_helpers/disputes', {payment: p.id, reason: 'unhappy'})
    expect(reason.body.error).toMatchObject({code: 'parameter_invalid', param: 'reason'})
    const float = await t.api('POST', '/test_helpers/disputes', {payment: p.id, amount: 1.5})
    expect(float.body.error).toMatchObject({code: 'parameter_invalid', param: 'amount'})
    await openDispute(p.id, {amount: 100})
    const second = await t.api('POST', '/test_helpers/disputes', {payment: p.id, amount: 100})
    expect(second.body.error.code).toBe('payment_already_disputed')

    const refunded = await cardPayment(1000)
    await t.api('POST', '/refunds', {payment: refunded.id})
    expect((await t.api('POST', '/test_helpers/disputes', {payment: refunded.id})).body.error.code).toBe('amount_too_large')
  })
})

describe('every row of the dispute state table', () => {
  it('needs_response -> evidence -> under_review, evidence_due_by null, dispute.updated (request_id null)', async () => {
    const p = await cardPayment(2000)
    const dp = await openDispute(p.id, {reason: 'product_not_received'})
    const r = await t.api('POST', `/disputes/${dp.id}/evidence`, evidence)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({status: 'under_review', stage: 'chargeback', evidence_due_by: null})
    expect(r.body.evidence).toEqual({fields: evidence.fields, files: evidence.files, submitted_at: expect.any(String)})
    const evs = await eventsOf(dp.id)
    expect(evs.map((e) => [e.type, e.request_id])).toEqual([
      ['dispute.created', null],
      ['dispute.updated', null],
    ])
    expect(evs[1].data.object).toEqual(r.body)
    // the deadline no longer applies
    await t.advance(EVIDENCE_WINDOW_S.chargeback + 60)
    expect((await getDispute(dp.id)).status).toBe('under_review')
  })

  it('needs_response -> accept -> accepted (terminal), evidence_due_by null, dispute.closed', async () => {
    const p = await cardPayment(2000)
    const dp = await openDispute(p.id)
    const r = await t.api('POST', `/disputes/${dp.id}/accept`)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({status: 'accepted', evidence_due_by: null})
    const evs = await eventsOf(dp.id)
    expect(evs.map((e) => [e.type, e.request_id])).toEqual([
      ['dispute.created', null],
      ['dispute.closed', null],
    ])
    // terminal, irreversible
    for (const [path, body] of [
      ['accept', undefined],
      ['evidence', evidence],
    ] as const) {
      const again = await t.api('POST', `/disputes/${dp.id}/${path}`, body)
      expect(again.status).toBe(400)
      expect(again.body.error).toMatchObject({type: 'invalid_request_error', code: 'dispute_not_actionable'})
    }
    const res = await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'won'})
    expect(res.body.error.code).toBe('dispute_not_actionable')
  })

  it('needs_response -> deadline passes -> lost, dispute.closed; not an API error', async () => {
    const p = await cardPayment(2000)
    const dp = await openDispute(p.id)
    await t.advance(EVIDENCE_WINDOW_S.chargeback - 60)
    expect((await getDispute(dp.id)).status).toBe('needs_response')
    await t.advance(60)
    const lost = await getDispute(dp.id)
    expect(lost).toMatchObject({status: 'lost', evidence_due_by: null, stage: 'chargeback'})
    const evs = await eventsOf(dp.id)
    expect(evs.map((e) => [e.type, e.request_id])).toEqual([
      ['dispute.created', null],
      ['dispute.closed', null],
    ])
    expect(evs[1].data.object.status).toBe('lost')
    expect((await t.api('POST', `/disputes/${dp.id}/evidence`, evidence)).body.error.code).toBe('dispute_not_actionable')
    expect((await t.api('POST', `/disputes/${dp.id}/accept`)).body.error.code).toBe('dispute_not_actionable')
  })

  it('under_review -> won / lost, dispute.closed', async () => {
    for (const outcome of ['won', 'lost'] as const) {
      const p = await cardPayment(2000)
      const dp = await openDispute(p.id)
      await t.api('POST', `/disputes/${dp.id}/evidence`, evidence)
      const r = await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome})
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({status: outcome, evidence_due_by: null, stage: 'chargeback'})
      const evs = await eventsOf(dp.id)
      expect(evs.map((e) => [e.type, e.request_id])).toEqual([
        ['dispute.created', null],
        ['dispute.updated', null],
        ['dispute.closed', null],
      ])
      const again = await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome})
      expect(again.body.error.code).toBe('dispute_not_actionable')
    }
  })

  it('escalation: pre_arbitration and arbitration rounds, no carried-over evidence, arbitration is final', async () => {
    const p = await cardPayment(2000, 'EUR', '5555555555554444')
    const dp = await openDispute(p.id, {reason: 'fraudulent'})
    const first = await t.api('POST', `/disputes/${dp.id}/evidence`, evidence)
    expect(first.body.status).toBe('under_review')

    const t0 = await now()
    const pre = await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'escalate'})
    expect(pre.status).toBe(200)
    expect(pre.body).toMatchObject({stage: 'pre_arbitration', status: 'needs_response', evidence: null})
    const preDue = Date.parse(pre.body.evidence_due_by) - t0
    expect(preDue).toBeGreaterThanOrEqual(EVIDENCE_WINDOW_S.pre_arbitration * 1000)
    expect(preDue).toBeLessThan(EVIDENCE_WINDOW_S.pre_arbitration * 1000 + 5000)

    const second = await t.api('POST', `/disputes/${dp.id}/evidence`, {fields: {customer_communication: 'Emails attached'}, files: []})
    expect(second.body).toMatchObject({status: 'under_review', stage: 'pre_arbitration', evidence_due_by: null})
    expect(second.body.evidence.fields).toEqual({customer_communication: 'Emails attached'})
    // a second submission at the same stage
    const dup = await t.api('POST', `/disputes/${dp.id}/evidence`, evidence)
    expect(dup.status).toBe(400)
    expect(dup.body.error.code).toBe('dispute_not_actionable')
    expect((await t.api('POST', `/disputes/${dp.id}/accept`)).body.error.code).toBe('dispute_not_actionable')

    const arb = await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'escalate'})
    expect(arb.body).toMatchObject({stage: 'arbitration', status: 'needs_response', evidence: null})
    await t.api('POST', `/disputes/${dp.id}/evidence`, {fields: {general: 'Final statement'}})
    const final = await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'escalate'})
    expect(final.status).toBe(400)
    expect(final.body.error.code).toBe('dispute_not_actionable')
    expect(final.body.error.message).toMatch(/binding/)
    const won = await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'won'})
    expect(won.body).toMatchObject({status: 'won', stage: 'arbitration'})

    const evs = await eventsOf(dp.id)
    expect(evs.map((e) => `${e.type}:${e.data.object.stage}:${e.data.object.status}`)).toEqual([
      'dispute.created:chargeback:needs_response',
      'dispute.updated:chargeback:under_review',
      'dispute.updated:pre_arbitration:needs_response',
      'dispute.updated:pre_arbitration:under_review',
      'dispute.updated:arbitration:needs_response',
      'dispute.updated:arbitration:under_review',
      'dispute.closed:arbitration:won',
    ])
    expect(evs.every((e) => e.request_id === null)).toBe(true)
    // every submission is kept with its stage, each rendered in Mastercard's format
    const s = await stored(dp.id)
    expect(s._x.submissions.map((x) => x.stage)).toEqual(['chargeback', 'pre_arbitration', 'arbitration'])
    expect(s._x.submissions.every((x) => x.rendering.format === 'mastercard_mastercom')).toBe(true)
  })

  it('pre_arbitration round: accept, or the new deadline passes -> lost', async () => {
    const p1 = await cardPayment(2000)
    const d1 = await openDispute(p1.id)
    await t.api('POST', `/disputes/${d1.id}/evidence`, evidence)
    await t.api('POST', `/test_helpers/disputes/${d1.id}/resolve`, {outcome: 'escalate'})
    const acc = await t.api('POST', `/disputes/${d1.id}/accept`)
    expect(acc.body).toMatchObject({stage: 'pre_arbitration', status: 'accepted', evidence_due_by: null})

    const p2 = await cardPayment(2000)
    const d2 = await openDispute(p2.id)
    await t.api('POST', `/disputes/${d2.id}/evidence`, evidence)
    await t.api('POST', `/test_helpers/disputes/${d2.id}/resolve`, {outcome: 'escalate'})
    // the chargeback-stage deadline (7 days) no longer applies; the pre-arbitration one (10 days) does
    await t.advance(EVIDENCE_WINDOW_S.chargeback + 60)
    expect((await getDispute(d2.id)).status).toBe('needs_response')
    await t.advance(EVIDENCE_WINDOW_S.pre_arbitration - EVIDENCE_WINDOW_S.chargeback)
    expect(await getDispute(d2.id)).toMatchObject({stage: 'pre_arbitration', status: 'lost', evidence_due_by: null})
    expect((await eventsOf(d2.id)).at(-1).type).toBe('dispute.closed')
  })

  it('resolve only from under_review; unknown outcome rejected', async () => {
    const p = await cardPayment(2000)
    const dp = await openDispute(p.id)
    const r = await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'won'})
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe('dispute_not_actionable')
    const bad = await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'draw'})
    expect(bad.body.error).toMatchObject({code: 'parameter_invalid', param: 'outcome'})
    expect((await t.api('POST', '/test_helpers/disputes/dp_nope/resolve', {outcome: 'won'})).status).toBe(404)
  })
})

describe('evidence', () => {
  it('validates the body', async () => {
    const p = await cardPayment(2000)
    const dp = await openDispute(p.id)
    const cases: [unknown, string, string][] = [
      [{fields: {a: 1}}, 'parameter_invalid', 'fields.a'],
      [{fields: 'text'}, 'parameter_invalid', 'fields'],
      [{files: ['http://shop.example/r.pdf']}, 'parameter_invalid', 'files[0]'],
      [{files: ['not a url']}, 'parameter_invalid', 'files[0]'],
      [{files: 'https://shop.example/r.pdf'}, 'parameter_invalid', 'files'],
      [{fields: {}, files: []}, 'parameter_missing', 'fields'],
      [{fields: {a: 'b'}, extra: true}, 'parameter_unknown', 'extra'],
    ]
    for (const [body, code, param] of cases) {
      const r = await t.api('POST', `/disputes/${dp.id}/evidence`, body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.error, JSON.stringify(body)).toMatchObject({code, param})
    }
    // any keys are accepted in fields; files alone are enough
    const ok = await t.api('POST', `/disputes/${dp.id}/evidence`, {files: ['https://shop.example/r.pdf']})
    expect(ok.body.evidence).toMatchObject({fields: {}, files: ['https://shop.example/r.pdf']})
    expect((await t.api('POST', '/disputes/dp_nope/evidence', evidence)).status).toBe(404)
    expect((await t.api('POST', '/disputes/dp_nope/accept')).status).toBe(404)
  })

  it('is rendered in the format of the card scheme: Visa, Mastercard, American Express', async () => {
    const cases: [string, string, string, string][] = [
      ['4242424242424242', 'visa', 'visa_vrol', '13.1'],
      ['5555555555554444', 'mastercard', 'mastercard_mastercom', '4855'],
      ['378282246310005', 'amex', 'amex_merchant_response', 'C08'],
    ]
    for (const [number, scheme, format, code] of cases) {
      const p = await cardPayment(2000, 'EUR', number)
      const dp = await openDispute(p.id, {reason: 'product_not_received'})
      await t.api('POST', `/disputes/${dp.id}/evidence`, evidence)
      const s = await stored(dp.id)
      const rendering = s._x.submissions[0]!.rendering
      expect(rendering).toMatchObject({scheme, format, reason_code: code})
      // product_not_received suits a tracking number or a service date (the tracking number is given), and shipping_address
      expect(s._x.submissions[0]!.coverage).toMatchObject({other: ['note'], missing: ['shipping_address']})
      const text = JSON.stringify(rendering.payload)
      expect(text).toContain('1Z999AA10123456784')
      expect(text).toContain('https://shop.example/receipts/1.pdf')
      expect(text).toContain('20.00')
      // the rendering stays internal
      const api = await getDispute(dp.id)
      expect(api).not.toHaveProperty('_x')
      expect(Object.keys(api.evidence).sort()).toEqual(['fields', 'files', 'submitted_at'])
    }
  })
})

describe('dispute money rules', () => {
  it('withheld on open (immediately, from available), returned on won', async () => {
    const p = await cardPayment(4000, 'GBP')
    const b0 = await balanceOf('GBP')
    const dp = await openDispute(p.id, {amount: 3000})
    const b1 = await balanceOf('GBP')
    expect(b1.available).toBe(b0.available - 3000)
    expect(b1.pending).toBe(b0.pending)
    await t.api('POST', `/disputes/${dp.id}/evidence`, evidence)
    expect((await balanceOf('GBP')).available).toBe(b1.available)
    await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'won'})
    expect((await balanceOf('GBP')).available).toBe(b0.available)
  })

  it('kept on lost, accepted and a missed deadline', async () => {
    for (const how of ['lost', 'accepted', 'deadline'] as const) {
      const p = await cardPayment(4000, 'SEK')
      const b0 = await balanceOf('SEK')
      const dp = await openDispute(p.id, {amount: 2500})
      if (how === 'lost') {
        await t.api('POST', `/disputes/${dp.id}/evidence`, evidence)
        await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'lost'})
      } else if (how === 'accepted') await t.api('POST', `/disputes/${dp.id}/accept`)
      const b1 = await balanceOf('SEK')
      const paid1 = await paidOut('SEK')
      if (how === 'deadline') {
        await t.advance(EVIDENCE_WINDOW_S.chargeback)
        expect((await getDispute(dp.id)).status).toBe('lost')
      }
      const b2 = await balanceOf('SEK')
      // the debit stands; captured funds may have settled and been paid out meanwhile
      expect(b1.available + b1.pending).toBe(b0.available + b0.pending - 2500)
      expect(b2.available + b2.pending + (await paidOut('SEK'))).toBe(b1.available + b1.pending + paid1)
      const entries = await entriesFor(t.engine.app.core.store, p.id)
      expect(entries.filter((e: LedgerEntry) => e.source === dp.id).map((e: LedgerEntry) => [e.type, e.amount])).toEqual([['dispute', -2500]])
    }
  })

  it('debits the balance of the dispute currency only', async () => {
    const p = await cardPayment(5000, 'USD')
    const eur0 = await balanceOf('EUR')
    const usd0 = await balanceOf('USD')
    await openDispute(p.id, {amount: 1234})
    expect(await balanceOf('EUR')).toEqual(eur0)
    expect((await balanceOf('USD')).available).toBe(usd0.available - 1234)
  })

  it('a dispute does not change the payment', async () => {
    const p = await cardPayment(2000)
    const dp = await openDispute(p.id)
    await t.api('POST', `/disputes/${dp.id}/accept`)
    const after = (await t.api('GET', `/payments/${p.id}`)).body
    expect(after).toMatchObject({status: 'succeeded', amount_refunded: 0, refunded: false, partially_refunded: false})
  })
})

describe('GET /disputes', () => {
  it('lists newest first with status and payment filters and cursors', async () => {
    const ids: string[] = []
    const payments: string[] = []
    for (let i = 0; i < 4; i++) {
      const p = await cardPayment(1000 + i, 'CHF')
      payments.push(p.id)
      ids.push((await openDispute(p.id)).id)
    }
    await t.api('POST', `/disputes/${ids[1]}/accept`)
    const all = await t.api('GET', '/disputes?limit=100')
    expect(all.body).toMatchObject({object: 'list', url: '/v1/disputes'})
    const order = (all.body.data as any[]).map((d) => d.id).filter((id) => ids.includes(id))
    expect(order).toEqual([...ids].reverse())

    const accepted = await t.api('GET', '/disputes?status=accepted&limit=100')
    expect(accepted.body.data.every((d: any) => d.status === 'accepted')).toBe(true)
    expect(accepted.body.data.map((d: any) => d.id)).toContain(ids[1])
    const byPayment = await t.api('GET', `/disputes?payment=${payments[2]}`)
    expect(byPayment.body.data.map((d: any) => d.id)).toEqual([ids[2]])
    const combined = await t.api('GET', `/disputes?payment=${payments[1]}&status=needs_response`)
    expect(combined.body.data).toEqual([])

    const page1 = await t.api('GET', '/disputes?status=needs_response&limit=2')
    expect(page1.body.has_more).toBe(true)
    const page2 = await t.api('GET', `/disputes?status=needs_response&limit=2&starting_after=${page1.body.data[1].id}`)
    expect(page2.body.data[0].id).not.toBe(page1.body.data[1].id)
    expect(page2.body.data.every((d: any) => d.status === 'needs_response')).toBe(true)
    const back = await t.api('GET', `/disputes?status=needs_response&limit=2&ending_before=${page2.body.data[0].id}`)
    expect(back.body.data.map((d: any) => d.id)).toEqual(page1.body.data.map((d: any) => d.id))
  })

  it('rejects bad parameters and unknown ids', async () => {
    expect((await t.api('GET', '/disputes?status=open')).body.error).toMatchObject({code: 'parameter_invalid', param: 'status'})
    expect((await t.api('GET', '/disputes?reason=fraudulent')).body.error.code).toBe('parameter_unknown')
    const nf = await t.api('GET', '/disputes/dp_missing')
    expect(nf.status).toBe(404)
    expect(nf.body.error).toMatchObject({type: 'invalid_request_error', code: 'resource_missing'})
  })
})

describe("a dispute's story stays on it", () => {
  it('what closed it: the deadline (lost unanswered), a ruling (won or lost), the merchant (accepted); null while open', async () => {
    const byDeadline = await openDispute((await cardPayment(3101)).id)
    expect(byDeadline.closed_by).toBeNull()
    await t.api('POST', '/test_helpers/clock/advance', {seconds: EVIDENCE_WINDOW_S.chargeback + 60})
    expect(await getDispute(byDeadline.id)).toMatchObject({status: 'lost', closed_by: 'deadline'})

    const byRuling = await openDispute((await cardPayment(3102)).id)
    await t.api('POST', `/disputes/${byRuling.id}/evidence`, evidence)
    expect((await t.api('POST', `/test_helpers/disputes/${byRuling.id}/resolve`, {outcome: 'lost'})).body).toMatchObject({status: 'lost', closed_by: 'ruling'})

    const won = await openDispute((await cardPayment(3103)).id)
    await t.api('POST', `/disputes/${won.id}/evidence`, evidence)
    expect((await t.api('POST', `/test_helpers/disputes/${won.id}/resolve`, {outcome: 'won'})).body).toMatchObject({status: 'won', closed_by: 'ruling'})

    const accepted = await openDispute((await cardPayment(3104)).id)
    expect((await t.api('POST', `/disputes/${accepted.id}/accept`, {})).body).toMatchObject({status: 'accepted', closed_by: 'merchant'})
  })

  it('after an escalation, what was argued at the earlier stage stays on the dispute, stage by stage', async () => {
    const dp = await openDispute((await cardPayment(3105)).id)
    expect(dp.previous_evidence).toEqual([])
    await t.api('POST', `/disputes/${dp.id}/evidence`, evidence)
    const pre = (await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'escalate'})).body
    expect(pre).toMatchObject({stage: 'pre_arbitration', status: 'needs_response', evidence: null})
    expect(pre.previous_evidence).toEqual([{stage: 'chargeback', fields: evidence.fields, files: evidence.files, submitted_at: expect.any(String)}])
    const second = {fields: {customer_communication: 'Thread of 3 May:\nThe customer confirmed receipt.'}, files: []}
    await t.api('POST', `/disputes/${dp.id}/evidence`, second)
    const arb = (await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'escalate'})).body
    expect(arb.previous_evidence.map((e: any) => e.stage)).toEqual(['chargeback', 'pre_arbitration'])
    expect(arb.previous_evidence[1].fields.customer_communication).toBe(second.fields.customer_communication)
    expect((await getDispute(dp.id)).previous_evidence).toEqual(arb.previous_evidence)
  })
})

describe('3-D Secure on the payment', () => {
  it('a payment whose cardholder passed a 3-D Secure challenge says so in payment_method_details.card.three_d_secure', async () => {
    const c = await t.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000003220'), return_url: 'https://shop.example/back'})
    expect(c.body.status).toBe('requires_action')
    expect(c.body.payment_method_details.card.three_d_secure).toBeUndefined()
    const done = await t.api('POST', `/test_helpers/payments/${c.body.id}/action`, {outcome: 'approve'})
    expect(done.body.status).toBe('succeeded')
    expect(done.body.payment_method_details.card.three_d_secure).toEqual({result: 'authenticated'})
    const plain = await cardPayment(2001)
    expect(plain.payment_method_details.card.three_d_secure).toBeUndefined()
  })
})

describe('refund messages that fit the dispute', () => {
  it('under review: wait for the ruling (accepting or answering is impossible then); needs_response: accept or submit evidence', async () => {
    const p = await cardPayment(3201)
    const dp = await openDispute(p.id)
    const open = await t.api('POST', '/refunds', {payment: p.id})
    expect(open.body.error.code).toBe('payment_disputed')
    expect(open.body.error.message).toContain('Accept the dispute')
    await t.api('POST', `/disputes/${dp.id}/evidence`, evidence)
    const review = await t.api('POST', '/refunds', {payment: p.id})
    expect(review.body.error.code).toBe('payment_disputed')
    expect(review.body.error.message).toContain('under review: nothing can be done until the ruling')
    expect(review.body.error.message).not.toMatch(/accept the dispute|submit evidence/i)
  })

  it('after a lost dispute, "nothing is left to refund" names the chargeback that took it', async () => {
    const p = await cardPayment(3202)
    const dp = await openDispute(p.id)
    await t.api('POST', `/disputes/${dp.id}/accept`, {})
    const r = await t.api('POST', '/refunds', {payment: p.id})
    expect(r.body.error.code).toBe('amount_too_large')
    expect(r.body.error.message).toContain(`the chargeback ${dp.id} (accepted) took 3202 EUR back to the cardholder`)
  })
})
