import type {Deleted} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class CustomersDelete extends GwCommand<typeof CustomersDelete> {
  static override summary = 'Delete a customer.'
  static override operations = ['deleteCustomer'] as const
  static override description = 'Asks for confirmation on a terminal; pass --yes to skip it (required without a terminal).'
  static override examples = ['<%= config.bin %> <%= command.id %> cus_123', '<%= config.bin %> <%= command.id %> cus_123 --yes --json']
  static override args = {id: idArg('cus_', 'customer', 'List them with: gw customers list')}

  async run(): Promise<Deleted<'customer'>> {
    return customersDelete(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw customers delete` takes: its flags and arguments by name (run() passes them as parsed). */
export interface CustomersDeleteOptions {
  id: string
}

export async function customersDelete(ctx: Context, o: CustomersDeleteOptions): Promise<Deleted<'customer'>> {
  await ctx.confirmDestructive(`delete customer ${o.id}`, 'nothing was deleted')
  const res = await (await ctx.client()).customers.delete(o.id)
  ctx.print(`Deleted ${res.id}.`)
  return res
}
