import type {RoutingRule} from '../../api/types.js'
import {idempotencyKeyFlag} from '../../base/flags.js'
import {ruleBody, ruleFlags, type RuleOptions} from './shared/flags.js'
import {renderRoutingRule} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class RoutingRulesCreate extends GwCommand<typeof RoutingRulesCreate> {
  static override summary = 'Create a routing rule: prefer, split traffic between, or block providers for matching payments.'
  static override operations = ['createRoutingRule'] as const
  static override description = 'Rules are evaluated by priority (lowest first); conditions left out match any payment.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --priority 10 --action prefer --provider prov_atlas --currency EUR',
    '<%= config.bin %> <%= command.id %> --priority 20 --action split --provider prov_atlas:70 --provider prov_borealis:30',
    '<%= config.bin %> <%= command.id %> --priority 1 --action block --provider prov_fjord --amount-gte 100000',
  ]

  static override flags = {...ruleFlags(true), 'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<RoutingRule> {
    return routingRulesCreate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw routing-rules create` takes: its flags and arguments by name (run() passes them as parsed). */
export interface RoutingRulesCreateOptions extends RuleOptions {
  'idempotency-key'?: string
}

export async function routingRulesCreate(ctx: Context, f: RoutingRulesCreateOptions): Promise<RoutingRule> {
  const {priority, action, ...rest} = ruleBody(f)
  // both flags are required here (ruleFlags(true)): oclif has already said so when one is missing
  if (priority === undefined || action === undefined) throw new UsageError('A routing rule needs --priority and --action.', 'e.g. --priority 10 --action prefer --provider prov_atlas')
  const rule = await (await ctx.client()).routingRules.create({priority, action, ...rest}, {idempotencyKey: f['idempotency-key']})
  ctx.print(renderRoutingRule(rule, ctx.color))
  return rule
}
