// Provider faults (docs/decisions.md#failure-on-purpose): for one account, a provider goes down, or a share of its calls
// time out, soft-decline or slow down. The fault is applied to what the provider answered, so
// routing, failover (docs/api.md#routing-and-failover), provider_attempts, the routing explanation and the 7-day rate react
// exactly as to a real failure. A down provider is marked degraded (provider.health.changed) at
// the first call that finds it down, and active again when the rule ends — at its end on the
// engine clock (a timeline job) or when it is cleared — unless somebody else changed its health
// meanwhile.
import {type ChaosProviderFaultCreate, type ChaosProviderRule, type ChaosRule} from '../../api/types.js'
import {providerProfile} from '../domain/providers.js'
import type {ProviderResult} from '../ports/provider.js'
import {providerRule} from '../core/chaos-rules.js'
import {addRule, whenRuleEnds} from './chaos.js'
import type {Core} from '../core/core.js'
import {CHAOS_HEALTH_MARK, loadProvider, lockedHealth, writeHealth} from '../core/provider-state.js'
import type {Unit} from '../core/unit.js'

const ENDED_JOB = 'chaos.provider_down_ended'


/** POST /v1/chaos/providers. A down rule's end is a job on the engine clock: the provider recovers then. */
export async function addProviderFault(u: Unit, b: ChaosProviderFaultCreate): Promise<ChaosProviderRule> {
  const rule = providerRule(b, u.core.ids.next('chaos'), u.now)
  if (rule.fault === 'down') u.schedule(ENDED_JOB, rule.id, new Date(rule.until), {provider: rule.provider})
  return addRule(u, rule)
}

/**
 * What the provider's call answers under the account's provider faults: the first rule for this
 * provider that takes the call changes the answer (authorizations and refunds; a soft decline
 * is an authorization's). Latency is really waited, up to the provider's timeout.
 */
export async function providerChaos(u: Unit, provider: string, call: 'authorize' | 'refund', res: ProviderResult): Promise<ProviderResult> {
  for (const r of await u.core.chaos.ofKind('provider')) {
    if (r.provider !== provider || (r.fault === 'soft_decline' && call !== 'authorize')) continue
    if (!(await u.core.chaos.take(r))) continue
    const timeoutMs = providerProfile(provider)?.timeout_ms ?? 5000
    switch (r.fault) {
      case 'down':
        await markDown(u, r)
        return {outcome: 'error', decline_code: null, latency_ms: 1}
      case 'timeout':
        return {outcome: 'timeout', decline_code: null, latency_ms: timeoutMs}
      case 'soft_decline':
        return {outcome: 'soft_declined', decline_code: 'try_again_later', latency_ms: res.latency_ms}
      case 'latency': {
        const total = res.latency_ms + (r.latency_ms ?? 0)
        await new Promise((resolve) => setTimeout(resolve, Math.min(r.latency_ms ?? 0, timeoutMs)))
        return total >= timeoutMs ? {outcome: 'timeout', decline_code: null, latency_ms: timeoutMs} : {...res, latency_ms: total}
      }
    }
  }
  return res
}

/** The gateway notices the provider is down: active becomes degraded (once; the rule is remembered so its end undoes it). */
async function markDown(u: Unit, r: ChaosProviderRule): Promise<void> {
  // cheap when already noticed (this instance's view; the lock below decides)
  if (u.core.providerState.getStatus(r.provider) !== 'active') return
  if ((await lockedHealth(u, r.provider)) !== 'active') return
  u.setting(CHAOS_HEALTH_MARK(r.provider), r.id)
  writeHealth(u, loadProvider(r.provider), 'degraded')
}

/** The down rule ended: the provider it degraded is active again (unless its health was changed since). */
async function recover(u: Unit, ruleId: string, provider: string): Promise<void> {
  const status = await lockedHealth(u, provider)
  if (status !== 'degraded' || (await u.core.store.getSetting(CHAOS_HEALTH_MARK(provider))) !== ruleId) return
  u.setting(CHAOS_HEALTH_MARK(provider), '')
  writeHealth(u, loadProvider(provider), 'active')
}

whenRuleEnds(async (u: Unit, r: ChaosRule) => {
  if (r.kind !== 'provider' || r.fault !== 'down') return
  u.unschedule(ENDED_JOB, r.id)
  await recover(u, r.id, r.provider)
})

export function registerChaosJobs(core: Core): void {
  core.jobs.register(ENDED_JOB, async (u, job) => recover(u, job.ref, String(job.data?.provider ?? '')))
}
