import type {Customer} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderCustomer} from './shared/display.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class CustomersGet extends GwCommand<typeof CustomersGet> {
  static override summary = 'Show one customer.'
  static override operations = ['retrieveCustomer'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> cus_123']
  static override args = {id: idArg('cus_', 'customer')}

  async run(): Promise<Customer> {
    return customersGet(this.ctx, this.flags, this.args)
  }
}

export async function customersGet(ctx: Context, flags: GwFlags<typeof CustomersGet>, args: GwArgs<typeof CustomersGet>): Promise<Customer> {
  const customer = await (await ctx.client()).customers.get(args.id)
  ctx.print(renderCustomer(customer, ctx.color))
  return customer
}
