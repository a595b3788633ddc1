import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'

export default class WebhooksDelete extends GwCommand<typeof WebhooksDelete> {
  static override summary = 'Delete a webhook endpoint; deliveries to it stop (use update --disable to pause instead).'
  static override examples = ['<%= config.bin %> <%= command.id %> wh_123']
  static override args = {id: idArg('wh_', 'webhook endpoint', 'List them with: gw webhooks list')}

  async run(): Promise<{id: string; object: 'webhook_endpoint'; deleted: boolean}> {
    const res = await (await this.client()).webhookEndpoints.delete(this.args.id)
    this.print(`Deleted ${res.id}.`)
    return res
  }
}
