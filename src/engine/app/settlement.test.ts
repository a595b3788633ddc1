import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'
import type {LedgerEntry} from '../domain/ledger.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

const DAY = 86_400

/**
 * The reconciliation of docs/decisions.md#settlement-and-payouts, per currency, from what the API shows plus the ledger:
 * sum of the non-payout entries = available + pending + paid out (in transit included),
 * where a payout pays out the payout_amount of each report it references, in that report's currency.
 */
async function expectReconciled(e: TestEngine) {
  const entries = await e.engine.app.core.store.all<LedgerEntry>('ledger_entry')
  const moved: Record<string, number> = {}
  for (const x of entries) if (x.type !== 'payout') moved[x.currency] = (moved[x.currency] ?? 0) + x.amount
  const paidOut: Record<string, number> = {}
  const payouts = (await e.api('GET', '/payouts?limit=100')).body.data
  for (const po of payouts) {
    for (const id of po.settlement_reports) {
      const r = (await e.api('GET', `/settlement_reports/${id}`)).body
      expect(r.payout).toBe(po.id)
      paidOut[r.currency] = (paidOut[r.currency] ?? 0) + r.payout_amount
    }
    const reports = await Promise.all(po.settlement_reports.map(async (id: string) => (await e.api('GET', `/settlement_reports/${id}`)).body))
    expect(reports.reduce((s: number, r: any) => s + r.converted_payout_amount, 0)).toBe(po.amount)
  }
  const b = (await e.api('GET', '/balance')).body
  for (const cur of Object.keys(moved)) {
    const available = b.available.find((x: any) => x.currency === cur)?.amount ?? 0
    const pending = b.pending.find((x: any) => x.currency === cur)?.amount ?? 0
    expect(available + pending + (paidOut[cur] ?? 0), cur).toBe(moved[cur])
  }
  return {payouts, balance: b}
}

