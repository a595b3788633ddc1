import {Flags} from '@oclif/core'
import {engineNow} from '../clock/shared/now.js'
import {bareSecondsNotice, parseDuration} from '../../base/parse.js'
import {keepOptimizing} from '../../client/runtime.js'
import {loadHistory, type History} from '../../events/history.js'
import {describeFailure, EventFeed, type FeedEvent, type FeedStatus} from '../../events/feed.js'
import {eventsFilterFlag, typeFilter} from '../../events/flags.js'
import {canRenderInk} from '../../ui/gate.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

/** One NDJSON line: the event as sent, plus "backfilled": true when it filled a gap. */
export function ndjsonLine(fe: FeedEvent): string {
  const compact = fe.raw.includes('\n') ? JSON.stringify(fe.event) : fe.raw
  if (!fe.backfilled) return compact
  return JSON.stringify({...fe.event, backfilled: true})
}

export default class EventsTail extends GwCommand<typeof EventsTail> {
  static override summary = 'Stream events live as they happen.'
  static override description = `On a terminal: a live view (time, type, object id, status, amount); ↑↓ move, Enter shows the event's JSON, space pauses, q quits. In a pipe or with --json: one event per line (NDJSON).
After a dropped connection it reconnects with backoff, resumes from the last event seen and backfills the gap through GET /events (such events are marked: ↺ on screen, "backfilled": true in NDJSON). It says on stderr when it is disconnected and when it is back; it never stops on its own.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Payment events only', command: "<%= config.bin %> <%= command.id %> --events 'payment.*'"},
    {description: 'Start with the last 10 minutes instead of an empty screen', command: '<%= config.bin %> <%= command.id %> --since 10m'},
    {description: 'The last 50 payment events, then live', command: "<%= config.bin %> <%= command.id %> --last 50 --events 'payment.*'"},
    {description: 'Into jq', command: "<%= config.bin %> <%= command.id %> --events payment.failed,refund.failed | jq -c '{id, type, object: .data.object.id}'"},
  ]

  static override flags = {
    events: eventsFilterFlag,
    since: Flags.string({description: 'Start with the events of this last stretch of time on the gateway clock, e.g. 10m, 2h, 1d.', exclusive: ['last']}),
    last: Flags.integer({description: 'Start with the last N events (1 to 1000), then go live.', min: 1, max: 1000, exclusive: ['since']}),
  }

  async run(): Promise<void> {
    return eventsTail(this.ctx, this.flags, this.args)
  }
}

export async function eventsTail(ctx: Context, flags: GwFlags<typeof EventsTail>, args: GwArgs<typeof EventsTail>): Promise<void> {
  const types = typeFilter(flags.events)
  const client = await ctx.client()
  const ac = new AbortController()
  const stop = () => ac.abort()
  const host = new URL(client.baseUrl).host
  const tty = canRenderInk({json: ctx.json, stream: ctx.io.stdout})
  keepOptimizing()
  // one clock for every time shown: the gateway's (events carry created_at on it)
  const key = (await ctx.apiKey()).value
  const now = tty || flags.since !== undefined ? await engineNow(client, key).catch(() => new Date()) : new Date()
  const clockOffsetMs = now.getTime() - Date.now()
  let history: History | undefined
  if (flags.since !== undefined || flags.last !== undefined) {
    let sinceIso: string | undefined
    if (flags.since !== undefined) {
      const bare = bareSecondsNotice(flags.since, '--since')
      if (bare) ctx.notice(ctx.errColor.yellow(bare))
      sinceIso = new Date(now.getTime() - parseDuration(flags.since, '--since') * 1000).toISOString()
    }
    history = await loadHistory(client, {types, last: flags.last, sinceIso})
  }
  const cursor = history ? history.cursor : undefined

  // connection news on stderr
  const e = ctx.errColor
  let connectedOnce = false
  const onStatus = (s: FeedStatus) => {
    if (s.state === 'live') {
      if (!connectedOnce) ctx.notice(e.dim(`Tailing ${types ?? 'all events'} from ${host}${s.mode === 'poll' ? ' (polling)' : ''}. Ctrl-C to stop.`))
      else if (s.resumed) ctx.notice(e.green(`✓ Reconnected to ${host}${s.backfilled ? `; backfilled ${s.backfilled} ${s.backfilled === 1 ? 'event' : 'events'} (marked "backfilled": true)` : ''}.`))
      connectedOnce = true
    } else if (s.state === 'disconnected') ctx.notice(e.yellow(`! Disconnected from ${host}: ${s.reason}. Reconnecting in ${(s.retryInMs / 1000).toFixed(1)}s (attempt ${s.attempt}).`))
    else if (s.state === 'notice') ctx.notice(e.yellow(`! ${s.message}`))
  }
  if (tty) {
    const {TailModel} = await import('../../events/tail-model.js')
    const model = new TailModel()
    model.clockOffsetMs = clockOffsetMs
    for (const ev of history?.events ?? []) model.add({event: ev, raw: JSON.stringify(ev), backfilled: false})
    const feed = new EventFeed({
      client,
      types,
      cursor,
      signal: ac.signal,
      onEvent: (fe) => model.add(fe),
      onStatus: (s) => {
        model.setStatus(s)
        // the view shows the connection; stderr gets it too when it goes elsewhere (2>file)
        if (!ctx.io.stderr.isTTY) onStatus(s)
      },
    })
    let fatal: unknown
    const running = feed.run().catch((err) => {
      fatal = err
      model.close()
    })
    const {mountTail} = await import('../../ui/tail.js')
    try {
      await mountTail(model, {title: `${types ?? 'all events'} · ${host} · times UTC, gateway clock`})
    } finally {
      ac.abort()
      await running
    }
    if (fatal) throw fatal
    return
  }

  // a pipe: NDJSON on stdout, connection news on stderr
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  ctx.io.stdout.on('error', stop) // the reader went away (| head)
  for (const ev of history?.events ?? []) ctx.out.ndjson(JSON.stringify(ev))
  if (history) ctx.notice(e.dim(`${history.events.length} earlier ${history.events.length === 1 ? 'event' : 'events'} ${flags.since !== undefined ? `of the last ${flags.since}` : `(--last ${flags.last})`}; now live.`))
  const feed = new EventFeed({client, types, cursor, signal: ac.signal, onEvent: (fe) => ctx.out.ndjson(ndjsonLine(fe)), onStatus})
  try {
    await feed.run()
  } catch (err) {
    ctx.notice(e.red(`! Stopped: ${describeFailure(err)}`))
    throw err
  } finally {
    process.removeListener('SIGINT', stop)
    process.removeListener('SIGTERM', stop)
    ctx.io.stdout.removeListener('error', stop)
  }
}
