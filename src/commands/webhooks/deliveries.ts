import {Flags} from '@oclif/core'
import type {ListEnvelope, WebhookDelivery} from '../../api/types.js'
import {idArg, listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import {deliveryColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
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
    return webhooksDeliveries(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw webhooks deliveries` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WebhooksDeliveriesOptions extends PagingOptions {
  status?: "pending" | "succeeded" | "failed_retrying" | "undeliverable"
  id: string
}

export async function webhooksDeliveries(ctx: Context, f: WebhooksDeliveriesOptions): Promise<ListEnvelope<WebhookDelivery> | WebhookDelivery[]> {
  const params = {status: f.status, ...pageParams(f)}
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'deliveries',
    columns: deliveryColumns,
    page: () => client.webhookEndpoints.deliveries(f.id, params),
    iterate: () => client.paginate<WebhookDelivery>(`/webhook_endpoints/${encodeURIComponent(f.id)}/deliveries`, {...params, limit: f.limit ?? 100}),
  })
}
