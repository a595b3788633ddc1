// A live feed of events for `gw events tail` and `gw listen`: Server-Sent Events from
// GET /events/stream (undici stream + eventsource-parser), resumable. After a dropped
// connection it backfills the gap through GET /events?ending_before=<last seen> (those events
// are marked `backfilled`), then reconnects with Last-Event-ID so the server replays anything
// that arrived meanwhile; duplicates are dropped by id. Against a server without the stream
// (404) it polls GET /events?ending_before=... instead. It never stops on its own: network
// errors, 5xx, 429 and a server closing the stream all lead to a reconnect with backoff; only
// the caller's signal (or an error no retry can fix, such as 401) ends it.
import {createParser} from 'eventsource-parser'
import type {GwEvent, ListEnvelope} from '../../../api/types.js'
import {ApiError, NetworkError} from '../../../client/errors.js'
import type {GwClient} from '../../../client/index.js'

export interface FeedEvent {
  event: GwEvent
  /** the event's JSON exactly as the server sent it (the SSE data line; re-serialised for list pages) */
  raw: string
  /** fetched through GET /events to fill a gap after a disconnect or a restart */
  backfilled: boolean
}

export type FeedStatus =
  | {state: 'connecting'}
  /** receiving: `resumed` after a disconnect, with how many events were backfilled */
  | {state: 'live'; mode: 'stream' | 'poll'; resumed: boolean; backfilled: number}
  | {state: 'disconnected'; reason: string; retryInMs: number; attempt: number}
  | {state: 'notice'; message: string}

export interface FeedOptions {
  client: GwClient
  /** the `type` filter: comma-separated exact types or `prefix.*`; undefined for every event */
  types?: string
  /** resume after this event id (and backfill from it first); default: start from now */
  cursor?: string | null
  /** no cursor, but the log was empty when the caller last looked: backfill every event there is first */
  fromEmptyLog?: boolean
  onEvent: (e: FeedEvent) => void
  onStatus?: (s: FeedStatus) => void
  /** where a feed without a cursor starts: the log's newest event then (null: the log was empty) */
  onStart?: (lastId: string | null) => void
  signal: AbortSignal
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  /** polling interval when the server has no stream; default 1000 ms */
  pollIntervalMs?: number
  /** no bytes (not even a heartbeat, sent every 15 s) for this long means the connection is dead; default 45 s */
  idleTimeoutMs?: number
  /** reconnect delays, the last one repeating; default 250 ms, 1 s, 2 s, 5 s, 10 s, 15 s */
  backoffMs?: readonly number[]
  /** most events one backfill fetches when the log was empty at the start (no cursor to page from) */
  maxBackfill?: number
}

const DEFAULT_BACKOFF = [250, 1000, 2000, 5000, 10_000, 15_000]

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const t = setTimeout(done, ms)
    function done() {
      clearTimeout(t)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, {once: true})
  })
}

/** Describes why a connection failed, in a few words. */
export function describeFailure(e: unknown): string {
  if (e instanceof ApiError) return `HTTP ${e.status} ${e.code}: ${e.message}`
  if (e instanceof NetworkError) return e.message
  return (e as Error)?.message ?? String(e)
}

class StreamClosed extends Error {
  constructor(message = 'the server closed the stream') {
    super(message)
  }
}

class NoStreamError extends Error {}

/** Bounded set of ids already emitted. */
class Seen {
  private ids = new Set<string>()
  constructor(private max = 10_000) {}
  has(id: string) {
    return this.ids.has(id)
  }
  add(id: string) {
    this.ids.add(id)
    if (this.ids.size > this.max) {
      const first = this.ids.values().next().value
      if (first !== undefined) this.ids.delete(first)
    }
  }
}

export class EventFeed {
  /** the newest event seen (or the log's newest event at the start): where the next backfill starts */
  lastId: string | null
  private mode: 'stream' | 'poll' = 'stream'
  private seen = new Seen()
  private readonly o: FeedOptions
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>

