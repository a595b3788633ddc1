// Webhook attempts. Deliveries are a queue in the store (not timeline jobs): the worker claims
// due deliveries fairly across accounts, then across each account's endpoints, at most
// `perEndpoint` in flight per endpoint (on every instance together) and `total` here (plus
// `spare` for an account below its fair share), POSTs each after its commit, and records the
// outcomes per endpoint in batches: one unit of work writes a batch's deliveries and the
// endpoint's health once. Nothing proportional to the backlog is held in memory: the backlog
// stays in the store, and only what is in flight is here. A slow or failing endpoint holds
// only its own slots; retries are due later and never block first attempts of others.
import {performance} from 'node:perf_hooks'
import {request} from 'undici'
import {classifyNetworkError} from '../../api/network-errors.js'
import {guardedLookup} from '../adapters/guarded-lookup.js'
import {SecretBox, SecretOpenError} from '../adapters/secret-box.js'
import {signatureHeader, SIGNATURE_HEADER} from '../../api/webhook-signature.js'
import {DELIVERY_TIMEOUT_MS, isLoopbackHost} from '../domain/webhooks.js'
import type {ClaimedDelivery, LoggedEvent} from '../ports/store.js'
import type {ContainedWhere} from './containment.js'
import {recordForEndpoint, type Outcome} from './delivery-outcomes.js'
import {AttemptSignal, Slots} from './delivery-slots.js'
import {responseExcerpt, webhookAgents, type WebhookAgents} from './webhook-agents.js'
import type {Core} from './core.js'
import {isTerminal, type DeliveryAttempt, type DeliveryRecord, type EndpointRecord} from './webhook-types.js'

const USER_AGENT = 'gw-webhooks/1 (+https://docs.gw.dev/webhooks)'
/** Real time after which a claim that never reported back is given to another worker (a crashed instance). */
export const DELIVERY_LEASE_MS = 60_000
/**
 * Events kept for the deliveries of one claim round: the endpoints' deliveries of an event are
 * claimed together (round robin), so a short memory serves them all; retries read the store.
 * (A long one keeps every event alive for seconds, for the collector to move and sweep.)
 */
const RECENT_EVENTS = 128
/**
 * Accounts' outcome units being written at once; an account waits for a turn at most
 * OUTCOME_TURN_WAIT_MS, then writes anyway. Each account's outcomes were a unit of their own as
 * soon as the previous one committed, so ten accounts made ten times the units (each an endpoint
 * read, a commit, a change notice and a claim round) for the same outcomes (docs/decisions.md#background-work-under-load); waiting
 * for a turn, an account's outcomes gather into fewer, larger units. An account whose unit hangs
 * (a lock held) delays another's by at most the wait, never holds it back.
 */
const OUTCOME_UNITS_AT_ONCE = 2
const OUTCOME_TURN_WAIT_MS = 100


export interface DeliveryWorkerOptions {
  /** HTTP requests in flight per endpoint on this instance (default 32) */
  perEndpoint?: number
  /**
   * deliveries claimed per endpoint, counting every instance (default 4 x perEndpoint): an
   * attempt keeps its claim until its outcome is committed, so claims cover the requests in
   * flight plus the outcomes being written
   */
  claimsPerEndpoint?: number
  /** deliveries claimed on this instance (default 256) */
  total?: number
  /**
   * claims beyond `total` for accounts below their fair share while every slot is held (default
   * total / 4): another account's delivery is attempted at once, not after a slow receiver's
   * attempts end (docs/decisions.md#one-tenant-cannot-starve-the-others; store/slot-share.ts)
   */
  spare?: number
  /** real time after which a claim of an instance that died is taken by another (default DELIVERY_LEASE_MS) */
  leaseMs?: number
  /**
   * how often the worker looks for deliveries that fell due with real time passing (default 1 s);
   * new deliveries and clock advances wake it at once
   */
  pollMs?: number
  /**
   * how long one attempt may take in all, connect to answer (default DELIVERY_TIMEOUT_MS, the 10 s
   * of docs/api.md#webhook-delivery); the tests set it short to see a hanging receiver time out
   */
  timeoutMs?: number
}

