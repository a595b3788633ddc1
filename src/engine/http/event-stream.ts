// GET /events/stream: Server-Sent Events. Replays what followed Last-Event-ID, then follows the
// live feed; the event sequence orders both, so nothing is repeated or skipped in between.
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {App} from '../app/index.js'
import {matchesType, parseTypeFilter} from '../app/events.js'
import {invalid} from '../domain/errors.js'
import type {LoggedEvent} from '../ports/store.js'
import type {HandlerResult, RequestCtx} from './router.js'
import {SseStreams, type StreamBudget} from './sse.js'

const PAGE = 500

export class EventStreams {
  private readonly streams: SseStreams

  constructor(
    private readonly app: App,
    budget?: StreamBudget,
  ) {
    this.streams = new SseStreams(budget)
  }

  async handle(ctx: RequestCtx): Promise<HandlerResult> {
    const tf = parseTypeFilter(ctx.query.get('type') ?? undefined)
    const header = ctx.headers['last-event-id']
    const lastId = (typeof header === 'string' && header) || ctx.query.get('last_event_id') || null
    const store = ctx.core.store
    const feed = await this.app.feed(ctx.core)
    let from: number | null = null
    if (lastId !== null) {
      const last = await store.getEvent(lastId)
      if (!last) throw invalid('Last-Event-ID', `Last-Event-ID ${lastId} is not a known event (events are kept 30 days). Reconnect without it and backfill with GET /v1/events.`)
      from = last.seq
    }
    // other instances' commits are heard from here on, and the feed's position is the newest event
    const release = await feed.follow()
    return {
      status: 200,
      stream: (req: IncomingMessage, res: ServerResponse) => {
        // the greatest seq written (or skipped by the filter): anything at or below it is old
        let sent = from ?? feed.position
        let live = false
        const buffer: LoggedEvent[] = []
        const write = (e: LoggedEvent) => {
          // (the backlog may still be read after closeAll() ended the stream: a write after end is an uncaught error)
          if (e.seq <= sent || res.writableEnded) return
          sent = e.seq
          if (matchesType(e.type, tf)) res.write(`id: ${e.id}\nevent: ${e.type}\ndata: ${e.json}\n\n`)
        }
        // (a client gone while Last-Event-ID was looked up gets no stream)
        const subscribe = () => {
          const off = feed.subscribe((e) => (live ? write(e) : buffer.push(e)))
          return () => {
            off()
            release()
          }
        }
        if (!this.streams.start(req, res, ctx.requestId, ctx.account, subscribe)) return release()
        void (async () => {
          // the backlog after Last-Event-ID, page by page, then what arrived meanwhile
          if (from !== null) {
            for (;;) {
              const batch = await store.eventsAfter(sent, PAGE)
              for (const e of batch) write(e)
              if (batch.length < PAGE) break
            }
          }
          for (const e of buffer) write(e)
          buffer.length = 0
          live = true
        })().catch(() => res.destroy())
      },
    }
  }

  /** Ends every open stream (shutdown): unsubscribed first, so the events of requests still finishing are not written after the end. */
  closeAll(): void {
    this.streams.closeAll()
  }
}
