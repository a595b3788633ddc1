import {Flags} from '@oclif/core'
import type {ListEnvelope, WebhookDelivery} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class EventsResend extends GwCommand<typeof EventsResend> {
  static override summary = 'Deliver an event to webhook endpoints again.'
  static override description = 'Without --endpoint: to every enabled endpoint subscribed to its type. With --endpoint: to that endpoint, subscribed or not. Each resend is a new delivery of the same event bytes, with its own retries.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> evt_123',
    '<%= config.bin %> <%= command.id %> evt_123 --endpoint wh_123',
  ]

  static override args = {id: idArg('evt_', 'event', 'List recent events with: gw events list')}
  static override flags = {
    endpoint: Flags.string({description: 'Only this webhook endpoint (wh_...).'}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<ListEnvelope<WebhookDelivery>> {
    return eventsResend(this.ctx, this.flags, this.args)
  }
}

export async function eventsResend(ctx: Context, flags: GwFlags<typeof EventsResend>, args: GwArgs<typeof EventsResend>): Promise<ListEnvelope<WebhookDelivery>> {
  const endpoint = flags.endpoint?.trim()
  if (endpoint !== undefined && !endpoint.startsWith('wh_'))
    throw new UsageError(`--endpoint "${endpoint}" is not a webhook endpoint id; they start with wh_.`, 'List them with: gw webhooks list')
  const res = await (await ctx.client()).events.resend(args.id, endpoint ? {endpoint} : {}, {idempotencyKey: flags['idempotency-key']})
  for (const d of res.data) ctx.print(`${d.id}  ${d.event_type}  → ${d.endpoint}  ${d.status}`)
  ctx.notice(ctx.errColor.dim(`Queued ${res.data.length} ${res.data.length === 1 ? 'delivery' : 'deliveries'} of ${args.id}. Follow them with: gw webhooks deliveries ${res.data[0]?.endpoint ?? 'wh_...'}`))
  return res
}