/** What the worker needs of the engine (app/index.ts App): the platform core, each account's core, containment. */
export interface Accounts {
  readonly core: Core
  account(id: string): Promise<Core>
  loaded(id: string): Core | undefined
  contain(where: ContainedWhere, account: string | null, e: unknown, what?: string): void
}

export class DeliveryWorker {
  private readonly perEndpoint: number
  private readonly claimsPerEndpoint: number
  private readonly total: number
  private readonly spare: number
  /**
   * room an endpoint needs before an ended attempt wakes the claimer: claims are taken in batches
   * rather than one query per ended attempt (each query reads up to a claim window of rows)
   */
  private readonly claimBatch: number
  private readonly leaseMs: number
  private readonly pollMs: number
  /** how long one attempt may take (DeliveryWorkerOptions.timeoutMs) */
  readonly timeoutMs: number
  private readonly slots: Slots
  private readonly inFlight = new Map<string, {claim: ClaimedDelivery; abort: AttemptSignal}>()
  /** attempts in flight here per endpoint */
  private readonly perEndpointInFlight = new Map<string, number>()
  /** attempts in flight here per account: how the slots are shared (accounts first, then endpoints) */
  private readonly perAccountInFlight = new Map<string, number>()
  /** outcomes waiting for their account's next batch, and the batch being recorded, by account */
  private readonly outcomes = new Map<string, Outcome[]>()
  private readonly recording = new Map<string, Promise<void>>()
  /** outcome units being written, and the accounts waiting for a turn to write theirs (OUTCOME_UNITS_AT_ONCE) */
  private outcomeUnits = 0
  private readonly outcomeTurns: (() => void)[] = []
  private readonly recent = new Map<string, LoggedEvent>()
  /** event reads in flight, shared by the attempts that want the same event */
  private readonly reading = new Map<string, Promise<LoggedEvent | undefined>>()
  private pumping = false
  private again = false
  /** a claim round is queued for the end of this turn of the event loop */
  private wakeQueued = false
  private closed = false
  private timer: NodeJS.Timeout | undefined
  private unsubscribe: (() => void) | undefined
  private readonly agents: WebhookAgents

  constructor(
    /** every account's engine: deliveries are claimed across accounts, each on its account's clock */
    private readonly app: Accounts,
    opts: DeliveryWorkerOptions = {},
  ) {
    this.perEndpoint = opts.perEndpoint ?? 32
    this.claimsPerEndpoint = opts.claimsPerEndpoint ?? this.perEndpoint * 4
    this.total = opts.total ?? 256
    this.spare = opts.spare ?? Math.floor(this.total / 4)
    this.claimBatch = Math.max(1, Math.min(this.perEndpoint, Math.floor(this.total / 8), Math.floor(this.claimsPerEndpoint / 4)))
    this.leaseMs = opts.leaseMs ?? DELIVERY_LEASE_MS
    this.pollMs = opts.pollMs ?? 1000
    this.timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS
    this.slots = new Slots(this.perEndpoint)
    // resolved addresses the destination policy refuses are never connected to (link-local, cloud metadata, --webhook-allow)
    this.agents = webhookAgents(guardedLookup(() => app.core.destinations), this.timeoutMs)
  }

  start(): void {
    this.unsubscribe = this.app.core.engineStore.onChange((n) => {
      if ((n.kinds.has('delivery') || n.settings.length > 0) && this.mayClaimFor(n.account)) this.wake()
    }, 'shared')
    // retries fall due as the clock moves on
    this.timer = setInterval(() => this.wake(), this.pollMs)
    this.timer.unref()
    this.wake()
  }

  /** Attempts in flight on this instance. */
  get busy(): number {
    return this.inFlight.size
  }

