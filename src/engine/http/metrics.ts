// Prometheus metrics of one engine instance (issue 25), served at GET /metrics without a key:
// requests by operation and status with their latency, unit-of-work commit latency, webhook
// attempts and the backlog per endpoint, due timeline jobs and the oldest one's lag, the process
// (CPU, memory, event-loop lag). Gauges that need the store are read when scraped. prom-client
// writes the exposition format; a registry per engine (tests run several in one process).
import {collectDefaultMetrics, Counter, Gauge, Registry} from 'prom-client'
import type {App} from '../app/index.js'
import {CounterFamily, HistogramFamily} from './metric-families.js'

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

export class Metrics {
  readonly registry = new Registry()
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
  readonly attempts: Counter<'outcome'>
  /** failures contained to their request or account (issue 33), by where they happened */
  readonly contained: Counter<'where'>
  private readonly defaults: Record<string, string>

  constructor(app: App, opts: {instance: string}) {
    const r = this.registry
    this.defaults = {instance: opts.instance}
    r.setDefaultLabels(this.defaults)
    collectDefaultMetrics({register: r, prefix: 'gw_'})
    this.attempts = new Counter({name: 'gw_webhook_attempts_total', help: 'Webhook attempts made by this instance, by outcome (succeeded: a 2xx; failed: anything else).', labelNames: ['outcome'], registers: [r]})
    this.contained = new Counter({
      name: 'gw_contained_errors_total',
      help: "Failures contained to the request or account whose data caused them (issue 33), by where: request_log, timeline_job, job_runner, housekeeping, webhook_delivery, webhook_claim, change_feed, clock, setting. Each place of an account is logged once an hour at most; this counts every one.",
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
    // gauges read from the store: a database that does not answer leaves them empty and store_up 0
    let storeUp = 1
    const fromStore = async (read: () => Promise<void>) => {
      try {
        await read()
        storeUp = 1
      } catch {
        storeUp = 0
      }
    }
    new Gauge({
      name: 'gw_store_up',
      help: 'Whether the store answered the reads of the last scrape (0: the database is unreachable).',
      registers: [r],
      collect() {
        this.set(storeUp)
      },
    })
    new Gauge({
      name: 'gw_webhook_backlog',
      help: 'Deliveries waiting for an attempt (due now or retrying later), per account and endpoint (the whole fleet: read from the store).',
      labelNames: ['account', 'endpoint'],
      registers: [r],
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
      registers: [r],
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
      registers: [r],
      async collect() {
        this.set((await jobs()).due)
      },
    })
    new Gauge({
      name: 'gw_jobs_oldest_due_lag_seconds',
      help: "How long the oldest due timeline job has been due on its account's clock (fleet-wide; 0 when none is due).",
      registers: [r],
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

  /** One API request answered. */
  request(method: string, operation: string, status: number, seconds: number): void {
    this.requests.inc(`${method} ${operation} ${status}`, () => ({method, operation, status: String(status)}))
    this.requestSeconds.observe(operation, () => ({operation}), seconds)
  }

  /** One unit of work committed (durable), in seconds from its start. */
  unit(seconds: number): void {
    this.commitSeconds.observe('', () => ({}), seconds)
  }

  /** The instance name on every series (a fleet's instances told apart). */
  setInstance(instance: string): void {
    this.defaults.instance = instance
    this.registry.setDefaultLabels(this.defaults)
  }

  /** The exposition text (what GET /metrics answers). */
  async text(): Promise<string> {
    const rest = await this.registry.metrics()
    return [this.requests, this.requestSeconds, this.commitSeconds].map((f) => f.text(this.defaults)).join('\n') + '\n' + rest
  }
}
