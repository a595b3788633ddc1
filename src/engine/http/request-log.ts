// The API request log behind `gw logs tail`: the last requests of each account (method, path,
// status, request id, latency, idempotent replay, the instance that answered and the key that
// asked), served as GET /v1/request_logs (list envelope, newest first, cursors, filters) and
// GET /v1/request_logs/stream (Server-Sent Events, like /v1/events/stream). Requests to these
// two endpoints are not logged, nor hosted pages. The pipeline calls track() once per request;
// the entry is written when the response finishes. One instance keeps it in memory (a restart
// starts it empty); instances sharing a store (PostgreSQL) keep one log for the fleet in it, so a
// tail through a load balancer shows what every instance answered (docs/decisions.md#the-fleet).
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {Clock} from '../ports/clock.js'
import {invalid} from '../domain/errors.js'
import {PLATFORM_ACCOUNT, StoreUnavailableError, type RequestLogStore} from '../ports/store.js'
import {ApiError} from './errors.js'
import {listUrl, type HandlerResult, type RequestCtx, type Router} from './router.js'
import {SseStreams, type StreamBudget} from './sse.js'
import {iso} from '../domain/time.js'

export interface RequestLogEntry {
  /** the request's id (req_...), also the cursor */
  id: string
  object: 'request_log'
  method: string
  /** path as requested, without the query string, e.g. /v1/payments/pay_123 */
  path: string
  status: number
  latency_ms: number
  /** a POST answered from its Idempotency-Key's stored response */
  idempotent_replayed: boolean
  /** the engine instance that answered (host:port, or gw serve --instance-name) */
  instance: string
  /** the key that made the request (`key_...`); null when authentication failed */
  api_key: string | null
  livemode: boolean
  /** on the engine clock, like every other timestamp */
  created_at: string
  /** a fault the account's chaos rules injected (`chaos_… response_lost`); absent on ordinary requests */
  chaos?: string
}

interface Stored extends RequestLogEntry {
  /** the account that made it; null when authentication failed */
  account: string | null
  seq: number
}

/** What the pipeline fills in once it knows who asks. */
export interface Tracked {
  /** the operationId, once the route is known */
  operation?: string
  account?: string
  /** the key's id */
  key?: string
  livemode?: boolean
  /** answered from a stored idempotent response */
  replayed?: boolean
  /** a fault injected into it (docs/decisions.md#failure-on-purpose): `chaos_... 503` */
  chaos?: string
}

interface Filter {
  status?: (s: number) => boolean
  method?: Set<string>
  path?: string
}

/** Where the entries are kept: this instance's memory, or the fleet's store. */
interface Backend {
  add(e: Stored): void
  /** the newest entries `ctx` may see, oldest first */
  recent(ctx: RequestCtx): Promise<Stored[]>
  /** every entry as it is recorded (here, or on any instance), in order */
  subscribe(fn: (e: Stored) => void): () => void
  close(): Promise<void>
  /** entries waiting for the store (through an outage), and those dropped since start because too many waited */
  readonly buffered?: number
  readonly dropped?: number
}

/** The last `capacity` requests of this instance. */
class MemoryBackend implements Backend {
  private entries: Stored[] = []
  private readonly subscribers = new Set<(e: Stored) => void>()
  constructor(private readonly capacity: number) {}
  add(e: Stored): void {
    this.entries.push(e)
    // trimmed to the capacity once it holds twice as many: one copy per `capacity` requests, not a shift per request
    if (this.entries.length >= 2 * this.capacity) this.entries = this.entries.slice(-this.capacity)
    for (const s of this.subscribers) s(e)
  }
  async recent(): Promise<Stored[]> {
    return this.entries.slice(-this.capacity)
  }
  subscribe(fn: (e: Stored) => void): () => void {
    this.subscribers.add(fn)
    return () => this.subscribers.delete(fn)
  }
  async close(): Promise<void> {}
}

/** How often this instance writes its entries to the fleet's log, and trims it. */
const FLUSH_MS = 100
const TRIM_MS = 30_000
/** While the store is unreachable: how many entries wait in memory (the oldest go first beyond it), and how often writing them is tried again. */
export const OUTAGE_BUFFER = 10_000
const RETRY_MS = 1000

