import {Flags} from '@oclif/core'
import type {ListEnvelope, WebhookDelivery} from '../../api/types.js'
import {idArg, listFlags, pageParams} from '../../base/flags.js'
import {deliveryColumns} from './shared/display.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'
import {DELIVERY_STATUSES} from '../../api/vocabulary.js'

export default class WebhooksDeliveries extends GwCommand<typeof WebhooksDeliveries> {
  static override summary = "List an endpoint's deliveries with their attempts, newest first."
  static override operations = ['listWebhookEndpointDeliveries'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %> wh_123',
    '<%= config.bin %> <%= command.id %> wh_123 --status failed_retrying',
    {description: 'The last attempt of each, as NDJSON', command: "<%= config.bin %> <%= command.id %> wh_123 --all --json | jq -c '{id, status, last: .attempts[-1]}'"},
  ]

  static override args = {id: idArg('wh_', 'webhook endpoint', 'List them with: gw webhooks list')}
  static override flags = {
    status: Flags.option({description: 'Only deliveries in this state.', options: DELIVERY_STATUSES})(),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<WebhookDelivery> | WebhookDelivery[]> {
    return webhooksDeliveries(this.ctx, this.flags, this.args)
  }
}

export async function webhooksDeliveries(ctx: Context, flags: GwFlags<typeof WebhooksDeliveries>, args: GwArgs<typeof WebhooksDeliveries>): Promise<ListEnvelope<WebhookDelivery> | WebhookDelivery[]> {
  const f = flags
  const params = {status: f.status, ...pageParams(f)}
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'deliveries',
    columns: deliveryColumns,
    page: () => client.webhookEndpoints.deliveries(args.id, params),
    iterate: () => client.paginate<WebhookDelivery>(`/webhook_endpoints/${encodeURIComponent(args.id)}/deliveries`, {...params, limit: f.limit ?? 100}),
  })
}
