// Routing objects for tests of `gw payments explain` and `gw routing simulate`: a smart-routing
// decision and a payment that failed over once (amount 4999).
import type {PaymentRouting, RoutingDecision} from '../../../../api/types.js'

export const T0 = '2026-03-01T10:00:00.000Z'

type Score = RoutingDecision['scores'][number]

export const score = (provider: string, s: number, over: Partial<Score> = {}): Score => ({
  provider,
  score: s,
  degraded: false,
  cost: {fee: 100, component: 0.8},
  auth_rate: {rate_7d: null, used: 0.85},
  currency: {local: true, component: 1},
  method: {partner: false, component: 1},
  ...over,
})

export function decision(over: Partial<RoutingDecision> = {}): RoutingDecision {
  return {
    object: 'routing_decision',
    decided_at: T0,
    input: {amount: 4999, currency: 'EUR', payment_method: 'card', card_brand: 'visa', country: 'US', merchant: null},
    providers: [
      {provider: 'prov_atlas', status: 'active', eligible: true, excluded: null},
      {provider: 'prov_borealis', status: 'active', eligible: true, excluded: null},
      {provider: 'prov_cruzeiro', status: 'active', eligible: false, excluded: 'currency_not_processed'},
      {provider: 'prov_dhow', status: 'disabled', eligible: false, excluded: 'provider_disabled'},
    ],
    rule: null,
    strategy: 'smart_routing',
    weights: {cost: 0.3, auth_rate: 0.5, currency: 0.1, method: 0.1},
    scores: [
      score('prov_borealis', 0.865),
      score('prov_atlas', 0.6621, {cost: {fee: 175, component: 0.4571}, auth_rate: {rate_7d: 0.92, used: 0.92}, currency: {local: false, component: 0}, method: {partner: true, component: 0.5}}),
    ],
    tie_break: 'active providers before degraded ones, then the higher score, then the provider id',
    split_pick: null,
    order: ['prov_borealis', 'prov_atlas'],
    ...over,
  }
}

export function failover(): PaymentRouting {
  return {
    object: 'payment_routing',
    payment: 'pay_123',
    decisions: [decision()],
    attempts: [
      {provider: 'prov_borealis', outcome: 'timeout', decline_code: null, latency_ms: 3000, attempted_at: T0, decline_class: 'soft'},
      {provider: 'prov_atlas', outcome: 'approved', decline_code: null, latency_ms: 412, attempted_at: T0, decline_class: null},
    ],
  }
}