  /**
   * Asks for a claim round. Wake-ups of one turn of the event loop (a group commit's notice, the
   * attempts that ended in it) make one round, run after that turn's callbacks: under load a
   * round per wake-up was several per commit, each reading every due endpoint.
   */
  wake(): void {
    if (this.closed || this.wakeQueued) return
    this.wakeQueued = true
    setImmediate(this.claimRound)
  }

  private readonly claimRound = (): void => {
    this.wakeQueued = false
    if (this.closed) return
    if (this.pumping) {
      this.again = true
      return
    }
    this.pumping = true
    void this.pump()
      .catch((e) => this.app.contain('webhook_claim', null, e, 'claiming deliveries'))
      .finally(() => {
        this.pumping = false
        if (this.again) {
          this.again = false
          this.wake()
        }
      })
  }

  /**
   * Whether a claim could go to `account` now: a slot is free, or it holds less than its fair
   * share and a spare slot is left (a change of an account at or over its share, every slot taken,
   * is not worth a claim query).
   */
  private mayClaimFor(account: string): boolean {
    const busy = this.inFlight.size
    if (busy < this.total) return true
    if (busy >= this.total + this.spare) return false
    const held = this.perAccountInFlight.get(account) ?? 0
    return held < Math.ceil(this.total / (this.perAccountInFlight.size + (held ? 0 : 1)))
  }

  private async pump(): Promise<void> {
    while (!this.closed) {
      const free = this.total - this.inFlight.size
      if (free + this.spare <= 0) return
      // accounts first, then endpoints (store/slot-share.ts): free slots go to the accounts holding the fewest, spare ones to those below their share
      const share = {held: this.perAccountInFlight, spare: this.spare}
      const claims = await this.app.core.engineStore.claimDeliveries(this.nowOf, {limit: free, perEndpoint: this.claimsPerEndpoint, leaseMs: this.leaseMs, share})
      if (claims.length === 0) return
      if (this.closed) {
        await this.app.core.engineStore.releaseDeliveries(claims)
        return
      }
      for (const c of claims) {
        const abort = new AttemptSignal()
        // ids are unique per account: every key of this worker names the account too
        const key = own(c.account, c.id)
        const ep = own(c.account, c.endpoint)
        this.inFlight.set(key, {claim: c, abort})
        this.perEndpointInFlight.set(ep, (this.perEndpointInFlight.get(ep) ?? 0) + 1)
        this.perAccountInFlight.set(c.account, (this.perAccountInFlight.get(c.account) ?? 0) + 1)
        void this.attempt(c, abort)
          .catch((e) => this.app.contain('webhook_delivery', c.account, e, `delivery ${c.id}`))
          .finally(() => {
            this.inFlight.delete(key)
            const left = this.perEndpointInFlight.get(ep)! - 1
            if (left > 0) this.perEndpointInFlight.set(ep, left)
            else this.perEndpointInFlight.delete(ep)
            const mine = this.perAccountInFlight.get(c.account)! - 1
            if (mine > 0) this.perAccountInFlight.set(c.account, mine)
            else this.perAccountInFlight.delete(c.account)
            // an ended attempt makes a claim worth its query once its endpoint has a batch of room
            if (left <= this.claimsPerEndpoint - this.claimBatch || this.inFlight.size === 0) this.wake()
          })
      }
      // fewer than asked: nothing else is due now, or its endpoints are at their limit (a commit
      // or an ended attempt wakes the worker again); another query would find nothing
      if (claims.length < free) return
    }
  }

  /**
   * An account's engine clock, for its deliveries' due times; an account whose engine is not
   * loaded yet has nothing due until it is (it is loaded now, and the worker woken then).
   */
  private readonly nowOf = (account: string): string => {
    const core = this.app.loaded(account)
    if (core) {
      // one account's clock that cannot be read holds back its own deliveries only (docs/decisions.md#failures-are-contained)
      try {
        return core.clock.now().toISOString()
      } catch (e) {
        this.app.contain('webhook_claim', account, e, "reading the account's clock")
        return ''
      }
    }
    void this.app.account(account).then(
      () => this.wake(),
      () => {},
    )
    return ''
  }

