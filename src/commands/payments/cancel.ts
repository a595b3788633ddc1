import type {Payment} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {showPayment} from './shared/show.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class PaymentsCancel extends GwCommand<typeof PaymentsCancel> {
  static override summary = 'Cancel a payment that has not completed; any authorization hold is released.'
  static override operations = ['cancelPayment'] as const
  static override description =
    'Works from requires_confirmation, requires_action and requires_capture. After partial captures the money captured stays the merchant\'s: the payment closes as succeeded and only the remainder is released.'
  static override examples = ['<%= config.bin %> <%= command.id %> pay_123']

  static override args = {id: idArg('pay_', 'payment')}
  static override flags = {'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<Payment> {
    return paymentsCancel(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments cancel` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsCancelOptions {
  'idempotency-key'?: string
  id: string
}

export async function paymentsCancel(ctx: Context, o: PaymentsCancelOptions): Promise<Payment> {
  const client = await ctx.client()
  const payment = await client.payments.cancel(o.id, {idempotencyKey: o['idempotency-key']})
  showPayment(ctx, payment)
  return payment
}