  constructor(opts: FeedOptions) {
    this.o = opts
    this.lastId = opts.cursor ?? null
    this.sleep = opts.sleep ?? abortableSleep
  }

  private status(s: FeedStatus) {
    this.o.onStatus?.(s)
  }

  private emit(event: GwEvent, raw: string, backfilled: boolean): boolean {
    if (!event || typeof event.id !== 'string' || this.seen.has(event.id)) return false
    this.seen.add(event.id)
    this.lastId = event.id
    this.o.onEvent({event, raw, backfilled})
    return true
  }

  /** Runs until the signal aborts. Rejects only on errors that retrying cannot fix (401, other 4xx). */
  async run(): Promise<void> {
    const {signal} = this.o
    // a cursor (or an empty log) was given: the start point is known
    let started = this.lastId !== null || this.o.fromEmptyLog === true
    let needBackfill = started
    let disconnected = false
    let failures = 0
    this.status({state: 'connecting'})
    while (!signal.aborted) {
      try {
        if (!started) {
          this.lastId = await this.newestId()
          started = true
          this.o.onStart?.(this.lastId)
        }
        let backfilled = 0
        if (needBackfill) {
          backfilled = await this.fetchNewer(true)
          needBackfill = false
        }
        const onLive = () => {
          this.status({state: 'live', mode: this.mode, resumed: disconnected, backfilled})
          disconnected = false
          failures = 0
        }
        if (this.mode === 'poll') {
          onLive()
          await this.pollForever()
        } else {
          await this.streamOnce(onLive)
          if (signal.aborted) return
          throw new StreamClosed()
        }
      } catch (e) {
        if (signal.aborted) return
        if (e instanceof NoStreamError) {
          this.mode = 'poll'
          this.status({state: 'notice', message: `The server has no /events/stream; polling GET /events every ${(this.o.pollIntervalMs ?? 1000) / 1000} s instead.`})
          continue
        }
        if (e instanceof ApiError && e.status === 400 && ['ending_before', 'Last-Event-ID', 'last_event_id'].includes(e.param ?? '')) {
          // the resume point is gone (events are kept 30 days, or a different server): continue from now
          this.status({state: 'notice', message: `Event ${this.lastId} is not known to the server any more; continuing from its newest event. Events in between may be missing.`})
          this.lastId = null
          started = false
          needBackfill = false
          continue
        }
        if (e instanceof ApiError && e.status < 500 && e.status !== 429 && e.status !== 408 && !(e.status === 409 && e.code === 'idempotency_key_in_use')) throw e
        failures++
        const delays = this.o.backoffMs ?? DEFAULT_BACKOFF
        const base = delays[Math.min(failures - 1, delays.length - 1)]!
        const retryInMs = e instanceof ApiError && e.retryAfter ? Math.max(base, e.retryAfter * 1000) : base
        this.status({state: 'disconnected', reason: describeFailure(e).replace(/\.+$/, ''), retryInMs, attempt: failures})
        disconnected = true
        needBackfill = started
        await this.sleep(retryInMs, signal)
      }
    }
  }

  /** The newest event id of the whole log (unfiltered), or null when it is empty. */
  private async newestId(): Promise<string | null> {
    const page = await this.o.client.events.list({limit: 1})
    return page.data[0]?.id ?? null
  }

