// Webhook faults (issue 29): what happens to the deliveries created while a rule is active, so
// a merchant's receiver meets what spec §6 rule 5 warns of — duplicates, events out of order,
// late events, failed attempts retried. A duplicate is a second delivery of the same event
// (each signed when sent, both in the delivery log); shuffle holds each delivery a random time
// within a window, so they arrive out of order; delay holds every one; fail_first fails the
// first attempts of each delivery on purpose (logged, nothing sent) and the retry schedule
// takes over. Every shaped delivery names its rule (`chaos`).
import {CHAOS_WEBHOOK_FAULTS, type ChaosWebhookFaultCreate, type ChaosWebhookRule} from '../../api/types.js'
import {invalid, notFound} from '../domain/errors.js'
import {iso} from '../domain/time.js'
import {addRule, checkCommon, checkOption, draw, ending, rateOf} from './chaos.js'
import type {Core} from './core.js'
import type {Unit} from './unit.js'
import type {DeliveryRecord} from './webhook-types.js'

const DEFAULT_SHUFFLE_WINDOW_S = 10
const MAX_DELAY_S = 86_400
const MAX_FAIL_FIRST = 10
/** A duplicate follows its original this much later (engine time), so it arrives second. */
const DUPLICATE_AFTER_MS = 1000

export function webhookRule(b: ChaosWebhookFaultCreate, id: string, now: Date): ChaosWebhookRule {
  if (!CHAOS_WEBHOOK_FAULTS.includes(b.fault)) throw invalid('fault', `fault must be one of ${CHAOS_WEBHOOK_FAULTS.join(', ')}; got '${b.fault}'.`)
  const rate = rateOf(b, 'deliveries')
  checkCommon(b)
  const usesDelay = b.fault === 'delay' || b.fault === 'shuffle'
  checkOption(b.delay_seconds, 'delay_seconds', usesDelay, 'the delay and shuffle faults', 1, MAX_DELAY_S, ' (a day)')
  if (b.fault === 'delay' && b.delay_seconds === undefined) throw invalid('delay_seconds', 'The delay fault needs delay_seconds: how long each delivery is held, e.g. 30.')
  checkOption(b.attempts, 'attempts', b.fault === 'fail_first', 'the fail_first fault', 1, MAX_FAIL_FIRST)
  return {
    id,
    object: 'chaos_rule',
    kind: 'webhooks',
    endpoint: b.endpoint ?? null,
    fault: b.fault,
    rate,
    delay_seconds: usesDelay ? (b.delay_seconds ?? DEFAULT_SHUFFLE_WINDOW_S) : null,
    attempts: b.fault === 'fail_first' ? (b.attempts ?? 1) : null,
    ...ending(b, now),
  }
}

/** POST /v1/chaos/webhooks: an endpoint named must be the account's. */
export async function addWebhookFault(u: Unit, b: ChaosWebhookFaultCreate): Promise<ChaosWebhookRule> {
  const rule = webhookRule(b, u.core.ids.next('chaos'), u.now)
  if (rule.endpoint !== null && !(await u.get('webhook_endpoint', rule.endpoint))) throw notFound('webhook endpoint', rule.endpoint, 'endpoint')
  return addRule(u, rule)
}

/** The outbox's deliveries as the account's webhook faults shape them (the same array when none is active). */
export async function shapeDeliveries(core: Core, deliveries: DeliveryRecord[], now: Date): Promise<DeliveryRecord[]> {
  const rules = await core.chaos.ofKind('webhooks')
  if (rules.length === 0) return deliveries
  const out: DeliveryRecord[] = []
  for (const d of deliveries) {
    out.push(d)
    for (const r of rules) {
      if ((r.endpoint !== null && r.endpoint !== d.endpoint) || !(await core.chaos.take(r))) continue
      d.chaos = r.id
      switch (r.fault) {
        case 'delay':
          d.next_attempt_at = iso(new Date(Date.parse(d.next_attempt_at!) + r.delay_seconds! * 1000))
          break
        case 'shuffle': {
          // the n-th delivery shaped gets the n-th hold of the seed's sequence: the same holds every run
          const n = await core.store.addToSetting(`chaos_seen:${r.id}:holds`, 1)
          const hold = Math.floor(draw(r.seed, n) * r.delay_seconds! * 1000)
          d.next_attempt_at = iso(new Date(now.getTime() + hold))
          break
        }
        case 'fail_first':
          d._x = {...d._x, fail_first: r.attempts!}
          break
        case 'duplicate':
          out.push({...d, id: core.ids.next('whd'), attempts: [], chaos: r.id, next_attempt_at: iso(new Date(Date.parse(d.next_attempt_at!) + DUPLICATE_AFTER_MS)), _x: {...d._x}})
          break
      }
    }
  }
  return out
}
