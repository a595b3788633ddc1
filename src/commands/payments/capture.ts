import type {Payment} from '../../api/types.js'
import {amountFlag, idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {showPayment} from './shared/show.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class PaymentsCapture extends GwCommand<typeof PaymentsCapture> {
  static override summary = 'Capture an authorized payment (requires_capture), in full or in part.'
  static override operations = ['capturePayment'] as const
  static override examples = [
    {description: 'Capture the whole authorization', command: '<%= config.bin %> <%= command.id %> pay_123'},
    {description: 'Capture 15.00 of a EUR authorization', command: '<%= config.bin %> <%= command.id %> pay_123 --amount 1500'},
  ]

  static override args = {id: idArg('pay_', 'payment')}
  static override flags = {
    amount: amountFlag({description: 'Amount to capture in minor units (default: the remaining authorization).'}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Payment> {
    return paymentsCapture(this.ctx, this.flags, this.args)
  }
}

export async function paymentsCapture(ctx: Context, flags: GwFlags<typeof PaymentsCapture>, args: GwArgs<typeof PaymentsCapture>): Promise<Payment> {
  const f = flags
  await ctx.confirmLive(`capture payment ${args.id}`)
  const client = await ctx.client()
  const payment = await client.payments.capture(args.id, f.amount === undefined ? {} : {amount: f.amount}, {idempotencyKey: f['idempotency-key']})
  showPayment(ctx, payment)
  return payment
}
