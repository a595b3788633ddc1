// The immutable event log: list and retrieve, and the live feed behind GET /events/stream.
import {invalid, notFound} from '../domain/errors.js'
import {cursorFound, type PageQuery} from '../core/lists.js'
import type {AccountStore, ListPage, LoggedEvent} from '../ports/store.js'
import type {Core} from '../core/core.js'

export const EVENT_RETENTION_MS = 30 * 86_400_000

export interface TypeFilter {
  types: string[]
  typePrefixes: string[]
}

/** Parses `type` filters: exact types, or prefixes ending in `.*`; several separated by commas. `*` or nothing: every type. */
export function parseTypeFilter(raw: string | undefined, param = 'type'): TypeFilter | undefined {
  if (raw === undefined) return undefined
  const types: string[] = []
  const typePrefixes: string[] = []
  for (const t of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    if (t === '*') return undefined
    if (t.endsWith('.*')) typePrefixes.push(t.slice(0, -1))
    else if (/^[a-z_]+(\.[a-z_]+)+$/.test(t)) types.push(t)
    else throw invalid(param, `${param} must be an event type such as payment.succeeded, or a prefix such as payment.*; got '${t}'.`)
  }
  return {types, typePrefixes}
}

export function matchesType(type: string, f: TypeFilter | undefined): boolean {
  if (!f) return true
  return f.types.includes(type) || f.typePrefixes.some((p) => type.startsWith(p))
}

export function retentionFloor(core: Core): string {
  return new Date(core.clock.now().getTime() - EVENT_RETENTION_MS).toISOString()
}

export async function listEvents(core: Core, q: PageQuery<'listEvents'>): Promise<ListPage<LoggedEvent>> {
  const tf = parseTypeFilter(q.type)
  const floor = retentionFloor(core)
  const story = q.object === undefined ? {} : await storyOf(core, q.object)
  const page = await core.store.listEvents({
    ...story,
    limit: q.limit,
    starting_after: q.starting_after,
    ending_before: q.ending_before,
    ...tf,
    created_gte: q.created_gte && q.created_gte > floor ? q.created_gte : floor,
    created_lte: q.created_lte,
  })
  return cursorFound(page, 'event', q)
}

/**
 * `object=ID`: a payment's whole story (its own events, its refunds' and its disputes'); a refund's
 * or a dispute's own events; any other object's events. An id of nothing here finds nothing.
 */
async function storyOf(core: Core, id: string): Promise<{subject: string; object?: string}> {
  if (id.startsWith('rf_') || id.startsWith('dp_')) {
    const got = await core.store.get<{id: string; payment: string; created_at: string}>(id.startsWith('rf_') ? 'refund' : 'dispute', id)
    return got ? {subject: got.obj.payment, object: id} : {subject: id, object: id}
  }
  return {subject: id}
}

export async function retrieveEvent(core: Core, id: string): Promise<LoggedEvent> {
  const e = id.startsWith('evt_') ? await core.store.getEvent(id) : undefined
  if (!e || e.created_at < retentionFloor(core)) throw notFound('event', id)
  return e
}

/** Deletes events past the 30-day window and expired idempotency records (hourly, and after every clock advance). */
export async function housekeeping(core: Core): Promise<void> {
  await core.store.purgeEvents(retentionFloor(core))
  await core.store.purgeIdempotency(core.clock.now().toISOString())
}

/**
 * Events as they are committed, by any instance, in seq order without gaps: the store's change
 * feed is the wake-up, the event sequence the truth. One reader fans out to every live stream.
 * Other instances' commits are heard only while a stream holds `follow()` (the store wakes this
 * instance for every commit of the fleet only while someone here follows: ports/store Hearing).
 */
export class EventFeed {
  private subscribers = new Set<(e: LoggedEvent) => void>()
  private pulling: Promise<void> | undefined
  private wanted = 0
  /** streams that follow (from before they read `position` until they end), and the listener that hears every commit meanwhile */
  private holds = 0
  private followed: Promise<void> | undefined
  private unfollow: (() => void) | undefined

  private constructor(
    private readonly store: AccountStore,
    /** the greatest seq handed to subscribers (or known when there were none) */
    private seq: number,
  ) {}

  static async start(store: AccountStore): Promise<EventFeed> {
    const newest = await store.listEvents({limit: 1})
    const feed = new EventFeed(store, newest.data[0]?.seq ?? 0)
    store.onChange((n) => {
      // a snapshot's events are history, not news: live streams go on from after them
      if (n.restored) return void feed.skipRestored()
      if (n.eventSeq !== null) feed.notify(n.eventSeq)
    }, 'shared')
    return feed
  }

  /**
   * Follows every commit of the account, by any instance, until the returned release is called:
   * a stream takes this before it reads `position` and subscribes, and releases it when it ends.
   * Resolves once other instances' commits are heard and `position` is the newest event.
   */
  async follow(): Promise<() => void> {
    this.holds++
    let released = false
    const release = () => {
      if (released) return
      released = true
      if (--this.holds > 0) return
      this.unfollow?.()
      this.unfollow = undefined
      this.followed = undefined
    }
    try {
      await (this.followed ??= this.startFollowing())
    } catch (e) {
      this.followed = undefined
      release()
      throw e
    }
    return release
  }

  private async startFollowing(): Promise<void> {
    this.unfollow ??= this.store.onChange((n) => {
      if (!n.restored && n.eventSeq !== null) this.notify(n.eventSeq)
    }, 'all')
    await this.store.following()
    // what other instances committed while nobody here followed
    const newest = (await this.store.listEvents({limit: 1})).data[0]?.seq ?? 0
    this.notify(newest)
  }

  /** The seq up to which events have been handed out: a new stream replays up to here, then follows. */
  get position(): number {
    return this.seq
  }

  subscribe(fn: (e: LoggedEvent) => void): () => void {
    this.subscribers.add(fn)
    return () => this.subscribers.delete(fn)
  }

  private notify(seq: number): void {
    if (this.subscribers.size === 0) {
      if (!this.pulling && seq > this.seq) this.seq = seq
      return
    }
    this.wanted = Math.max(this.wanted, seq)
    // a failed read (store unreachable) is retried by the next notice
    this.pulling ??= this.pull()
      .catch(() => {})
      .finally(() => (this.pulling = undefined))
  }

  private skipRestored(): void {
    const after = this.pulling ?? Promise.resolve()
    this.pulling = after
      .then(async () => {
        const newest = await this.store.listEvents({limit: 1})
        const seq = newest.data[0]?.seq ?? 0
        if (seq > this.seq) this.seq = seq
        this.wanted = Math.max(this.wanted, this.seq)
      })
      .catch(() => {})
      .finally(() => (this.pulling = undefined))
  }

  private async pull(): Promise<void> {
    while (this.wanted > this.seq) {
      const batch = await this.store.eventsAfter(this.seq, 500)
      if (batch.length === 0) return
      for (const e of batch) {
        this.seq = e.seq
        for (const s of this.subscribers) s(e)
      }
    }
  }
}
