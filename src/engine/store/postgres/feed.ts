// The change feed of the PostgreSQL adapter: what a commit touched, per account, announced to
// this instance's listeners at once and to the other instances by `pg_notify` in the committing
// transaction (delivered only if it commits). After the listening connection is lost and back,
// every listener gets a notice for account '*' (every account) saying anything may have changed.
//
// Notices go on three channels, so that an instance is woken only by what it has a use for
// (every notice heard costs an instance a wake-up, whatever it then does with it):
// - CHANNEL: what every instance acts on by itself (listeners.ts isShared: settings, timeline
//   jobs, keys, endpoints, routing rules, deliveries, purges, restores). Always listened to.
// - FOLLOW_CHANNEL: the other commits (a payment: its objects and events). Listened to only while
//   a listener of this instance hears 'all' (an open event stream).
// - LOG_CHANNEL: request-log appends (request-log.ts). Listened to only while the request log
//   is followed here (`gw logs tail`).
import pg from 'pg'
import type {ChangeNotice, Kind, StoreCounters} from '../../ports/store.js'
import {KINDS} from '../../ports/store.js'
import {type PgConfig, query, type Queryable, rows} from './sql.js'
import {isShared, type Listeners} from '../listeners.js'

export {Listeners} from '../listeners.js'

export const CHANNEL = 'gw_change'
export const FOLLOW_CHANNEL = 'gw_change_follow'
export const LOG_CHANNEL = 'gw_request_log'

/** A notice being built by a commit. */
export type Notice = {account: string; kinds: Set<Kind>; settings: string[]; eventSeq: number | null; dueBy: string | null; purged?: boolean; restored?: boolean}

export const emptyNotice = (account: string): Notice => ({account, kinds: new Set(), settings: [], eventSeq: null, dueBy: null})
export const dueAt = (n: Notice, at: string | null | undefined) => {
  if (at && (n.dueBy === null || at < n.dueBy)) n.dueBy = at
}
const said = (n: Notice) => n.kinds.size > 0 || n.settings.length > 0 || n.eventSeq !== null || n.dueBy !== null || n.purged || n.restored

/** The notices of one commit (or group of commits), one per account. */
export class Notices {
  private readonly byAccount = new Map<string, Notice>()
  of(account: string): Notice {
    let n = this.byAccount.get(account)
    if (!n) this.byAccount.set(account, (n = emptyNotice(account)))
    return n
  }
  /** The ones that say anything. */
  list(): Notice[] {
    return [...this.byAccount.values()].filter(said)
  }
}

/** A commit's notices by channel: what every instance acts on (CHANNEL), and the rest (FOLLOW_CHANNEL). */
export function byChannel<N extends Notice>(notices: readonly N[]): [channel: string, notices: N[]][] {
  const shared = notices.filter(isShared)
  const rest = notices.filter((n) => !isShared(n))
  return [
    [CHANNEL, shared],
    [FOLLOW_CHANNEL, rest],
  ].filter(([, l]) => l.length > 0) as [string, N[]][]
}

/** The NOTIFY payloads of a commit for the other instances, by channel (none when it changed nothing). */
export function payloads(instanceId: string, notices: readonly Notice[]): [channel: string, payload: string][] {
  return byChannel(notices).map(([channel, ns]) => {
    const full = JSON.stringify({o: instanceId, n: ns.map((n) => [n.account, [...n.kinds], n.settings, n.eventSeq, n.dueBy, (n.purged ? 1 : 0) | (n.restored ? 2 : 0)])})
    // NOTIFY payloads are limited to 8000 bytes: too much to say means "everything may have changed" (said to every instance)
    return full.length < 7900 ? [channel, full] : [CHANNEL, JSON.stringify({o: instanceId, all: true})]
  })
}

/** Sends a commit's notices, in its transaction (one statement, whatever the channels). */
export async function notify(c: Queryable, instanceId: string, notices: readonly Notice[]): Promise<void> {
  const said = payloads(instanceId, notices)
  if (said.length) await query(c, `SELECT ${said.map((_, i) => `pg_notify($${2 * i + 1}, $${2 * i + 2})`).join(', ')}`, said.flat())
}

/**
 * The LISTEN connection: notices of other instances' commits to the listeners; reconnects by
 * itself with a growing delay, and then says anything may have changed (account '*').
 */
export class ChangeFeed {
  private client: pg.Client | undefined
  private retry: NodeJS.Timeout | undefined
  private backoff = 0
  private closed = false
  /** the channels besides CHANNEL that this instance's listeners want, and those the connection listens to */
  private readonly wanted = new Set<string>()
  private listened = new Set<string>()
  private syncing: Promise<void> = Promise.resolve()

