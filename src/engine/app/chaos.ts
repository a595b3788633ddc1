// The chaos operations (docs/decisions.md#failure-on-purpose): add a rule to the account's, end one or all, list the active
// ones. What a rule is and how it is applied (the rules every request, provider call and
// delivery runs through) is the core's: core/chaos-rules.ts.
import type {ChaosRule} from '../../api/types.js'
import {notFound} from '../domain/errors.js'
import {apiRule, CHAOS_RULES_SETTING, type CreateChaosApi} from '../core/chaos-rules.js'
import type {Core} from '../core/core.js'
import type {Unit} from '../core/unit.js'

// ---------------------------------------------------------------- use cases

export async function rulesIn(u: Unit): Promise<ChaosRule[]> {
  // one change to the rules at a time (the lock is the store's, held until the unit commits)
  await u.lock('chaos_rules')
  return u.core.chaos.parse(await u.core.store.getSetting(CHAOS_RULES_SETTING))
}

export function write(u: Unit, rules: ChaosRule[]): void {
  // spent and ended rules go when the rules next change
  const now = u.now.toISOString()
  u.setting(CHAOS_RULES_SETTING, JSON.stringify(rules.filter((r) => r.until > now)))
}

export async function addApiFault(u: Unit, b: CreateChaosApi): Promise<ChaosRule> {
  return addRule(u, apiRule(b, u.core.ids.next('chaos'), u.now))
}

/** Adds a validated rule to the account's. */
export async function addRule<R extends ChaosRule>(u: Unit, rule: R): Promise<R> {
  const rules = await rulesIn(u)
  write(u, [...rules, rule])
  return rule
}

/** What ending a rule undoes (a provider marked degraded by a down rule recovers), registered by the kinds that need it. */
const onEnd: ((u: Unit, r: ChaosRule) => Promise<void>)[] = []
export function whenRuleEnds(fn: (u: Unit, r: ChaosRule) => Promise<void>): void {
  onEnd.push(fn)
}

/** Ends one rule (`id`) or every rule of the account; returns what was active. */
export async function clearChaos(u: Unit, id?: string): Promise<ChaosRule[]> {
  const rules = await rulesIn(u)
  const now = u.now.toISOString()
  if (id !== undefined && !rules.some((r) => r.id === id && r.until > now)) throw notFound('chaos rule', id, 'id')
  const cleared = rules.filter((r) => (id === undefined || r.id === id) && r.until > now)
  write(u, id === undefined ? [] : rules.filter((r) => r.id !== id))
  for (const r of cleared) for (const fn of onEnd) await fn(u, r)
  return cleared
}

/** The active rules, each with how many faults it injected. */
export async function chaosStatus(core: Core): Promise<ChaosRule[]> {
  const rules = await core.chaos.active()
  return Promise.all(rules.map(async (r) => ({...r, injected: await core.chaos.injected(r)})))
}
