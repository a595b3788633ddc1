import {Flags} from '@oclif/core'
import type {WebhookEndpoint} from '../../api/types.js'
import {idArg, idempotencyKeyFlag, metadataFlag} from '../../base/flags.js'
import {parseMetadata} from '../../base/parse.js'
import type {UpdateWebhookEndpointParams} from '../../client/index.js'
import {renderEndpoint} from './shared/display.js'
import {enabledEvents, urlFlag, WEBHOOK_PARAMS} from './shared/flags.js'
import {withFlagNames} from '../../base/flag-errors.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class WebhooksUpdate extends GwCommand<typeof WebhooksUpdate> {
  static override summary = 'Change a webhook endpoint: URL, event types, description, or disable/enable it.'
  static override operations = ['updateWebhookEndpoint'] as const
  static override description = '--events replaces the whole list. Re-enabling an endpoint (or giving it a new URL) starts its delivery health afresh. A new --url redirects its deliveries: it asks for confirmation on a terminal (the typed word "live" with a live key); pass --yes to skip it (required without a terminal).'
  static override examples = [
    "<%= config.bin %> <%= command.id %> wh_123 --events 'payment.*' --events 'dispute.*'",
    '<%= config.bin %> <%= command.id %> wh_123 --url https://shop.example/hooks/v2',
    {description: 'The same in a script (no terminal to ask on)', command: '<%= config.bin %> <%= command.id %> wh_123 --url https://shop.example/hooks/v2 --yes'},
    '<%= config.bin %> <%= command.id %> wh_123 --disable',
    '<%= config.bin %> <%= command.id %> wh_123 --enable',
  ]

  static override args = {id: idArg('wh_', 'webhook endpoint', 'List them with: gw webhooks list')}
  static override flags = {
    url: urlFlag(),
    events: Flags.string({description: "Replace the event types: *, types, or prefixes like 'payment.*'.", multiple: true}),
    description: Flags.string({description: 'New description ("" clears it).'}),
    metadata: metadataFlag,
    disable: Flags.boolean({description: 'Stop deliveries to this endpoint.', exclusive: ['enable']}),
    enable: Flags.boolean({description: 'Resume deliveries to a disabled endpoint.', exclusive: ['disable']}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<WebhookEndpoint> {
    return webhooksUpdate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw webhooks update` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WebhooksUpdateOptions {
  url?: string
  events?: string[]
  description?: string
  metadata?: string[]
  disable?: boolean
  enable?: boolean
  'idempotency-key'?: string
  id: string
}

export async function webhooksUpdate(ctx: Context, f: WebhooksUpdateOptions): Promise<WebhookEndpoint> {
  const body: UpdateWebhookEndpointParams = {}
  if (f.url !== undefined) body.url = f.url
  const events = enabledEvents(f.events)
  if (events) body.enabled_events = events
  if (f.description !== undefined) body.description = f.description === '' ? null : f.description
  const metadata = parseMetadata(f.metadata)
  if (metadata) body.metadata = metadata
  if (f.disable) body.disabled = true
  if (f.enable) body.disabled = false
  if (Object.keys(body).length === 0)
    throw new UsageError('Nothing to change.', 'Pass --url, --events, --description, --metadata, --disable or --enable.')
  const client = await ctx.client()
  if (body.url !== undefined && !ctx.yes) {
    // a new URL redirects every event of the account's endpoint: confirmed like a delete
    const current = await client.webhookEndpoints.get(f.id)
    if (current.url !== body.url) await ctx.confirmDestructive(`send the events of ${f.id} to ${body.url} instead of ${current.url}`)
  }
  const ep = await withFlagNames(WEBHOOK_PARAMS, () => client.webhookEndpoints.update(f.id, body, {idempotencyKey: f['idempotency-key']}))
  ctx.print(renderEndpoint(ep, ctx.color))
  return ep
}
