import type {Customer} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderCustomer} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class CustomersGet extends GwCommand<typeof CustomersGet> {
  static override summary = 'Show one customer.'
  static override operations = ['retrieveCustomer'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> cus_123']
  static override args = {id: idArg('cus_', 'customer')}

  async run(): Promise<Customer> {
    return customersGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw customers get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface CustomersGetOptions {
  id: string
}

export async function customersGet(ctx: Context, o: CustomersGetOptions): Promise<Customer> {
  const customer = await (await ctx.client()).customers.get(o.id)
  ctx.print(renderCustomer(customer, ctx.color))
  return customer
}
