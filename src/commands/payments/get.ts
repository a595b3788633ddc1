import type {Payment} from '../../api/types.js'
import {idArg} from '../../base/args.js'
import {showPayment} from './shared/show.js'
import {noticeUnavailable, readIfAllowed, type Unavailable} from './shared/unavailable.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class PaymentsGet extends GwCommand<typeof PaymentsGet> {
  static override summary = 'Show one payment, with its provider attempts, risk result, refunds and disputes.'
  static override operations = ['retrievePayment'] as const
  static override description = 'With --json, prints the payment object as the API returned it and reads nothing else (refunds and disputes are separate objects: gw refunds list --payment, gw disputes list --payment). A key that may not read refunds or disputes is told on stderr which permission shows them. For everything in time order, including webhook deliveries: gw payments timeline.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> pay_123',
    {description: 'Only the status, with jq', command: '<%= config.bin %> <%= command.id %> pay_123 --json | jq -r .status'},
  ]

  static override args = {
    id: idArg('pay_', 'payment', 'Find a payment by its order reference with: gw payments list --reference REF'),
  }

  async run(): Promise<Payment> {
    return paymentsGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsGetOptions {
  id: string
}

export async function paymentsGet(ctx: Context, o: PaymentsGetOptions): Promise<Payment> {
  const client = await ctx.client()
  const payment = await client.payments.get(o.id)
  if (ctx.json) return payment
  // its refunds and disputes beside it; what a key may not read is said, with the permission that shows it
  const unavailable: Unavailable[] = []
  const [refunds, disputes] = await Promise.all([
    readIfAllowed(() => client.refunds.list({payment: payment.id, limit: 100}).then((l) => l.data), 'refunds', 'refunds:read', unavailable),
    readIfAllowed(() => client.disputes.list({payment: payment.id, limit: 100}).then((l) => l.data), 'disputes', 'disputes:read', unavailable),
  ])
  showPayment(ctx, payment, {refunds, disputes})
  noticeUnavailable(ctx, unavailable)
  if (payment.amount_refunded > 0 || disputes?.length) ctx.notice(ctx.errColor.dim(`The whole story, in time order: gw payments timeline ${payment.id}`))
  return payment
}
