import type {PaymentMethod} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {renderPaymentMethod} from '../../output/detail.js'

export default class PaymentMethodsDetach extends GwCommand<typeof PaymentMethodsDetach> {
  static override summary = 'Detach a payment method from its customer; it can no longer be charged.'
  static override examples = ['<%= config.bin %> <%= command.id %> pm_123']
  static override args = {id: idArg('pm_', 'payment method')}
  static override flags = {'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<PaymentMethod> {
    const pm = await (await this.client()).paymentMethods.detach(this.args.id, {idempotencyKey: this.flags['idempotency-key']})
    this.print(renderPaymentMethod(pm, this.color))
    return pm
  }
}
