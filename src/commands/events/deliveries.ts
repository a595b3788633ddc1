import {Flags} from '@oclif/core'
import type {ListEnvelope, WebhookDelivery} from '../../api/types.js'
import {idArg, listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import {deliveryColumns} from '../webhooks/shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'
import {DELIVERY_STATUSES} from '../../api/vocabulary.js'

export default class EventsDeliveries extends GwCommand<typeof EventsDeliveries> {
  static override summary = "List an event's webhook deliveries across endpoints, newest first."
  static override operations = ['listEventDeliveries'] as const
  static override description = 'One delivery per endpoint the event went to (and one more per resend), each with its attempts. Show one with every attempt: gw webhooks delivery whd_...'
  static override examples = [
    '<%= config.bin %> <%= command.id %> evt_123',
    '<%= config.bin %> <%= command.id %> evt_123 --status failed_retrying',
    '<%= config.bin %> <%= command.id %> evt_123 --endpoint wh_123',
    {description: 'Did every endpoint get it? With jq', command: "<%= config.bin %> <%= command.id %> evt_123 --all --json | jq -c '{endpoint, status}'"},
  ]

  static override args = {id: idArg('evt_', 'event', 'List recent events with: gw events list')}
  static override flags = {
    status: Flags.option({description: 'Only deliveries in this state.', options: DELIVERY_STATUSES})(),
    endpoint: Flags.string({description: 'Only deliveries to this webhook endpoint (wh_...).'}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<WebhookDelivery> | WebhookDelivery[]> {
    return eventsDeliveries(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw events deliveries` takes: its flags and arguments by name (run() passes them as parsed). */
export interface EventsDeliveriesOptions extends PagingOptions {
  status?: "pending" | "succeeded" | "failed_retrying" | "undeliverable"
  endpoint?: string
  id: string
}

export async function eventsDeliveries(ctx: Context, f: EventsDeliveriesOptions): Promise<ListEnvelope<WebhookDelivery> | WebhookDelivery[]> {
  const endpoint = f.endpoint?.trim()
  if (endpoint !== undefined && !endpoint.startsWith('wh_')) throw new UsageError(`--endpoint "${endpoint}" is not a webhook endpoint id; they start with wh_.`, 'List them with: gw webhooks list')
  const params = {status: f.status, endpoint, ...pageParams(f)}
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'deliveries',
    columns: deliveryColumns,
    page: () => client.events.deliveries(f.id, params),
    iterate: () => client.events.iterateDeliveries(f.id, {...params, limit: f.limit ?? 100}),
  })
}
