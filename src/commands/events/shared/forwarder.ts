// `gw listen`'s delivery side: POSTs each event's JSON to a local URL, signed like a real
// webhook (Service-Signature with the listen secret, at the local clock), retries with backoff,
// and reports every attempt. A target that refuses connections is "down": the forwarder says so
// once, keeps the events and retries them until it is back (they are never dropped). A target
// that answers with an error gets a few retries, then the event is given up on. The cursor it
// reports only moves over a prefix of events that are all finished, so a restart from it loses
// nothing (it may forward an event twice; event.id is the deduplication key).
import {classifyNetworkError} from '../../../api/network-errors.js'
import {performance} from 'node:perf_hooks'
import {Agent, request, type Dispatcher} from 'undici'
import {UsageError} from '../../../errors.js'
import {SIGNATURE_HEADER, signatureHeader} from '../../../api/webhook-signature.js'
import type {FeedEvent} from './feed.js'
import {abortableSleep} from './feed.js'

export interface DeliveryResult {
  object: 'listen_delivery'
  event: string
  type: string
  url: string
  attempt: number
  ok: boolean
  status_code: number | null
  /** null when the target answered; otherwise connection_refused, timeout, tls_error, dns_error, connection_error */
  error: string | null
  error_message: string | null
  latency_ms: number
  backfilled: boolean
  /** when the next attempt is due (ms from now); null when this was the last one */
  retry_in_ms: number | null
  at: string
}

export interface ForwarderOptions {
  url: URL
  secret: string
  headers?: Record<string, string>
  /** accept any certificate from an https:// target (a self-signed local server) */
  skipVerify?: boolean
  onResult: (r: DeliveryResult) => void
  /** the target stopped accepting connections (said once until it is back) */
  onDown?: (reason: string, held: number) => void
  onUp?: (held: number) => void
  /** every event up to `id` is finished */
  onCursor?: (id: string) => void
  /** this event is finished: delivered, or given up on after maxAttempts answers */
  onDone?: (id: string) => void
  /** the target is down and this event waits for it; `held` counts every event waiting (the first refused attempt comes with onDown instead of a result) */
  onHeld?: (fe: FeedEvent, held: number, r?: DeliveryResult) => void
  signal: AbortSignal
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  /** attempts for an event the target answered with an error; default 5 */
  maxAttempts?: number
  /** delays between attempts, the last repeating; default 1 s, 2 s, 5 s, 10 s, 30 s */
  backoffMs?: readonly number[]
  timeoutMs?: number
  /** deliveries in flight at once (default 32); ordering is not guaranteed anyway (docs/api.md#webhook-delivery) */
  concurrency?: number
  userAgent?: string
  dispatcher?: Dispatcher
}

const DEFAULT_BACKOFF = [1000, 2000, 5000, 10_000, 30_000]
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0)$/i

/**
 * `--forward-to`: `localhost:3000/webhooks`, `:3000/hooks`, `3000`, `http://...` or `https://...`.
 * Without a scheme, loopback hosts get http and other hosts https.
 */
