import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {feeFor, providerProfile} from '../domain/providers.js'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'
import {paymentMoney, type LedgerEntry} from '../domain/ledger.js'
import {settlementRunOf} from '../domain/settlement.js'
import {REFUND_DELAY_S} from '../domain/refund.js'
import {entriesFor} from './ledger.js'

// A fresh engine: the balance starts empty and every movement below is accounted for.
let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => t.stop())

async function cardPayment(amount: number, currency: string, number = '4242424242424242') {
  const r = await t.api('POST', '/payments', {amount, currency, payment_method: 'card', payment_method_data: card(number)})
  expect(r.body.status).toBe('succeeded')
  return r.body
}

const balance = async () => {
  const r = await t.api('GET', '/balance')
  expect(r.status).toBe(200)
  return r.body
}
const entries = (paymentId: string) => entriesFor(t.engine.app.core.store, paymentId)
const feeOf = (p: any) => feeFor(providerProfile(p.provider)!, p.amount_captured, p.currency)

describe('GET /balance and the ledger', () => {
  it('starts empty', async () => {
    expect(await balance()).toEqual({object: 'balance', available: [], pending: []})
  })

  it('captured funds net of the provider fee are pending until their day\'s settlement run, which pays them out: the payout debits the balance', async () => {
    const p = await cardPayment(10_000, 'EUR')
    const fee = feeOf(p)
    expect(fee).toBeGreaterThan(0)
    const es = await entries(p.id)
    expect(es.map((e) => [e.type, e.amount, e.currency])).toEqual([
      ['payment', 10_000, 'EUR'],
      ['fee', -fee, 'EUR'],
    ])
    expect(es.every((e) => e.object === 'ledger_entry' && e.id.startsWith('le_') && e.provider === p.provider && e.reference === p.reference)).toBe(true)
    const run = settlementRunOf(new Date(p.created_at))
    expect(es[0]!.available_at).toBe(run.toISOString())
    expect(run.toISOString()).toBe(new Date(Date.parse(p.created_at.slice(0, 10)) + 86_400_000 + 2 * 3_600_000).toISOString())
    expect(await balance()).toEqual({
      object: 'balance',
      available: [{amount: 0, currency: 'EUR'}],
      pending: [{amount: 10_000 - fee, currency: 'EUR'}],
    })
    const toRun = Math.ceil((run.getTime() - Date.parse((await t.api('GET', '/test_helpers/clock')).body.now)) / 1000)
    await t.advance(toRun - 10)
    expect((await balance()).pending).toEqual([{amount: 10_000 - fee, currency: 'EUR'}])
    expect((await t.api('GET', '/payouts')).body.data).toEqual([])
    await t.advance(10)
    // the run made the day's funds available and paid them out at once: nothing is counted twice
    expect(await balance()).toEqual({
      object: 'balance',
      available: [{amount: 0, currency: 'EUR'}],
      pending: [{amount: 0, currency: 'EUR'}],
    })
    const [po] = (await t.api('GET', '/payouts')).body.data
    expect(po).toMatchObject({currency: 'EUR', amount: 10_000 - fee, status: 'in_transit', created_at: run.toISOString()})
    const all = await t.engine.app.core.store.all<LedgerEntry>('ledger_entry')
    expect(all.filter((e) => e.type === 'payout').map((e) => [e.amount, e.currency, e.source, e.available_at])).toEqual([
      [-(10_000 - fee), 'EUR', po.id, run.toISOString()],
    ])
    await t.advance(86_400)
    expect((await t.api('GET', `/payouts/${po.id}`)).body.status).toBe('paid')
    expect((await balance()).available).toEqual([{amount: 0, currency: 'EUR'}])
  })

  it('keeps one balance per currency, in alphabetical order', async () => {
    const usd = await cardPayment(5_000, 'USD')
    const jpy = await cardPayment(3_000, 'JPY')
    const b = await balance()
    expect(b.pending.map((x: any) => x.currency)).toEqual(['EUR', 'JPY', 'USD'])
    expect(b.available.map((x: any) => x.currency)).toEqual(['EUR', 'JPY', 'USD'])
    expect(b.pending.find((x: any) => x.currency === 'USD').amount).toBe(5_000 - feeOf(usd))
    expect(b.pending.find((x: any) => x.currency === 'JPY').amount).toBe(3_000 - feeOf(jpy))
    await t.advance(2 * 86_400)
    // settled and paid out, one payout per currency
    expect((await balance()).pending.every((x: any) => x.amount === 0)).toBe(true)
    expect((await balance()).available.every((x: any) => x.amount === 0)).toBe(true)
  })

  it('a refund debits available at once; a failed refund credits it back', async () => {
    const before = (await balance()).available.find((x: any) => x.currency === 'EUR').amount
    const ok = await cardPayment(2_000, 'EUR')
    const r1 = (await t.api('POST', '/refunds', {payment: ok.id, amount: 500})).body
    const after = await balance()
    expect(after.available.find((x: any) => x.currency === 'EUR').amount).toBe(before - 500)
    expect(after.pending.find((x: any) => x.currency === 'EUR').amount).toBe(2_000 - feeOf(ok))

    const bad = await cardPayment(2_000, 'EUR', '4000000000005126')
    await t.api('POST', '/refunds', {payment: bad.id})
    expect((await balance()).available.find((x: any) => x.currency === 'EUR').amount).toBe(before - 2_500)
    await t.advance(REFUND_DELAY_S.card)
    expect((await balance()).available.find((x: any) => x.currency === 'EUR').amount).toBe(before - 500)
    expect((await entries(bad.id)).map((e) => e.type)).toEqual(['payment', 'fee', 'refund', 'refund_failure'])
    expect((await entries(ok.id)).filter((e) => e.source === r1.id).map((e) => [e.type, e.amount])).toEqual([['refund', -500]])
  })

  it('derives the payment totals: captured, refunded, disputed, fees', async () => {
    const p = await cardPayment(8_000, 'GBP')
    await t.api('POST', '/refunds', {payment: p.id, amount: 1_000})
    const dp = (await t.api('POST', '/test_helpers/disputes', {payment: p.id, amount: 3_000})).body
    let m = paymentMoney(await entries(p.id))
    expect(m).toEqual({captured: 8_000, refunded: 1_000, disputed: 3_000, fees: feeOf(p)})
    await t.api('POST', `/disputes/${dp.id}/evidence`, {fields: {product_description: 'x'}})
    await t.api('POST', `/test_helpers/disputes/${dp.id}/resolve`, {outcome: 'won'})
    m = paymentMoney(await entries(p.id))
    expect(m.disputed).toBe(0)
    const types = (await entries(p.id)).map((e: LedgerEntry) => e.type)
    expect(types).toEqual(['payment', 'fee', 'refund', 'dispute', 'dispute_reversal'])
    expect((await t.api('GET', `/payments/${p.id}`)).body.amount_refunded).toBe(m.refunded)
  })

  it('the balance equals the sum of all entries, and survives a restart', async () => {
    const all = await t.engine.app.core.store.all<LedgerEntry>('ledger_entry')
    const nowIso = (await t.api('GET', '/test_helpers/clock')).body.now
    const expected: Record<string, {available: number; pending: number}> = {}
    for (const e of all) {
      const b = (expected[e.currency] ??= {available: 0, pending: 0})
      if (e.available_at <= nowIso) b.available += e.amount
      else b.pending += e.amount
    }
    const b = await balance()
    for (const [cur, v] of Object.entries(expected)) {
      expect(b.available.find((x: any) => x.currency === cur).amount, cur).toBe(v.available)
      expect(b.pending.find((x: any) => x.currency === cur).amount, cur).toBe(v.pending)
    }
    await t.restart()
    expect(await balance()).toEqual(b)
  })

  it('a day whose total is not positive pays nothing: its debit stays on the balance until the next payout takes it', async () => {
    await t.advance(2 * 86_400) // everything above settled
    const b0 = (await balance()).available.find((x: any) => x.currency === 'CHF')?.amount ?? 0
    const old = await cardPayment(3_000, 'CHF')
    await t.advance(2 * 86_400)
    expect((await balance()).available.find((x: any) => x.currency === 'CHF').amount).toBe(b0)
    // a day with only a refund: its report is negative, no payout
    await t.api('POST', '/refunds', {payment: old.id, amount: 1_000})
    await t.advance(86_400 + 3_600)
    const stuck = (await t.api('GET', '/settlement_reports?currency=CHF')).body.data[0]
    expect(stuck).toMatchObject({payout_amount: -1_000, payout: null})
    expect((await balance()).available.find((x: any) => x.currency === 'CHF').amount).toBe(b0 - 1_000)
    // the next day's payout nets it and references both reports
    const next = await cardPayment(5_000, 'CHF')
    await t.advance(86_400 + 3_600)
    const po = (await t.api('GET', '/payouts?currency=CHF')).body.data[0]
    expect(po.amount).toBe(5_000 - feeOf(next) - 1_000)
    expect(po.settlement_reports).toContain(stuck.id)
    expect((await t.api('GET', `/settlement_reports/${stuck.id}`)).body.payout).toBe(po.id)
    expect((await balance()).available.find((x: any) => x.currency === 'CHF').amount).toBe(b0)
  })

  it('rejects query parameters', async () => {
    const r = await t.api('GET', '/balance?currency=EUR')
    expect(r.status).toBe(400)
    expect(r.body.error.code).toBe('parameter_unknown')
  })
})