/** The fleet's log in a shared store: entries go there in batches; streams follow it in order, every instance's entries alike. */
class StoreBackend implements Backend {
  private pending: Stored[] = []
  private flushing: Promise<void> | undefined
  private timer: NodeJS.Timeout | undefined
  private readonly subscribers = new Set<(e: Stored) => void>()
  private position = -1
  private pulling: Promise<void> | undefined
  private wanted = 0
  /** hearing of appends (other instances' too): only while a stream follows the log */
  private unsubscribe: (() => void) | undefined
  private lastTrim = Date.now()
  /** the store did not take the last batch: entries wait in `pending` until it does */
  private down = false
  private saidDown = false
  /** entries dropped (the oldest) because the outage outlasted OUTAGE_BUFFER entries: since start, and in this outage */
  dropped = 0
  private droppedNow = 0
  private closed = false

  constructor(
    private readonly store: RequestLogStore,
    private readonly capacity: number,
    private readonly log: (line: string) => void,
    private readonly buffer = OUTAGE_BUFFER,
  ) {}

  /** entries waiting to be written (kept through an outage) */
  get buffered(): number {
    return this.pending.length
  }

  add(e: Stored): void {
    this.pending.push(e)
    if (this.pending.length > this.buffer) this.drop(this.pending.length - this.buffer)
    this.schedule(this.down ? RETRY_MS : FLUSH_MS)
  }

  private drop(n: number): void {
    this.pending.splice(0, n)
    this.dropped += n
    this.droppedNow += n
  }

  private schedule(ms: number): void {
    if (this.closed) return
    this.timer ??= setTimeout(() => {
      this.timer = undefined
      void this.flush()
    }, ms)
  }

  private flush(): Promise<void> {
    const batch = this.pending
    this.pending = []
    if (!batch.length) return this.flushing ?? Promise.resolve()
    const prev = this.flushing ?? Promise.resolve()
    const run = prev.then(async () => {
      try {
        await this.store.append(batch.map((e) => ({account: e.account, entry: JSON.stringify(entryJson(e)), created_at: e.created_at})))
        if (this.down) {
          this.down = false
          // (an unreachable store's outage and recovery are said once by the engine: this adds only what was lost)
          if (this.saidDown || this.droppedNow)
            this.log(`request log: the store is back; ${batch.length} entries kept during the outage are written${this.droppedNow ? ` (${this.droppedNow} older ones were dropped: more than ${this.buffer} waited)` : ''}`)
          this.saidDown = false
          this.droppedNow = 0
          // what arrived while this batch was written
          if (this.pending.length) this.schedule(FLUSH_MS)
        }
        if (Date.now() - this.lastTrim > TRIM_MS) {
          this.lastTrim = Date.now()
          await this.store.trim(this.capacity)
        }
      } catch (e) {
        // the database is unreachable: the entries wait (in order, before newer ones) and are tried again; said once per outage
        this.pending = batch.concat(this.pending)
        if (this.pending.length > this.buffer) this.drop(this.pending.length - this.buffer)
        if (!this.down) {
          this.down = true
          this.saidDown = !(e instanceof StoreUnavailableError)
          if (this.saidDown) this.log(`request log: entries not written (${(e as Error).message}); up to ${this.buffer} are kept in memory and written when the store is back`)
        }
        this.schedule(RETRY_MS)
      }
    })
    this.flushing = run.finally(() => {
      if (this.flushing === run) this.flushing = undefined
    })
    return run
  }

  async recent(ctx: RequestCtx): Promise<Stored[]> {
    // what this instance has not written yet goes first: a list shows the requests made before it
    clearTimeout(this.timer)
    this.timer = undefined
    await this.flush()
    const rows = await this.store.recent(ctx.account, ctx.account === PLATFORM_ACCOUNT, this.capacity)
    return rows.map((r) => fromStored(r.entry, r.account, r.seq)).reverse()
  }

  private ready: Promise<void> = Promise.resolve()

  subscribe(fn: (e: Stored) => void): () => void {
    // a stream starts with what is appended after it subscribed: the position is read once other
    // instances' appends are heard (the feed listens for them only while someone follows)
    if (this.subscribers.size === 0) {
      this.position = -1
      this.unsubscribe ??= this.store.onAppend((seq) => this.follow(seq))
      this.ready = this.store
        .following()
        .then(() => this.store.last())
        .then(
          (seq) => void (this.position < 0 && (this.position = seq)),
          () => void (this.position = 0),
        )
    }
    this.subscribers.add(fn)
    return () => {
      if (this.subscribers.delete(fn) && this.subscribers.size === 0) {
        this.unsubscribe?.()
        this.unsubscribe = undefined
      }
    }
  }