export function parseForwardTo(input: string): URL {
  let text = input.trim()
  if (/^\d+(\/|$)/.test(text)) text = `localhost:${text}`
  if (text.startsWith(':')) text = `localhost${text}`
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const host = text.split(/[/:?#]/)[0] ?? ''
    text = `${LOOPBACK.test(host) ? 'http' : 'https'}://${text}`
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new UsageError(`--forward-to "${input}" is not a URL.`, 'e.g. --forward-to localhost:3000/webhooks or --forward-to https://localhost:8443/hook')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--forward-to "${input}" must be http:// or https://, not ${url.protocol}//.`)
  if (!url.hostname) throw new UsageError(`--forward-to "${input}" names no host.`)
  return url
}

/** `--headers "K: V"` values -> a header map; rejects malformed ones. */
export function parseHeaders(values: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  for (const v of values ?? []) {
    for (const part of v.split(/,(?=\s*[A-Za-z0-9-]+\s*:)/)) {
      const i = part.indexOf(':')
      const k = i > 0 ? part.slice(0, i).trim() : ''
      if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(k))
        throw new UsageError(`--headers "${v}" is not Key:Value.`, 'e.g. --headers "X-Env: dev" (repeat the flag, or separate with commas)')
      out[k.toLowerCase()] = part.slice(i + 1).trim()
    }
  }
  return out
}

/** The failure of a forward, in listen's words (a hint for self-signed local servers). */
function classify(e: unknown): {error: string; message: string} {
  const c = classifyNetworkError(e)
  if (c.error === 'tls_error' && /self.signed|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED/i.test(c.code + c.message)) return {error: c.error, message: `${c.message} (a self-signed local server? add --skip-verify)`}
  return {error: c.error, message: c.message}
}

/** Errors that mean "nothing is listening there right now": hold the event and keep trying. */
const DOWN = new Set(['connection_refused', 'connection_error'])

/** While the target is down: probe it this often (the last repeating), so held events go out within a second of it coming back. */
const PROBE_MS = [250, 500, 1000]

interface Item {
  fe: FeedEvent
  seq: number
  attempt: number
  /** failed answers so far (status codes, timeouts): bounded by maxAttempts */
  answered: number
  done: boolean
}

/**
 * Delivers events to one target with bounded concurrency (ordering is not guaranteed, so
 * events need not wait for each other). A target that refuses connections is "down": every
 * event is held (each one reported through onHeld), one probe retries the oldest held event
 * every PROBE_MS, and the moment the target answers, everything held is sent, oldest first.
 */
export class Forwarder {
  private readonly agent: Dispatcher
  private readonly ownsAgent: boolean
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>
  private order: Item[] = []
  private queue: Item[] = []
  private held: Item[] = []
  private active = 0
  private down = false
  private probing = false
  private seq = 0
  private inflight = new Set<Promise<void>>()
  private idleWaiters: (() => void)[] = []

  constructor(private o: ForwarderOptions) {
    this.sleep = o.sleep ?? abortableSleep
    if (o.dispatcher) {
      this.agent = o.dispatcher
      this.ownsAgent = false
    } else {
      const t = o.timeoutMs ?? 10_000
      this.agent = new Agent({
        headersTimeout: t,
        bodyTimeout: t,
        keepAliveTimeout: 4000,
        connections: this.limit,
        pipelining: 1,
        connect: {timeout: t, rejectUnauthorized: !o.skipVerify},
      })
      this.ownsAgent = true
    }
  }

  private get limit(): number {
    return this.o.concurrency ?? 32
  }

  /** events pushed and not finished (a counter: this is read on every delivery) */
  private unfinished = 0

  /** Events waiting, held or in flight. */
  get pending(): number {
    return this.unfinished
  }

  /** Events held while the target is down. */
  get heldCount(): number {
    return this.held.length
  }

  /** Queues an event; deliveries start in arrival order, up to `concurrency` at a time. */
  push(fe: FeedEvent): void {
    const item: Item = {fe, seq: this.seq++, attempt: 0, answered: 0, done: false}
    this.order.push(item)
    this.unfinished++
    if (this.down) this.hold(item)
    else {
      this.queue.push(item)
      this.pump()
    }
  }

  /** Waits until every queued event is finished (tests; a clean shutdown gives up at the signal). */
  async idle(): Promise<void> {
    while (this.pending > 0 && !this.o.signal.aborted) {
      await new Promise<void>((r) => this.idleWaiters.push(r))
    }
    await Promise.allSettled([...this.inflight])
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.inflight])
    for (const w of this.idleWaiters.splice(0)) w()
    if (this.ownsAgent) await this.agent.close().catch(() => {})
  }

  private track(p: Promise<void>) {
    this.inflight.add(p)
    void p.finally(() => this.inflight.delete(p))
  }

  private pump() {
    while (!this.down && !this.o.signal.aborted && this.active < this.limit && this.queue.length) {
      const item = this.queue.shift()!
      this.active++
      this.track(this.run(item).finally(() => {
        this.active--
        this.pump()
      }))
    }
  }

  private finish(item: Item) {
    if (item.done) return
    item.done = true
    this.unfinished--
    this.o.onDone?.(item.fe.event.id)
    let last: string | undefined
    let head = 0
    while (head < this.order.length && this.order[head]!.done) last = this.order[head++]!.fe.event.id
    if (head) this.order.splice(0, head)
    if (last && !this.o.signal.aborted) this.o.onCursor?.(last)
    if (this.pending === 0) for (const w of this.idleWaiters.splice(0)) w()
  }

  private hold(item: Item, r?: DeliveryResult) {
    let i = this.held.length
    while (i > 0 && this.held[i - 1]!.seq > item.seq) i--
    this.held.splice(i, 0, item)
    this.o.onHeld?.(item.fe, this.held.length, r)
    this.probe()
  }

  /** The target stopped answering: `first` (the refused event) is held, then whatever had not started, in arrival order. */
  private goDown(reason: string, first: Item) {
    this.down = true
    this.o.onDown?.(reason, this.pending)
    const waiting = this.queue.splice(0)
    this.hold(first)
    for (const item of waiting) this.hold(item)
  }

  private goUp() {
    if (!this.down) return
    this.down = false
    const held = this.held.splice(0)
    this.o.onUp?.(held.length + 1)
    // oldest first, before anything that arrives later
    this.queue.unshift(...held)
    this.pump()
  }

  /** While down: retry the oldest held event until the target answers. */
  private probe() {
    if (this.probing || !this.down) return
    this.probing = true
    this.track(
      (async () => {
        try {
          for (let n = 0; this.down && !this.o.signal.aborted; n++) {
            await this.sleep(PROBE_MS[Math.min(n, PROBE_MS.length - 1)]!, this.o.signal)
            const item = this.held[0]
            if (!item || this.o.signal.aborted) continue
            const r = await this.attempt(item)
            if (this.o.signal.aborted) return
            if (r.error !== null && DOWN.has(r.error)) continue
            // it answers: this event is settled by the normal rules, the rest go out at once
            this.held.shift()
            this.goUp()
            await this.settle(item, r)
          }
        } finally {
          this.probing = false
        }
      })(),
    )
  }

  private async run(item: Item): Promise<void> {
    for (;;) {
      if (this.o.signal.aborted) return
      const r = await this.attempt(item)
      if (this.o.signal.aborted) return
      if (r.error !== null && DOWN.has(r.error)) {
        r.retry_in_ms = PROBE_MS[0]!
        if (!this.down) {
          this.o.onResult(r)
          this.goDown(r.error_message ?? r.error, item)
        } else this.hold(item, r)
        return
      }
      const again = await this.settle(item, r, true)
      if (!again) return
    }
  }

  /** Applies an answered result: done, or a retry after backoff (true: attempt again now). */
  private async settle(item: Item, r: DeliveryResult, inline = false): Promise<boolean> {
    // an answer (any status) means the target is back
    if (this.down && r.status_code !== null) this.goUp()
    if (r.ok) {
      this.o.onResult(r)
      this.finish(item)
      return false
    }
    const delays = this.o.backoffMs ?? DEFAULT_BACKOFF
    const maxAttempts = this.o.maxAttempts ?? 5
    item.answered++
    r.retry_in_ms = item.answered >= maxAttempts ? null : delays[Math.min(item.answered - 1, delays.length - 1)]!
    this.o.onResult(r)
    if (r.retry_in_ms === null) {
      this.finish(item)
      return false
    }
    await this.sleep(r.retry_in_ms, this.o.signal)
    if (inline) return !this.o.signal.aborted
    if (!this.o.signal.aborted) {
      this.queue.unshift(item)
      this.pump()
    }
    return false
  }

  private async attempt(item: Item): Promise<DeliveryResult> {
    const fe = item.fe
    item.attempt++
    const attempt = item.attempt
    const body = fe.raw
    const started = performance.now()
    const at = new Date()
    const base = {
      object: 'listen_delivery' as const,
      event: fe.event.id,
      type: fe.event.type,
      url: this.o.url.toString(),
      attempt,
      backfilled: fe.backfilled,
      retry_in_ms: null,
      at: at.toISOString(),
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': this.o.userAgent ?? 'gw-listen',
      ...this.o.headers,
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(this.o.secret, body, Math.floor(at.getTime() / 1000)),
    }
    const ac = new AbortController()
    const stop = () => ac.abort()
    this.o.signal.addEventListener('abort', stop, {once: true})
    const timer = setTimeout(stop, this.o.timeoutMs ?? 10_000)
    try {
      const res = await request(this.o.url, {method: 'POST', headers, body, dispatcher: this.agent, signal: ac.signal})
      await res.body.dump({limit: 65_536}).catch(() => {})
      const ok = res.statusCode >= 200 && res.statusCode < 300
      return {...base, ok, status_code: res.statusCode, error: null, error_message: null, latency_ms: Math.round(performance.now() - started)}
    } catch (e) {
      const {error, message} = classify(e)
      return {...base, ok: false, status_code: null, error, error_message: message, latency_ms: Math.round(performance.now() - started)}
    } finally {
      clearTimeout(timer)
      this.o.signal.removeEventListener('abort', stop)
    }
  }
}
