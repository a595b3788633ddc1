import type {WebhookEndpoint} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderEndpoint} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class WebhooksGet extends GwCommand<typeof WebhooksGet> {
  static override summary = 'Show a webhook endpoint (its secret is never shown again; see rotate-secret).'
  static override operations = ['retrieveWebhookEndpoint'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> wh_123']
  static override args = {id: idArg('wh_', 'webhook endpoint', 'List them with: gw webhooks list')}

  async run(): Promise<WebhookEndpoint> {
    return webhooksGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw webhooks get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WebhooksGetOptions {
  id: string
}

export async function webhooksGet(ctx: Context, o: WebhooksGetOptions): Promise<WebhookEndpoint> {
  const ep = await (await ctx.client()).webhookEndpoints.get(o.id)
  ctx.print(renderEndpoint(ep, ctx.color))
  return ep
}
