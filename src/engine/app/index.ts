// The application: use cases over a store, with the timeline job runner, the delivery worker
// and the live event feed. Knows nothing of HTTP.
import {Core, type CoreOptions} from './core.js'
import {DeliveryWorker, type DeliveryWorkerOptions} from './delivery-worker.js'
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

export class App {
  private tick: NodeJS.Timeout | undefined
  private unsubscribe: (() => void) | undefined
  private lastHousekeeping = 0

  private constructor(
    readonly core: Core,
    readonly feed: EventFeed,
    readonly deliveries: DeliveryWorker,
  ) {}

  static async create(opts: AppOptions): Promise<App> {
    const core = await Core.create(opts)
    registerPaymentJobs(core)
    registerRefundJobs(core)
    registerDisputeJobs(core)
    registerSettlementJobs(core)
    registerMerchantJobs(core)
    await ensureSettlementScheduled(core)
    return new App(core, await EventFeed.start(opts.store), new DeliveryWorker(core, {leaseMs: opts.claimLeaseMs, ...opts.deliveries}))
  }

  /** Starts the background work: timeline jobs as they fall due, webhook attempts, housekeeping. */
  start(): void {
    const core = this.core
    const runJobs = () => void core.jobs.runDue({wait: false}).catch((e) => core.log(`jobs: ${(e as Error).message}`))
    this.unsubscribe = core.store.onChange((n) => {
      if (n.dueBy !== null && n.dueBy <= core.clock.now().toISOString()) runJobs()
    })
    this.tick = setInterval(() => {
      runJobs()
      if (Date.now() - this.lastHousekeeping > HOUSEKEEPING_MS) {
        this.lastHousekeeping = Date.now()
        void housekeeping(core).catch((e) => core.log(`housekeeping: ${(e as Error).message}`))
      }
    }, 1000)
    this.tick.unref()
    core.providerState.refreshEvery(() => core.clock.now())
    this.deliveries.start()
    runJobs()
  }

  /** Stops background work: no new job or delivery is claimed, attempts in flight are abandoned (they stay due). */
  async stop(): Promise<void> {
    clearInterval(this.tick)
    this.unsubscribe?.()
    this.core.jobs.stop()
    this.core.providerState.stop()
    await this.deliveries.close()
  }
}
