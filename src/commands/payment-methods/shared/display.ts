// A saved payment method on screen: the detail view and the list's columns.
import type {PaymentMethod} from '../../../api/types.js'
import type {Painter} from '../../../output/color.js'
import {compactTime as date, renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'
import {describeCard} from '../../payments/shared/display.js'

export function renderPaymentMethod(pm: PaymentMethod, p: Painter): string {
  const card = pm.card
  const addr = pm.billing_details?.address
  const billing = [
    pm.billing_details?.name,
    pm.billing_details?.email,
    addr ? [addr.line1, addr.postal_code, addr.country].filter(Boolean).join(', ') : null,
  ]
    .filter(Boolean)
    .join(' · ')
  return renderFields(
    p.bold(pm.id),
    [
      ['Type', pm.type],
      ['Card', card ? `${describeCard(card)}${card.funding ? ` (${[card.funding, card.country].filter(Boolean).join(', ')})` : ''}` : undefined],
      ['Network token', card ? (card.network_token ? 'yes' : 'no') : undefined],
      ['Customer', pm.customer ?? p.dim('(detached)')],
      ['Billing', billing],
      ['Mode', pm.livemode ? 'live' : 'test'],
      ['Created', pm.created_at],
    ],
    p,
  )
}

export const paymentMethodColumns: Columns<PaymentMethod> = {
  head: ['ID', 'TYPE', 'CARD', 'CUSTOMER', 'CREATED'],
  row: (x) => [x.id, x.type, describeCard(x.card) ?? '', x.customer ?? '', date(x.created_at)],
}
