// Smart routing (docs/api.md#routing-and-failover): score every eligible provider on cost, 7-day authorization
// rate, currency and method; merchant routing rules override it. Pure and deterministic:
// the only randomness (split rules) comes from the `random` argument.
import type {MethodCode, RoutingDecision, RoutingExclusion} from '../../api/types.js'
import {feeFor, type ProviderProfile} from './providers.js'
import {iso} from './time.js'

export interface RoutingRule {
  id: string
  merchant: string | null
  priority: number
  action: 'prefer' | 'split' | 'block'
  providers: {provider: string; weight?: number}[]
  conditions: {
    payment_method?: MethodCode
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
  payment_method: MethodCode
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
  /** ordered provider ids to try (providers already tried left out) */
  candidates: string[]
  blocked_by_rule: string | null
  /** id of the routing rule that matched (prefer, split or block), or null when smart routing alone decided */
  rule_applied: string | null
  /** every eligible provider in smart-routing order: score, fee for this payment, auth rate used */
  scores: {provider: string; score: number; cost: number; auth_rate: number}[]
  /** the same decision, explained (built when asked: routing itself only keeps the record) */
  explain(): RoutingDecision
  /** what must be kept to explain this decision later exactly as it was made (see explainRecord) */
  record: RoutingRecord
}

/**
 * What a payment keeps of each routing pass: the inputs that cannot be recomputed later (each
 * provider's status and 7-day rate at that moment, the matched rule as it was, a split's draw);
 * explainRecord turns it back into the decision, with the same function that made it.
 */
export interface RoutingRecord {
  at: string
  /** provider -> [status, 7-day auth rate or null] */
  state: Record<string, [ProviderState['status'], number | null]>
  rule: RoutingRule | null
  pick: string | null
  tried: string[]
}

export const TIE_BREAK = 'active providers before degraded ones, then the higher score, then the provider id'

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
  rate7d: number | null
  costComponent: number
  currencyComponent: number
  methodComponent: number
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
  const rate7d = state.authRate7d === null || !Number.isFinite(state.authRate7d) ? null : round4(state.authRate7d)
  return {provider: p.id, degraded, score: round4(score), cost, auth_rate: round4(auth), rate7d, costComponent, currencyComponent, methodComponent}
}

/** A score with its parts, as an explanation shows it. */
function scoreParts(x: Scored): RoutingDecision['scores'][number] {
  return {
    provider: x.provider,
    score: x.score,
    degraded: x.degraded,
    cost: {fee: x.cost, component: round4(x.costComponent)},
    auth_rate: {rate_7d: x.rate7d, used: x.auth_rate},
    currency: {local: x.currencyComponent === 1, component: x.currencyComponent},
    method: {partner: x.methodComponent !== 1, component: x.methodComponent},
  }
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

/**
 * Routes a payment: hard filters (currency, method, disabled), smart-routing scores, then the
 * winning rule (prefer, split or block). Returns the order to try providers in, the decision
 * explained, and the record to explain it again later.
 */
export function route(
  input: RouteInput,
  providers: readonly ProviderProfile[],
  state: ReadonlyMap<string, ProviderState>,
  rules: readonly RoutingRule[],
  random: () => number,
  opts: {at?: Date; tried?: readonly string[]} = {},
): RouteDecision {
  const rule = matchRule(input, rules)
  return decide(input, providers, state, rule, (options) => pickByWeight(options, random), opts.at ?? new Date(0), opts.tried ?? [])
}

/** A recorded routing pass explained again, exactly as it was decided (the rule as it was then, the same draw). */
export function explainRecord(input: RouteInput, providers: readonly ProviderProfile[], r: RoutingRecord): RoutingDecision {
  const state = new Map(Object.entries(r.state).map(([id, [status, authRate7d]]) => [id, {status, authRate7d}]))
  return decide(input, providers, state, r.rule, () => r.pick, new Date(r.at), r.tried).explain()
}

function decide(
  input: RouteInput,
  providers: readonly ProviderProfile[],
  state: ReadonlyMap<string, ProviderState>,
  rule: RoutingRule | null,
  pick: (options: readonly {provider: string; weight?: number}[]) => string | null,
  at: Date,
  tried: readonly string[],
): RouteDecision {
  // hard filters: currency, method, not disabled
  const listed: RoutingDecision['providers'] = []
  const eligibleProfiles: {p: ProviderProfile; s: ProviderState; cost: number}[] = []
  const record: RoutingRecord = {at: iso(at), state: {}, rule, pick: null, tried: [...tried]}
  for (const p of providers) {
    const s = state.get(p.id) ?? ACTIVE
    record.state[p.id] = [s.status, s.authRate7d]
    let excluded: RoutingExclusion | null = null
    if (!p.currencies.includes(input.currency)) excluded = 'currency_not_processed'
    else if (!p.methods.some((m) => m === input.payment_method)) excluded = 'method_not_supported'
    else if (s.status === 'disabled') excluded = 'provider_disabled'
    else eligibleProfiles.push({p, s, cost: feeFor(p, input.amount, input.currency)})
    if (excluded === null && tried.includes(p.id)) excluded = 'already_tried'
    listed.push({provider: p.id, status: s.status, eligible: excluded === null, excluded})
  }
  const cheapest = Math.min(...eligibleProfiles.map((e) => e.cost))
  const scored = eligibleProfiles.map(({p, s, cost}) => scoreProvider(p, input, s, cost, cheapest))
  scored.sort(bySmartOrder)
  const smart = scored.map((s) => s.provider)
  const scores = scored.map(({provider, score, cost, auth_rate}) => ({provider, score, cost, auth_rate}))
  const eligible = new Set(smart)

  let front: string[] = []
  let strategy: RoutingDecision['strategy'] = 'smart_routing'
  let blocked: string | null = null
  if (rule?.action === 'block') {
    strategy = 'rule_block'
    blocked = rule.id
  } else if (rule?.action === 'prefer') {
    strategy = 'rule_prefer'
    for (const {provider} of rule.providers) if (eligible.has(provider) && !front.includes(provider)) front.push(provider)
  } else if (rule?.action === 'split') {
    strategy = 'rule_split'
    record.pick = pick(rule.providers.filter((p) => eligible.has(p.provider)))
    if (record.pick !== null) front = [record.pick]
  }
  const all = blocked ? [] : [...front, ...smart.filter((id) => !front.includes(id))]
  const candidates = all.filter((id) => !tried.includes(id))
  const explain = (): RoutingDecision => ({
    object: 'routing_decision',
    decided_at: record.at,
    input: {amount: input.amount, currency: input.currency, payment_method: input.payment_method, card_brand: input.card_brand ?? null, country: input.country ?? null, merchant: input.merchant ?? null},
    providers: listed,
    rule: rule && {id: rule.id, priority: rule.priority, action: rule.action, merchant: rule.merchant, providers: rule.providers.map((p) => ({...p}))},
    strategy,
    weights: {cost: ROUTING_WEIGHTS.cost, auth_rate: ROUTING_WEIGHTS.authRate, currency: ROUTING_WEIGHTS.currency, method: ROUTING_WEIGHTS.method},
    scores: scored.map(scoreParts),
    tie_break: TIE_BREAK,
    split_pick: record.pick,
    order: candidates,
  })
  return {candidates, blocked_by_rule: blocked, rule_applied: rule?.id ?? null, scores, explain, record}
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
