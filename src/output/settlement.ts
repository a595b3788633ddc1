// Views of the balance, settlement reports and payouts. Amounts are minor units of their
// currency, shown with its exponent.
import type {Balance, Payout, SettlementLine, SettlementReport} from '../api/types.js'
import {paintStatus, type Painter} from './color.js'
import {renderFields} from './detail.js'
import {formatMoney} from '../api/money.js'
import type {Columns} from './table.js'

const date = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : '')

export interface BalanceRow {
  currency: string
  available: number
  pending: number
}

/** One row per currency, from the two lists of the balance object. */
export function balanceRows(b: Balance): BalanceRow[] {
  const rows = new Map<string, BalanceRow>()
  const row = (c: string) => rows.get(c) ?? rows.set(c, {currency: c, available: 0, pending: 0}).get(c)!
  for (const a of b.available ?? []) row(a.currency).available += a.amount
  for (const a of b.pending ?? []) row(a.currency).pending += a.amount
  return [...rows.values()].sort((x, y) => (x.currency < y.currency ? -1 : 1))
}

export const balanceColumns: Columns<BalanceRow> = {
  head: ['CURRENCY', 'AVAILABLE', 'PENDING'],
  row: (x, p) => [x.currency, x.available < 0 ? p.red(formatMoney(x.available, x.currency)) : formatMoney(x.available, x.currency), formatMoney(x.pending, x.currency)],
}

export const settlementColumns: Columns<SettlementReport> = {
  head: ['ID', 'DATE', 'PROVIDER', 'CURRENCY', 'GROSS', 'NET', 'PAYOUT AMOUNT', 'PAYOUT'],
  row: (x) => [x.id, x.date, x.provider, x.currency, formatMoney(x.gross, x.currency), formatMoney(x.net, x.currency), formatMoney(x.payout_amount, x.currency), x.payout ?? ''],
}

export const lineColumns: Columns<SettlementLine> = {
  head: ['TYPE', 'PAYMENT', 'REFERENCE', 'AMOUNT', 'CONVERTED', 'CREATED'],
  row: (x) => [
    x.type,
    x.payment ?? '',
    x.reference ?? '',
    formatMoney(x.amount, x.currency),
    x.converted_amount !== undefined && x.converted_currency ? `${formatMoney(x.converted_amount, x.converted_currency)} @ ${x.rate}` : '',
    date(x.created_at),
  ],
}

export function renderSettlementReport(r: SettlementReport, p: Painter): string {
  const converted =
    r.payout_currency && r.payout_currency !== r.currency && r.converted_payout_amount !== undefined
      ? formatMoney(r.converted_payout_amount, r.payout_currency)
      : undefined
  return renderFields(
    `${p.bold(r.id)}  ${r.date}  ${r.provider}${r.livemode ? `  ${p.red('LIVE')}` : ''}`,
    [
      ['Currency', r.currency],
      ['Gross', formatMoney(r.gross, r.currency)],
      ['Refunds', formatMoney(r.refunds, r.currency)],
      ['Fees', formatMoney(r.fees, r.currency)],
      ['Net', formatMoney(r.net, r.currency)],
      ['Adjustments', `${formatMoney(r.adjustments, r.currency)}${r.adjustments ? p.dim('  (dispute debits and returns)') : ''}`],
      ['Payout amount', formatMoney(r.payout_amount, r.currency)],
      ['Converted', converted],
      ['Payout', r.payout ?? p.dim('(none: nothing to pay out)')],
      ['Lines', String(r.lines.length)],
      ['Created', r.created_at],
    ],
    p,
  )
}

export const payoutColumns: Columns<Payout> = {
  head: ['ID', 'STATUS', 'AMOUNT', 'ARRIVAL', 'REPORTS', 'CREATED'],
  row: (x, p) => [x.id, paintStatus(p, x.status), formatMoney(x.amount, x.currency), x.arrival_date, String(x.settlement_reports.length), date(x.created_at)],
}

export function renderPayout(po: Payout, p: Painter): string {
  return renderFields(
    `${p.bold(po.id)}  ${paintStatus(p, po.status)}${po.livemode ? `  ${p.red('LIVE')}` : ''}`,
    [
      ['Amount', formatMoney(po.amount, po.currency)],
      ['Arrival date', po.arrival_date],
      ['Reports', po.settlement_reports.join('\n')],
      ['Mode', po.livemode ? 'live' : 'test'],
      ['Created', po.created_at],
    ],
    p,
  )
}