  /**
   * An event for an attempt, read once for the attempts of one round: the endpoints' attempts of
   * an event start in the same turn, so each would miss the memory before the first read returns
   * (docs/decisions.md#background-work-under-load: 2.4 event reads per payment for ~1.1 events); a read in flight is shared.
   */
  private event(core: Core, id: string): Promise<LoggedEvent | undefined> {
    const key = own(core.account, id)
    const hit = this.recent.get(key)
    if (hit) return Promise.resolve(hit)
    const reading = this.reading.get(key)
    if (reading) return reading
    const read = core.store.getEvent(id).then(
      (e) => {
        this.reading.delete(key)
        if (e) {
          this.recent.set(key, e)
          if (this.recent.size > RECENT_EVENTS) this.recent.delete(this.recent.keys().next().value!)
        }
        return e
      },
      (err: unknown) => {
        this.reading.delete(key)
        throw err
      },
    )
    this.reading.set(key, read)
    return read
  }

  private async attempt(c: ClaimedDelivery, abort: AttemptSignal): Promise<void> {
    const core = await this.app.account(c.account)
    const d = (await core.store.get<DeliveryRecord>('delivery', c.id))?.obj
    if (!d || isTerminal(d.status)) return void (await core.engineStore.releaseDeliveries([c]))
    const ep = (await core.endpoints.get()).find((e) => e.id === d.endpoint)
    if (!ep) return this.record({claim: c, stop: 'endpoint_deleted'})
    if (ep.disabled) return this.record({claim: c, stop: 'endpoint_disabled'})
    const ev = await this.event(core, d.event)
    if (!ev) return this.record({claim: c, stop: 'event_expired'})
    // a chaos rule's fail_first (docs/decisions.md#failure-on-purpose): this attempt fails on purpose, logged, nothing sent
    const failFirst = d._x.fail_first ?? 0
    if (d.attempts.length < failFirst) {
      const at = scheduled(d, core.clock.now()).toISOString()
      const error_message = `Failed on purpose by chaos rule ${d.chaos ?? ''} (attempt ${d.attempts.length + 1} of ${failFirst} to fail); nothing was sent.`
      return this.record({claim: c, attempt: {at, status_code: null, error: 'chaos_fail_first', error_message, latency_ms: 0, response_excerpt: null}, ok: false})
    }
    const slot = own(c.account, ep.id)
    await this.slots.acquire(slot)
    let attempt: DeliveryAttempt
    try {
      attempt = await this.post(core, ep, ev, abort, scheduled(d, core.clock.now()))
    } finally {
      this.slots.release(slot)
    }
    // abandoned at shutdown: the delivery stays due and is made again (here after a restart, or by another instance)
    if (this.closed) return void (await core.engineStore.releaseDeliveries([c]).catch(() => {}))
    const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300
    core.observers.attempt?.(ok)
    return this.record({claim: c, attempt, ok})
  }

