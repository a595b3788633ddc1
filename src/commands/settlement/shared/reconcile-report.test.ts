// The summary of `gw settlement reconcile`, rendered from its result.
import {stripVTControlCharacters} from 'node:util'
import {describe, expect, it} from 'vitest'
import type {Finding, ReconcileSummary} from './reconcile.js'
import {painter} from '../../../output/color.js'
import {renderReconcile, verdict, type ReconcileResult} from './reconcile-report.js'

const plain = painter(false)
const zero = {not_in_orders: 0, not_settled: 0, amount_mismatch: 0, currency_mismatch: 0, duplicate_order: 0, duplicate_settlement: 0, payout_unpaid: 0, invalid_line: 0, unmatched_credit: 0}

function result(over: Partial<ReconcileResult> = {}, summary: Partial<ReconcileSummary> = {}): ReconcileResult {
  return {
    period: {from: '2026-03-01', to: '2026-03-01'},
    currency: null,
    reports: ['stl_1', 'stl_2'],
    payouts: ['po_1'],
    orders_file: 'orders.csv',
    bank_file: 'bank.csv',
    payment_lines: 4,
    summary: {
      orders: 4,
      lines: 9,
      matched: 4,
      counts: {...zero},
      payouts: {total: 1, paid: 1, unpaid: 0},
      totals: [{currency: 'JPY', gross: 12000, refunds: -1000, fees: -360, disputes: -2000, net: 10640, payouts: 8640}],
      ok: true,
      ...summary,
    },
    out: null,
    findings_total: 0,
    findings: [],
    ...over,
  }
}

const finding = (over: Partial<Finding>): Finding => ({kind: 'not_settled', reference: 'order-1', payment: null, report: null, payout: null, expected_amount: null, actual_amount: null, currency: null, detail: 'x', ...over})

describe('reconcile summary', () => {
  it('a clean period: the counts, the totals per currency in money, and a tick', async () => {
    const out = await renderReconcile(result(), plain)
    expect(out).toMatch(/^Reconciliation 2026-03-01 · 2 reports · 1 payout\n/)
    expect(out).toMatch(/Orders\s+4 \(orders\.csv\)/)
    expect(out).toMatch(/Payment lines\s+4 \(of 9 report lines\)/)
    expect(out).toMatch(/Unpaid payouts\s+0 of 1/)
    expect(out).toMatch(/JPY\s+│ ¥12,000 JPY │ -¥1,000 JPY │ -¥360 JPY │ -¥2,000 JPY\s+│ ¥10,640 JPY │ ¥8,640 JPY/)
    expect(out).not.toContain('Findings')
    expect(out.trimEnd().split('\n').at(-1)).toBe('✓ Everything matches: 4 orders settled, 1 payout credited.')
  })

  it('findings: counts, a table of the first ones, a currency mismatch keeps the order amount unformatted, and a cross', async () => {
    const findings = [
      finding({kind: 'currency_mismatch', reference: 'order-2', payment: 'pay_2', expected_amount: 2000, actual_amount: 2000, currency: 'EUR', detail: 'order in USD, settled in EUR'}),
      finding({kind: 'payout_unpaid', reference: null, payout: 'po_1', expected_amount: 8640, currency: 'JPY', detail: 'no bank credit'}),
      ...Array.from({length: 30}, (_, i) => finding({reference: `extra-${i}`, expected_amount: 100, currency: 'EUR'})),
    ]
    const r = result({findings, findings_total: 32, out: 'm.csv', currency: 'EUR', period: {from: '2026-03-01', to: '2026-03-07'}}, {ok: false, counts: {...zero, currency_mismatch: 1, payout_unpaid: 1, not_settled: 30}, payouts: {total: 1, paid: 0, unpaid: 1}})
    const out = await renderReconcile(r, plain, {width: 100})
    expect(out).toMatch(/^Reconciliation 2026-03-01 → 2026-03-07 · EUR only/)
    expect(out).toMatch(/In orders, never settled\s+30/)
    expect(out).toMatch(/Unpaid payouts\s+1 of 1/)
    expect(out).toContain('Findings (the first 20 of 32)')
    expect(out).toMatch(/currency_mismatch │ order-2\s+│ pay_2\s+│ 2000\s+│ €20\.00 EUR/)
    expect(out).toMatch(/payout_unpaid\s+│\s+│ po_1\s+│ ¥8,640 JPY/)
    for (const line of out.split('\n')) expect(stripVTControlCharacters(line).length, line).toBeLessThanOrEqual(100)
    expect(verdict(r, plain)).toBe('✗ 32 findings: every one is in m.csv.')
    expect(verdict({...r, out: null}, plain)).toBe('✗ 32 findings: write every one as CSV with --out FILE.')
  })

  it('without a bank file the payouts are not checked, and it says so', async () => {
    const out = await renderReconcile(result({bank_file: null}, {payouts: {total: 1, paid: 0, unpaid: 0}}), plain)
    expect(out).toMatch(/Unpaid payouts\s+not checked \(no --bank file; 1 payout\)/)
    expect(out).toContain('✓ Everything matches: 4 orders settled.')
  })
})