  constructor(
    private readonly config: PgConfig,
    private readonly instanceId: string,
    private readonly listeners: Listeners,
    private readonly readPool: Queryable,
    private readonly log: (line: string) => void,
    /** request-log entries another instance appended, up to this seq */
    private readonly onRequestLog: (seq: number) => void = () => {},
    private readonly counts: StoreCounters = {roundTrips: 0, commitGroups: 0, committedChangeSets: 0, notices: 0},
  ) {}

  async start(): Promise<void> {
    const own = `{"o":${JSON.stringify(this.instanceId)},`
    const c = new (this.config.Client ?? pg.Client)(this.config)
    const lost = (why: string) => {
      if (this.client !== c) return
      this.client = undefined
      c.removeAllListeners('notification')
      void c.end().catch(() => {})
      if (!this.closed) {
        this.log(`store: lost the change feed's connection (${why}); reconnecting`)
        this.reconnect()
      }
    }
    c.on('error', (e) => lost(e.message))
    c.on('end', () => lost('closed'))
    c.on('notification', (m) => {
      if ((m.channel !== CHANNEL && !this.listened.has(m.channel)) || !m.payload) return
      // this instance's own commits were announced locally at once (its payloads begin with its name: not parsed)
      if (m.payload.startsWith(own)) return
      let p: {o?: string; n?: [string, Kind[], string[], number | null, string | null, number][]; all?: boolean; r?: number}
      try {
        p = JSON.parse(m.payload)
      } catch {
        return
      }
      if (p.o === this.instanceId) return // this instance's own commits were announced locally at once
      this.counts.notices++
      if (p.r !== undefined) return this.onRequestLog(p.r)
      if (p.all) return void this.resync()
      for (const [account, kinds, settings, eventSeq, dueBy, flags] of p.n ?? [])
        this.listeners.emit({account, kinds: new Set(kinds), settings, eventSeq, dueBy, ...(flags & 1 ? {purged: true} : {}), ...(flags & 2 ? {restored: true} : {})})
    })
    await c.connect()
    const listening = new Set(this.wanted)
    await c.query([CHANNEL, ...listening].map((ch) => `LISTEN ${ch};`).join(' '))
    this.listened = listening
    this.client = c
    // (what was asked for meanwhile)
    void this.sync()
  }

  /** Listens to `channel` too, or no longer (FOLLOW_CHANNEL, LOG_CHANNEL). */
  want(channel: string, yes: boolean): void {
    if (yes) this.wanted.add(channel)
    else this.wanted.delete(channel)
    void this.sync()
  }

  /** Resolves once the connection listens to what is wanted (Store.following). */
  following(): Promise<void> {
    return this.sync()
  }

  private sync(): Promise<void> {
    this.syncing = this.syncing
      .then(async () => {
        const c = this.client
        // (no connection: start() listens to what is wanted when it is back, and then says anything may have changed)
        if (!c) return
        for (const ch of this.wanted)
          if (!this.listened.has(ch)) {
            await c.query(`LISTEN ${ch}`)
            this.listened.add(ch)
          }
        for (const ch of [...this.listened])
          if (!this.wanted.has(ch)) {
            this.listened.delete(ch)
            await c.query(`UNLISTEN ${ch}`)
          }
      })
      .catch(() => {}) // the connection was lost: the same as above
    return this.syncing
  }

  private reconnect(): void {
    if (this.closed || this.retry) return
    this.backoff = Math.min(2000, this.backoff ? this.backoff * 2 : 100)
    this.retry = setTimeout(() => {
      this.retry = undefined
      this.start().then(
        () => {
          this.backoff = 0
          this.log('store: change feed reconnected')
          void this.resync()
        },
        () => this.reconnect(),
      )
    }, this.backoff)
    this.retry.unref()
  }

  /** Tells every listener of every account that anything may have changed (after notifications may have been missed). */
  async resync(): Promise<void> {
    try {
      const settings = (await rows<{key: string}>(this.readPool, 'SELECT DISTINCT key FROM settings')).map((r) => r.key)
      const seq = (await rows<{last: number}>(this.readPool, 'SELECT last FROM event_seq'))[0]?.last ?? null
      const due = (await rows<{d: string | null}>(this.readPool, 'SELECT min(due_at) AS d FROM jobs'))[0]?.d ?? null
      this.listeners.emit({account: '*', kinds: new Set(Object.keys(KINDS) as Kind[]), settings, eventSeq: seq, dueBy: due})
    } catch (e) {
      this.log(`store: resync after reconnecting failed: ${(e as Error).message}`)
    }
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retry)
    const c = this.client
    this.client = undefined
    await c?.end().catch(() => {})
  }
}
