import {Flags} from '@oclif/core'
import type {WebhookReplay} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {parseDuration} from '../../base/parse.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'
import type {ReplayWebhookEndpointParams} from '../../client/params.js'

type ReplayStatus = NonNullable<ReplayWebhookEndpointParams['status']>[number]

/** The words --status takes, as the statuses the API replays. */
const STATUS_WORDS: Record<string, ReplayStatus> = {failed: 'failed_retrying', failed_retrying: 'failed_retrying', retrying: 'failed_retrying', undeliverable: 'undeliverable', pending: 'pending'}

export default class WebhooksReplay extends GwCommand<typeof WebhooksReplay> {
  static override summary = 'Send an endpoint every event it missed since a time (after an outage).'
  static override operations = ['replayWebhookEndpoint'] as const
  static override description =
    "One call for the whole backlog: the endpoint's deliveries since --since that are still retrying are attempted now, and those that gave up get a new delivery with a fresh 72-hour window — once per event. Events the endpoint has received are skipped, and so are events older than the 30-day retention."
  static override examples = [
    {description: 'Everything the endpoint missed in the last two days', command: '<%= config.bin %> <%= command.id %> wh_123 --since 2d'},
    {description: 'Only what was given up on, since a time', command: '<%= config.bin %> <%= command.id %> wh_123 --since 2026-11-20T00:00:00Z --status undeliverable'},
  ]

  static override args = {id: idArg('wh_', 'webhook endpoint', 'List them with: gw webhooks list')}
  static override flags = {
    since: Flags.string({description: 'How far back: a duration on the engine clock (2d, 36h) or a date-time (2026-11-20T00:00:00Z).', required: true}),
    status: Flags.string({description: 'Which deliveries: failed (still retrying), undeliverable (given up), pending; comma list. [default: failed,undeliverable]'}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<WebhookReplay> {
    return webhooksReplay(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw webhooks replay` takes: its flags and arguments by name (run() passes them as parsed). */
export interface WebhooksReplayOptions {
  since: string
  status?: string
  'idempotency-key'?: string
  id: string
}

export async function webhooksReplay(ctx: Context, o: WebhooksReplayOptions): Promise<WebhookReplay> {
  const since = o.since.trim()
  const when = /^\d{4}-\d{2}-\d{2}/.test(since) ? (Number.isFinite(Date.parse(since)) ? {since: new Date(Date.parse(since)).toISOString()} : undefined) : {within: parseDuration(since, '--since')}
  if (!when) throw new UsageError(`--since "${since}" is neither a duration nor a date-time.`, 'e.g. --since 2d or --since 2026-11-20T00:00:00Z')
  let status: ReplayStatus[] | undefined
  if (o.status !== undefined) {
    status = o.status.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean).map((s) => {
      const w = STATUS_WORDS[s]
      if (!w) throw new UsageError(`--status "${s}" is not a delivery status to replay.`, 'Use failed, undeliverable or pending (comma list).')
      return w
    })
  }
  const r = await (await ctx.client()).webhookEndpoints.replay(o.id, {...when, ...(status ? {status} : {})}, {idempotencyKey: o['idempotency-key']})
  const skipped = [r.skipped.already_received ? `${r.skipped.already_received} already received` : '', r.skipped.event_expired ? `${r.skipped.event_expired} past retention` : ''].filter(Boolean).join(', ')
  ctx.print(
    r.queued + r.rescheduled === 0
      ? `Nothing to replay to ${r.endpoint} since ${r.since}${skipped ? ` (${skipped})` : ''}.`
      : `Replaying to ${r.endpoint} since ${r.since}: ${r.queued} sent anew, ${r.rescheduled} retried now${skipped ? `; skipped ${skipped}` : ''}. Follow them with: gw webhooks deliveries ${r.endpoint}`,
  )
  return r
}
