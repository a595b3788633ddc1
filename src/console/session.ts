// The console's state outside React: the API client it shares with every command, the key and
// the account, the engine clock, and the connection. Views read data through `Resource`s, which
// remember when they were read (nothing is shown older than it says) and refetch when the engine
// comes back. A request that cannot reach the engine turns the connection to "reconnecting": a
// probe asks again every second until it answers; the views keep what they show meanwhile.
import type {Account, ApiKey} from '../api/types.js'
import {ApiError, NetworkError} from '../client/errors.js'
import type {GwClient} from '../client/index.js'
import {redactSecret} from '../api/keys.js'
import {isDeepStrictEqual} from 'node:util'
import {DraftStore} from './drafts.js'

export type Mode = 'test' | 'live' | 'unknown'

/** A key's mode from its prefix: sk_ and rk_ keys, test and live. */
export function modeOfKey(key: string): Mode {
  const m = /^(?:sk|rk)_(test|live)_/.exec(key)
  return m ? (m[1] as Mode) : 'unknown'
}

/** Something views subscribe to (useSyncExternalStore): a version that changes, and listeners. */
export class Emitter {
  private listeners = new Set<() => void>()
  version = 0
  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn)
    this.onSubscribers(this.listeners.size)
    return () => {
      this.listeners.delete(fn)
      this.onSubscribers(this.listeners.size)
    }
  }
  getVersion = (): number => this.version
  /** called as views come and go (a resource refreshes only while shown) */
  protected onSubscribers(_n: number): void {}
  changed(): void {
    this.version++
    for (const fn of [...this.listeners]) fn()
  }
}

/**
 * An Emitter whose changes reach the views at most once per `ms` (a stream of 1,000 events a
 * second redraws 10 times a second, each time with everything that arrived).
 */
export class BatchedEmitter extends Emitter {
  private timer: NodeJS.Timeout | undefined
  private due = 0
  constructor(private readonly ms = 50) {
    super()
  }
  /**
   * Marks a change; the views hear of it at the end of the batch (`ms` from the first change of
   * the batch; a shorter `ms` brings a pending batch forward).
   */
  touch(ms = this.ms): void {
    const due = Date.now() + ms
    if (this.timer) {
      if (this.due <= due) return
      clearTimeout(this.timer)
    }
    this.due = due
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.changed()
    }, ms)
    this.timer.unref?.()
  }
  override changed(): void {
    // whatever made this change, a batch pending is in it
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    super.changed()
  }
  dispose(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }
}

/**
 * The one clock of every text that changes with time (the engine clock, "updated 12s ago"): each
 * second it reads them all, and only when one of them reads differently does the frame redraw,
 * once for all of them (a timer per text redrew the whole frame once for each, with nothing new
 * most of the time).
 */
export class Ticker extends Emitter {
  private readonly readers = new Set<TickReader>()
  /** Reads `r.read()` at each tick from now on (`r.last`: what is on screen); returns the way to stop. */
  watch(r: TickReader): () => void {
    this.readers.add(r)
    return () => {
      this.readers.delete(r)
    }
  }
  /** One tick: a redraw when any text reads differently. */
  check(): void {
    let changed = false
    for (const r of this.readers) {
      const t = r.read()
      if (t !== r.last) {
        r.last = t
        changed = true
      }
    }
    if (changed) this.changed()
  }
}

export interface TickReader {
  read: () => string
  /** the text as last drawn */
  last: string
}

/** What a call gave: the value, or why not in words, with the permission a 403 names. */
export type Outcome<T> = {ok: true; value: T} | {ok: false; message: string; permission?: string; offline?: boolean; error: unknown}

/** The permission a 403 names (several joined by commas when all are needed). */
export function deniedPermission(e: unknown): string | undefined {
  if (e instanceof ApiError && e.status === 403) return e.envelope?.error?.permission ?? 'a permission this key lacks'
  return undefined
}

/** An error in one line, as the console shows it. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) return `${e.message}${e.explanation ? ` ${e.explanation}` : ''} (${e.status} ${e.code})`
  if (e instanceof NetworkError) return e.message
  return (e as Error)?.message ?? String(e)
}

/** An engine that cannot be reached (or a balancer with no instance behind it). */
export function isOffline(e: unknown): boolean {
  return e instanceof NetworkError || (e instanceof ApiError && (e.status === 502 || e.status === 504))
}

export interface ConnectionState {
  state: 'live' | 'reconnecting'
  /** wall ms the engine was last heard from */
  lastOkAt: number
  /** while reconnecting: since when, why, how many probes failed */
  since?: number
  reason?: string
  attempts?: number
}

