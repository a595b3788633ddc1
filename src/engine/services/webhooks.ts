import {randomBytes} from 'node:crypto'
import {performance} from 'node:perf_hooks'
import {Agent, request} from 'undici'
import {signatureHeader, SIGNATURE_HEADER} from '../domain/signature.js'
import {
  checkEndpointUrl,
  DELIVERY_TIMEOUT_MS,
  isLoopbackHost,
  MAX_ENABLED_EVENTS,
  nextAttemptAt,
  nextHealth,
  normaliseEnabledEvents,
  RETRY_WINDOW_MS,
  subscribes,
  type EndpointHealth,
} from '../domain/webhooks.js'
import {ApiError, badState, invalid, notFound} from '../http/errors.js'
import type {HandlerResult, RequestCtx} from '../http/router.js'
import {pageParams, validate} from '../http/validate.js'
import {INTERNAL, toApi, type Kernel} from '../kernel.js'
import {VersionConflictError, type ChangeSet, type Filter, type Job, type Put, type StoredEvent} from '../ports/store.js'
import {EVENT_RETENTION_MS} from './events.js'

// Webhook endpoints (CRUD, secret rotation), the delivery outbox and its worker.
//
// Outbox: a kernel enricher adds one `delivery` object and one `webhook.deliver` job per
// subscribed endpoint to every change set that carries events, so an event and its
// deliveries land in one transaction. Worker: the job handler does not wait for the HTTP
// call; it starts the attempt in the background and leaves a lease job behind (due a minute
// later on the engine clock) so an attempt lost to a crash is made again after a restart.
// The attempt's outcome is committed under the delivery's lock, removing the lease and
// scheduling the next retry. So a hanging receiver holds nothing but its own attempt, for
// at most DELIVERY_TIMEOUT_MS.

export const JOB_DELIVER = 'webhook.deliver'
/** Endpoints per mode; bounds the fan-out of every event. */
export const MAX_ENDPOINTS = 16
/** Concurrent attempts per endpoint; further attempts queue in memory. */
const PER_ENDPOINT_CONCURRENCY = 8
/** Engine-clock time after which an attempt that never reported back is made again. */
const LEASE_MS = 60_000
const EXCERPT_CHARS = 500
const EXCERPT_BYTES = 4096
const USER_AGENT = 'gw-webhooks/1 (+https://docs.gw.dev/webhooks)'

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed_retrying' | 'undeliverable'

export interface DeliveryAttempt {
  at: string
  status_code: number | null
  /** null when a response arrived (status_code says how it went); otherwise timeout, connection_refused, dns_error, tls_error, connection_error */
  error: string | null
  error_message: string | null
  latency_ms: number
  response_excerpt: string | null
}

export interface Delivery {
  id: string
  object: 'webhook_delivery'
  event: string
  event_type: string
  endpoint: string
  status: DeliveryStatus
  attempts: DeliveryAttempt[]
  next_attempt_at: string | null
  /** why a delivery stopped without success: retry_window_expired, endpoint_disabled, endpoint_deleted, event_expired */
  undeliverable_reason: string | null
  livemode: boolean
  created_at: string
}

type DeliveryRecord = Delivery & {_x: {retry_until: string}}

export interface WebhookEndpoint {
  id: string
  object: 'webhook_endpoint'
  url: string
  enabled_events: string[]
  description: string | null
  metadata: Record<string, string>
  status: EndpointHealth['status']
  disabled: boolean
  disabled_reason: EndpointHealth['disabled_reason']
  failing_since: string | null
  livemode: boolean
  created_at: string
}

