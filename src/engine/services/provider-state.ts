import type {ProviderState} from '../domain/routing.js'
import type {ChangeSet, StatIncrement, Store} from '../ports/store.js'

export type HealthStatus = 'active' | 'degraded' | 'disabled'

const DAY_MS = 86_400_000
export const dayOf = (d: Date) => d.toISOString().slice(0, 10)

/**
 * Provider health and the 7-day authorization rate, kept in memory from the
 * provider_stats day buckets (loaded at start, then fed by every commit).
 */
export class ProviderStateCache {
  private status = new Map<string, HealthStatus>()
  private days = new Map<string, Map<string, {approved: number; total: number}>>()

  async load(store: Store, providerIds: readonly string[], now: Date): Promise<void> {
    for (const id of providerIds) {
      const s = (await store.getSetting(`provider_status:${id}`)) as HealthStatus | undefined
      this.status.set(id, s ?? 'active')
    }
    for (const s of await store.statsSince(dayOf(new Date(now.getTime() - 8 * DAY_MS)))) this.add(s)
  }

  private add(s: StatIncrement) {
    let m = this.days.get(s.provider)
    if (!m) this.days.set(s.provider, (m = new Map()))
    const b = m.get(s.day) ?? {approved: 0, total: 0}
    b.approved += s.approved
    b.total += s.total
    m.set(s.day, b)
  }

  onCommit = (cs: ChangeSet) => {
    for (const s of cs.stats ?? []) this.add(s)
    for (const [k, v] of Object.entries(cs.settings ?? {})) {
      if (k.startsWith('provider_status:')) this.status.set(k.slice('provider_status:'.length), v as HealthStatus)
    }
  }

  private windowKey = ''
  private windowDays: string[] = []
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

  snapshot(ids: readonly string[], now: Date): Map<string, ProviderState> {
    const out = new Map<string, ProviderState>()
    for (const id of ids) out.set(id, {status: this.getStatus(id), authRate7d: this.authRate(id, now).rate})
    return out
  }
}
