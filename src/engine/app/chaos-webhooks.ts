// Webhook faults (docs/decisions.md#failure-on-purpose): what happens to the deliveries created while a rule is active, so
// a merchant's receiver meets what docs/api.md#webhook-delivery warns of — duplicates, events out of order,
// late events, failed attempts retried. A duplicate is a second delivery of the same event
// (each signed when sent, both in the delivery log); shuffle holds each delivery a random time
// within a window, so they arrive out of order; delay holds every one; fail_first fails the
// first attempts of each delivery on purpose (logged, nothing sent) and the retry schedule
// takes over. Every shaped delivery names its rule (`chaos`).
import {type ChaosWebhookFaultCreate, type ChaosWebhookRule} from '../../api/types.js'
import {notFound} from '../domain/errors.js'
import {webhookRule} from '../core/chaos-rules.js'
import {addRule} from './chaos.js'
import type {Unit} from '../core/unit.js'



/** POST /v1/chaos/webhooks: an endpoint named must be the account's. */
export async function addWebhookFault(u: Unit, b: ChaosWebhookFaultCreate): Promise<ChaosWebhookRule> {
  const rule = webhookRule(b, u.core.ids.next('chaos'), u.now)
  if (rule.endpoint !== null && !(await u.get('webhook_endpoint', rule.endpoint))) throw notFound('webhook endpoint', rule.endpoint, 'endpoint')
  return addRule(u, rule)
}