type EndpointRecord = WebhookEndpoint & {
  _x: {secret: string; streak_started_at: string | null; last_failure_at: string | null}
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`

/** The endpoint as served, with the secret only where the caller is entitled to see it (create, rotate). */
function endpointView(ep: EndpointRecord, withSecret = false): WebhookEndpoint & {secret?: string} {
  const {_x, ...pub} = ep
  if (!withSecret) return pub
  const {id, object, url, ...rest} = pub
  return {id, object, url, secret: _x.secret, ...rest}
}

const isTerminal = (s: DeliveryStatus) => s === 'succeeded' || s === 'undeliverable'

function classifyError(e: unknown): {error: string; message: string} {
  const err = e as {name?: string; code?: string; message?: string; cause?: {code?: string; message?: string}}
  const code = err.cause?.code ?? err.code ?? ''
  const message = err.cause?.message ?? err.message ?? String(e)
  if (err.name === 'AbortError' || err.name === 'TimeoutError' || /TIMEOUT/.test(code) || code === 'ETIMEDOUT')
    return {error: 'timeout', message: `no response within ${DELIVERY_TIMEOUT_MS / 1000} s`}
  if (code === 'ECONNREFUSED') return {error: 'connection_refused', message}
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return {error: 'dns_error', message}
  if (/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/.test(code) || /certificate|TLS|SSL/i.test(message))
    return {error: 'tls_error', message}
  return {error: 'connection_error', message: code ? `${code}: ${message}` : message}
}

/** A small FIFO semaphore per endpoint. */
class Slots {
  private active = new Map<string, number>()
  private waiting = new Map<string, (() => void)[]>()
  constructor(private limit: number) {}
  async acquire(key: string): Promise<void> {
    const n = this.active.get(key) ?? 0
    if (n < this.limit) {
      this.active.set(key, n + 1)
      return
    }
    await new Promise<void>((resolve) => {
      const q = this.waiting.get(key) ?? []
      q.push(resolve)
      this.waiting.set(key, q)
    })
  }
  release(key: string): void {
    const q = this.waiting.get(key)
    const next = q?.shift()
    if (q && q.length === 0) this.waiting.delete(key)
    if (next) next() // hands the slot over
    else {
      const n = (this.active.get(key) ?? 1) - 1
      if (n <= 0) this.active.delete(key)
      else this.active.set(key, n)
    }
  }
}

const ENDPOINT_SCHEMA = {
  url: {type: 'string', maxLength: 2048},
  enabled_events: {type: 'string_array', maxItems: MAX_ENABLED_EVENTS},
  description: {type: 'string', maxLength: 1000, nullable: true},
  metadata: {type: 'string_map', maxKeys: 50},
} as const

export class WebhooksService {
  /** every endpoint, kept current from committed change sets; read synchronously by the enricher */
  private endpoints = new Map<string, EndpointRecord>()
  private inFlight = new Map<string, Promise<void>>()
  private slots = new Slots(PER_ENDPOINT_CONCURRENCY)
  private aborts = new Set<AbortController>()
  private wakeScheduled = false
  private closed = false
  private readonly agent: Agent
  private readonly loopbackAgent: Agent

  constructor(private k: Kernel) {
    const opts = {headersTimeout: DELIVERY_TIMEOUT_MS, bodyTimeout: DELIVERY_TIMEOUT_MS, keepAliveTimeout: 4000}
    this.agent = new Agent({...opts, connect: {timeout: DELIVERY_TIMEOUT_MS}})
    // test mode only, loopback hosts only: a local receiver with a self-signed certificate works (decisions.md)
    this.loopbackAgent = new Agent({...opts, connect: {timeout: DELIVERY_TIMEOUT_MS, rejectUnauthorized: false}})
  }

  /** Loads the endpoints and hooks the outbox, the cache and the worker into the kernel. */
  async init(): Promise<this> {
    for (const ep of await this.k.store.all<EndpointRecord>('webhook_endpoint')) this.endpoints.set(ep.id, ep)
    this.k.enrich((cs) => this.enrichOutbox(cs))
    this.k.onCommit((cs) => this.afterCommit(cs))
    this.k.registerJob(JOB_DELIVER, (job) => this.runDeliverJob(job))
    return this
  }

  /** Aborts attempts in flight (shutdown); their lease jobs make them again after a restart. */
  async close(): Promise<void> {
    this.closed = true
    for (const a of this.aborts) a.abort()
    await Promise.allSettled([...this.inFlight.values()])
    await Promise.allSettled([this.agent.close(), this.loopbackAgent.close()])
  }

  // ---------------------------------------------------------------- outbox

  private newDelivery(e: {id: string; type: string}, ep: EndpointRecord, now: Date, retryUntil: Date): DeliveryRecord {
    return {
      id: this.k.ids.next('whd'),
      object: 'webhook_delivery',
      event: e.id,
      event_type: e.type,
      endpoint: ep.id,
      status: 'pending',
      attempts: [],
      next_attempt_at: now.toISOString(),
      undeliverable_reason: null,
      livemode: ep.livemode,
      created_at: now.toISOString(),
      [INTERNAL]: {retry_until: retryUntil.toISOString()},
    }
  }

  /** Same transaction as the events: one delivery and one due job per subscribed, enabled endpoint. */
  private enrichOutbox(cs: ChangeSet): void {
    if (!cs.events?.length || this.endpoints.size === 0) return
    const now = this.k.clock.now()
    const puts: Put[] = []
    const jobs: Job[] = []
    for (const e of cs.events) {
      for (const ep of this.endpoints.values()) {
        if (ep.disabled || ep.livemode !== this.k.livemode || !subscribes(ep.enabled_events, e.type)) continue
        const d = this.newDelivery(e, ep, now, new Date(new Date(e.created_at).getTime() + RETRY_WINDOW_MS))
        puts.push({kind: 'delivery', obj: d})
        jobs.push(this.k.job(JOB_DELIVER, d.id, now))
      }
    }
    if (puts.length === 0) return
    // new arrays: the caller's arrays may belong to a Draft that is committed again
    cs.puts = [...(cs.puts ?? []), ...puts]
    cs.addJobs = [...(cs.addJobs ?? []), ...jobs]
  }

  private afterCommit(cs: ChangeSet): void {
    for (const p of cs.puts ?? []) if (p.kind === 'webhook_endpoint') this.endpoints.set(p.obj.id, p.obj as EndpointRecord)
    for (const d of cs.deletes ?? []) if (d.kind === 'webhook_endpoint') this.endpoints.delete(d.id)
    const now = this.k.clock.now().toISOString()
    if (cs.addJobs?.some((j) => j.kind === JOB_DELIVER && j.due_at <= now)) this.wake()
  }

  /** Runs due jobs right away instead of at the next scheduler tick, so a delivery leaves within milliseconds. */
  private wake(): void {
    if (this.wakeScheduled || this.closed) return
    this.wakeScheduled = true
    setImmediate(() => {
      this.wakeScheduled = false
      if (this.closed) return
      // a drain already running may have passed its last query: run one more after it
      void this.k
        .runDueJobs()
        .then(() => (this.closed ? 0 : this.k.runDueJobs()))
        .catch((e) => this.k.log(`webhooks: scheduler: ${(e as Error).message}`))
    })
  }

  // ---------------------------------------------------------------- worker

  /** The job handler: starts an attempt in the background and leaves a lease job; never waits on the network. */
  private async runDeliverJob(job: Job): Promise<ChangeSet | undefined> {
    const id = job.ref
    const got = await this.k.store.get<DeliveryRecord>('delivery', id)
    if (!got || isTerminal(got.obj.status)) return undefined
    const now = this.k.clock.now()
    const lease = {addJobs: [this.k.job(JOB_DELIVER, id, new Date(now.getTime() + LEASE_MS), {lease: true})]}
    if (this.inFlight.has(id)) return lease // still running here: look again later
    // a stale job that ran after the attempt it belonged to was recorded
    if (got.obj.next_attempt_at !== null && got.obj.next_attempt_at > now.toISOString()) return undefined
    if (this.closed) return undefined
    const p = this.attempt(id)
      .catch((e) => this.k.log(`webhooks: delivery ${id} failed: ${(e as Error).stack}`))
      .finally(() => this.inFlight.delete(id))
    this.inFlight.set(id, p)
    return lease
  }

  private async attempt(id: string): Promise<void> {
    const d = (await this.k.store.get<DeliveryRecord>('delivery', id))?.obj
    if (!d || isTerminal(d.status)) return
    const ep = (await this.k.store.get<EndpointRecord>('webhook_endpoint', d.endpoint))?.obj
    if (!ep) return this.record(id, {stop: 'endpoint_deleted'})
    if (ep.disabled) return this.record(id, {stop: 'endpoint_disabled'})
    const ev = await this.k.store.getEvent(d.event)
    if (!ev) return this.record(id, {stop: 'event_expired'})

    await this.slots.acquire(ep.id)
    let result: DeliveryAttempt
    try {
      result = await this.post(ep, ev)
    } finally {
      this.slots.release(ep.id)
    }
    if (this.closed && result.error === 'timeout') return // aborted by shutdown: the lease makes it again
    await this.record(id, {attempt: result, ok: result.status_code !== null && result.status_code >= 200 && result.status_code < 300})
  }

  /**
   * One HTTP POST of the exact stored event bytes, signed with the endpoint's secret. `t=` is
   * the wall-clock time of this attempt, not the engine clock: receivers check it against
   * their own clock (§6 rule 3), and a test clock moved days ahead would make every delivery
   * fail that check. The attempt's `at` in the delivery log stays on the engine clock.
   */
  private async post(ep: EndpointRecord, ev: StoredEvent): Promise<DeliveryAttempt> {
    const at = this.k.clock.now()
    const t = Math.floor(Date.now() / 1000)
    const body = ev.json
    const url = new URL(ep.url)
    const dispatcher = !this.k.livemode && isLoopbackHost(url.hostname) ? this.loopbackAgent : this.agent
    const ac = new AbortController()
    this.aborts.add(ac)
    const timer = setTimeout(() => ac.abort(), DELIVERY_TIMEOUT_MS)
    const started = performance.now()
    const latency = () => Math.round(performance.now() - started)
    try {
      const res = await request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(ep._x.secret, body, t),
        },
        body,
        dispatcher,
        signal: ac.signal,
      })
      const latency_ms = latency()
      // an excerpt of the answer for the delivery log; a slow body does not undo a 2xx already received
      let excerpt: string | null = null
      try {
        const chunks: Buffer[] = []
        let size = 0
        for await (const chunk of res.body) {
          chunks.push(chunk as Buffer)
          size += (chunk as Buffer).length
          if (size >= EXCERPT_BYTES) break
        }
        excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').slice(0, EXCERPT_CHARS)
      } catch {
        res.body.destroy()
      }
      return {at: at.toISOString(), status_code: res.statusCode, error: null, error_message: null, latency_ms, response_excerpt: excerpt}
    } catch (e) {
      const {error, message} = classifyError(e)
      return {at: at.toISOString(), status_code: null, error, error_message: message, latency_ms: latency(), response_excerpt: null}
    } finally {
      clearTimeout(timer)
      this.aborts.delete(ac)
    }
  }

  /**
   * Records an attempt's outcome (or the reason to stop) under the delivery's lock: removes the
   * lease, schedules the next retry or closes the delivery, and updates the endpoint's health.
   */
  private async record(id: string, outcome: {attempt: DeliveryAttempt; ok: boolean} | {stop: string}): Promise<void> {
    for (let tries = 0; ; tries++) {
      try {
        await this.k.locks.run(id, async () => {
          const got = await this.k.store.get<DeliveryRecord>('delivery', id)
          if (!got || isTerminal(got.obj.status)) return
          const d = got.obj
          const cs: ChangeSet = {removeJobs: [{kind: JOB_DELIVER, ref: id}], puts: [{kind: 'delivery', obj: d, expectVersion: got.version}]}
          if ('stop' in outcome) {
            d.status = 'undeliverable'
            d.undeliverable_reason = outcome.stop
            d.next_attempt_at = null
            await this.k.commit(cs)
            return
          }
          d.attempts.push(outcome.attempt)
          const at = new Date(outcome.attempt.at)
          if (outcome.ok) {
            d.status = 'succeeded'
            d.next_attempt_at = null
          } else {
            const next = nextAttemptAt(d.attempts.length, this.k.clock.now(), new Date(d._x.retry_until))
            if (next) {
              d.status = 'failed_retrying'
              d.next_attempt_at = next.toISOString()
              cs.addJobs = [this.k.job(JOB_DELIVER, id, next)]
            } else {
              d.status = 'undeliverable'
              d.undeliverable_reason = 'retry_window_expired'
              d.next_attempt_at = null
            }
          }
          await this.k.locks.run(d.endpoint, async () => {
            const epGot = await this.k.store.get<EndpointRecord>('webhook_endpoint', d.endpoint)
            if (epGot) {
              const health = this.healthUpdate(epGot.obj, outcome.ok, at)
              if (health) cs.puts!.push({kind: 'webhook_endpoint', obj: health, expectVersion: epGot.version})
            }
            await this.k.commit(cs)
          })
        })
        return
      } catch (e) {
        if (!(e instanceof VersionConflictError) || tries >= 5) throw e
      }
    }
  }

  private healthUpdate(ep: EndpointRecord, ok: boolean, at: Date): EndpointRecord | undefined {
    const cur: EndpointHealth = {
      status: ep.status,
      disabled: ep.disabled,
      disabled_reason: ep.disabled_reason,
      failing_since: ep.failing_since,
      streak_started_at: ep._x.streak_started_at,
      last_failure_at: ep._x.last_failure_at,
    }
    const n = nextHealth(cur, ok, at)
    if (!n) return undefined
    if (n.disabled) this.k.log(`webhooks: endpoint ${ep.id} disabled: no successful delivery since ${n.failing_since}`)
    const {streak_started_at, last_failure_at, ...pub} = n
    return {...ep, ...pub, _x: {...ep._x, streak_started_at, last_failure_at}}
  }

  // ---------------------------------------------------------------- endpoints API

  private async loadEndpoint(id: string, param = 'id') {
    const got = id.startsWith('wh_') ? await this.k.store.get<EndpointRecord>('webhook_endpoint', id) : undefined
    if (!got || got.obj.livemode !== this.k.livemode) throw notFound('webhook endpoint', id, param)
    return got
  }

  private parseEvents(list: string[]): string[] {
    const r = normaliseEnabledEvents(list)
    if ('error' in r) throw invalid(r.index >= 0 ? `enabled_events[${r.index}]` : 'enabled_events', r.error)
    return r.events
  }

  private parseUrl(url: string): string {
    const err = checkEndpointUrl(url)
    if (err) throw invalid('url', err)
    return url
  }

  async create(ctx: RequestCtx): Promise<HandlerResult> {
    const b = validate<{url: string; enabled_events: string[]; description?: string | null; metadata?: Record<string, string>}>(ctx.body, {
      ...ENDPOINT_SCHEMA,
      url: {...ENDPOINT_SCHEMA.url, required: true},
      enabled_events: {...ENDPOINT_SCHEMA.enabled_events, required: true},
    })
    const url = this.parseUrl(b.url)
    const enabled_events = this.parseEvents(b.enabled_events)
    const count = [...this.endpoints.values()].filter((e) => e.livemode === ctx.livemode).length
    if (count >= MAX_ENDPOINTS)
      throw badState('webhook_endpoint_limit', `An account can have at most ${MAX_ENDPOINTS} webhook endpoints per mode; delete one first.`)
    const ep: EndpointRecord = {
      id: this.k.ids.next('wh'),
      object: 'webhook_endpoint',
      url,
      enabled_events,
      description: b.description ?? null,
      metadata: b.metadata ?? {},
      status: 'enabled',
      disabled: false,
      disabled_reason: null,
      failing_since: null,
      livemode: ctx.livemode,
      created_at: this.k.clock.now().toISOString(),
      [INTERNAL]: {secret: newSecret(), streak_started_at: null, last_failure_at: null},
    }
    return {status: 201, body: endpointView(ep, true), changes: {puts: [{kind: 'webhook_endpoint', obj: ep}]}}
  }

  async list(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['disabled'])
    const filters: Filter[] = []
    const disabled = ctx.query.get('disabled')
    if (disabled !== null) {
      if (disabled !== 'true' && disabled !== 'false') throw invalid('disabled', `disabled must be true or false; got '${disabled}'.`)
      filters.push({field: 'disabled', op: 'eq', value: disabled})
    }
    const res = await this.k.store.list<EndpointRecord>('webhook_endpoint', {...page, filters})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such webhook endpoint.`)
    return {status: 200, body: {object: 'list', url: '/v1/webhook_endpoints', data: res.data.map((e) => endpointView(e)), has_more: res.has_more}}
  }

  async retrieve(ctx: RequestCtx): Promise<HandlerResult> {
    return {status: 200, body: endpointView((await this.loadEndpoint(ctx.params.id!)).obj)}
  }

  async update(ctx: RequestCtx): Promise<HandlerResult> {
    const b = validate<{
      url?: string
      enabled_events?: string[]
      description?: string | null
      metadata?: Record<string, string>
      disabled?: boolean
    }>(ctx.body, {...ENDPOINT_SCHEMA, disabled: {type: 'boolean'}})
    const url = b.url === undefined ? undefined : this.parseUrl(b.url)
    const events = b.enabled_events === undefined ? undefined : this.parseEvents(b.enabled_events)
    return this.k.locked(ctx.params.id!, async () => {
      const {obj, version} = await this.loadEndpoint(ctx.params.id!)
      const ep: EndpointRecord = {...obj, _x: {...obj._x}}
      if (url !== undefined && url !== ep.url) {
        ep.url = url
        // a new URL is a new receiver: its health starts afresh
        if (!ep.disabled) Object.assign(ep, {status: 'enabled', failing_since: null})
        ep._x.streak_started_at = null
        ep._x.last_failure_at = null
      }
      if (events !== undefined) ep.enabled_events = events
      if (b.description !== undefined) ep.description = b.description
      if (b.metadata !== undefined) ep.metadata = {...ep.metadata, ...b.metadata}
      if (b.disabled === true && !ep.disabled) {
        ep.disabled = true
        ep.disabled_reason = 'requested'
        ep.status = 'disabled'
      } else if (b.disabled === false && ep.disabled) {
        // re-enabling starts the endpoint's health afresh
        Object.assign(ep, {disabled: false, disabled_reason: null, status: 'enabled', failing_since: null})
        ep._x.streak_started_at = null
        ep._x.last_failure_at = null
      }
      // k.locked holds the endpoint's lock until this is committed, so writes serialise with health updates
      return {status: 200, body: endpointView(ep), changes: {puts: [{kind: 'webhook_endpoint', obj: ep, expectVersion: version}]}}
    })
  }

  async remove(ctx: RequestCtx): Promise<HandlerResult> {
    validate(ctx.body, {})
    const {obj} = await this.loadEndpoint(ctx.params.id!)
    return {
      status: 200,
      body: {id: obj.id, object: 'webhook_endpoint', deleted: true},
      changes: {deletes: [{kind: 'webhook_endpoint', id: obj.id}]},
    }
  }

  async rotateSecret(ctx: RequestCtx): Promise<HandlerResult> {
    validate(ctx.body, {})
    return this.k.locked(ctx.params.id!, async () => {
      const {obj, version} = await this.loadEndpoint(ctx.params.id!)
      const ep: EndpointRecord = {...obj, _x: {...obj._x, secret: newSecret()}}
      return {status: 200, body: endpointView(ep, true), changes: {puts: [{kind: 'webhook_endpoint', obj: ep, expectVersion: version}]}}
    })
  }

  // ---------------------------------------------------------------- deliveries API

  private statusFilter(ctx: RequestCtx): Filter[] {
    const s = ctx.query.get('status')
    if (s === null) return []
    const all: DeliveryStatus[] = ['pending', 'succeeded', 'failed_retrying', 'undeliverable']
    if (!all.includes(s as DeliveryStatus)) throw invalid('status', `status must be one of ${all.join(', ')}; got '${s}'.`)
    return [{field: 'status', op: 'eq', value: s}]
  }

  private async listDeliveries(ctx: RequestCtx, url: string, filters: Filter[]): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['status', 'endpoint'])
    const res = await this.k.store.list<DeliveryRecord>('delivery', {...page, filters: [...filters, ...this.statusFilter(ctx)]})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such webhook delivery.`)
    return {status: 200, body: {object: 'list', url, data: res.data.map(toApi), has_more: res.has_more}}
  }

  async listEndpointDeliveries(ctx: RequestCtx): Promise<HandlerResult> {
    const {obj} = await this.loadEndpoint(ctx.params.id!)
    if (ctx.query.has('endpoint')) throw invalid('endpoint', 'endpoint is implied by the path here; remove the parameter.', 'parameter_unknown')
    return this.listDeliveries(ctx, `/v1/webhook_endpoints/${obj.id}/deliveries`, [{field: 'endpoint', op: 'eq', value: obj.id}])
  }

  private async loadEvent(id: string): Promise<StoredEvent> {
    const e = id.startsWith('evt_') ? await this.k.store.getEvent(id) : undefined
    const floor = new Date(this.k.clock.now().getTime() - EVENT_RETENTION_MS).toISOString()
    if (!e || e.created_at < floor) throw notFound('event', id)
    return e
  }

  async listEventDeliveries(ctx: RequestCtx): Promise<HandlerResult> {
    const e = await this.loadEvent(ctx.params.id!)
    const filters: Filter[] = [{field: 'event', op: 'eq', value: e.id}]
    const endpoint = ctx.query.get('endpoint')
    if (endpoint !== null) filters.push({field: 'endpoint', op: 'eq', value: endpoint})
    return this.listDeliveries(ctx, `/v1/events/${e.id}/deliveries`, filters)
  }

  async retrieveDelivery(ctx: RequestCtx): Promise<HandlerResult> {
    const id = ctx.params.id!
    const got = id.startsWith('whd_') ? await this.k.store.get<DeliveryRecord>('delivery', id) : undefined
    if (!got || got.obj.livemode !== ctx.livemode) throw notFound('webhook delivery', id)
    return {status: 200, body: toApi(got.obj)}
  }

  /**
   * POST /events/{id}/resend {endpoint?}: new deliveries of the same event bytes, each with a
   * fresh 72-hour retry window. Without `endpoint`: every enabled endpoint subscribed to the
   * event's type. With it: that endpoint, subscribed or not (an explicit request), if enabled.
   */
  async resend(ctx: RequestCtx): Promise<HandlerResult> {
    const b = validate<{endpoint?: string}>(ctx.body, {endpoint: {type: 'string'}})
    const e = await this.loadEvent(ctx.params.id!)
    let targets: EndpointRecord[]
    if (b.endpoint !== undefined) {
      const {obj} = await this.loadEndpoint(b.endpoint, 'endpoint')
      if (obj.disabled)
        throw new ApiError(400, 'invalid_request_error', 'webhook_endpoint_disabled', `Webhook endpoint ${obj.id} is disabled; enable it (POST /v1/webhook_endpoints/${obj.id} {"disabled": false}) before resending.`, {param: 'endpoint'})
      targets = [obj]
    } else {
      targets = [...this.endpoints.values()].filter((ep) => !ep.disabled && ep.livemode === ctx.livemode && subscribes(ep.enabled_events, e.type))
      if (targets.length === 0)
        throw badState('no_webhook_endpoints', `No enabled webhook endpoint subscribes to ${e.type}; name one with endpoint to resend to it.`)
    }
    const now = this.k.clock.now()
    const deliveries = targets.map((ep) => this.newDelivery(e, ep, now, new Date(now.getTime() + RETRY_WINDOW_MS)))
    return {
      status: 200,
      body: {object: 'list', url: `/v1/events/${e.id}/resend`, data: deliveries.map(toApi), has_more: false},
      changes: {
        puts: deliveries.map((obj) => ({kind: 'delivery' as const, obj})),
        addJobs: deliveries.map((d) => this.k.job(JOB_DELIVER, d.id, now)),
      },
    }
  }
}
