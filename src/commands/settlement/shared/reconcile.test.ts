import {Readable} from 'node:stream'
import {setFlagsFromString} from 'node:v8'
import {runInNewContext} from 'node:vm'
import {describe, expect, it} from 'vitest'
import type {Payout, SettlementReport} from '../../../api/types.js'
import {reconcile, ReconcileInputError, type Finding} from './reconcile.js'

const csv = (header: string, rows: (string | number)[][]) => Readable.from([`${header}\n${rows.map((r) => r.join(',')).join('\n')}\n`])

/** A period of `n` settled orders: two reports (EUR, USD) with payment and fee lines, a payout each. */
function period(n: number) {
  const orders: [string, number, string][] = []
  const reports: SettlementReport[] = []
  for (const currency of ['EUR', 'USD']) {
    const lines: SettlementReport['lines'] = []
    for (let i = 0; i < n; i++) {
      const reference = `order-${currency}-${i}`
      const amount = 1000 + i
      orders.push([reference, amount, currency])
      lines.push({type: 'payment', payment: `pay_${currency}${i}`, reference, amount, currency, created_at: '2026-03-01T10:00:00.000Z'})
      lines.push({type: 'fee', payment: `pay_${currency}${i}`, reference, amount: -30, currency, created_at: '2026-03-01T10:00:00.000Z'})
    }
    const gross = lines.filter((l) => l.type === 'payment').reduce((a, l) => a + l.amount, 0)
    const fees = lines.filter((l) => l.type === 'fee').reduce((a, l) => a + l.amount, 0)
    reports.push({id: `stl_${currency}`, object: 'settlement_report', provider: 'prov_x', date: '2026-03-01', currency, gross, refunds: 0, fees, net: gross + fees, adjustments: 0, payout_amount: gross + fees, payout_currency: currency, converted_payout_amount: gross + fees, lines, payout: `po_${currency}`, livemode: false, created_at: '2026-03-02T02:00:00.000Z'})
  }
  const payouts: Payout[] = reports.map((r) => ({id: r.payout!, object: 'payout', amount: r.payout_amount, currency: r.currency, status: 'paid', arrival_date: '2026-03-03', settlement_reports: [r.id], livemode: false, created_at: r.created_at}))
  return {orders, reports, payouts}
}

async function run(p: ReturnType<typeof period>, opts: {bank?: [string, number, string][]} = {}) {
  const findings: Finding[] = []
  const summary = await reconcile({
    orders: csv('reference,amount,currency,note', p.orders.map((o) => [...o, 'x'])),
    reports: p.reports,
    payouts: p.payouts,
    bank: opts.bank ? csv('date,amount,currency,description', opts.bank.map((b) => [...b, 'SETTLEMENT'])) : undefined,
    onFinding: (f) => findings.push(f),
  })
  return {summary, findings}
}