  /**
   * One HTTP POST of the exact stored event bytes. The signature's timestamp is the wall-clock
   * time of the attempt, since receivers check it against their own clock (docs/api.md#webhook-signatures); the
   * attempt is recorded at the engine time it was due (scheduled()), like every other timestamp on the engine clock.
   */
  private async post(core: Core, ep: EndpointRecord, ev: LoggedEvent, abort: AttemptSignal, due: Date): Promise<DeliveryAttempt> {
    const at = due.toISOString()
    const body = ev.json
    const url = new URL(ep.url)
    // an address in the URL itself is connected to without a lookup: the policy is asked here
    const refused = core.destinations.urlRefusal(url)
    if (refused) return {at, status_code: null, error: 'destination_blocked', error_message: refused, latency_ms: 0, response_excerpt: null}
    const dispatcher = !core.livemode && isLoopbackHost(url.hostname) ? this.agents.loopbackAgent : this.agents.agent
    // one signal per attempt, aborted by shutdown or by its own timer, which is cleared when the
    // attempt ends (AbortSignal.timeout would keep a timer and a signal alive for the full timeout
    // after every attempt, and AbortSignal.any adds a composite signal per attempt)
    const timeoutMs = this.timeoutMs
    const timer = setTimeout(() => abort.abort(new DOMException(`no response within ${timeoutMs / 1000} s`, 'TimeoutError')), timeoutMs)
    const started = performance.now()
    const latency = () => Math.round(performance.now() - started)
    try {
      const res = await request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(signingSecrets(core, ep, core.clock.now()), body, Math.floor(Date.now() / 1000)),
        },
        body,
        dispatcher,
        signal: abort,
      })
      const latency_ms = latency()
      // an excerpt of the answer for the delivery log; a slow body does not undo a 2xx already received
      const excerpt = await responseExcerpt(res.body)
      return {at, status_code: res.statusCode, error: null, error_message: null, latency_ms, response_excerpt: excerpt}
    } catch (e) {
      const {error, message} = classifyNetworkError(e, timeoutMs)
      return {at, status_code: null, error, error_message: message, latency_ms: latency(), response_excerpt: null}
    } finally {
      clearTimeout(timer)
    }
  }

  /**
   * Queues an outcome for its account's next batch; resolves once that batch is committed (or
   * failed). One unit of work records an account's outcomes on all its endpoints: a unit per
   * endpoint made the units (and their commits, change notices and claim rounds) multiply with
   * the endpoints that had attempts end, not with the outcomes (docs/decisions.md#background-work-under-load: 10 accounts).
   */
  private record(o: Outcome): Promise<void> {
    const account = o.claim.account
    const done = new Promise<void>((resolve) => (o.done = resolve))
    const q = this.outcomes.get(account)
    if (q) q.push(o)
    else this.outcomes.set(account, [o])
    if (!this.recording.has(account)) this.recording.set(account, this.flush(account).finally(() => this.recording.delete(account)))
    return done
  }

  /** A turn to write an outcome unit: at once while fewer than OUTCOME_UNITS_AT_ONCE are being written, else after the next ends or OUTCOME_TURN_WAIT_MS. */
  private outcomeTurn(): Promise<void> | undefined {
    if (this.outcomeUnits < OUTCOME_UNITS_AT_ONCE || this.closed) {
      this.outcomeUnits++
      return undefined
    }
    return new Promise<void>((resolve) => {
      let taken = false
      const go = () => {
        if (taken) return
        taken = true
        clearTimeout(timer)
        this.outcomeUnits++
        resolve()
      }
      const timer = setTimeout(go, OUTCOME_TURN_WAIT_MS)
      this.outcomeTurns.push(go)
    })
  }

  private endOutcomeTurn(): void {
    this.outcomeUnits--
    // (a waiter whose wait ran out has its turn already: calling it again does nothing)
    while (this.outcomeUnits < OUTCOME_UNITS_AT_ONCE && this.outcomeTurns.length > 0) this.outcomeTurns.shift()!()
  }

  private async flush(account: string): Promise<void> {
    for (;;) {
      // the outcomes gather while the account waits for its turn
      const turn = this.outcomeTurn()
      if (turn) await turn
      const batch = this.outcomes.get(account)
      this.outcomes.delete(account)
      if (!batch?.length) return this.endOutcomeTurn()
      try {
        await this.flushBatch(account, batch)
      } finally {
        this.endOutcomeTurn()
      }
    }
  }

  /** One batch of an account's outcomes: one unit for all its endpoints, else one per endpoint (an endpoint that cannot be written holds back its own only). */
  private async flushBatch(account: string, batch: Outcome[]): Promise<void> {
    const byEndpoint = new Map<string, Outcome[]>()
    for (const o of batch) {
      const q = byEndpoint.get(o.claim.endpoint)
      if (q) q.push(o)
      else byEndpoint.set(o.claim.endpoint, [o])
    }
    try {
      await this.recordOutcomes(account, byEndpoint)
    } catch (e) {
      if (byEndpoint.size === 1) this.app.contain('webhook_delivery', account, e, `recording ${batch.length} outcome(s) for ${batch[0]!.claim.endpoint}`)
      // one endpoint's outcomes that cannot be written hold back that endpoint's only: each is tried alone
      else
        for (const [endpoint, os] of byEndpoint)
          await this.recordOutcomes(account, new Map([[endpoint, os]])).catch((err) =>
            this.app.contain('webhook_delivery', account, err, `recording ${os.length} outcome(s) for ${endpoint}`),
          )
      // the claims run out and the deliveries are attempted again: at least once (docs/api.md#webhook-delivery)
    }
    for (const o of batch) o.done?.()
  }

  /** One unit of work: the outcomes' deliveries, and each endpoint's health once (its lock held; endpoints locked in order). */
  private async recordOutcomes(account: string, byEndpoint: ReadonlyMap<string, readonly Outcome[]>): Promise<void> {
    const core = await this.app.account(account)
    await core.run({}, async (u) => {
      const endpoints = [...byEndpoint.keys()].sort()
      for (const endpoint of endpoints) await u.lock(endpoint)
      for (const endpoint of endpoints) await recordForEndpoint(u, core, endpoint, byEndpoint.get(endpoint)!)
    })
  }

  /** Stops claiming and aborts attempts in flight; their deliveries stay due (at least once, docs/api.md#webhook-delivery). */
  async close(): Promise<void> {
    this.closed = true
    clearInterval(this.timer)
    this.unsubscribe?.()
    const claims = [...this.inFlight.values()]
    for (const f of claims) f.abort.abort()
    await Promise.allSettled([...this.recording.values()])
    await this.app.core.engineStore.releaseDeliveries(claims.map((f) => f.claim)).catch(() => {})
    await Promise.allSettled([this.agents.agent.destroy(), this.agents.loopbackAgent.destroy()])
  }
}

