import type {PaymentMethod} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'
import {renderPaymentMethod} from '../../output/detail.js'

export default class PaymentMethodsGet extends GwCommand<typeof PaymentMethodsGet> {
  static override summary = 'Show one saved payment method.'
  static override examples = ['<%= config.bin %> <%= command.id %> pm_123']
  static override args = {id: idArg('pm_', 'payment method')}

  async run(): Promise<PaymentMethod> {
    const pm = await (await this.client()).paymentMethods.get(this.args.id)
    this.print(renderPaymentMethod(pm, this.color))
    return pm
  }
}
