// The Events view apart from Ink: the live feed `gw events tail` uses (../../../events/shared/
// feed.ts: SSE, reconnect, backfill by Last-Event-ID), kept in a ring buffer of the newest 2,000,
// narrowed by the `/` filter (type prefixes go to the stream's own `type` filter; an object id to
// GET /v1/events?object= for what came before, and is matched on each live event), paused with a
// count of what is held, and heard by the views at most once per batch (40 paints a second at
// 1,000 events a second; 2 while paused or scrolled up, when only a count changes). No Ink.
import {EVENT_TYPES} from '../../api/event-types.js'
import {closest} from '../../suggest.js'
import type {GwEvent} from '../../api/types.js'
import {EventFeed, type FeedEvent, type FeedStatus} from '../../commands/events/shared/feed.js'
import {summarize, type EventSummary} from '../../commands/events/shared/format.js'
import {BatchedEmitter, deniedPermission, errorText, type ConsoleSession} from '../session.js'

/** A fixed-size buffer of the newest `cap` items: pushing past it drops the oldest, in O(1). */
export class Ring<T> {
  private items: (T | undefined)[]
  private start = 0
  size = 0
  /** items pushed since the start (dropped ones included): a row's position that survives drops */
  pushed = 0
  constructor(readonly cap: number) {
    this.items = new Array<T | undefined>(cap)
  }
  push(item: T): void {
    this.pushed++
    if (this.size < this.cap) {
      this.items[(this.start + this.size) % this.cap] = item
      this.size++
      return
    }
    this.items[this.start] = item
    this.start = (this.start + 1) % this.cap
  }
  /** the i-th kept item, oldest first */
  at(i: number): T | undefined {
    if (i < 0 || i >= this.size) return undefined
    return this.items[(this.start + i) % this.cap]
  }
  /** items [from, to), oldest first */
  slice(from: number, to: number): T[] {
    const out: T[] = []
    for (let i = Math.max(0, from); i < Math.min(to, this.size); i++) out.push(this.items[(this.start + i) % this.cap]!)
    return out
  }
  clear(): void {
    this.items = new Array<T | undefined>(this.cap)
    this.start = 0
    this.size = 0
  }
}

export interface EventFilter {
  /** the stream's `type` filter: exact types and `prefix.*`, comma-separated */
  types?: string
  /** one object's story (pay_…, re_…, dp_…, wh_…): the list's `object` filter */
  object?: string
}

/**
 * What is typed at `/`: words; an id (prefix_…) is the object, anything else a type or a prefix
 * ("payment", "payment.", "payment.*" all mean every payment event; "refund.failed" that type).
 */
export function parseEventFilter(text: string): EventFilter {
  const types: string[] = []
  let object: string | undefined
  for (const raw of text.trim().split(/[\s,]+/).filter(Boolean)) {
    const w = raw.trim()
    if (/^[a-z]+_[0-9A-Za-z]+$/.test(w) && !w.includes('.')) {
      object = w
      continue
    }
    const t = w.toLowerCase()
    if (t === '*') continue
    if (t.endsWith('.*')) types.push(t)
    else if (t.endsWith('.')) types.push(`${t}*`)
    else if (!t.includes('.')) types.push(`${t}.*`)
    else types.push(t)
  }
  return {...(types.length ? {types: [...new Set(types)].join(',')} : {}), ...(object ? {object} : {})}
}

/**
 * What is wrong with a filter's types, as the CLI says it (`Did you mean --events …`): a type no
 * event has, or a prefix none starts with, and the nearest known; undefined when all are known.
 * (A filter no event can match would wait for events forever.)
 */
export function eventFilterProblem(f: EventFilter, known: readonly string[] = EVENT_TYPES): string | undefined {
  for (const t of f.types?.split(',') ?? []) {
    if (t.endsWith('.*') ? known.some((k) => k.startsWith(t.slice(0, -1))) : known.includes(t)) continue
    const word = t.endsWith('.*') ? t.slice(0, -2) : t
    const prefixes = [...new Set(known.map((k) => k.slice(0, k.indexOf('.'))))]
    const near = t.endsWith('.*') ? closest(word, prefixes, 1).map((n) => `${n}.*`) : closest(word, known, 1)
    return `No event ${t.endsWith('.*') ? 'type starts with' : 'has the type'} ${t.endsWith('.*') ? `${word}.` : t}${near[0] ? `: did you mean ${near[0]}?` : ''} (gw events list --help lists the types)`
  }
  return undefined
}

