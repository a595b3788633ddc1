// Prometheus metrics of one engine instance (docs/decisions.md#the-fleet), served at GET /metrics without a key:
// requests by operation and status with their latency, unit-of-work commit latency, webhook
// attempts and the backlog per endpoint, due timeline jobs and the oldest one's lag, the process
// (CPU, memory, event-loop lag). Gauges that need the store are read when scraped. prom-client
// writes the exposition format; a registry per engine (tests run several in one process).
// As Prometheus users expect: no `instance` label (the scraper adds its own; this
// instance's name is gw_instance_info's instance_id), the process under prom-client's standard
// names (process_*, nodejs_*), gw_store_up read by the scrape itself, and the fleet-wide gauges
// (read from the shared store) reported by one instance of the fleet only, so sum() does not
// count them once per instance: the one holding the fleet's metrics lock (FleetReporter).
import {collectDefaultMetrics, Counter, Gauge, Registry} from 'prom-client'
import type {App} from '../app/index.js'
import {PLATFORM_ACCOUNT, type Store as EngineStore, type StoreCounters} from '../ports/store.js'
import {CounterFamily, HistogramFamily} from './metric-families.js'
import {CONNECTION_STATES, type ConnectionState} from './connections.js'

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/**
 * How often the event-loop delay histogram (nodejs_eventloop_lag_p99_seconds, ...) takes a sample:
 * a timer of its own that wakes the process each time, busy or idle. prom-client's default, 10 ms,
 * was 100 of an idle instance's ~105 wake-ups a second (strace), paid by every instance of a
 * fleet. At 50 ms: 20 wake-ups a second; a stall of length L still shows in the
 * maximum, as at least L - 50 ms, and one shorter than 50 ms is caught in proportion to its length.
 */
export const EVENT_LOOP_SAMPLE_MS = 50

const SUCCEEDED = () => ({outcome: 'succeeded'})
const FAILED = () => ({outcome: 'failed'})

export class Metrics {
  readonly registry = new Registry()
  private readonly fleetRegistry = new Registry()
  /** written on every request and unit of work: kept as plain numbers (metric-families.ts) */
  private readonly requests = new CounterFamily('gw_http_requests_total', 'API requests answered, by method, operation (the OpenAPI operationId; route_unknown, health, ...) and status.')
  private readonly requestSeconds = new HistogramFamily('gw_http_request_duration_seconds', 'Time from a request arriving to its response finishing, by operation.', [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10,
  ])
  private readonly commitSeconds = new HistogramFamily(
    'gw_store_unit_duration_seconds',
    'Time a unit of work takes from its start to its commit being durable (the store latency a write sees).',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
  )
  /** written on every webhook attempt (four or so per payment under the soak): a plain number too, not prom-client's label hashing (docs/decisions.md#background-work-under-load) */
  private readonly attempts = new CounterFamily('gw_webhook_attempts_total', 'Webhook attempts made by this instance, by outcome (succeeded: a 2xx; failed: anything else).')
  /** failures contained to their request or account (docs/decisions.md#failures-are-contained), by where they happened */
  readonly contained: Counter<'where'>
  private instanceId: string
  /** whether this instance reports the fleet-wide gauges (see FleetReporter) */
  readonly fleet: FleetReporter
  private readonly store: EngineStore

