// Smart routing (spec §1): score every eligible provider on cost, 7-day authorization
// rate, currency and method; merchant routing rules override it. Pure and deterministic:
// the only randomness (split rules) comes from the `random` argument.
import {feeFor, type ProviderProfile} from './providers.js'

export interface RoutingRule {
  id: string
  merchant: string | null
  priority: number
  action: 'prefer' | 'split' | 'block'
  providers: {provider: string; weight?: number}[]
  conditions: {
    payment_method?: string
    currency?: string
    amount_gte?: number
    amount_lte?: number
    card_brand?: string
    country?: string
  }
}

export interface RouteInput {
  amount: number
  currency: string
  payment_method: string
  card_brand?: string | null
  country?: string | null
  merchant?: string | null
}

export interface ProviderState {
  status: 'active' | 'degraded' | 'disabled'
  /** null = no data */
  authRate7d: number | null
}

export interface RouteDecision {
  /** ordered provider ids to try */
  candidates: string[]
  blocked_by_rule: string | null
  /** id of the routing rule that matched (prefer, split or block), or null when smart routing alone decided */
  rule_applied: string | null
  /** every eligible provider in smart-routing order: score, fee for this payment, auth rate used */
  scores: {provider: string; score: number; cost: number; auth_rate: number}[]
}

/** Score = sum of weight x component, each component in [0, 1]. */
export const ROUTING_WEIGHTS = Object.freeze({
  /** cheapest eligible fee / this provider's fee: 1 for the cheapest, lower for dearer ones */
  cost: 0.3,
  /** 7-day authorization rate (NEUTRAL_AUTH_RATE when there is no data) */
  authRate: 0.5,
  /** 1 when the provider acquires the currency locally */
  currency: 0.1,
  /** 1 for a direct connection to the method, PARTNER_METHOD_SCORE through a partner */
  method: 0.1,
})

/** Prior for a provider with no 7-day data. */
export const NEUTRAL_AUTH_RATE = 0.85
export const PARTNER_METHOD_SCORE = 0.5
/** Degraded providers' scores are multiplied by this, and they are tried after all active ones. */
export const DEGRADED_FACTOR = 0.5

const ACTIVE: ProviderState = {status: 'active', authRate7d: null}

/** 7-day authorization rate; null when there were no attempts. */
export function authRate(approved: number, total: number): number | null {
  if (!Number.isFinite(total) || total <= 0 || !Number.isFinite(approved)) return null
  return Math.min(1, Math.max(0, approved / total))
}

interface Scored {
  provider: string
  degraded: boolean
  score: number
  cost: number
  auth_rate: number
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000
}

function scoreProvider(p: ProviderProfile, input: RouteInput, state: ProviderState, cost: number, cheapest: number): Scored {
  const costComponent = cost <= 0 ? 1 : Math.min(1, Math.max(0, cheapest / cost))
  const auth = state.authRate7d === null || !Number.isFinite(state.authRate7d) ? NEUTRAL_AUTH_RATE : Math.min(1, Math.max(0, state.authRate7d))
  const currencyComponent = p.localCurrencies.includes(input.currency) ? 1 : 0
  const methodComponent = p.partnerMethods?.includes(input.payment_method) ? PARTNER_METHOD_SCORE : 1
  let score =
    ROUTING_WEIGHTS.cost * costComponent +
    ROUTING_WEIGHTS.authRate * auth +
    ROUTING_WEIGHTS.currency * currencyComponent +
    ROUTING_WEIGHTS.method * methodComponent
  const degraded = state.status === 'degraded'
  if (degraded) score *= DEGRADED_FACTOR
  return {provider: p.id, degraded, score: round4(score), cost, auth_rate: round4(auth)}
}

/** Active before degraded, then higher score, then provider id. */
function bySmartOrder(a: Scored, b: Scored): number {
  if (a.degraded !== b.degraded) return a.degraded ? 1 : -1
  if (a.score !== b.score) return b.score - a.score
  return a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0
}

function same(a: string | null | undefined, b: string | null | undefined): boolean {
  return a != null && b != null && a.toUpperCase() === b.toUpperCase()
}

