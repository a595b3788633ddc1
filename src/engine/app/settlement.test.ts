import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

const DAY = 86_400

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
  })
})
