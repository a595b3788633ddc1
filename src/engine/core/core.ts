// What every use case shares: one account's engine (docs/decisions.md#accounts). Its store is bounded to the
// account; it has its own engine clock, provider health and statistics, the caches the store's
// change feed keeps current, its job runner, and the unit-of-work runner. Ids, providers and
// URLs are the engine's, shared by every account.
import type {RoutingRule} from '../domain/routing.js'
import type {Ids} from '../ports/ids.js'
import type {ProviderConnection} from '../ports/provider.js'
import {PLATFORM_ACCOUNT, VersionConflictError, type AccountStore, type CommitOrder, type Store} from '../ports/store.js'
import type {DestinationPolicy} from '../domain/destinations.js'
import {SecretBox} from '../adapters/secret-box.js'
import {FleetSettings} from './fleet.js'
import {StoreCache} from './cache.js'
import {clockStateOf, EngineClock} from './clock.js'
import {Containment, type ContainedWhere} from './containment.js'
import {ChaosRules} from './chaos-rules.js'
import {chaosRuleProblem} from './stored-rows.js'
import {JobRunner} from './jobs.js'
import {ProviderState} from './provider-state.js'
import {Unit} from './unit.js'
import type {EndpointRecord} from './webhook-types.js'
import {Reactions} from './reactions.js'

/** What the engine reports as it works (metrics): set once, shared by every account's engine. */
export interface Observers {
  /** a unit of work ended (committed, or failed), after this long */
  unit?(seconds: number): void
  /** a webhook attempt ended */
  attempt?(ok: boolean): void
  /** an account's engine clock moved forward (a test clock advance): what fell due is attempted at once */
  clockMoved?(account: string): void
  /** a failure was contained to its request or account (docs/decisions.md#failures-are-contained) */
  contained?(where: ContainedWhere): void
}

export interface CoreOptions {
  /** the engine's store (every account's data) */
  store: Store
  ids: Ids
  providers: ReadonlyMap<string, ProviderConnection>
  /** filled in once the server listens */
  urls: {baseUrl: string; checkoutUrl: string}
  log: (line: string) => void
  /** the settings every instance of a fleet agrees on (rate limit, payout currency, webhook destinations); default: the defaults */
  fleet?: FleetSettings
  /** how long a job claim of an instance that died blocks the others (default JOB_LEASE_MS) */
  claimLeaseMs?: number
  /** metrics hooks (one object for every account) */
  observers?: Observers
  /** where failures contained to an account are counted and logged once (one for every account) */
  containment?: Containment
  /** seals and opens what the engine keeps secret but must use (webhook signing secrets): the engine's secrets key; default: a key of this process only */
  secrets?: SecretBox
}

/** The containment every account's engine shares: the options' own, made once for them when they have none. */
function containmentOf(opts: CoreOptions): Containment {
  opts.containment ??= new Containment(opts.log, (where) => opts.observers?.contained?.(where), undefined, () => opts.store.account(PLATFORM_ACCOUNT).getSetting('readiness_probe'))
  return opts.containment
}

/** Version conflicts are retried this often (re-reading under the same locks) before they surface. */
const CONFLICT_RETRIES = 2

export class Core {
  readonly livemode = false
  readonly jobs: JobRunner
  readonly endpoints: StoreCache<EndpointRecord[]>
  readonly rules: StoreCache<RoutingRule[]>
  /** this account's data */
  readonly store: AccountStore
  /** every account's data: for what spans accounts (delivery claims, finding an object's account) */
  readonly engineStore: Store
  readonly ids: Ids
  readonly providers: ReadonlyMap<string, ProviderConnection>
  readonly urls: {baseUrl: string; checkoutUrl: string}
  readonly log: (line: string) => void
  readonly fleet: FleetSettings
  readonly claimLeaseMs: number | undefined
  readonly observers: Observers
  /** faults this account switched on to rehearse (docs/decisions.md#failure-on-purpose) */
  readonly chaos: ChaosRules
  /** what use cases do when another's object changes, registered by them (see reactions.ts) */
  readonly reactions = new Reactions()
  private readonly containment: Containment
  /** the engine's secrets key (docs/decisions.md#secrets-at-rest): webhook signing secrets are stored sealed with it */
  readonly secrets: SecretBox

