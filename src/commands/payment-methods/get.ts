import type {PaymentMethod} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderPaymentMethod} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class PaymentMethodsGet extends GwCommand<typeof PaymentMethodsGet> {
  static override summary = 'Show one saved payment method.'
  static override operations = ['retrievePaymentMethod'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> pm_123']
  static override args = {id: idArg('pm_', 'payment method')}

  async run(): Promise<PaymentMethod> {
    return paymentMethodsGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payment-methods get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentMethodsGetOptions {
  id: string
}

export async function paymentMethodsGet(ctx: Context, o: PaymentMethodsGetOptions): Promise<PaymentMethod> {
  const pm = await (await ctx.client()).paymentMethods.get(o.id)
  ctx.print(renderPaymentMethod(pm, ctx.color))
  return pm
}
