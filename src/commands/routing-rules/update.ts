import type {RoutingRule} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {ruleBody, ruleFlags, type RuleOptions} from './shared/flags.js'
import {renderRoutingRule} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class RoutingRulesUpdate extends GwCommand<typeof RoutingRulesUpdate> {
  static override summary = 'Change a routing rule.'
  static override operations = ['updateRoutingRule'] as const
  static override description = 'Any condition flag replaces all of the rule\'s conditions; --provider replaces the whole provider list.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> rr_123 --priority 5',
    '<%= config.bin %> <%= command.id %> rr_123 --provider prov_atlas:50 --provider prov_borealis:50',
  ]

  static override args = {id: idArg('rr_', 'routing rule', 'List them with: gw routing-rules list')}
  static override flags = {...ruleFlags(false), 'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<RoutingRule> {
    return routingRulesUpdate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw routing-rules update` takes: its flags and arguments by name (run() passes them as parsed). */
export interface RoutingRulesUpdateOptions extends RuleOptions {
  'idempotency-key'?: string
  id: string
}

export async function routingRulesUpdate(ctx: Context, f: RoutingRulesUpdateOptions): Promise<RoutingRule> {
  const body = ruleBody(f)
  if (Object.keys(body).length === 0) throw new UsageError('Nothing to change.', 'Pass --priority, --action, --provider, --merchant or a condition flag.')
  const rule = await (await ctx.client()).routingRules.update(f.id, body, {idempotencyKey: f['idempotency-key']})
  ctx.print(renderRoutingRule(rule, ctx.color))
  return rule
}
