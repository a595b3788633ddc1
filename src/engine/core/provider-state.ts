import {PROVIDER_STATUSES, type Provider} from '../../api/types.js'
import type {PageQuery} from './lists.js'
import {fixedFeeTable, PROVIDERS, providerProfile, type ProviderProfile} from '../domain/providers.js'
import {invalid, notFound} from '../domain/errors.js'
import type {ProviderState as RoutingState} from '../domain/routing.js'
import type {AccountStore, StatIncrement} from '../ports/store.js'
import type {Core} from './core.js'
import type {Unit} from './unit.js'
import {iso} from '../domain/time.js'

export type HealthStatus = 'active' | 'degraded' | 'disabled'

const DAY_MS = 86_400_000
export const dayOf = (d: Date) => iso(d).slice(0, 10)
const STATUS_PREFIX = 'provider_status:'
/** Statistics written by other instances are read again this often. */
const STATS_REFRESH_MS = 5000

/**
 * One account's provider health (settings, invalidated by the store's change feed) and 7-day
 * authorization rate (provider_stats day buckets: this instance's own increments at once,
 * every instance's read again when a reading is older than a few seconds — in the background,
 * on use, so an account nobody uses costs no timer).
 */
export class ProviderState {
  private status = new Map<string, HealthStatus>()
  private days = new Map<string, Map<string, {approved: number; total: number}>>()
  private windowKey = ''
  private windowDays: string[] = []
  private loadedAt = 0
  private reloading = false

  private constructor(
    private readonly store: AccountStore,
    /** hears of a stored health that is none (docs/decisions.md#failures-are-contained): the provider counts as active instead */
    private readonly bad: (problem: string) => void,
  ) {}

  static async load(store: AccountStore, now: Date, bad: (problem: string) => void = () => {}): Promise<ProviderState> {
    const s = new ProviderState(store, bad)
    await s.loadStatus()
    await s.loadStats(now)
    store.onChange((n) => {
      if (n.settings.some((k) => k.startsWith(STATUS_PREFIX))) void s.loadStatus().catch(() => {}) // unreachable: read again on the next notice
    }, 'shared')
    return s
  }

  /** Reads every instance's statistics again once the reading is older than STATS_REFRESH_MS (in the background: this read uses the current one). */
  private refresh(now: Date): void {
    if (this.reloading || performance.now() - this.loadedAt < STATS_REFRESH_MS) return
    this.reloading = true
    void this.loadStats(now)
      .catch(() => {}) // unreachable: the next use tries again
      .finally(() => (this.reloading = false))
  }

  private async loadStatus(): Promise<void> {
    for (const p of PROVIDERS) {
      const v = await this.store.getSetting(STATUS_PREFIX + p.id)
      if (v !== undefined && !(PROVIDER_STATUSES as readonly string[]).includes(v)) this.bad(`${STATUS_PREFIX}${p.id} is '${v.slice(0, 40)}', no health; the provider counts as active`)
      this.status.set(p.id, v !== undefined && (PROVIDER_STATUSES as readonly string[]).includes(v) ? (v as HealthStatus) : 'active')
    }
  }

  private async loadStats(now: Date): Promise<void> {
    const days = new Map<string, Map<string, {approved: number; total: number}>>()
    const started = performance.now()
    for (const s of await this.store.statsSince(dayOf(new Date(now.getTime() - 8 * DAY_MS)))) add(days, s)
    this.days = days
    this.loadedAt = started
  }

  /** This instance's own committed provider health settings. */
  applyLocalSettings(settings: Readonly<Record<string, string>>): void {
    for (const [k, v] of Object.entries(settings)) if (k.startsWith(STATUS_PREFIX)) this.status.set(k.slice(STATUS_PREFIX.length), v as HealthStatus)
  }

  /** This instance's own committed increments. */
  applyLocal(stats: readonly StatIncrement[]): void {
    for (const s of stats) add(this.days, s)
  }

  /** The 7 day keys ending today, recomputed once per day rather than per payment. */
  private window(now: Date): string[] {
    const today = dayOf(now)
    if (today !== this.windowKey) {
      this.windowKey = today
      this.windowDays = Array.from({length: 7}, (_, i) => dayOf(new Date(now.getTime() - i * DAY_MS)))
    }
    return this.windowDays
  }

  getStatus(id: string): HealthStatus {
    return this.status.get(id) ?? 'active'
  }