/**
 * The engine answers but cannot serve (its store is away: a PostgreSQL outage): a 5xx to a
 * request of the console's, or its base URL's /readyz saying not ready. Said while it lasts
 * (the request log cannot record those 5xx meanwhile: it is kept in the same store).
 */
export interface Outage {
  /** wall ms it began */
  since: number
  reason: string
  /** wall ms of each 5xx the console got since (the last minute's kept) */
  seen: number[]
}

export interface ClockState {
  /** engine time minus wall time, ms */
  offsetMs: number
  /** where it came from: the engine's test clock, its Gw-Engine-Time header, or the wall (the key may not read the clock) */
  source: 'engine' | 'header' | 'wall'
  /** why the wall clock is used, when it is */
  note?: string
  frozen?: boolean
  /** wall ms of the last reading */
  readAt: number
}

export interface SessionOptions {
  client: GwClient
  apiKey: string
  profile: string
  /** the config dir, where evidence drafts are kept (none: drafts live while the console runs) */
  configDir?: string
  /** probe interval while reconnecting; default 1 s */
  probeMs?: number
  /** how often the clock is read again; default 5 s */
  clockMs?: number
  /**
   * how often every view's data is read again while shown, instead of each view's own interval
   * (3 to 10 s): tests that wait for a change the engine made to reach the screen set it short
   */
  refreshMs?: number
  now?: () => number
}

export class ConsoleSession extends Emitter {
  readonly client: GwClient
  readonly profile: string
  readonly host: string
  readonly keyRedacted: string
  /** evidence drafts, one per dispute, kept until sent */
  readonly drafts: DraftStore
  mode: Mode
  account: Account | null = null
  key: ApiKey | null = null
  connection: ConnectionState
  /** the engine answers but cannot serve, while it lasts */
  outage: Outage | undefined
  clock: ClockState
  /** bumped when the engine answers again after an outage: resources refetch */
  epoch = 0
  /**
   * Asks the person something (a confirmation, a typed word, an amount); set by the app. `check`
   * says why an answer cannot be taken: the question stays open with that under it.
   */
  ask: (question: string, opts?: {placeholder?: string; check?: (answer: string) => string | undefined}) => Promise<string> = async () => ''
  /** a short message at the foot of the screen (an action's result); set by the app */
  flash: (text: string, tone?: 'ok' | 'warn' | 'error') => void = () => {}
  private probeTimer: NodeJS.Timeout | undefined
  private clockTimer: NodeJS.Timeout | undefined
  private readonly probeMs: number
  private readonly clockMs: number
  /** SessionOptions.refreshMs */
  readonly refreshMs: number | undefined
  readonly now: () => number
  private closed = false
  private closers: (() => void)[] = []

  constructor(opts: SessionOptions) {
    super()
    this.client = opts.client
    this.profile = opts.profile
    this.host = new URL(opts.client.baseUrl).host
    this.keyRedacted = redactSecret(opts.apiKey)
    this.mode = modeOfKey(opts.apiKey)
    this.probeMs = opts.probeMs ?? 1000
    this.clockMs = opts.clockMs ?? 5_000
    this.refreshMs = opts.refreshMs
    this.now = opts.now ?? Date.now
    this.drafts = new DraftStore(opts.configDir, opts.profile, this.now)
    this.connection = {state: 'live', lastOkAt: this.now()}
    this.outage = undefined
    this.clock = {offsetMs: 0, source: 'wall', readAt: this.now()}
  }

  /** Reads the key, the account and the clock; the first screen waits for it. */
  async start(): Promise<void> {
    await Promise.all([
      this.call(() => this.client.apiKeys.self()).then((r) => {
        if (r.ok) {
          this.key = r.value
          if (this.mode === 'unknown') this.mode = r.value.livemode ? 'live' : 'test'
        }
      }),
      this.call(() => this.client.accounts.current()).then((r) => {
        if (r.ok) this.account = r.value
      }),
      this.readClock(),
    ])
    this.clockTimer = setInterval(() => void this.readClock(), this.clockMs)
    this.clockTimer.unref?.()
    this.changed()
  }

  /** Runs `fn` when the console closes (a live stream that would keep the process up). */
  onClose(fn: () => void): void {
    this.closers.push(fn)
  }

  close(): void {
    this.closed = true
    for (const fn of this.closers.splice(0)) fn()
    if (this.probeTimer) clearTimeout(this.probeTimer)
    if (this.clockTimer) clearInterval(this.clockTimer)
  }

