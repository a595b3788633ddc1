import type {Payment} from '../../api/types.js'
import {amountFlag, idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {showPayment} from './shared/show.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class PaymentsIncrement extends GwCommand<typeof PaymentsIncrement> {
  static override summary = 'Raise the authorized amount of a payment in requires_capture.'
  static override operations = ['incrementAuthorization'] as const
  static override description = '--amount is the new total authorization in minor units, larger than the current amount (Visa and Mastercard; not American Express).'
  static override examples = [{description: 'Raise a 50.00 authorization to 65.00', command: '<%= config.bin %> <%= command.id %> pay_123 --amount 6500'}]

  static override args = {id: idArg('pay_', 'payment')}
  static override flags = {
    amount: amountFlag({description: 'New total authorization in minor units.', required: true}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Payment> {
    return paymentsIncrement(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments increment` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsIncrementOptions {
  amount: number
  'idempotency-key'?: string
  id: string
}

export async function paymentsIncrement(ctx: Context, o: PaymentsIncrementOptions): Promise<Payment> {
  await ctx.confirmLive(`raise the authorization of ${o.id}`)
  const client = await ctx.client()
  const payment = await client.payments.incrementAuthorization(o.id, o.amount, {idempotencyKey: o['idempotency-key']})
  showPayment(ctx, payment)
  return payment
}
