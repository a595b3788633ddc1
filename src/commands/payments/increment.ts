import type {Payment} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {amountFlag, idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {showPayment} from '../../base/payments.js'

export default class PaymentsIncrement extends GwCommand<typeof PaymentsIncrement> {
  static override summary = 'Raise the authorized amount of a payment in requires_capture.'
  static override description = '--amount is the new total authorization in minor units, larger than the current amount (Visa and Mastercard; not American Express).'
  static override examples = [{description: 'Raise a 50.00 authorization to 65.00', command: '<%= config.bin %> <%= command.id %> pay_123 --amount 6500'}]

  static override args = {id: idArg('pay_', 'payment')}
  static override flags = {
    amount: amountFlag({description: 'New total authorization in minor units.', required: true}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Payment> {
    await this.confirmLive(`raise the authorization of ${this.args.id}`)
    const client = await this.client()
    const payment = await client.payments.incrementAuthorization(this.args.id, this.flags.amount, {idempotencyKey: this.flags['idempotency-key']})
    showPayment(this.ctx(), payment)
    return payment
  }
}