  /** The engine's "now" (the test clock may run ahead of the wall). */
  engineNow(): Date {
    return new Date(this.now() + this.clock.offsetMs)
  }

  /** The key may do this (a secret key may do everything; a restricted key what it lists). */
  may(permission: string): boolean {
    const perms = this.key?.permissions
    if (!perms) return true
    const [resource, level] = permission.split(':')
    return perms.includes(permission) || (level === 'read' && perms.includes(`${resource}:write`))
  }

  /** Runs an API call: a failure to reach the engine starts reconnecting; a 403 names its permission. */
  async call<T>(fn: () => Promise<T>): Promise<Outcome<T>> {
    try {
      const value = await fn()
      this.heard()
      this.served()
      return {ok: true, value}
    } catch (error) {
      if (isOffline(error)) {
        this.lost(errorText(error))
        return {ok: false, message: errorText(error), offline: true, error}
      }
      this.heard()
      if (error instanceof ApiError && error.status >= 500) this.unserved(errorText(error))
      const permission = deniedPermission(error)
      if (permission) return {ok: false, message: `This key may not do this: it needs ${permission}.`, permission, error}
      return {ok: false, message: errorText(error), error}
    }
  }

  /** The engine answered. */
  heard(): void {
    const wasDown = this.connection.state === 'reconnecting'
    this.connection = {state: 'live', lastOkAt: this.now()}
    if (wasDown) {
      if (this.probeTimer) clearTimeout(this.probeTimer)
      this.probeTimer = undefined
      this.epoch++
      void this.readClock()
      this.changed()
    }
  }

  /** The engine answered a request with a 5xx, or its /readyz said not ready: an outage, while it lasts. */
  unserved(reason: string, counted = true): void {
    const now = this.now()
    const o = this.outage ?? {since: now, reason, seen: []}
    const seen = counted ? [...o.seen.filter((t) => now - t < 60_000), now] : o.seen
    this.outage = {since: o.since, reason, seen}
    this.changed()
  }

  /** The engine served a request, or its /readyz said ready: the outage is over. */
  served(): void {
    if (!this.outage) return
    this.outage = undefined
    this.changed()
  }

  /** The engine could not be reached (a request or a stream failed): reconnecting until it answers. */
  lost(reason: string): void {
    if (this.closed) return
    const c = this.connection
    if (c.state === 'reconnecting') {
      this.connection = {...c, reason}
      this.changed()
      return
    }
    this.connection = {state: 'reconnecting', lastOkAt: c.lastOkAt, since: this.now(), reason, attempts: 0}
    this.changed()
    this.scheduleProbe()
  }

  private scheduleProbe(): void {
    if (this.probeTimer || this.closed) return
    this.probeTimer = setTimeout(async () => {
      this.probeTimer = undefined
      if (this.connection.state !== 'reconnecting' || this.closed) return
      try {
        await this.client.accounts.current()
        this.heard()
      } catch (error) {
        if (!isOffline(error)) return this.heard()
        this.connection = {...this.connection, attempts: (this.connection.attempts ?? 0) + 1, reason: errorText(error)}
        this.changed()
        this.scheduleProbe()
      }
    }, this.probeMs)
    this.probeTimer.unref?.()
  }

  /**
   * The engine clock: the Gw-Engine-Time header where the engine sends one (any key), else the
   * test clock (test_helpers:read), else the wall clock, said as such.
   */
  async readClock(): Promise<void> {
    const at = this.now()
    try {
      const res = await this.client.request<Account>('GET', '/account')
      this.heard()
      const header = res.headers['gw-engine-time']
      const text = Array.isArray(header) ? header[0] : header
      if (text && !Number.isNaN(Date.parse(text))) {
        this.setClock({offsetMs: Date.parse(text) - Math.round((at + this.now()) / 2), source: 'header', readAt: this.now()})
        return
      }
    } catch (error) {
      if (isOffline(error)) return this.lost(errorText(error))
    }
    if (this.mode === 'live') {
      this.setClock({offsetMs: 0, source: 'wall', note: 'live mode runs on real time', readAt: this.now()})
      return
    }
    const r = await this.call(() => this.client.testHelpers.clock())
    if (r.ok) this.setClock({offsetMs: Date.parse(r.value.now) - Math.round((at + this.now()) / 2), source: 'engine', frozen: r.value.frozen, readAt: this.now()})
    else if (!r.offline) this.setClock({offsetMs: 0, source: 'wall', note: r.permission ? `this key cannot read the engine clock (${r.permission}): times left use the wall clock` : `the engine clock could not be read: ${r.message}`, readAt: this.now()})
    else this.changed()
  }