  /**
   * Everything newer than lastId matching the filter, oldest first, page by page; or, when the
   * log was empty at the start, everything there is now. Returns how many events were new.
   */
  private async fetchNewer(backfilled: boolean): Promise<number> {
    const {client, types, signal} = this.o
    let n = 0
    if (this.lastId === null) {
      const all: GwEvent[] = []
      for await (const e of client.events.iterate({type: types}, this.o.maxBackfill ?? 10_000)) all.push(e)
      for (const e of all.reverse()) if (this.emit(e, JSON.stringify(e), backfilled)) n++
      return n
    }
    let cursor = this.lastId
    for (;;) {
      if (signal.aborted) return n
      const page: ListEnvelope<GwEvent> = await client.events.list({ending_before: cursor, type: types, limit: 100})
      // ending_before pages hold the events just after the cursor, newest first
      for (const e of [...page.data].reverse()) if (this.emit(e, JSON.stringify(e), backfilled)) n++
      if (page.data.length) this.lastId = page.data[0]!.id
      if (!page.has_more || page.data.length === 0) break
      cursor = page.data[0]!.id
    }
    return n
  }

  private async pollForever(): Promise<void> {
    const {signal} = this.o
    while (!signal.aborted) {
      await this.sleep(this.o.pollIntervalMs ?? 1000, signal)
      if (signal.aborted) return
      await this.fetchNewer(false)
    }
  }

  /**
   * After a stream opened with no resume point: every event the log holds now (at most
   * maxBackfill), oldest first, emitted unless already streamed. The resume point stays the newest
   * event streamed meanwhile, if any (those are newer than anything the read found missing).
   */
  private async catchUpFromEmpty(): Promise<void> {
    const {client, types} = this.o
    const all: GwEvent[] = []
    for await (const e of client.events.iterate({type: types}, this.o.maxBackfill ?? 10_000)) all.push(e)
    const streamed = this.lastId
    for (const e of all.reverse()) this.emit(e, JSON.stringify(e), true)
    if (streamed !== null) this.lastId = streamed
  }

  /** One SSE connection, resumed from lastId; resolves when the server ends it. */
  private async streamOnce(onLive: () => void): Promise<void> {
    const {client, types, signal} = this.o
    const ac = new AbortController()
    const abort = () => ac.abort()
    signal.addEventListener('abort', abort, {once: true})
    const idleMs = this.o.idleTimeoutMs ?? 45_000
    let idle = false
    let timer: NodeJS.Timeout | undefined
    const arm = () => {
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => {
        idle = true
        ac.abort()
      }, idleMs)
    }
    const decoder = new TextDecoder()
    const parser = createParser({
      onEvent: (m) => {
        if (!m.data) return
        let event: GwEvent
        try {
          event = JSON.parse(m.data) as GwEvent
        } catch {
          this.status({state: 'notice', message: `Skipped an SSE message that is not JSON (id ${m.id ?? 'none'}).`})
          return
        }
        this.emit(event, m.data, false)
      },
    })
    // Opened with no resume point (the log was empty when the feed started), the server streams
    // only what is committed after it subscribes: an event committed between that empty read and
    // this moment would be lost. So once open, everything the log holds now is read once and what
    // was not streamed yet is emitted (marked backfilled; duplicates are dropped by id).
    const fromNothing = this.lastId === null
    let catchUp: Promise<void> | undefined
    let catchUpError: unknown
    const opened = () => {
      onLive()
      if (fromNothing)
        catchUp = this.catchUpFromEmpty().catch((e: unknown) => {
          catchUpError = e
          ac.abort()
        })
    }
    try {
      arm()
      await client.openStream('/events/stream', {
        query: {type: types},
        headers: this.lastId ? {'last-event-id': this.lastId} : {},
        signal: ac.signal,
        onOpen: opened,
        onChunk: (chunk) => {
          arm()
          parser.feed(decoder.decode(chunk, {stream: true}))
        },
      })
      await catchUp
      if (catchUpError) throw catchUpError
    } catch (e) {
      await catchUp
      if (catchUpError && !signal.aborted) throw catchUpError
      if (idle) throw new StreamClosed(`no data for ${Math.round(idleMs / 1000)} s (the connection is gone)`)
      if (signal.aborted) return
      if (e instanceof ApiError && e.status === 404) throw new NoStreamError()
      throw e
    } finally {
      if (timer) clearTimeout(timer)
      signal.removeEventListener('abort', abort)
    }
  }
}
