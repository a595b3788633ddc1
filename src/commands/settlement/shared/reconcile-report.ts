// `gw settlement reconcile` on a terminal: what was compared, the counts of each kind of
// finding, fees and dispute debits per currency (money formatted), and the first findings.
// The findings themselves go to --out as CSV; this view is the summary.
import type {Finding, FindingKind, ReconcileSummary} from './reconcile.js'
import type {Painter} from '../../../output/color.js'
import {formatMoney} from '../../../api/money.js'
import {renderTable, type Columns} from '../../../output/table.js'

/** What `gw settlement reconcile` returns (and prints under --json). */
export interface ReconcileResult {
  /** the days whose settlement reports were compared (UTC, inclusive) */
  period: {from: string; to: string}
  currency: string | null
  /** the settlement reports of the period (stl_...) */
  reports: string[]
  /** the payouts that reference them (po_...) */
  payouts: string[]
  orders_file: string
  bank_file: string | null
  /** payment lines in the reports (each is matched to an order by reference) */
  payment_lines: number
  summary: ReconcileSummary
  /** the CSV of every finding, or null without --out */
  out: string | null
  /** how many findings there are in all, and the first of them (every one is in --out) */
  findings_total: number
  findings: Finding[]
}

const FINDINGS_SHOWN = 20

/** In the order that matters: money differences, then what is missing, then noise. */
const KIND_LABELS: [FindingKind, string][] = [
  ['amount_mismatch', 'Amount mismatches'],
  ['currency_mismatch', 'Currency mismatches'],
  ['payout_unpaid', 'Unpaid payouts'],
  ['not_settled', 'In orders, never settled'],
  ['not_in_orders', 'In reports, not in orders'],
  ['unmatched_credit', 'Bank credits no payout explains'],
  ['duplicate_settlement', 'Duplicate settlements'],
  ['duplicate_order', 'Duplicate orders'],
  ['invalid_line', 'Invalid lines'],
]

const n = (x: number) => x.toLocaleString('en-US')

function money(amount: number | null, currency: string | null): string {
  if (amount === null) return ''
  if (!currency) return String(amount)
  try {
    return formatMoney(amount, currency)
  } catch {
    return `${amount} ${currency}`
  }
}

export const findingColumns: Columns<Finding> = {
  head: ['KIND', 'REFERENCE', 'OBJECT', 'EXPECTED', 'ACTUAL', 'DETAIL'],
  fit: {flex: ['DETAIL', 'REFERENCE', 'OBJECT'], drop: ['OBJECT', 'DETAIL']},
  row: (f, p) => [
    p.red(f.kind),
    f.reference ?? '',
    f.payment ?? f.payout ?? f.report ?? '',
    // a currency mismatch's expected amount is in the order's currency (named in the detail)
    f.kind === 'currency_mismatch' ? String(f.expected_amount ?? '') : money(f.expected_amount, f.currency),
    money(f.actual_amount, f.currency),
    f.detail,
  ],
}

type TotalsRow = ReconcileSummary['totals'][number]
const totalsColumns: Columns<TotalsRow> = {
  head: ['CURRENCY', 'GROSS', 'REFUNDS', 'FEES', 'DISPUTE DEBITS', 'NET', 'PAYOUTS'],
  fit: {drop: ['REFUNDS', 'GROSS']},
  row: (t) => [t.currency, formatMoney(t.gross, t.currency), formatMoney(t.refunds, t.currency), formatMoney(t.fees, t.currency), formatMoney(t.disputes, t.currency), formatMoney(t.net, t.currency), formatMoney(t.payouts, t.currency)],
}

/** The summary, the totals per currency, the first findings and the verdict. */
export async function renderReconcile(r: ReconcileResult, p: Painter, opts: {width?: number} = {}): Promise<string> {
  const s = r.summary
  const period = r.period.from === r.period.to ? r.period.from : `${r.period.from} → ${r.period.to}`
  const head = [`${p.bold('Reconciliation')} ${period}`, r.currency ? `${r.currency} only` : null, `${n(r.reports.length)} report${r.reports.length === 1 ? '' : 's'}`, `${n(r.payouts.length)} payout${r.payouts.length === 1 ? '' : 's'}`]
    .filter(Boolean)
    .join(' · ')
  const rows: [string, string][] = [
    ['Orders', `${n(s.orders)} ${p.dim(`(${r.orders_file})`)}`],
    ['Payment lines', `${n(r.payment_lines)} ${p.dim(`(of ${n(s.lines)} report lines)`)}`],
    ['Matched', s.matched ? p.green(n(s.matched)) : '0'],
  ]
  for (const [kind, label] of KIND_LABELS) {
    const count = s.counts[kind]
    let value = count ? p.red(n(count)) : p.dim('0')
    if (kind === 'payout_unpaid') value = r.bank_file ? `${value} of ${n(s.payouts.total)}` : p.dim(`not checked (no --bank file; ${n(s.payouts.total)} payout${s.payouts.total === 1 ? '' : 's'})`)
    rows.push([label, value])
  }
  const width = Math.max(...rows.map(([l]) => l.length))
  const out = [head, ...rows.map(([l, v]) => `  ${p.dim(l.padEnd(width))}  ${v}`)]
  if (s.totals.length) {
    out.push('', `${p.bold('Per currency')} ${p.dim('(fees and dispute debits are negative; net = gross + refunds + fees)')}`)
    out.push(await renderTable(s.totals, totalsColumns, p, opts))
  }
  if (r.findings.length) {
    const shown = r.findings.slice(0, FINDINGS_SHOWN)
    const more = r.findings_total - shown.length
    out.push('', p.bold(more > 0 ? `Findings (the first ${shown.length} of ${n(r.findings_total)})` : 'Findings'))
    out.push(await renderTable(shown, findingColumns, p, opts))
  }
  out.push('', verdict(r, p))
  return out.join('\n')
}

export function verdict(r: ReconcileResult, p: Painter): string {
  const s = r.summary
  if (s.ok) {
    const payouts = r.bank_file ? `, ${n(s.payouts.paid)} payout${s.payouts.paid === 1 ? '' : 's'} credited` : ''
    return p.green(`✓ Everything matches: ${n(s.matched)} order${s.matched === 1 ? '' : 's'} settled${payouts}.`)
  }
  const where = r.out ? `every one is in ${r.out}` : 'write every one as CSV with --out FILE'
  return p.red(`✗ ${n(r.findings_total)} finding${r.findings_total === 1 ? '' : 's'}: ${where}.`)
}
