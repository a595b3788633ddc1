import type {WebhookDelivery} from '../../api/types.js'
import {idArg} from '../../base/args.js'
import {GwCommand, type Context} from '../../base/command.js'
import {deliveryAttemptColumns, renderDelivery} from './shared/display.js'

export default class WebhooksDelivery extends GwCommand<typeof WebhooksDelivery> {
  static override summary = 'Show one webhook delivery with every attempt: time, HTTP status or error, latency, the start of the response.'
  static override operations = ['retrieveWebhookDelivery'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %> whd_123',
    {description: 'Find the delivery ids of an endpoint first', command: '<%= config.bin %> webhooks deliveries wh_123 --status failed_retrying'},
    {description: 'The last attempt, with jq', command: "<%= config.bin %> <%= command.id %> whd_123 --json | jq '.attempts[-1]'"},
  ]

  static override args = {id: idArg('whd_', 'webhook delivery', "List them with: gw webhooks deliveries wh_... or gw events deliveries evt_...")}

  async run(): Promise<WebhookDelivery> {
    return webhooksDelivery(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw webhooks delivery` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WebhooksDeliveryOptions {
  id: string
}

export async function webhooksDelivery(ctx: Context, o: WebhooksDeliveryOptions): Promise<WebhookDelivery> {
  const d = await (await ctx.client()).webhookDeliveries.get(o.id)
  if (!ctx.json) {
    ctx.print(renderDelivery(d, ctx.color))
    if (d.attempts.length) ctx.print('\n' + (await ctx.table(d.attempts.map((a, i) => ({...a, n: i + 1})), deliveryAttemptColumns)))
    if (d.status !== 'succeeded') ctx.notice(ctx.errColor.dim(`Deliver the event again with: gw events resend ${d.event} --endpoint ${d.endpoint}`))
  }
  return d
}