  /** Entries appended up to `seq`: the streams get what follows what they had. */
  private follow(seq: number): void {
    if (this.subscribers.size === 0) return
    this.wanted = Math.max(this.wanted, seq)
    this.pulling ??= this.pull()
      .catch(() => {}) // unreachable: the next append tries again
      .finally(() => (this.pulling = undefined))
  }

  private async pull(): Promise<void> {
    await this.ready
    while (this.wanted > this.position) {
      const batch = await this.store.after(this.position, 500)
      if (!batch.length) return
      for (const r of batch) {
        this.position = r.seq
        const e = fromStored(r.entry, r.account, r.seq)
        for (const s of this.subscribers) s(e)
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    this.timer = undefined
    this.unsubscribe?.()
    this.unsubscribe = undefined
    await this.flush()
    if (this.pending.length) this.log(`request log: ${this.pending.length} entries not written: the store did not take them before the instance stopped`)
  }
}

function entryJson(e: Stored): RequestLogEntry {
  return view(e)
}

function fromStored(json: string, account: string | null, seq: number): Stored {
  return {...(JSON.parse(json) as RequestLogEntry), account, seq}
}

export class RequestLog {
  private seq = 0
  private readonly backend: Backend
  private readonly streams: SseStreams

  constructor(
    /** the engine clock of an account (null: a request that failed authentication) */
    private readonly clockOf: (account: string | null) => Clock,
    readonly capacity = 1000,
    /** called with every request recorded (metrics, the access log): no listener of its own per request */
    private readonly onEntry?: (e: RequestLogEntry, who: Tracked) => void,
    opts: {instance?: () => string; store?: RequestLogStore; log?: (line: string) => void; contain?: (e: unknown, account: string | null) => void; outageBuffer?: number; streams?: StreamBudget} = {},
  ) {
    this.streams = new SseStreams(opts.streams)
    this.instance = opts.instance ?? (() => 'local')
    this.contain = opts.contain ?? ((e) => opts.log?.(`request log: ${(e as Error).stack ?? String(e)}`))
    this.backend = opts.store ? new StoreBackend(opts.store, capacity, opts.log ?? (() => {}), opts.outageBuffer) : new MemoryBackend(capacity)
  }

  private readonly instance: () => string
  /** where a failure to record a request goes (docs/decisions.md#failures-are-contained): it runs after the response, where nothing else would catch it */
  private readonly contain: (e: unknown, account: string | null) => void

  /** Called by the pipeline for every request; records it when the response is done. */
  track(req: IncomingMessage, res: ServerResponse, requestId: string, pathname: string): Tracked | undefined {
    if (!(pathname === '/v1' || pathname.startsWith('/v1/')) || pathname.startsWith('/v1/request_logs')) return undefined
    const started = performance.now()
    const who: Tracked = {}
    let done = false
    const record = () => {
      if (done) return
      done = true
      try {
        this.record(req, res, requestId, pathname, who, started)
      } catch (e) {
        this.contain(e, who.account ?? null)
      }
    }
    res.once('finish', record)
    res.once('close', record)
    return who
  }

  /** Records a finished request (what track() set up). */
  private record(req: IncomingMessage, res: ServerResponse, requestId: string, pathname: string, who: Tracked, started: number): void {
    const latency = performance.now() - started
    // when it arrived, on its account's clock
    const at = iso(new Date(this.clockOf(who.account ?? null).now().getTime() - latency))
    const entry: Stored = {
      id: requestId,
      object: 'request_log',
      method: req.method ?? 'GET',
      path: pathname,
      status: res.statusCode,
      latency_ms: Math.round(latency),
      idempotent_replayed: who.replayed === true,
      instance: this.instance(),
      api_key: who.key ?? null,
      livemode: who.livemode ?? false,
      created_at: at,
      ...(who.chaos ? {chaos: who.chaos} : {}),
      account: who.account ?? null,
      seq: this.seq++,
    }
    this.backend.add(entry)
    this.onEntry?.(entry, who)
  }

  install(router: Router): void {
    router.on('listRequestLogs', (c) => this.list(c)).on('streamRequestLogs', (c) => this.stream(c))
  }

  private visible(e: Stored, ctx: RequestCtx, f: Filter): boolean {
    // a request that failed authentication belongs to no account: only the engine's own account sees it
    if (e.account === null ? ctx.account !== PLATFORM_ACCOUNT : e.account !== ctx.account) return false
    if (e.account !== null && e.livemode !== ctx.livemode) return false
    if (f.status && !f.status(e.status)) return false
    if (f.method && !f.method.has(e.method)) return false
    if (f.path && !(e.path === f.path || e.path.startsWith(f.path.endsWith('/') ? f.path : `${f.path}/`) || e.path.startsWith(`${f.path}?`))) return false
    return true
  }

  private filter(q: URLSearchParams): Filter {
    const f: Filter = {}
    const status = q.get('status')
    if (status !== null) {
      const parts = status.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)
      const tests = parts.map((p) => {
        if (/^[1-5]xx$/.test(p)) return (s: number) => Math.floor(s / 100) === Number(p[0])
        if (/^[1-5]\d\d$/.test(p)) return (s: number) => s === Number(p)
        throw invalid('status', `status takes HTTP statuses or classes, e.g. 404, 4xx, or 4xx,5xx; got '${p}'.`)
      })
      if (!tests.length) throw invalid('status', 'status must not be empty.')
      f.status = (s) => tests.some((t) => t(s))
    }
    const method = q.get('method')
    if (method !== null) {
      const set = new Set(method.split(',').map((m) => m.trim().toUpperCase()).filter(Boolean))
      for (const m of set) if (!['GET', 'POST', 'DELETE'].includes(m)) throw invalid('method', `method is GET, POST or DELETE; got '${m}'.`)
      f.method = set
    }
    const path = q.get('path')
    if (path !== null) {
      if (!path.startsWith('/')) throw invalid('path', `path is a prefix starting with /, e.g. /payments; got '${path}'.`)
      f.path = path.startsWith('/v1/') || path === '/v1' ? path : `/v1${path}`
    }
    return f
  }

  /** GET /request_logs: newest first, cursors, filters status, method, path. */
  async list(ctx: RequestCtx<'listRequestLogs'>): Promise<HandlerResult> {
    // the query was checked against the operation's schemas (OpenAPI) before this runs
    const v = ctx.input.query
    const page = {limit: v.limit ?? 20, starting_after: v.starting_after, ending_before: v.ending_before}
    const f = this.filter(ctx.query)
    const all = (await this.backend.recent(ctx)).filter((e) => this.visible(e, ctx, f))
    // newest first
    let list = all.slice().reverse()
    let hasMore: boolean
    if (page.ending_before !== undefined) {
      const i = list.findIndex((e) => e.id === page.ending_before)
      if (i < 0) throw cursorGone('ending_before', page.ending_before)
      const newer = list.slice(0, i)
      const data = newer.slice(Math.max(0, newer.length - page.limit))
      hasMore = newer.length > data.length
      list = data
    } else {
      if (page.starting_after !== undefined) {
        const i = list.findIndex((e) => e.id === page.starting_after)
        if (i < 0) throw cursorGone('starting_after', page.starting_after)
        list = list.slice(i + 1)
      }
      hasMore = list.length > page.limit
      list = list.slice(0, page.limit)
    }
    return {status: 200, body: {object: 'list', url: listUrl(ctx), data: list.map(view), has_more: hasMore}}
  }

  /** GET /request_logs/stream: Server-Sent Events of new entries (filters as the list). */
  async stream(ctx: RequestCtx): Promise<HandlerResult> {
    const f = this.filter(ctx.query)
    return {
      status: 200,
      stream: (req: IncomingMessage, res: ServerResponse) => {
        const sub = (e: Stored) => {
          if (this.visible(e, ctx, f)) res.write(`id: ${e.id}\nevent: request_log\ndata: ${JSON.stringify(view(e))}\n\n`)
        }
        // (a client gone before the stream started, while the pipeline awaited the rate limit, gets none)
        this.streams.start(req, res, ctx.requestId, ctx.account, () => this.backend.subscribe(sub))
      },
    }
  }

  /** Ends every open stream (shutdown): unsubscribed first, so requests still finishing are not written after the end. */
  closeStreams(): void {
    this.streams.closeAll()
  }

  /** Entries waiting for the fleet's log (the store is unreachable), and those dropped since start because more than OUTAGE_BUFFER waited. */
  get outage(): {buffered: number; dropped: number} {
    return {buffered: this.backend.buffered ?? 0, dropped: this.backend.dropped ?? 0}
  }

  /** Writes what is left to the fleet's log (shutdown). */
  close(): Promise<void> {
    return this.backend.close()
  }
}

function view(e: Stored): RequestLogEntry {
  const {account: _a, seq: _s, ...out} = e
  return out
}

const cursorGone = (param: string, id: string) =>
  new ApiError(400, 'invalid_request_error', 'parameter_invalid', `${param} ${id} is not in the request log (it keeps the last requests only).`, {param})
