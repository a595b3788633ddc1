import type {Payment} from '../../api/types.js'
import {idArg} from '../../base/args.js'
import {showPayment} from '../../base/payments.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class PaymentsGet extends GwCommand<typeof PaymentsGet> {
  static override summary = 'Show one payment, with its provider attempts and risk result.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> pay_123',
    {description: 'Only the status, with jq', command: '<%= config.bin %> <%= command.id %> pay_123 --json | jq -r .status'},
  ]

  static override args = {
    id: idArg('pay_', 'payment', 'Find a payment by its order reference with: gw payments list --reference REF'),
  }

  async run(): Promise<Payment> {
    return paymentsGet(this.ctx, this.flags, this.args)
  }
}

export async function paymentsGet(ctx: Context, flags: GwFlags<typeof PaymentsGet>, args: GwArgs<typeof PaymentsGet>): Promise<Payment> {
  const payment = await (await ctx.client()).payments.get(args.id)
  showPayment(ctx, payment)
  return payment
}
