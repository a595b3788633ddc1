import type {RoutingRule} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderRoutingRule} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class RoutingRulesGet extends GwCommand<typeof RoutingRulesGet> {
  static override summary = 'Show one routing rule.'
  static override operations = ['retrieveRoutingRule'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> rr_123', '<%= config.bin %> <%= command.id %> rr_123 --json | jq .providers']
  static override args = {id: idArg('rr_', 'routing rule', 'List them with: gw routing-rules list')}

  async run(): Promise<RoutingRule> {
    return routingRulesGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw routing-rules get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface RoutingRulesGetOptions {
  id: string
}

export async function routingRulesGet(ctx: Context, o: RoutingRulesGetOptions): Promise<RoutingRule> {
  const rule = await (await ctx.client()).routingRules.get(o.id)
  ctx.print(renderRoutingRule(rule, ctx.color))
  return rule
}