  private constructor(
    opts: CoreOptions,
    readonly account: string,
    readonly clock: EngineClock,
    readonly providerState: ProviderState,
  ) {
    this.engineStore = opts.store
    this.store = opts.store.account(account)
    this.ids = opts.ids
    this.providers = opts.providers
    this.urls = opts.urls
    this.log = opts.log
    this.fleet = opts.fleet ?? FleetSettings.fixed()
    this.claimLeaseMs = opts.claimLeaseMs
    this.observers = opts.observers ?? {}
    this.containment = containmentOf(opts)
    this.secrets = opts.secrets ?? (opts.secrets = SecretBox.ephemeral())
    this.jobs = new JobRunner(this)
    this.endpoints = new StoreCache(this.store, () => this.store.all<EndpointRecord>('webhook_endpoint'), {kinds: ['webhook_endpoint']})
    this.rules = new StoreCache(this.store, () => this.store.all<RoutingRule & {created_at: string}>('routing_rule'), {kinds: ['routing_rule']})
    this.chaos = new ChaosRules(this, chaosRuleProblem)
  }

  /** Convert every settlement to this currency before paying out (docs/api.md#money-rules); null: one payout per currency. The fleet's setting. */
  get payoutCurrency(): string | null {
    return this.fleet.payoutCurrency
  }

  /** Where webhooks may go: everywhere but link-local and cloud-metadata addresses, within --webhook-allow. The fleet's setting. */
  get destinations(): DestinationPolicy {
    return this.fleet.destinations
  }

  /** The engine of one account (the platform account by default). */
  static async create(opts: CoreOptions, account: string = PLATFORM_ACCOUNT): Promise<Core> {
    const store = opts.store.account(account)
    const observers = opts.observers
    const containment = containmentOf(opts)
    const clock = await EngineClock.load(
      store,
      () => observers?.clockMoved?.(account),
      (problem) => containment.report('clock', account, problem),
    )
    return new Core(opts, account, clock, await ProviderState.load(store, clock.now(), (problem) => containment.report('setting', account, problem)))
  }

  /** A failure of this account's work, contained to it (docs/decisions.md#failures-are-contained): counted, and logged once per place (containment.ts). */
  contain(where: ContainedWhere, e: unknown, what?: string): void {
    this.containment.report(where, this.account, e, what)
  }

  /**
   * Runs `fn` as one unit of work: what it collects is committed atomically, with the webhook
   * outbox, and the unit's locks are held until then. `at` sets the unit's clock (a job runs at
   * its due time); `requestId` is the API request that caused it, carried by its events.
   */
  async run<T>(opts: {requestId?: string | null; at?: Date; order?: CommitOrder}, fn: (u: Unit) => Promise<T>): Promise<T> {
    const started = performance.now()
    // (one async function, not a timing wrapper around another: a unit runs on every request)
    for (let attempt = 0; ; attempt++) {
      let unit: Unit | undefined
      try {
        const out = await this.store.transact(async (tx) => {
          unit = new Unit(this, tx, opts.requestId ?? null, opts.at ?? this.clock.now())
          const result = await fn(unit)
          const cs = await unit.changeSet()
          if (cs) tx.commit(cs)
          return result
        }, attempt === 0 ? opts.order : undefined)
        if (unit!.stats.length) this.providerState.applyLocal(unit!.stats)
        // read your own writes: the change feed's reload may come after this request's next one
        this.providerState.applyLocalSettings(unit!.settings)
        // a snapshot loaded: its clock, at once (other instances read it when the change feed says so)
        if (unit!.stagedRestore) this.clock.reset(clockStateOf(unit!.stagedRestore.settings))
        this.observers.unit?.((performance.now() - started) / 1000)
        return out
      } catch (e) {
        // rows staged for a commit that did not happen are nobody's: deleted (a retry stages its own)
        void unit?.stagedRestore?.rows.discard().catch(() => {})
        // (a job's own claim lost is not retried: it is gone, or another runner's now)
        if (e instanceof VersionConflictError && e.kind !== 'job' && attempt < CONFLICT_RETRIES) continue
        this.observers.unit?.((performance.now() - started) / 1000)
        throw e
      }
    }
  }
}
