import type {Deleted} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {confirmDestructive} from '../../base/confirm.js'
import {idArg} from '../../base/flags.js'

export default class CustomersDelete extends GwCommand<typeof CustomersDelete> {
  static override summary = 'Delete a customer.'
  static override description = 'Asks for confirmation on a terminal; pass --yes to skip it (required without a terminal).'
  static override examples = ['<%= config.bin %> <%= command.id %> cus_123', '<%= config.bin %> <%= command.id %> cus_123 --yes --json']
  static override args = {id: idArg('cus_', 'customer', 'List them with: gw customers list')}

  async run(): Promise<Deleted<'customer'>> {
    await confirmDestructive({yes: this.flags.yes, interactive: this.interactive(), ask: (q) => this.prompt(q, {hidden: false})}, `delete customer ${this.args.id}`)
    const res = await (await this.client()).customers.delete(this.args.id)
    this.print(`Deleted ${res.id}.`)
    return res
  }
}
