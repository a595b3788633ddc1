import {Flags} from '@oclif/core'
import type {ListEnvelope, RoutingRule} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {listFlags} from '../../base/flags.js'
import type {ListRoutingRulesParams} from '../../client/params.js'
import {routingRuleColumns} from '../../output/admin.js'

export default class RoutingRulesList extends GwCommand<typeof RoutingRulesList> {
  static override summary = 'List routing rules.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --merchant mer_123', '<%= config.bin %> <%= command.id %> --all --json']
  static override flags = {
    merchant: Flags.string({description: 'Only rules of this sub-merchant (mer_...).'}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<RoutingRule> | RoutingRule[]> {
    const f = this.flags
    const params: ListRoutingRulesParams = {limit: f.limit, starting_after: f['starting-after'], ending_before: f['ending-before']}
    if (f.merchant) params.merchant = f.merchant
    const client = await this.client()
    return this.showList({
      all: f.all,
      noun: 'routing rules',
      columns: routingRuleColumns,
      page: () => client.routingRules.list(params),
      iterate: () => client.routingRules.iterate({...params, limit: f.limit ?? 100}),
    })
  }
}
