import {Flags} from '@oclif/core'
import type {ListEnvelope, WebhookDelivery} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class EventsResend extends GwCommand<typeof EventsResend> {
  static override summary = 'Deliver an event to webhook endpoints again.'
  static override operations = ['resendEvent'] as const
  static override description =
    'Without --endpoint: to every enabled endpoint subscribed to its type that has not received it yet (--all: to those that did too). With --endpoint: to that endpoint, subscribed or not. Each resend is a new delivery of the same event bytes, with its own retries. To replay everything an endpoint missed, see gw webhooks replay.'
  static override examples = [
    {description: 'To the endpoints that have not received it', command: '<%= config.bin %> <%= command.id %> evt_123'},
    {description: 'To one endpoint', command: '<%= config.bin %> <%= command.id %> evt_123 --endpoint wh_123'},
    {description: 'To every subscribed endpoint, again', command: '<%= config.bin %> <%= command.id %> evt_123 --all'},
  ]

  static override args = {id: idArg('evt_', 'event', 'List recent events with: gw events list')}
  static override flags = {
    endpoint: Flags.string({description: 'Only this webhook endpoint (wh_...).', exclusive: ['all']}),
    all: Flags.boolean({description: 'Also to the endpoints that already received it.'}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<ListEnvelope<WebhookDelivery>> {
    return eventsResend(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw events resend` takes: its flags and arguments by name (run() passes them as parsed). */
export interface EventsResendOptions {
  endpoint?: string
  all?: boolean
  'idempotency-key'?: string
  id: string
}

export async function eventsResend(ctx: Context, o: EventsResendOptions): Promise<ListEnvelope<WebhookDelivery>> {
  const endpoint = o.endpoint?.trim()
  if (endpoint !== undefined && !endpoint.startsWith('wh_'))
    throw new UsageError(`--endpoint "${endpoint}" is not a webhook endpoint id; they start with wh_.`, 'List them with: gw webhooks list')
  const res = await (await ctx.client()).events.resend(o.id, endpoint ? {endpoint} : o.all ? {all: true} : {}, {idempotencyKey: o['idempotency-key']})
  for (const d of res.data) ctx.print(`${d.id}  ${d.event_type}  → ${d.endpoint}  ${d.status}`)
  ctx.notice(ctx.errColor.dim(`Queued ${res.data.length} ${res.data.length === 1 ? 'delivery' : 'deliveries'} of ${o.id}. Follow them with: gw webhooks deliveries ${res.data[0]?.endpoint ?? 'wh_...'}`))
  if (!endpoint && !o.all) ctx.notice(ctx.errColor.dim('Endpoints that already received it were skipped (--all sends to them too).'))
  return res
}
