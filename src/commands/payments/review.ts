import {Flags} from '@oclif/core'
import type {Payment} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {showPayment} from './shared/show.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

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
    return paymentsReview(this.ctx, this.flags, this.args)
  }
}

export async function paymentsReview(ctx: Context, flags: GwFlags<typeof PaymentsReview>, args: GwArgs<typeof PaymentsReview>): Promise<Payment> {
  const client = await ctx.client()
  const payment = await client.testHelpers.paymentReview(args.id, flags.approve ? 'approve' : 'block', {idempotencyKey: flags['idempotency-key']})
  showPayment(ctx, payment)
  return payment
}
