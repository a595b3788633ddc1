import type {WebhookEndpoint} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'
import {renderEndpoint} from '../../events/format.js'

export default class WebhooksGet extends GwCommand<typeof WebhooksGet> {
  static override summary = 'Show a webhook endpoint (its secret is never shown again; see rotate-secret).'
  static override examples = ['<%= config.bin %> <%= command.id %> wh_123']
  static override args = {id: idArg('wh_', 'webhook endpoint', 'List them with: gw webhooks list')}

  async run(): Promise<WebhookEndpoint> {
    const ep = await (await this.client()).webhookEndpoints.get(this.args.id)
    this.print(renderEndpoint(ep, this.color))
    return ep
  }
}
