// Refunds on screen: the detail view, the next step, the list's columns.
import type {Refund} from '../../../api/types.js'
import {formatMoney} from '../../../api/money.js'
import {paintStatus, type Painter} from '../../../output/color.js'
import {compactTime as date, metadataText as metadata, renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'

export function renderRefund(r: Refund, p: Painter): string {
  return renderFields(
    `${p.bold(r.id)}  ${paintStatus(p, r.status)}${r.livemode ? `  ${p.red('LIVE')}` : ''}`,
    [
      ['Amount', formatMoney(r.amount, r.currency)],
      ['Payment', r.payment],
      ['Reason', r.reason],
      ['Failure', r.failure_reason ? p.red(r.failure_reason) : undefined],
      ['Reference', r.reference],
      ['Metadata', metadata(r.metadata)],
      ['Mode', r.livemode ? 'live' : 'test'],
      ['Created', r.created_at],
    ],
    p,
  )
}

export function refundHint(r: Refund): string | undefined {
  if (r.status === 'pending') return `Pending until the rail answers (refund.succeeded or refund.failed). Check it with: gw refunds get ${r.id}`
  if (r.status === 'failed') return `The amount is refundable again on ${r.payment}.`
  return undefined
}

export const refundColumns: Columns<Refund> = {
  head: ['ID', 'STATUS', 'AMOUNT', 'PAYMENT', 'REASON', 'CREATED'],
  row: (x, p) => [x.id, paintStatus(p, x.status), formatMoney(x.amount, x.currency), x.payment, x.reason ?? '', date(x.created_at)],
}
