import type {Deleted} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class RoutingRulesDelete extends GwCommand<typeof RoutingRulesDelete> {
  static override summary = 'Delete a routing rule; payments are routed without it from now on.'
  static override operations = ['deleteRoutingRule'] as const
  static override description = 'Asks for confirmation on a terminal; pass --yes to skip it (required without a terminal).'
  static override examples = ['<%= config.bin %> <%= command.id %> rr_123', '<%= config.bin %> <%= command.id %> rr_123 --yes --json']
  static override args = {id: idArg('rr_', 'routing rule', 'List them with: gw routing-rules list')}

  async run(): Promise<Deleted<'routing_rule'>> {
    return routingRulesDelete(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw routing-rules delete` takes: its flags and arguments by name (run() passes them as parsed). */
export interface RoutingRulesDeleteOptions {
  id: string
}

export async function routingRulesDelete(ctx: Context, o: RoutingRulesDeleteOptions): Promise<Deleted<'routing_rule'>> {
  await ctx.confirmDestructive(`delete routing rule ${o.id}`, 'nothing was deleted')
  const res = await (await ctx.client()).routingRules.delete(o.id)
  ctx.print(`Deleted ${res.id}.`)
  return res
}
