// Views of settlement reports and their lines. Amounts are minor units of their currency, shown
// with its exponent.
import type {SettlementLine, SettlementReport} from '../../../api/types.js'
import type {Painter} from '../../../output/color.js'
import {compactTime as date, renderFields} from '../../../output/detail.js'
import {formatMoney} from '../../../api/money.js'
import type {Columns} from '../../../output/table.js'

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