describe('reconcile', () => {
  it('a clean period: every line matched, every payout credited, nothing to report', async () => {
    const p = period(50)
    const {summary, findings} = await run(p, {bank: p.payouts.map((po) => ['2026-03-03', po.amount, po.currency])})
    expect(findings).toEqual([])
    expect(summary).toMatchObject({orders: 100, lines: 200, matched: 100, ok: true, payouts: {total: 2, paid: 2, unpaid: 0}})
    const eur = summary.totals.find((t) => t.currency === 'EUR')!
    expect(eur).toMatchObject({fees: -1500, refunds: 0, disputes: 0, payouts: p.payouts[0]!.amount})
    expect(eur.net).toBe(eur.gross + eur.fees)
  })

  it('finds every planted mismatch, and only those', async () => {
    const p = period(20)
    const eur = p.reports[0]!
    p.orders.splice(p.orders.findIndex((o) => o[0] === 'order-EUR-1'), 1) // extra: settled, not in orders
    p.orders.push(['order-EUR-404', 5000, 'EUR']) // missing: in orders, never settled
    p.orders.find((o) => o[0] === 'order-EUR-2')![1] = 999 // amount
    p.orders.find((o) => o[0] === 'order-USD-3')![2] = 'GBP' // currency
    p.orders.push(['order-USD-4', 1004, 'USD']) // duplicate order
    eur.lines.push({...eur.lines.find((l) => l.reference === 'order-EUR-5')!, payment: 'pay_again'}) // duplicate settlement
    const {summary, findings} = await run(
      {...p, orders: [...p.orders, ['', 1, 'EUR']]}, // a malformed line
      {bank: [['2026-03-04', p.payouts[0]!.amount, 'EUR']]}, // the USD payout never arrived
    )
    const by = (k: string) => findings.filter((f) => f.kind === k).map((f) => f.reference ?? f.payout)
    expect(by('not_in_orders')).toEqual(['order-EUR-1'])
    expect(by('not_settled')).toEqual(['order-EUR-404'])
    expect(findings.find((f) => f.kind === 'amount_mismatch')).toMatchObject({reference: 'order-EUR-2', expected_amount: 999, actual_amount: 1002})
    expect(findings.filter((f) => f.kind === 'amount_mismatch').map((f) => f.reference)).toEqual(['order-EUR-2'])
    expect(by('currency_mismatch')).toEqual(['order-USD-3'])
    expect(by('duplicate_order')).toEqual(['order-USD-4'])
    expect(by('duplicate_settlement')).toEqual(['order-EUR-5'])
    expect(by('payout_unpaid')).toEqual(['po_USD'])
    expect(findings.filter((f) => f.kind === 'invalid_line')).toHaveLength(1)
    expect(summary.ok).toBe(false)
    expect(summary.payouts).toEqual({total: 2, paid: 1, unpaid: 1})
  })

  it('an order listed three times is one duplicate_order finding; its first line is the one compared and matched', async () => {
    const p = period(2)
    p.orders.push(['order-EUR-0', 7777, 'EUR'], ['order-EUR-0', 1000, 'GBP']) // copies that differ from the settlement
    p.orders.push(['order-EUR-404', 5000, 'EUR'], ['order-EUR-404', 5000, 'EUR']) // an unsettled order, twice
    const {summary, findings} = await run(p)
    // what is missing before the noise
    expect(findings.map((f) => [f.kind, f.reference])).toEqual([
      ['not_settled', 'order-EUR-404'],
      ['duplicate_order', 'order-EUR-0'],
      ['duplicate_order', 'order-EUR-404'],
    ])
    expect(summary).toMatchObject({orders: 8, matched: 4})
  })

  it('a bank credit books one payout only, and only from its arrival date within the grace days', async () => {
    const p = period(3)
    const amount = p.payouts[0]!.amount
    p.payouts.push({...p.payouts[0]!, id: 'po_twin'})
    const {findings} = await run(p, {bank: [['2026-03-02', amount, 'EUR'], ['2026-03-03', amount, 'EUR'], ['2026-03-20', amount, 'EUR'], ['2026-03-03', p.payouts[1]!.amount, 'USD']]})
    expect(findings.map((f) => [f.kind, f.payout])).toEqual([['payout_unpaid', 'po_twin'], ['unmatched_credit', null], ['unmatched_credit', null]])
    // the credits no payout explains are reported with their dates, but do not make the period fail by themselves
    expect(findings.filter((f) => f.kind === 'unmatched_credit').map((f) => f.detail)).toEqual([expect.stringContaining('on 2026-03-02'), expect.stringContaining('on 2026-03-20')])
  })

  it('says which columns a file lacks', async () => {
    const p = period(1)
    await expect(reconcile({orders: csv('ref,amount', [['a', 1]]), reports: p.reports})).rejects.toThrow(ReconcileInputError)
    await expect(reconcile({orders: csv('ref,amount', [['a', 1]]), reports: p.reports})).rejects.toThrow(/missing: reference, currency/)
  })

  it('streams a large orders file in bounded memory', async () => {
    // memory that does not grow with the file: a plateau over 50,000 orders (bench/reconcile.js
    // prints the heap retained for 1,000,000)
    const n = 50_000
    const p = period(0)
    async function* lines() {
      yield 'reference,amount,currency\n'
      for (let i = 0; i < n; i += 1000) {
        let chunk = ''
        for (let k = i; k < i + 1000; k++) chunk += `order-${k},${1000 + (k % 500)},EUR\n`
        yield chunk
      }
    }
    // retained memory, not garbage awaiting collection: a full GC at every sample
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    gc()
    const before = process.memoryUsage().heapUsed
    let peak = before
    const sample = () => {
      gc()
      const used = process.memoryUsage().heapUsed
      peak = Math.max(peak, used)
      return used
    }
    // a sample as each batch of 10,000 orders is stored, and at every 5,000th finding (a full GC
    // takes tens of milliseconds)
    const afterBatches: number[] = []
    let findings = 0
    const summary = await reconcile({
      orders: Readable.from(lines()),
      reports: p.reports,
      onOrders: () => void afterBatches.push(sample()),
      onFinding: (f) => void (f.kind === 'not_settled' && ++findings % 5000 === 0 && sample()),
    })
    expect(summary.orders).toBe(n)
    expect(summary.counts.not_settled).toBe(n)
    expect(findings).toBe(n)
    // the orders never sit in memory: the heap after the first batch stays where it was while the
    // other 40,000 are read (as objects they would take some 6 MiB), and nothing reaches 8 MiB
    expect(afterBatches.length).toBeGreaterThanOrEqual(5)
    expect(Math.max(...afterBatches) - afterBatches[0]!).toBeLessThan(1024 * 1024)
    expect(peak - before).toBeLessThan(8 * 1024 * 1024)
  })
})
