import type {ListEnvelope, Payment} from '../../api/types.js'
import {idArg, listFlags, pageParams} from '../../base/flags.js'
import {paymentColumns} from '../payments/shared/display.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class CustomersPayments extends GwCommand<typeof CustomersPayments> {
  static override summary = "List a customer's payments, newest first."
  static override operations = ['listCustomerPayments'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> cus_123', '<%= config.bin %> <%= command.id %> cus_123 --all --json']
  static override args = {id: idArg('cus_', 'customer')}
  static override flags = {...listFlags}

  async run(): Promise<ListEnvelope<Payment> | Payment[]> {
    return customersPayments(this.ctx, this.flags, this.args)
  }
}

export async function customersPayments(ctx: Context, flags: GwFlags<typeof CustomersPayments>, args: GwArgs<typeof CustomersPayments>): Promise<ListEnvelope<Payment> | Payment[]> {
  const params = pageParams(flags)
  const client = await ctx.client()
  return ctx.list({
    all: flags.all,
    noun: 'payments',
    columns: paymentColumns,
    page: () => client.customers.payments(args.id, params),
    iterate: () => client.customers.iteratePayments(args.id, {...params, limit: flags.limit ?? 100}),
  })
}