  constructor(app: App, opts: {instance: string}) {
    const r = this.registry
    this.instanceId = opts.instance
    // prom-client's process and Node.js metrics under their standard names (process_cpu_seconds_total, nodejs_eventloop_lag_seconds, ...);
    // the event-loop delay histogram sampled every EVENT_LOOP_SAMPLE_MS (see there)
    collectDefaultMetrics({register: r, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS})
    const self = this
    new Gauge({
      name: 'gw_instance_info',
      help: "This instance's name (host:port, or the engine's instanceName): join on it to tell a fleet's instances apart beyond the scraper's own instance label.",
      labelNames: ['instance_id'],
      registers: [r],
      collect() {
        this.reset()
        this.set({instance_id: self.instanceId}, 1)
      },
    })
    this.store = app.core.engineStore
    this.fleet = new FleetReporter(app.core.engineStore)
    // the gauges read from the shared store, in a registry of their own: in the text of the fleet's reporter only
    const fleetOnly = this.fleetRegistry
    this.contained = new Counter({
      name: 'gw_contained_errors_total',
      help: "Failures contained to the request or account whose data caused them, by where: request_log, timeline_job, job_runner, housekeeping, webhook_delivery, webhook_claim, change_feed, clock, setting. Each place of an account is logged once an hour at most; this counts every one.",
      labelNames: ['where'],
      registers: [r],
    })
    new Gauge({
      name: 'gw_webhook_attempts_in_flight',
      help: 'Webhook attempts this instance is making now.',
      registers: [r],
      collect() {
        this.set(app.deliveries.busy)
      },
    })
    const store = app.core.engineStore
    // gauges read from the store: a database that does not answer leaves them empty (gw_store_up says so)
    const fromStore = async (read: () => Promise<void>) => {
      try {
        await read()
      } catch {
        // gw_store_up is 0 in the same scrape
      }
    }
    new Gauge({
      name: 'gw_store_up',
      help: 'Whether the store answers a read now, within 2 s (read by this scrape; 0: the database is unreachable).',
      registers: [r],
      async collect() {
        this.set((await storeAnswers(store)) ? 1 : 0)
      },
    })
    new Gauge({
      name: 'gw_webhook_backlog',
      help: 'Deliveries waiting for an attempt (due now or retrying later), per account and endpoint (the whole fleet: read from the store).',
      labelNames: ['account', 'endpoint'],
      registers: [fleetOnly],
      async collect() {
        this.reset()
        await fromStore(async () => {
          for (const b of await store.deliveryBacklog()) this.set({account: b.account, endpoint: b.endpoint}, b.pending)
        })
      },
    })
    new Gauge({
      name: 'gw_webhook_backlog_oldest_due_seconds',
      help: "Per account and endpoint, how long its earliest delivery has been due on the account's clock (0: none due yet).",
      labelNames: ['account', 'endpoint'],
      registers: [fleetOnly],
      async collect() {
        this.reset()
        await fromStore(async () => {
          for (const b of await store.deliveryBacklog()) {
            const now = (app.loaded(b.account) ?? (await app.account(b.account))).clock.now().getTime()
            this.set({account: b.account, endpoint: b.endpoint}, Math.max(0, (now - Date.parse(b.oldest_due)) / 1000))
          }
        })
      },
    })
    new Gauge({
      name: 'gw_webhook_endpoints',
      help: 'Webhook endpoints by status (enabled, failing, disabled), of the accounts this instance has served.',
      labelNames: ['status'],
      registers: [r],
      async collect() {
        const counts: Record<string, number> = {enabled: 0, failing: 0, disabled: 0}
        await fromStore(async () => {
          for (const core of app.loadedCores()) for (const ep of await core.endpoints.get()) counts[ep.status] = (counts[ep.status] ?? 0) + 1
        })
        this.reset()
        for (const [status, n] of Object.entries(counts)) this.set({status}, n)
      },
    })
    const jobs = async () => {
      let due = 0
      let lag = 0
      await fromStore(async () => {
        for (const n of await store.nextJobs()) {
          const now = (app.loaded(n.account) ?? (await app.account(n.account))).clock.now().getTime()
          const late = now - Date.parse(n.due_at)
          if (late >= 0) {
            due++
            lag = Math.max(lag, late / 1000)
          }
        }
      })
      return {due, lag}
    }
    new Gauge({
      name: 'gw_jobs_accounts_due',
      help: "Accounts with a timeline job due now on their own clock (fleet-wide; a few is normal, a growing number means jobs are not keeping up).",
      registers: [fleetOnly],
      async collect() {
        this.set((await jobs()).due)
      },
    })
    new Gauge({
      name: 'gw_jobs_oldest_due_lag_seconds',
      help: "How long the oldest due timeline job has been due on its account's clock (fleet-wide; 0 when none is due).",
      registers: [fleetOnly],
      async collect() {
        this.set((await jobs()).lag)
      },
    })
    new Gauge({
      name: 'gw_accounts_loaded',
      help: 'Accounts whose engine this instance has loaded (served a request, ran a job or a delivery).',
      registers: [r],
      collect() {
        this.set(app.loadedCores().length)
      },
    })
  }

  /** The request log's outage buffer (request-log.ts): entries waiting for the store, and those dropped because too many waited. */
  watchRequestLog(outage: () => {buffered: number; dropped: number}): void {
    new Gauge({
      name: 'gw_request_log_buffered',
      help: "Request-log entries this instance keeps in memory because the store did not take them (written when it is back).",
      registers: [this.registry],
      collect() {
        this.set(outage().buffered)
      },
    })
    new Counter({
      name: 'gw_request_log_dropped_total',
      help: 'Request-log entries this instance dropped (the oldest) because more waited for an unreachable store than it keeps.',
      registers: [this.registry],
      collect() {
        this.reset()
        this.inc(outage().dropped)
      },
    })
  }

