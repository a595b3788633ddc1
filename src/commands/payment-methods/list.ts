import {Flags} from '@oclif/core'
import type {ListEnvelope, PaymentMethod} from '../../api/types.js'
import {listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import {paymentMethodColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class PaymentMethodsList extends GwCommand<typeof PaymentMethodsList> {
  static override summary = 'List saved payment methods, newest first.'
  static override operations = ['listPaymentMethods'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> --customer cus_123', '<%= config.bin %> <%= command.id %> --all']
  static override flags = {
    customer: Flags.string({description: 'Only payment methods of this customer (cus_...).'}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<PaymentMethod> | PaymentMethod[]> {
    return paymentMethodsList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payment-methods list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentMethodsListOptions extends PagingOptions {
  customer?: string
}

export async function paymentMethodsList(ctx: Context, f: PaymentMethodsListOptions): Promise<ListEnvelope<PaymentMethod> | PaymentMethod[]> {
  const params = {customer: f.customer, ...pageParams(f)}
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'payment methods',
    columns: paymentMethodColumns,
    page: () => client.paymentMethods.list(params),
    iterate: () => client.paymentMethods.iterate({...params, limit: f.limit ?? 100}),
  })
}
