import {idArg} from '../../base/flags.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class WebhooksDelete extends GwCommand<typeof WebhooksDelete> {
  static override summary = 'Delete a webhook endpoint; deliveries to it stop (use update --disable to pause instead).'
  static override operations = ['deleteWebhookEndpoint'] as const
  static override description = 'Asks for confirmation on a terminal (the typed word "live" with a live key); pass --yes to skip it (required without a terminal).'
  static override examples = ['<%= config.bin %> <%= command.id %> wh_123', '<%= config.bin %> <%= command.id %> wh_123 --yes --json']
  static override args = {id: idArg('wh_', 'webhook endpoint', 'List them with: gw webhooks list')}

  async run(): Promise<{id: string; object: 'webhook_endpoint'; deleted: boolean}> {
    return webhooksDelete(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw webhooks delete` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WebhooksDeleteOptions {
  id: string
}

export async function webhooksDelete(ctx: Context, o: WebhooksDeleteOptions): Promise<{id: string; object: 'webhook_endpoint'; deleted: boolean}> {
  await ctx.confirmDestructive(`delete webhook endpoint ${o.id}: its events stop being delivered at once`, 'nothing was deleted')
  const res = await (await ctx.client()).webhookEndpoints.delete(o.id)
  await ctx.credentials.removeSecret(ctx.settings().profile.value, res.id).catch(() => false)
  ctx.print(`Deleted ${res.id}.`)
  return res
}