export function ruleMatches(rule: RoutingRule, input: RouteInput): boolean {
  if (rule.merchant != null && rule.merchant !== input.merchant) return false
  const c = rule.conditions ?? {}
  if (c.payment_method != null && c.payment_method !== input.payment_method) return false
  if (c.currency != null && !same(c.currency, input.currency)) return false
  if (c.amount_gte != null && !(input.amount >= c.amount_gte)) return false
  if (c.amount_lte != null && !(input.amount <= c.amount_lte)) return false
  if (c.card_brand != null && !same(c.card_brand, input.card_brand)) return false
  if (c.country != null && !same(c.country, input.country)) return false
  return true
}

/** The winning rule: lowest priority number; at equal priority a merchant's own rule beats an account-wide one, then the lower id. */
export function matchRule(input: RouteInput, rules: readonly RoutingRule[]): RoutingRule | null {
  let best: RoutingRule | null = null
  for (const rule of rules) {
    if (!ruleMatches(rule, input)) continue
    if (best === null || compareRules(rule, best) < 0) best = rule
  }
  return best
}

function compareRules(a: RoutingRule, b: RoutingRule): number {
  if (a.priority !== b.priority) return a.priority - b.priority
  const am = a.merchant != null ? 0 : 1
  const bm = b.merchant != null ? 0 : 1
  if (am !== bm) return am - bm
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

export function route(
  input: RouteInput,
  providers: readonly ProviderProfile[],
  state: ReadonlyMap<string, ProviderState>,
  rules: readonly RoutingRule[],
  random: () => number,
): RouteDecision {
  // Hard filters: currency, method, not disabled.
  const eligibleProfiles: {p: ProviderProfile; s: ProviderState; cost: number}[] = []
  for (const p of providers) {
    const s = state.get(p.id) ?? ACTIVE
    if (s.status === 'disabled') continue
    if (!p.currencies.includes(input.currency) || !p.methods.includes(input.payment_method)) continue
    eligibleProfiles.push({p, s, cost: feeFor(p, input.amount, input.currency)})
  }
  const cheapest = Math.min(...eligibleProfiles.map((e) => e.cost))
  const scored = eligibleProfiles.map(({p, s, cost}) => scoreProvider(p, input, s, cost, cheapest))
  scored.sort(bySmartOrder)
  const smart = scored.map((s) => s.provider)
  const scores = scored.map(({provider, score, cost, auth_rate}) => ({provider, score, cost, auth_rate}))
  const eligible = new Set(smart)

  const rule = matchRule(input, rules)
  if (rule === null) return {candidates: smart, blocked_by_rule: null, rule_applied: null, scores}
  if (rule.action === 'block') return {candidates: [], blocked_by_rule: rule.id, rule_applied: rule.id, scores}

  let front: string[] = []
  if (rule.action === 'prefer') {
    for (const {provider} of rule.providers) if (eligible.has(provider) && !front.includes(provider)) front.push(provider)
  } else {
    const pick = pickByWeight(rule.providers.filter((p) => eligible.has(p.provider)), random)
    if (pick !== null) front = [pick]
  }
  return {
    candidates: [...front, ...smart.filter((id) => !front.includes(id))],
    blocked_by_rule: null,
    rule_applied: rule.id,
    scores,
  }
}

/** Weighted choice in listed order; a missing weight counts as 1, zero or negative never wins. */
function pickByWeight(options: readonly {provider: string; weight?: number}[], random: () => number): string | null {
  const weights = options.map((o) => {
    const w = o.weight ?? 1
    return Number.isFinite(w) && w > 0 ? w : 0
  })
  const total = weights.reduce((a, b) => a + b, 0)
  if (total <= 0) return null
  const r = Math.min(Math.max(random(), 0), 1 - Number.EPSILON) * total
  let acc = 0
  for (let i = 0; i < options.length; i++) {
    acc += weights[i]
    if (weights[i] > 0 && r < acc) return options[i].provider
  }
  // floating-point edge: the last positive weight
  for (let i = options.length - 1; i >= 0; i--) if (weights[i] > 0) return options[i].provider
  return null
}