  /** approved / total over the 7 days ending today (engine clock); null without data. */
  authRate(id: string, now: Date): {approved: number; total: number; rate: number | null} {
    this.refresh(now)
    const m = this.days.get(id)
    let approved = 0
    let total = 0
    if (m) {
      for (const day of this.window(now)) {
        const b = m.get(day)
        if (b) {
          approved += b.approved
          total += b.total
        }
      }
    }
    return {approved, total, rate: total === 0 ? null : approved / total}
  }

  snapshot(now: Date): Map<string, RoutingState> {
    const out = new Map<string, RoutingState>()
    for (const p of PROVIDERS) out.set(p.id, {status: this.getStatus(p.id), authRate7d: this.authRate(p.id, now).rate})
    return out
  }
}

function add(days: Map<string, Map<string, {approved: number; total: number}>>, s: StatIncrement): void {
  let m = days.get(s.provider)
  if (!m) days.set(s.provider, (m = new Map()))
  const b = m.get(s.day) ?? {approved: 0, total: 0}
  m.set(s.day, {approved: b.approved + s.approved, total: b.total + s.total})
}

// ---------------------------------------------------------------- provider views and the health helper

export function providerView(core: Core, p: ProviderProfile, status = core.providerState.getStatus(p.id)): Provider {
  const r = core.providerState.authRate(p.id, core.clock.now())
  return {
    id: p.id,
    object: 'provider',
    methods: [...p.methods],
    currencies: [...p.currencies],
    regions: [...p.regions],
    status,
    auth_rate_7d: r.rate === null ? null : Math.round(r.rate * 10_000) / 10_000,
    attempts_7d: r.total,
    fees: {percent_bps: p.fees.percent_bps, fixed: fixedFeeTable(p)},
    latency_ms: {p50: p.latency.p50_ms, p99: p.latency.p99_ms},
    livemode: core.livemode,
  }
}

export function loadProvider(id: string): ProviderProfile {
  const p = providerProfile(id)
  if (!p) throw notFound('provider', id)
  return p
}

/** POST /test_helpers/providers/{id}/health: a provider degrades or recovers (provider.health.changed on a change). */
export async function setProviderHealth(u: Unit, id: string, status: HealthStatus): Promise<Provider> {
  const p = loadProvider(id)
  const before = await lockedHealth(u, p.id)
  // set by hand: a provider fault's end (chaos) no longer undoes it
  u.setting(CHAOS_HEALTH_MARK(p.id), '')
  return writeHealth(u, p, status, before !== status)
}

/** The chaos rule that degraded a provider, so that only its end makes it active again. */
export const CHAOS_HEALTH_MARK = (id: string) => `chaos_degraded:${id}`

/** Writes a provider's health (under lockedHealth) and, when it changed, provider.health.changed. */
export function writeHealth(u: Unit, p: ProviderProfile, status: HealthStatus, changed = true): Provider {
  u.setting(STATUS_PREFIX + p.id, status)
  const view = providerView(u.core, p, status)
  if (changed) u.emit('provider.health.changed', view, u.now, null)
  return view
}

/** A provider's stored health, read under its lock (held until the unit commits): one change at a time. */
export async function lockedHealth(u: Unit, id: string): Promise<HealthStatus> {
  await u.lock(STATUS_PREFIX + id)
  return ((await u.core.store.getSetting(STATUS_PREFIX + id)) as HealthStatus | undefined) ?? 'active'
}

/**
 * GET /providers: the providers serving a method and a currency, a page at a time. Providers
 * are a fixed set in their catalog order, not stored objects: cursors are positions in it.
 */
export function listProviders(core: Core, q: PageQuery<'listProviders'>): {data: Provider[]; has_more: boolean} {
  const list = PROVIDERS.filter((p) => (q.payment_method === undefined || p.methods.some((m) => m === q.payment_method)) && (q.currency === undefined || p.currencies.includes(q.currency)))
  let start = 0
  let end = list.length
  if (q.starting_after) {
    const i = list.findIndex((p) => p.id === q.starting_after)
    if (i < 0) throw invalid('starting_after', `starting_after: no such provider '${q.starting_after}'.`)
    start = i + 1
  }
  if (q.ending_before) {
    const i = list.findIndex((p) => p.id === q.ending_before)
    if (i < 0) throw invalid('ending_before', `ending_before: no such provider '${q.ending_before}'.`)
    end = i
    start = Math.max(0, end - q.limit)
  }
  const data = list.slice(start, Math.min(end, start + q.limit)).map((p) => providerView(core, p))
  return {data, has_more: q.ending_before ? start > 0 : start + q.limit < end}
}
