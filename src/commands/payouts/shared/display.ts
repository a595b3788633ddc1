// Payouts on screen: the list's columns and one payout's view.
import type {Payout} from '../../../api/types.js'
import {formatMoney} from '../../../api/money.js'
import {paintStatus, type Painter} from '../../../output/color.js'
import {compactTime as date, renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'

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
