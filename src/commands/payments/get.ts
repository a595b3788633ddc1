import type {Payment} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/args.js'
import {showPayment} from '../../base/payments.js'

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
    const payment = await (await this.client()).payments.get(this.args.id)
    showPayment(this.ctx(), payment)
    return payment
  }
}
