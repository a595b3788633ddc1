// A hosted checkout session (docs/api.md#hosted-checkout-sessions) as a person reads it.
import {methodInfo} from '../../../api/catalog.js'
import type {CheckoutSession} from '../../../api/types.js'
import {paintStatus, type Painter} from '../../../output/color.js'
import {compactTime as date, renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'
import {formatMoney} from '../../../api/money.js'

const when = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : undefined)

export function renderCheckoutSession(s: CheckoutSession, p: Painter): string {
  return renderFields(
    `${p.bold(s.id)}  ${paintStatus(p, s.status === 'complete' ? 'succeeded' : s.status === 'expired' ? 'canceled' : 'pending')} ${s.status}`,
    [
      ['Amount', formatMoney(s.amount, s.currency)],
      ['Reference', s.reference],
      ['Methods', s.payment_methods.map((m) => methodInfo(m)?.name ?? m).join(', ')],
      ['Page', s.status === 'open' ? s.url : undefined],
      ['Payment', s.payment ?? undefined],
      ['Success URL', s.success_url],
      ['Cancel URL', s.cancel_url],
      ['Customer', s.customer ?? undefined],
      [s.status === 'complete' ? 'Completed' : 'Expires', s.status === 'complete' ? when(s.completed_at) : when(s.expires_at)],
      ['Created', when(s.created_at)],
    ],
    p,
  )
}

/** The list (gw checkout list). */
export const checkoutColumns: Columns<CheckoutSession> = {
  head: ['ID', 'STATUS', 'AMOUNT', 'REFERENCE', 'PAYMENT', 'CREATED'],
  row: (s, p) => [s.id, paintStatus(p, s.status), formatMoney(s.amount, s.currency), s.reference, s.payment ?? '', date(s.created_at)],
  fit: {drop: ['REFERENCE']},
}