  /** The API port's connections by state (http/connections.ts): gw_connections{state}. */
  watchConnections(byState: () => Readonly<Record<ConnectionState, number>>): void {
    new Gauge({
      name: 'gw_connections',
      help: "The API port's open connections by state: handshake (TLS, or no request yet; closed after 10 s), active (a request in flight), idle (kept alive between requests), stream (an event stream open).",
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const counts = byState()
        for (const state of CONNECTION_STATES) this.set({state}, counts[state])
      },
    })
  }

  /** One API request answered. */
  request(method: string, operation: string, status: number, seconds: number): void {
    this.requests.inc(`${method} ${operation} ${status}`, () => ({method, operation, status: String(status)}))
    this.requestSeconds.observe(operation, () => ({operation}), seconds)
  }

  /** One webhook attempt made, by its outcome. */
  attempt(ok: boolean): void {
    if (ok) this.attempts.inc('succeeded', SUCCEEDED)
    else this.attempts.inc('failed', FAILED)
  }

  /** One unit of work committed (durable), in seconds from its start. */
  unit(seconds: number): void {
    this.commitSeconds.observe('', () => ({}), seconds)
  }

  /** This instance's name, in gw_instance_info (known once the port is). */
  setInstance(instance: string): void {
    this.instanceId = instance
  }

  /** The exposition text (what GET /metrics answers). */
  async text(): Promise<string> {
    const [own, fleet] = await Promise.all([this.registry.metrics(), this.fleet.reporting ? this.fleetRegistry.metrics() : ''])
    const rest = fleet ? `${own}\n${fleet}` : own
    return [this.requests, this.requestSeconds, this.commitSeconds, this.attempts].map((f) => f.text({})).join('\n') + '\n' + storeCounters(this.store) + rest
  }

  /** Stops taking part in the fleet's reporter election (before the store closes). */
  close(): Promise<void> {
    return this.fleet.close()
  }
}

const STORE_UP_TIMEOUT_MS = 2000

const STORE_COUNTERS: [keyof StoreCounters, string, string][] = [
  ['roundTrips', 'gw_store_round_trips_total', 'Requests this instance sent to the database server and waited for (a statement, or several sent as one).'],
  ['commitGroups', 'gw_store_commit_groups_total', "Transactions this instance's committer wrote: one WAL flush each, for every change set staged while the previous one committed."],
  ['committedChangeSets', 'gw_store_committed_change_sets_total', 'Change sets (units of work) in those transactions: divided by the groups, the mean group size.'],
  ['notices', 'gw_store_notices_total', "Change notices received from the fleet's other instances (each a commit of theirs this instance heard of)."],
]

/** The store's counters of its work with a database server, where it has one (Store.counters). */
function storeCounters(store: EngineStore): string {
  const c = store.counters?.()
  if (!c) return ''
  return STORE_COUNTERS.map(([k, name, help]) => `# HELP ${name} ${help}\n# TYPE ${name} counter\n${name} ${c[k]}\n`).join('\n') + '\n'
}

/** Whether the store answers a read within 2 s (what /readyz asks too). */
export async function storeAnswers(store: EngineStore): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([
      store.account(PLATFORM_ACCOUNT).getSetting('readiness_probe'),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), STORE_UP_TIMEOUT_MS))),
    ])
    return true
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** How long an instance reports the fleet's gauges before it lets the others ask (and asks again at once). */
const FLEET_TERM_MS = 5000
const FLEET_LOCK = 'gw:metrics:fleet-reporter'

/**
 * Which instance of a fleet reports the gauges read from the shared store (the webhook backlog,
 * due jobs): the one holding the fleet-wide section FLEET_LOCK (a PostgreSQL advisory lock, freed
 * when its instance dies). It holds it for a term of 5 s and asks again at once, so it keeps it;
 * the others ask every term. One instance alone on its store (SQLite) always reports. After the
 * database dropped the holder's connection, two instances may both report for up to one term.
 */
export class FleetReporter {
  private held = false
  private stopped = false
  private wake: (() => void) | undefined
  private readonly loop: Promise<void>

  constructor(private readonly store: EngineStore) {
    this.loop = store.shared ? this.run() : Promise.resolve()
  }

  /** whether this instance reports the fleet-wide gauges now */
  get reporting(): boolean {
    return !this.store.shared || this.held
  }

  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      this.wake = () => (clearTimeout(timer), resolve())
    })
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let ran = false
      try {
        ran = (
          await this.store.exclusive(
            FLEET_LOCK,
            async () => {
              this.held = true
              await this.pause(FLEET_TERM_MS)
            },
            {wait: false},
          )
        ).ran
      } catch {
        // the store is unreachable: nobody reports what cannot be read
      } finally {
        this.held = false
      }
      if (!ran && !this.stopped) await this.pause(FLEET_TERM_MS)
    }
  }

  async close(): Promise<void> {
    this.stopped = true
    this.wake?.()
    // the lock is released on the way out; a database that does not answer does not hold the stop up (closing the store frees it)
    let timer: NodeJS.Timeout | undefined
    await Promise.race([this.loop, new Promise<void>((resolve) => (timer = setTimeout(resolve, 2000)))])
    clearTimeout(timer)
  }
}