/** The filter in words, for the line above the list. */
export function describeEventFilter(f: EventFilter): string {
  const parts = [f.types ? `type ${f.types}` : '', f.object ? `about ${f.object}` : ''].filter(Boolean)
  return parts.length ? parts.join(', ') : 'every event'
}

/** An event matches the type filter as the engine's does: exact types, or `prefix.*`. */
export function typeMatches(type: string, types: string | undefined): boolean {
  if (!types) return true
  return types.split(',').some((t) => (t.endsWith('.*') ? type.startsWith(t.slice(0, -1)) : type === t))
}

/**
 * An event is about the object as GET /v1/events?object= counts it: the object itself, or, for a
 * payment, its refunds' and disputes' events (their `payment`).
 */
export function objectMatches(e: GwEvent, object: string | undefined): boolean {
  if (!object) return true
  const o = (e.data?.object ?? {}) as Record<string, unknown>
  return o.id === object || (object.startsWith('pay_') && o.payment === object)
}

export interface EventRow {
  event: GwEvent
  summary: EventSummary
  backfilled: boolean
  /** wall ms it reached the console */
  receivedAt: number
}

export interface FeedState {
  state: 'connecting' | 'live' | 'polling' | 'down'
  text: string
  /** wall ms the stream last answered (an event, or the connection opening) */
  lastOkAt?: number
  /** while down: since when */
  downSince?: number
}

/** How many events are kept on screen (newest); older ones scroll out. */
export const EVENTS_KEPT = 2000

/**
 * Redraws of the stream: every 25 ms while the newest rows are shown (the rows are painted by
 * the console's list painter, not rebuilt by Ink: a batch costs well under a millisecond of
 * paint, so 40 a second keep the console far under half a core at 1,000 events/s — 0.16 core in
 * the bench, 0.15 at 50 ms — and an event is on screen within 25 ms of its arrival); every 500 ms
 * while paused or scrolled up, when a new event only changes a count.
 */
export const EVENTS_BATCH_MS = 25
export const EVENTS_QUIET_MS = 500

export class EventsModel extends BatchedEmitter {
  rows: Ring<EventRow>
  /** arrived while paused: shown on resume (the newest `cap` of them; `heldCount` counts them all) */
  held: Ring<EventRow>
  heldCount = 0
  paused = false
  filter: EventFilter = {}
  filterText = ''
  feed: FeedState = {state: 'connecting', text: 'connecting…'}
  error: string | undefined
  permission: string | undefined
  notice: string | undefined
  /** events that arrived since the trace last took them (kept only while tracing) */
  arrivals: EventRow[] = []
  tracing = false
  /** the view shows the newest rows (set as it draws); when not, a new event changes only a count */
  following = true
  /** ids already kept: the history read before the stream and the stream's backfill overlap */
  private seen = new Set<string>()
  private ac: AbortController | undefined
  private generation = 0

  constructor(
    private readonly session: ConsoleSession,
    readonly cap = EVENTS_KEPT,
    batchMs = EVENTS_BATCH_MS,
    private readonly quietMs = EVENTS_QUIET_MS,
  ) {
    super(batchMs)
    this.rows = new Ring(cap)
    this.held = new Ring(cap)
    session.onClose(() => this.stop())
  }

  /** Takes an event from the feed: kept (or held while paused) when it passes the filter. */
  add(fe: FeedEvent): void {
    if (!typeMatches(fe.event.type, this.filter.types) || !objectMatches(fe.event, this.filter.object)) return
    if (this.seen.has(fe.event.id)) return
    this.seen.add(fe.event.id)
    if (this.seen.size > this.cap * 2) this.seen.delete(this.seen.values().next().value!)
    const now = this.session.now()
    const row: EventRow = {event: fe.event, summary: summarize(fe.event), backfilled: fe.backfilled, receivedAt: now}
    this.feed.lastOkAt = now
    if (this.paused) {
      this.held.push(row)
      this.heldCount++
    } else {
      this.rows.push(row)
      if (this.tracing) this.arrivals.push(row)
    }
    if (this.paused || !this.following) this.touch(this.quietMs)
    else this.touch()
  }

