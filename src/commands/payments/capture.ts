import type {Payment} from '../../api/types.js'
import {amountFlag, idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {showPayment} from './shared/show.js'
import {GwCommand, type Context} from '../../base/command.js'

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
    return paymentsCapture(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments capture` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsCaptureOptions {
  amount?: number
  'idempotency-key'?: string
  id: string
}

export async function paymentsCapture(ctx: Context, f: PaymentsCaptureOptions): Promise<Payment> {
  await ctx.confirmLive(`capture payment ${f.id}`)
  const client = await ctx.client()
  const payment = await client.payments.capture(f.id, f.amount === undefined ? {} : {amount: f.amount}, {idempotencyKey: f['idempotency-key']})
  showPayment(ctx, payment)
  return payment
}
