import type {PaymentMethod} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {renderPaymentMethod} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class PaymentMethodsDetach extends GwCommand<typeof PaymentMethodsDetach> {
  static override summary = 'Detach a payment method from its customer; it can no longer be charged.'
  static override operations = ['detachPaymentMethod'] as const
  static override description = 'Asks for confirmation on a terminal (the typed word "live" with a live key); pass --yes to skip it (required without a terminal).'
  static override examples = ['<%= config.bin %> <%= command.id %> pm_123', '<%= config.bin %> <%= command.id %> pm_123 --yes --json']
  static override args = {id: idArg('pm_', 'payment method')}
  static override flags = {'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<PaymentMethod> {
    return paymentMethodsDetach(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payment-methods detach` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentMethodsDetachOptions {
  'idempotency-key'?: string
  id: string
}

export async function paymentMethodsDetach(ctx: Context, o: PaymentMethodsDetachOptions): Promise<PaymentMethod> {
  await ctx.confirmDestructive(`detach payment method ${o.id} from its customer: it can no longer be charged`, 'nothing was detached')
  const pm = await (await ctx.client()).paymentMethods.detach(o.id, {idempotencyKey: o['idempotency-key']})
  ctx.print(renderPaymentMethod(pm, ctx.color))
  return pm
}
