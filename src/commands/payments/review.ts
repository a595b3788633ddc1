import {Flags} from '@oclif/core'
import type {Payment} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {showPayment} from './shared/show.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class PaymentsReview extends GwCommand<typeof PaymentsReview> {
  static override summary = 'Test helper: decide a risk review (a payment held in processing).'
  static override operations = ['testPaymentReview'] as const
  static override examples = [
    {description: 'Let the held payment through', command: '<%= config.bin %> <%= command.id %> pay_123 --approve'},
    {description: 'Block it (the payment fails with payment_blocked)', command: '<%= config.bin %> <%= command.id %> pay_123 --block'},
  ]

  static override args = {id: idArg('pay_', 'payment')}
  static override flags = {
    approve: Flags.boolean({description: 'Approve the payment.', exactlyOne: ['approve', 'block']}),
    block: Flags.boolean({description: 'Block the payment.', exactlyOne: ['approve', 'block']}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Payment> {
    return paymentsReview(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments review` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsReviewOptions {
  approve?: boolean
  block?: boolean
  'idempotency-key'?: string
  id: string
}

export async function paymentsReview(ctx: Context, o: PaymentsReviewOptions): Promise<Payment> {
  const client = await ctx.client()
  const payment = await client.testHelpers.paymentReview(o.id, o.approve ? 'approve' : 'block', {idempotencyKey: o['idempotency-key']})
  showPayment(ctx, payment)
  return payment
}
