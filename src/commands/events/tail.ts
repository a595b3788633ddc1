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
    {description: 'Into jq', command: "<%= config.bin %> <%= command.id %> --events payment.failed,refund.failed | jq -c '{id, type, object: .data.object.id}'"},
  ]

  static override flags = {events: eventsFilterFlag}

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
    const feed = new EventFeed({
      client,
      types,
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
      await mountTail(model, {title: `${types ?? 'all events'} · ${host}`})
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
  const feed = new EventFeed({client, types, signal: ac.signal, onEvent: (fe) => ctx.out.ndjson(ndjsonLine(fe)), onStatus})
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