describe('settlement reports and payouts', () => {
  it('a day of payments, a refund and a dispute settles into per-provider reports that add up, with a payout', async () => {
    const a = await t.api('POST', '/payments', {amount: 10000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference: 'order-a'})
    const b = await t.api('POST', '/payments', {amount: 5000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference: 'order-b'})
    expect(a.body.status).toBe('succeeded')
    const rf = await t.api('POST', '/refunds', {payment: a.body.id, amount: 2500})
    expect(rf.status).toBe(201)
    const dp = await t.api('POST', '/test_helpers/disputes', {payment: b.body.id, amount: 1000})
    expect(dp.status).toBe(201)
    await t.advance(2 * DAY)
    const list = await t.api('GET', '/settlement_reports?currency=EUR')
    expect(list.status).toBe(200)
    const reports = list.body.data as any[]
    const mine = reports.filter((r) => r.lines.some((l: any) => l.reference === 'order-a' || l.reference === 'order-b'))
    expect(mine.length).toBeGreaterThan(0)
    for (const r of mine) {
      expect(r.gross + r.refunds + r.fees).toBe(r.net)
      expect(r.net + r.adjustments).toBe(r.payout_amount)
      expect(r.lines.every((l: any) => typeof l.reference === 'string' && l.reference.length > 0)).toBe(true)
    }
    const all = mine.flatMap((r) => r.lines)
    expect(all.find((l: any) => l.type === 'payment' && l.reference === 'order-a').amount).toBe(10000)
    expect(all.find((l: any) => l.type === 'refund' && l.reference === 'order-a').amount).toBe(-2500)
    expect(all.find((l: any) => l.type === 'dispute' && l.reference === 'order-b').amount).toBe(-1000)
    expect(all.filter((l: any) => l.type === 'fee').every((l: any) => l.amount < 0)).toBe(true)
    const po = await t.api('GET', `/payouts/${mine[0].payout}`)
    expect(po.body).toMatchObject({object: 'payout', currency: 'EUR'})
    expect(po.body.settlement_reports).toContain(mine[0].id)
    expect(po.body.arrival_date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const csv = await t.raw('GET', `${t.engine.baseUrl}/settlement_reports/${mine[0].id}`, {headers: {authorization: `Bearer ${t.key}`, accept: 'text/csv'}})
    expect(csv.headers['content-type']).toMatch(/text\/csv/)
    const rows = csv.text.trim().split('\n')
    expect(rows[0]).toContain('reference')
    expect(rows.length).toBe(mine[0].lines.length + 1)
    const ev = await t.api('GET', '/events?type=settlement.report.ready')
    expect(ev.body.data.some((e: any) => e.data.object.id === mine[0].id)).toBe(true)
    await expectReconciled(t)
  })

  it('a paid payout has left the balance: nothing is counted twice', async () => {
    const p = await t.api('POST', '/payments', {amount: 20000, currency: 'GBP', payment_method: 'card', payment_method_data: card()})
    expect(p.body.status).toBe('succeeded')
    await expectReconciled(t)
    await t.advance(3 * DAY)
    const {payouts, balance} = await expectReconciled(t)
    const po = payouts.find((x: any) => x.currency === 'GBP')
    expect(po.status).toBe('paid')
    expect(balance.available.find((x: any) => x.currency === 'GBP').amount).toBe(0)
    expect(balance.pending.find((x: any) => x.currency === 'GBP').amount).toBe(0)
  })

  it('filters by provider and date, and rejects a bad date', async () => {
    const bad = await t.api('GET', '/settlement_reports?date=yesterday')
    expect(bad.status).toBe(400)
    expect(bad.body.error.param).toBe('date')
    const any = (await t.api('GET', '/settlement_reports')).body.data[0]
    const f = await t.api('GET', `/settlement_reports?provider=${any.provider}&date=${any.date}`)
    expect(f.body.data.every((r: any) => r.provider === any.provider && r.date === any.date)).toBe(true)
  })
})

describe('a data dir from before payouts were ledger movements', () => {
  it('gets its payouts booked in the ledger at start, once', async () => {
    const e = await bootEngine()
    try {
      await e.api('POST', '/payments', {amount: 7000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
      await e.advance(2 * DAY)
      const store = e.engine.app.core.store
      const booked = (await store.all<LedgerEntry>('ledger_entry')).filter((x) => x.type === 'payout')
      expect(booked.length).toBeGreaterThan(0)
      // what an older engine left behind: payouts without entries, no marker
      await e.engine.app.core.store.commit({deletes: booked.map((x) => ({kind: 'ledger_entry' as const, id: x.id})), settings: {payout_ledger: ''}})
      await e.restart()
      const again = (await e.engine.app.core.store.all<LedgerEntry>('ledger_entry')).filter((x) => x.type === 'payout')
      expect(again.map((x) => [x.amount, x.currency, x.source, x.reference, x.created_at])).toEqual(booked.map((x) => [x.amount, x.currency, x.source, x.reference, x.created_at]))
      await expectReconciled(e)
      await e.restart()
      expect((await e.engine.app.core.store.all<LedgerEntry>('ledger_entry')).filter((x) => x.type === 'payout')).toHaveLength(again.length)
    } finally {
      await e.stop()
    }
  })
})

describe('conversion to a payout currency', () => {
  let u: TestEngine
  beforeAll(async () => {
    u = await bootEngine({payoutCurrency: 'EUR'})
  })
  afterAll(async () => u.stop())

  it('itemizes the conversion on the report and pays out in the payout currency', async () => {
    await u.api('POST', '/payments', {amount: 10000, currency: 'USD', payment_method: 'card', payment_method_data: card()})
    await u.advance(2 * DAY)
    const r = (await u.api('GET', '/settlement_reports?currency=USD')).body.data[0]
    const conv = r.lines.find((l: any) => l.type === 'conversion')
    expect(conv).toMatchObject({currency: 'USD', converted_currency: 'EUR', amount: -r.payout_amount})
    expect(conv.rate).toBeGreaterThan(0)
    expect(r.gross + r.refunds + r.fees).toBe(r.net)
    const po = (await u.api('GET', `/payouts/${r.payout}`)).body
    expect(po.currency).toBe('EUR')
    expect(po.amount).toBe(conv.converted_amount)
    // the payout took the USD that was converted; the EUR balance holds nothing of it
    const {balance} = await expectReconciled(u)
    expect(balance.available).toEqual([{amount: 0, currency: 'USD'}])
    expect(balance.pending).toEqual([{amount: 0, currency: 'USD'}])
  })
})
