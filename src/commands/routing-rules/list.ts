import {Flags} from '@oclif/core'
import type {ListEnvelope, RoutingRule} from '../../api/types.js'
import {listFlags, pageParams} from '../../base/flags.js'
import type {ListRoutingRulesParams} from '../../client/params.js'
import {routingRuleColumns} from './shared/display.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class RoutingRulesList extends GwCommand<typeof RoutingRulesList> {
  static override summary = 'List routing rules.'
  static override operations = ['listRoutingRules'] as const
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --merchant mer_123', '<%= config.bin %> <%= command.id %> --all --json']
  static override flags = {
    merchant: Flags.string({description: 'Only rules of this sub-merchant (mer_...).'}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<RoutingRule> | RoutingRule[]> {
    return routingRulesList(this.ctx, this.flags, this.args)
  }
}

export async function routingRulesList(ctx: Context, flags: GwFlags<typeof RoutingRulesList>, args: GwArgs<typeof RoutingRulesList>): Promise<ListEnvelope<RoutingRule> | RoutingRule[]> {
  const f = flags
  const params: ListRoutingRulesParams = {...pageParams(f)}
  if (f.merchant) params.merchant = f.merchant
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'routing rules',
    columns: routingRuleColumns,
    page: () => client.routingRules.list(params),
    iterate: () => client.routingRules.iterate({...params, limit: f.limit ?? 100}),
  })
}