  /** Pauses (new events are held and counted) or resumes (the held ones join the list). */
  togglePause(): void {
    this.paused = !this.paused
    if (!this.paused) {
      for (const r of this.held.slice(0, this.held.size)) {
        this.rows.push(r)
        if (this.tracing) this.arrivals.push(r)
      }
      this.held.clear()
      this.heldCount = 0
    }
    this.changed()
  }

  /** Starts the feed: the newest events matching the filter first, then live. */
  start(): void {
    this.stop()
    const gen = ++this.generation
    const ac = new AbortController()
    this.ac = ac
    this.error = undefined
    this.permission = undefined
    this.feed = {state: 'connecting', text: 'connecting…'}
    this.changed()
    void this.run(gen, ac)
  }

  stop(): void {
    this.ac?.abort()
    this.ac = undefined
    this.dispose()
  }

  /** A new `/` filter: the list starts over from what matches it. */
  setFilter(text: string): void {
    this.filterText = text
    this.filter = parseEventFilter(text)
    this.rows.clear()
    this.held.clear()
    this.heldCount = 0
    this.arrivals = []
    this.seen.clear()
    this.start()
  }

  private async run(gen: number, ac: AbortController): Promise<void> {
    const {client} = this.session
    const current = () => gen === this.generation && !ac.signal.aborted
    const filtered = Boolean(this.filter.types || this.filter.object)
    // the stream resumes after the newest event of the whole log (read first: what arrives while
    // the history is read comes through the stream's backfill, and duplicates are dropped by id)
    const newest = filtered ? await this.session.call(() => client.events.list({limit: 1})) : undefined
    // what came before: the newest 50 matching (the list has the object filter the stream lacks)
    const first = await this.session.call(() => client.events.list({limit: 50, ...(this.filter.types ? {type: this.filter.types} : {}), ...(this.filter.object ? {object: this.filter.object} : {})}))
    if (!current()) return
    let cursor: string | null | undefined
    if (first.ok) {
      for (const e of [...first.value.data].reverse()) this.add({event: e, raw: '', backfilled: false})
      this.feed = {...this.feed, lastOkAt: this.session.now()}
      const head = newest ?? first
      if (head.ok) cursor = head.value.data[0]?.id ?? null
    } else if (first.permission) {
      this.permission = first.permission
      this.error = first.message
      this.changed()
      return
    }
    const feed = new EventFeed({
      client,
      types: this.filter.types,
      cursor: cursor ?? undefined,
      fromEmptyLog: cursor === null,
      signal: ac.signal,
      onEvent: (fe) => {
        if (current()) this.add(fe)
      },
      onStatus: (s) => {
        if (current()) this.status(s)
      },
    })
    try {
      await feed.run()
    } catch (error) {
      if (!current()) return
      this.permission = deniedPermission(error)
      this.error = errorText(error)
      this.feed = {state: 'down', text: `stopped: ${this.error}`, lastOkAt: this.feed.lastOkAt, downSince: this.session.now()}
      this.changed()
    }
  }

  private status(s: FeedStatus): void {
    const now = this.session.now()
    switch (s.state) {
      case 'connecting':
        this.feed = {...this.feed, state: 'connecting', text: 'connecting…'}
        break
      case 'live':
        this.feed = {state: s.mode === 'poll' ? 'polling' : 'live', text: s.mode === 'poll' ? 'live (polling)' : 'live', lastOkAt: now}
        if (s.resumed) this.notice = `reconnected${s.backfilled ? `: ${s.backfilled} missed ${s.backfilled === 1 ? 'event' : 'events'} backfilled (↺)` : ''}`
        this.session.heard()
        break
      case 'disconnected':
        this.feed = {state: 'down', text: `stream down: ${s.reason}; retrying in ${(s.retryInMs / 1000).toFixed(1)}s`, lastOkAt: this.feed.lastOkAt, downSince: this.feed.downSince ?? now}
        this.session.lost(s.reason)
        break
      case 'notice':
        this.notice = s.message
        break
    }
    this.changed()
  }

  /** The arrivals since the last call (the trace of GW_CONSOLE_TRACE). */
  takeArrivals(): EventRow[] {
    const a = this.arrivals
    this.arrivals = []
    return a
  }
}
