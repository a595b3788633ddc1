// The application: every account's engine (a Core per account, made on first use), the
// background work that spans accounts (timeline jobs as they fall due on each account's clock,
// the webhook delivery worker, housekeeping) and the live event feeds. Knows nothing of HTTP.
import {registerChaosJobs} from './chaos-providers.js'
import {registerCheckoutJobs} from './checkout-sessions.js'
import {PLATFORM_ACCOUNT} from '../ports/store.js'
import {Core, type CoreOptions, type Observers} from '../core/core.js'
import type {ContainedWhere} from '../core/containment.js'
import {DeliveryWorker, type DeliveryWorkerOptions} from '../core/delivery-worker.js'
import {registerDisputeJobs} from './disputes.js'
import {EventFeed, housekeeping} from './events.js'
import {registerMerchantJobs} from './merchants.js'
import {registerPaymentJobs} from './payments.js'
import {registerRefundJobs} from './refunds.js'
import {ensureSettlementScheduled, registerSettlementJobs} from './settlement.js'

export interface AppOptions extends CoreOptions {
  deliveries?: DeliveryWorkerOptions
  /** how long a job or delivery claim of an instance that died blocks the others (default 60 s) */
  claimLeaseMs?: number
}

const HOUSEKEEPING_MS = 3_600_000
/** How often the background runner looks for accounts with due jobs (besides the change feed's wake-ups). */
const JOB_POLL_MS = 1000

export class App {
  private tick: NodeJS.Timeout | undefined
  private unsubscribe: (() => void) | undefined
  private lastHousekeeping = 0
  private readonly cores = new Map<string, Promise<Core>>()
  /** cores made, for what must not wait (a delivery claim's clock) */
  private readonly ready = new Map<string, Core>()
  private readonly feeds = new Map<string, Promise<EventFeed>>()
  private stopped = false
  readonly deliveries: DeliveryWorker

  private constructor(
    private readonly opts: AppOptions,
    /** the platform account's engine (the engine's own account) */
    readonly core: Core,
  ) {
    this.cores.set(core.account, Promise.resolve(core))
    this.ready.set(core.account, core)
    this.deliveries = new DeliveryWorker(this, {leaseMs: opts.claimLeaseMs, ...opts.deliveries})
    // what a change listener throws (a value it read that it could not take) stays with its account
    opts.store.onListenerError((e, account) => this.contain('change_feed', account, e))
    // a clock advance (here, or seen through the change feed) makes retries due: claimed at once
    opts.observers!.clockMoved = () => this.deliveries.wake()
  }

  static async create(opts: AppOptions): Promise<App> {
    // one observers object for every account's engine: metrics set its hooks later
    const all = {...opts, observers: opts.observers ?? {}}
    const core = await Core.create(all, PLATFORM_ACCOUNT)
    registerJobs(core)
    await ensureSettlementScheduled(core)
    return new App(all, core)
  }

  /** What the engine reports as it works (metrics hooks). */
  get observers(): Observers {
    return this.opts.observers!
  }

  /** The engines made so far. */
  loadedCores(): Core[] {
    return [...this.ready.values()]
  }

  get log(): (line: string) => void {
    return this.opts.log
  }

  /** A failure contained to an account (or to no account: null), counted and logged once per place (containment.ts, docs/decisions.md#failures-are-contained). */
  contain(where: ContainedWhere, account: string | null, e: unknown, what?: string): void {
    this.opts.containment!.report(where, account, e, what)
  }

  /** The engine of an account, made on first use (its clock and provider state are read then). */
  account(id: string): Promise<Core> {
    let c = this.cores.get(id)
    if (!c) {
      c = Core.create(this.opts, id).then(async (core) => {
        registerJobs(core)
        this.ready.set(id, core)
        return core
      })
      // a failed load (the store unreachable) is not kept: the next use tries again
      c.catch(() => {
        if (this.cores.get(id) === c) this.cores.delete(id)
      })
      this.cores.set(id, c)
    }
    return c
  }

  /** The engine of an account if it was made already (no waiting). */
  loaded(id: string): Core | undefined {
    return this.ready.get(id)
  }

  /** The live event feed of an account (made on first use: a stream subscribes). */
  feed(core: Core): Promise<EventFeed> {
    let f = this.feeds.get(core.account)
    if (!f) {
      f = EventFeed.start(core.store)
      f.catch(() => this.feeds.delete(core.account))
      this.feeds.set(core.account, f)
    }
    return f
  }

  /** Forgets an account that was deleted: its engine, feed and clock go. */
  private forget(id: string): void {
    const core = this.ready.get(id)
    core?.jobs.stop()
    this.cores.delete(id)
    this.ready.delete(id)
    this.feeds.delete(id)
  }

  /**
   * Starts the background work: timeline jobs as they fall due, webhook attempts, housekeeping.
   * Each account's part is contained to it (docs/decisions.md#failures-are-contained): whatever one account's data makes throw is
   * counted and logged once, and the others' jobs and housekeeping go on.
   */
  start(): void {
    const runJobs = (core: Core) => void core.jobs.runDue({wait: false}).catch((e) => core.contain('job_runner', e, 'running due jobs'))
    this.unsubscribe = this.opts.store.onChange((n) => {
      if (n.purged) return this.forget(n.account)
      if (n.dueBy === null) return
      const core = this.ready.get(n.account)
      if (core && n.dueBy <= core.clock.now().toISOString()) runJobs(core)
    }, 'shared')
    // each account's earliest due job, compared with that account's clock
    const poll = async () => {
      for (const {account, due_at} of await this.opts.store.nextJobs()) {
        if (this.stopped) return
        try {
          const core = await this.account(account)
          if (due_at <= core.clock.now().toISOString()) runJobs(core)
        } catch (e) {
          this.contain('job_runner', account, e, 'looking for due jobs')
        }
      }
    }
    this.tick = setInterval(() => {
      void poll().catch((e) => this.contain('job_runner', null, e, 'listing accounts with due jobs'))
      if (Date.now() - this.lastHousekeeping > HOUSEKEEPING_MS) {
        this.lastHousekeeping = Date.now()
        void this.housekeeping().catch((e) => this.contain('housekeeping', null, e, 'listing accounts'))
      }
    }, JOB_POLL_MS)
    this.tick.unref()
    this.deliveries.start()
    void poll().catch((e) => this.contain('job_runner', null, e, 'listing accounts with due jobs'))
  }

  /** Purges what is past its window in every account with data (on each account's clock), each account's failure its own. */
  private async housekeeping(): Promise<void> {
    const accounts = new Set<string>([PLATFORM_ACCOUNT, ...this.ready.keys()])
    for (const a of await this.core.store.all<{id: string; created_at: string}>('account')) accounts.add(a.id)
    for (const id of accounts) {
      if (this.stopped) return
      try {
        await housekeeping(await this.account(id))
      } catch (e) {
        this.contain('housekeeping', id, e)
      }
    }
  }

  /** Stops background work: no new job or delivery is claimed, attempts in flight are abandoned (they stay due). */
  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.tick)
    this.unsubscribe?.()
    for (const core of this.ready.values()) core.jobs.stop()
    await this.deliveries.close()
  }
}

/** The timeline job handlers of an account's engine. */
function registerJobs(core: Core): void {
  registerPaymentJobs(core)
  registerRefundJobs(core)
  registerDisputeJobs(core)
  registerSettlementJobs(core)
  registerMerchantJobs(core)
  registerChaosJobs(core)
  registerCheckoutJobs(core)
}
