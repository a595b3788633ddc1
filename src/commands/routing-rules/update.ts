import type {RoutingRule} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {ruleBody, ruleFlags} from './shared/flags.js'
import {renderRoutingRule} from './shared/display.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'
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
    return routingRulesUpdate(this.ctx, this.flags, this.args)
  }
}

export async function routingRulesUpdate(ctx: Context, flags: GwFlags<typeof RoutingRulesUpdate>, args: GwArgs<typeof RoutingRulesUpdate>): Promise<RoutingRule> {
  const f = flags
  const body = ruleBody(f)
  if (Object.keys(body).length === 0) throw new UsageError('Nothing to change.', 'Pass --priority, --action, --provider, --merchant or a condition flag.')
  const rule = await (await ctx.client()).routingRules.update(args.id, body, {idempotencyKey: f['idempotency-key']})
  ctx.print(renderRoutingRule(rule, ctx.color))
  return rule
}
