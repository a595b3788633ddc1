import type {Customer, ListEnvelope} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {listFlags} from '../../base/flags.js'
import {customerColumns} from '../../output/table.js'

export default class CustomersList extends GwCommand<typeof CustomersList> {
  static override summary = 'List customers, newest first.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --all --json']
  static override flags = {...listFlags}

  async run(): Promise<ListEnvelope<Customer> | Customer[]> {
    const f = this.flags
    const params = {limit: f.limit, starting_after: f['starting-after'], ending_before: f['ending-before']}
    const client = await this.client()
    return this.showList({
      all: f.all,
      noun: 'customers',
      columns: customerColumns,
      page: () => client.customers.list(params),
      iterate: () => client.customers.iterate({...params, limit: f.limit ?? 100}),
    })
  }
}
