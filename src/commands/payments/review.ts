import {Flags} from '@oclif/core'
import type {Payment} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {showPayment} from '../../base/payments.js'

export default class PaymentsReview extends GwCommand<typeof PaymentsReview> {
  static override summary = 'Test helper: decide a risk review (a payment held in processing).'
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
    const client = await this.client()
    const payment = await client.testHelpers.paymentReview(this.args.id, this.flags.approve ? 'approve' : 'block', {idempotencyKey: this.flags['idempotency-key']})
    showPayment(this.ctx(), payment)
    return payment
  }
}