  /**
   * A new reading of the clock: the views hear of it when it moved by a second or more or says
   * something else; a reading within a second of the last (every 5 s, a few ms of jitter) is
   * taken quietly, and the status line's clock shows it at its next tick.
   */
  private setClock(c: ClockState): void {
    const was = this.clock
    this.clock = c
    if (Math.abs(c.offsetMs - was.offsetMs) >= 1000 || c.source !== was.source || c.frozen !== was.frozen || c.note !== was.note) this.changed()
  }
}

/**
 * Data a view shows, read through the session: its value, when it was read (wall ms), and why
 * it could not be. It refreshes every `refreshMs` while a view shows it, and when the engine is
 * back after an outage; the last value stays on screen meanwhile, with its age.
 */
export class Resource<T> extends Emitter {
  value: T | undefined
  /** wall ms of the last successful read */
  at: number | undefined
  error: string | undefined
  permission: string | undefined
  loading = false
  private timer: NodeJS.Timeout | undefined
  private epoch = -1
  private inflight: Promise<void> | undefined
  private unsub: (() => void) | undefined

  constructor(
    private readonly session: ConsoleSession,
    private readonly load: () => Promise<T>,
    private readonly opts: {refreshMs?: number} = {},
  ) {
    super()
  }

  /** how often it is read again while shown (ms), if it is */
  get every(): number | undefined {
    return this.opts.refreshMs === undefined ? undefined : (this.session.refreshMs ?? this.opts.refreshMs)
  }

  protected override onSubscribers(n: number): void {
    if (n > 0 && !this.unsub) {
      this.unsub = this.session.subscribe(() => {
        // the engine is back: read again
        if (this.session.epoch !== this.epoch && this.session.connection.state === 'live') void this.refresh()
      })
      const every = this.every
      if (this.at === undefined || this.session.now() - this.at > (every ?? 0)) void this.refresh()
      if (every) {
        this.timer = setInterval(() => void this.refresh(), every)
        this.timer.unref?.()
      }
    } else if (n === 0 && this.unsub) {
      this.unsub()
      this.unsub = undefined
      if (this.timer) clearInterval(this.timer)
      this.timer = undefined
    }
  }

  refresh(): Promise<void> {
    if (this.inflight) return this.inflight
    this.loading = true
    this.epoch = this.session.epoch
    // a refresh's start is drawn only where nothing was read yet ("loading…" instead of the age);
    // over a value already shown it changes nothing on screen, and its end redraws anyway
    if (this.at === undefined) this.changed()
    const was = {at: this.at, error: this.error, permission: this.permission}
    this.inflight = this.session.call(this.load).then((r) => {
      this.inflight = undefined
      this.loading = false
      let same = was.at !== undefined
      if (r.ok) {
        // the same data again keeps the value the views hold (what they derived from it stays)
        if (!isDeepStrictEqual(r.value, this.value)) [this.value, same] = [r.value, false]
        this.at = this.session.now()
        this.error = undefined
        this.permission = undefined
      } else if (!r.offline) {
        this.error = r.message
        this.permission = r.permission
      }
      // a poll that brings what is shown already draws nothing (docs/decisions.md#an-idle-console):
      // its age still reads "just now" (ageShown), so the screen would not change
      same &&= this.error === was.error && this.permission === was.permission && ageShown(was.at, this.at, this.every) === ageShown(this.at, this.at, this.every)
      if (!same) this.changed()
    })
    return this.inflight
  }
}

/**
 * The age of data a view reads again every `every` ms, as its "updated …" label says it: "just
 * now" while the polls keep it fresh (the last one at most `every` and 2 s of a request's time
 * ago), else its age (ageText): "12s ago" once a poll is late or failed. A label that counted the
 * seconds between polls would redraw the console every second with nothing new.
 */
export function ageShown(atMs: number | undefined, nowMs: number | undefined, every: number | undefined): string {
  if (atMs !== undefined && nowMs !== undefined && every !== undefined && nowMs - atMs < every + 2000) return 'just now'
  return ageText(atMs, nowMs ?? 0)
}

/** "just now", "12s ago", "3m ago": how old what is shown is. */
export function ageText(atMs: number | undefined, nowMs: number): string {
  if (atMs === undefined) return 'not read yet'
  const s = Math.max(0, Math.round((nowMs - atMs) / 1000))
  if (s < 2) return 'just now'
  if (s < 60) return `${s}s ago`
  if (s < 3600) return `${Math.floor(s / 60)}m ago`
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m ago`
}
