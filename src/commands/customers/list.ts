import {Flags} from '@oclif/core'
import type {Customer, ListEnvelope} from '../../api/types.js'
import {listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import {customerColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class CustomersList extends GwCommand<typeof CustomersList> {
  static override summary = 'List customers, newest first.'
  static override operations = ['listCustomers'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'The customers with this email', command: '<%= config.bin %> <%= command.id %> --email ada@example.com'},
    '<%= config.bin %> <%= command.id %> --all --json',
  ]
  static override flags = {
    email: Flags.string({description: 'Only customers with this email.'}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<Customer> | Customer[]> {
    return customersList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw customers list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface CustomersListOptions extends PagingOptions {
  email?: string
}

export async function customersList(ctx: Context, f: CustomersListOptions): Promise<ListEnvelope<Customer> | Customer[]> {
  const params = {email: f.email, ...pageParams(f)}
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'customers',
    columns: customerColumns,
    page: () => client.customers.list(params),
    iterate: () => client.customers.iterate({...params, limit: f.limit ?? 100}),
  })
}
