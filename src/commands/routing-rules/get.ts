import type {RoutingRule} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'
import {renderRoutingRule} from '../../output/admin.js'

export default class RoutingRulesGet extends GwCommand<typeof RoutingRulesGet> {
  static override summary = 'Show one routing rule.'
  static override examples = ['<%= config.bin %> <%= command.id %> rr_123', '<%= config.bin %> <%= command.id %> rr_123 --json | jq .providers']
  static override args = {id: idArg('rr_', 'routing rule', 'List them with: gw routing-rules list')}

  async run(): Promise<RoutingRule> {
    const rule = await (await this.client()).routingRules.get(this.args.id)
    this.print(renderRoutingRule(rule, this.color))
    return rule
  }
}
