import {Flags} from '@oclif/core'
import type {ListEnvelope, WebhookDelivery} from '../../api/types.js'
import {GwCommand, UsageError} from '../../base/command.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'

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
    const endpoint = this.flags.endpoint?.trim()
    if (endpoint !== undefined && !endpoint.startsWith('wh_'))
      throw new UsageError(`--endpoint "${endpoint}" is not a webhook endpoint id; they start with wh_.`, 'List them with: gw webhooks list')
    const res = await (await this.client()).events.resend(this.args.id, endpoint ? {endpoint} : {}, {idempotencyKey: this.flags['idempotency-key']})
    for (const d of res.data) this.print(`${d.id}  ${d.event_type}  → ${d.endpoint}  ${d.status}`)
    this.notice(this.errColor.dim(`Queued ${res.data.length} ${res.data.length === 1 ? 'delivery' : 'deliveries'} of ${this.args.id}. Follow them with: gw webhooks deliveries ${res.data[0]?.endpoint ?? 'wh_...'}`))
    return res
  }
}
