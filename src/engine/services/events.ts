import type {IncomingMessage, ServerResponse} from 'node:http'
import {invalid, notFound} from '../http/errors.js'
import type {HandlerResult, RequestCtx} from '../http/router.js'
import {isoParam, pageParams} from '../http/validate.js'
import type {Kernel} from '../kernel.js'
import type {ChangeSet, StoredEvent} from '../ports/store.js'

export const EVENT_RETENTION_MS = 30 * 86_400_000
const HEARTBEAT_MS = 15_000

/** Parses `type` filters: exact types, or prefixes ending in `.*`; several separated by commas. */
export function parseTypeFilter(raw: string | null): {types: string[]; typePrefixes: string[]} | undefined {
  if (raw === null) return undefined
  const types: string[] = []
  const typePrefixes: string[] = []
  for (const t of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (t === '*') return undefined
    if (t.endsWith('.*')) typePrefixes.push(t.slice(0, -1))
    else if (/^[a-z_]+(\.[a-z_]+)+$/.test(t)) types.push(t)
    else throw invalid('type', `type must be an event type such as payment.succeeded, or a prefix such as payment.*; got '${t}'.`)
  }
  return {types, typePrefixes}
}

export function matchesType(type: string, f: {types: string[]; typePrefixes: string[]} | undefined): boolean {
  if (!f) return true
  return f.types.includes(type) || f.typePrefixes.some((p) => type.startsWith(p))
}

/** The immutable event log: list, retrieve and a live SSE stream, resumable with Last-Event-ID. */
export class EventsService {
  private subscribers = new Set<(e: StoredEvent) => void>()
  private streams = new Set<ServerResponse>()

  constructor(private k: Kernel) {
    k.onCommit((cs: ChangeSet) => {
      if (!cs.events?.length) return
      for (const e of cs.events) for (const s of this.subscribers) s(e)
    })
  }

  private retentionFloor(): string {
    return new Date(this.k.clock.now().getTime() - EVENT_RETENTION_MS).toISOString()
  }

  async list(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['type', 'created_gte', 'created_lte'])
    const tf = parseTypeFilter(ctx.query.get('type'))
    const floor = this.retentionFloor()
    const gte = isoParam(ctx.query, 'created_gte')
    const lte = isoParam(ctx.query, 'created_lte')
    const res = await this.k.store.listEvents({
      ...page,
      ...tf,
      created_gte: gte && gte > floor ? gte : floor,
      created_lte: lte,
    })
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such event.`)
    // the exact stored bytes of each event, as delivered to webhooks
    const body = `{"object":"list","url":"/v1/events","data":[${res.data.map((e) => e.json).join(',')}],"has_more":${res.has_more}}`
    return {status: 200, text: {contentType: 'application/json; charset=utf-8', body}}
  }

  async retrieve(ctx: RequestCtx): Promise<HandlerResult> {
    const id = ctx.params.id!
    const e = id.startsWith('evt_') ? await this.k.store.getEvent(id) : undefined
    if (!e || e.created_at < this.retentionFloor()) throw notFound('event', id)
    return {status: 200, text: {contentType: 'application/json; charset=utf-8', body: e.json}}
  }

  /** GET /events/stream: Server-Sent Events. Replays what followed Last-Event-ID, then goes live. */
  async stream(ctx: RequestCtx): Promise<HandlerResult> {
    for (const k of ctx.query.keys()) if (!['type', 'last_event_id'].includes(k)) throw invalid(k, `Unknown parameter ${k}; the stream takes type and last_event_id.`, 'parameter_unknown')
    const tf = parseTypeFilter(ctx.query.get('type'))
    const header = ctx.headers['last-event-id']
    const lastId = (typeof header === 'string' && header) || ctx.query.get('last_event_id') || null
    if (lastId !== null && !(await this.k.store.getEvent(lastId)))
      throw invalid('Last-Event-ID', `Last-Event-ID ${lastId} is not a known event (events are kept 30 days). Reconnect without it and backfill with GET /v1/events.`)
    return {
      status: 200,
      stream: (req: IncomingMessage, res: ServerResponse) => {
        res.writeHead(200, {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-cache',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        })
        res.flushHeaders()
        this.streams.add(res)
        const sent = new Set<string>()
        let live = false
        const buffer: StoredEvent[] = []
        const write = (e: StoredEvent) => {
          if (sent.has(e.id) || !matchesType(e.type, tf)) return
          sent.add(e.id)
          if (sent.size > 10_000) sent.clear()
          res.write(`id: ${e.id}\nevent: ${e.type}\ndata: ${e.json}\n\n`)
        }
        const sub = (e: StoredEvent) => (live ? write(e) : buffer.push(e))
        this.subscribers.add(sub)
        res.write(`retry: 1000\n: connected ${ctx.requestId}\n\n`)
        const beat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS)
        const done = () => {
          clearInterval(beat)
          this.subscribers.delete(sub)
          this.streams.delete(res)
        }
        req.on('close', done)
        res.on('close', done)
        void (async () => {
          // backlog after Last-Event-ID, page by page, then whatever arrived meanwhile
          let cursor = lastId
          while (cursor) {
            const batch = await this.k.store.eventsAfter(cursor, 500)
            for (const e of batch) write(e)
            cursor = batch.length === 500 ? batch[batch.length - 1]!.id : null
          }
          for (const e of buffer) write(e)
          buffer.length = 0
          live = true
        })()
      },
    }
  }

  /** Ends every open stream (shutdown). */
  closeStreams(): void {
    for (const s of this.streams) s.end()
    this.streams.clear()
  }

  async purge(): Promise<void> {
    await this.k.store.purgeEvents(this.retentionFloor())
    await this.k.store.purgeIdempotency(this.k.clock.now().toISOString())
  }
}
