import type {Payment, PaymentRouting} from '../../api/types.js'
import {idArg} from '../../base/args.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class PaymentsExplain extends GwCommand<typeof PaymentsExplain> {
  static override summary = 'Explain how a payment was routed: what was chosen and why, each candidate scored, each provider attempt.'
  static override operations = ['retrievePaymentRouting'] as const
  static override description = `Shows every routing pass as the router decided it then (not recomputed with today's rules or rates): the routing rule that matched or smart routing, the providers excluded and why, each candidate's score with its parts (fee for this amount, 7-day authorization rate, currency and method fit), the tie-break, and each attempt with its outcome, decline code and class (soft: the next provider was tried; final: routing stopped) and latency.
A payment that waited for the customer (3-D Secure, a bank redirect) has a second pass when it resumes.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> pay_123',
    {description: 'The failover hops, with jq', command: "<%= config.bin %> <%= command.id %> pay_123 --json | jq -c '.attempts[] | {provider, outcome, decline_class}'"},
    {description: 'Test it: amount 4999 times out on the first provider and fails over', command: '<%= config.bin %> payments create --amount 4999 --currency EUR --card 4242424242424242 --json | jq -r .id | xargs <%= config.bin %> <%= command.id %>'},
  ]

  static override args = {
    id: idArg('pay_', 'payment', 'Find a payment by its order reference with: gw payments list --reference REF'),
  }

  async run(): Promise<PaymentRouting> {
    return paymentsExplain(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments explain` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsExplainOptions {
  id: string
}

export async function paymentsExplain(ctx: Context, o: PaymentsExplainOptions): Promise<PaymentRouting> {
  const client = await ctx.client()
  if (ctx.json) return client.payments.routing(o.id)
  // the payment adds its status, amount and failure to the trace
  const [routing, payment] = await Promise.all([client.payments.routing(o.id), client.payments.get(o.id).catch(() => undefined as Payment | undefined)])
  const {renderPaymentRouting} = await import('../routing/shared/display.js')
  ctx.print(await renderPaymentRouting(routing, payment, ctx.color, {width: ctx.out.width}))
  return routing
}
