import type {Deleted} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {confirmDestructive} from '../../base/confirm.js'
import {idArg} from '../../base/flags.js'

export default class RoutingRulesDelete extends GwCommand<typeof RoutingRulesDelete> {
  static override summary = 'Delete a routing rule; payments are routed without it from now on.'
  static override description = 'Asks for confirmation on a terminal; pass --yes to skip it (required without a terminal).'
  static override examples = ['<%= config.bin %> <%= command.id %> rr_123', '<%= config.bin %> <%= command.id %> rr_123 --yes --json']
  static override args = {id: idArg('rr_', 'routing rule', 'List them with: gw routing-rules list')}

  async run(): Promise<Deleted<'routing_rule'>> {
    await confirmDestructive({yes: this.flags.yes, interactive: this.interactive(), ask: (q) => this.prompt(q, {hidden: false})}, `delete routing rule ${this.args.id}`)
    const res = await (await this.client()).routingRules.delete(this.args.id)
    this.print(`Deleted ${res.id}.`)
    return res
  }
}