/**
 * The secrets a delivery is signed with now: the endpoint's, and the previous one during a
 * rotation's overlap (engine clock), opened with the engine's secrets key (they are stored
 * sealed). One that will not open (sealed with another key) throws SecretOpenError: the attempt
 * fails with that message and nothing is sent.
 */
function signingSecrets(core: Core, ep: EndpointRecord, now: Date): string | string[] {
  const prev = ep._x.previous_secret
  const until = ep.previous_secret_expires_at
  // (one still in the clear was stored before sealing and is sealed at the next start: it signs as it is)
  const open = (v: string) => (SecretBox.isSealed(v) ? core.secrets.open(v) : v)
  try {
    const secret = open(ep._x.secret)
    return prev && until && Date.parse(until) > now.getTime() ? [secret, open(prev)] : secret
  } catch (e) {
    throw new SecretOpenError(`not sent: the endpoint's signing secret does not open with this engine's secrets key (${(e as Error).message}); rotate it (gw webhooks rotate-secret ${ep.id})`)
  }
}

/** A key of this worker's maps: ids are unique per account, not across accounts (a snapshot loaded in several). */
const own = (account: string, id: string) => `${account}\u0000${id}`

/**
 * The engine time an attempt is recorded at: when it was due (its next_attempt_at, never later
 * than now). Retries and the endpoint's health follow the schedule on the engine clock, not how
 * soon the worker got to it: a clock advance that jumps past several due times gets every
 * attempt, each as if made on time, whatever the machine's speed (docs/api.md).
 */
function scheduled(d: DeliveryRecord, now: Date): Date {
  const t = d.next_attempt_at === null ? NaN : Date.parse(d.next_attempt_at)
  return Number.isFinite(t) && t < now.getTime() ? new Date(t) : now
}
