import type {Payment} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {showPayment} from '../../base/payments.js'

export default class PaymentsCancel extends GwCommand<typeof PaymentsCancel> {
  static override summary = 'Cancel a payment that has not completed; any authorization hold is released.'
  static override description =
    'Works from requires_confirmation, requires_action and requires_capture. After partial captures the money captured stays the merchant\'s: the payment closes as succeeded and only the remainder is released.'
  static override examples = ['<%= config.bin %> <%= command.id %> pay_123']

  static override args = {id: idArg('pay_', 'payment')}
  static override flags = {'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<Payment> {
    const client = await this.client()
    const payment = await client.payments.cancel(this.args.id, {idempotencyKey: this.flags['idempotency-key']})
    showPayment(this.ctx(), payment)
    return payment
  }
}
