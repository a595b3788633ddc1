import {Flags} from '@oclif/core'
import type {ListEnvelope, RoutingRule} from '../../api/types.js'
import {listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import type {ListRoutingRulesParams} from '../../client/params.js'
import {routingRuleColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class RoutingRulesList extends GwCommand<typeof RoutingRulesList> {
  static override summary = 'List routing rules.'
  static override operations = ['listRoutingRules'] as const
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --merchant mer_123', '<%= config.bin %> <%= command.id %> --all --json']
  static override flags = {
    merchant: Flags.string({description: 'Only rules of this sub-merchant (mer_...).'}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<RoutingRule> | RoutingRule[]> {
    return routingRulesList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw routing-rules list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface RoutingRulesListOptions extends PagingOptions {
  merchant?: string
}

export async function routingRulesList(ctx: Context, f: RoutingRulesListOptions): Promise<ListEnvelope<RoutingRule> | RoutingRule[]> {
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
