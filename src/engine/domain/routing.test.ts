import {describe, expect, it} from 'vitest'
import {PROVIDERS, type ProviderProfile} from './providers.js'
import {
  authRate,
  DEGRADED_FACTOR,
  matchRule,
  NEUTRAL_AUTH_RATE,
  route,
  ROUTING_WEIGHTS,
  type ProviderState,
  type RouteInput,
  type RoutingRule,
} from './routing.js'

const never = () => {
  throw new Error('random() must only be used by split rules')
}
const noState = new Map<string, ProviderState>()

function prov(id: string, overrides: Partial<ProviderProfile> = {}): ProviderProfile {
  return {
    id,
    name: id,
    methods: ['card'],
    currencies: ['EUR', 'USD'],
    regions: ['EU'],
    fees: {percent_bps: 200, fixed_minor: 0},
    latency: {p50_ms: 100, p99_ms: 500},
    timeout_ms: 3000,
    localCurrencies: [],
    ...overrides,
  }
}

const card: RouteInput = {amount: 10_000, currency: 'EUR', payment_method: 'card'}

function rule(overrides: Partial<RoutingRule>): RoutingRule {
  return {id: 'rr_1', merchant: null, priority: 1, action: 'prefer', providers: [], conditions: {}, ...overrides}
}

describe('route: smart routing', () => {
  it('applies currency and method as hard filters', () => {
    const ps = [prov('prov_a'), prov('prov_b', {currencies: ['USD']}), prov('prov_c', {methods: ['ideal']})]
    expect(route(card, ps, noState, [], never).candidates).toEqual(['prov_a'])
    expect(route({...card, currency: 'GBP'}, ps, noState, [], never).candidates).toEqual([])
  })

  it('excludes disabled providers and tries degraded ones last', () => {
    const ps = [prov('prov_a', {fees: {percent_bps: 100, fixed_minor: 0}}), prov('prov_b'), prov('prov_c', {fees: {percent_bps: 300, fixed_minor: 0}})]
    const state = new Map<string, ProviderState>([
      ['prov_a', {status: 'degraded', authRate7d: 0.99}],
      ['prov_b', {status: 'disabled', authRate7d: 0.99}],
    ])
    const d = route(card, ps, state, [], never)
    expect(d.candidates).toEqual(['prov_c', 'prov_a'])
    expect(d.scores.map((s) => s.provider)).toEqual(['prov_c', 'prov_a'])
  })

  it('penalises degraded providers in the score', () => {
    const ps = [prov('prov_a')]
    const healthy = route(card, ps, noState, [], never).scores[0].score
    const degraded = route(card, ps, new Map([['prov_a', {status: 'degraded' as const, authRate7d: null}]]), [], never).scores[0].score
    expect(degraded).toBeCloseTo(healthy * DEGRADED_FACTOR, 3)
  })

  it('prefers the cheaper provider when all else is equal', () => {
    const ps = [prov('prov_a', {fees: {percent_bps: 290, fixed_minor: 30}}), prov('prov_b', {fees: {percent_bps: 140, fixed_minor: 25}})]
    const d = route(card, ps, noState, [], never)
    expect(d.candidates).toEqual(['prov_b', 'prov_a'])
    expect(d.scores.find((s) => s.provider === 'prov_a')!.cost).toBe(320)
    expect(d.scores.find((s) => s.provider === 'prov_b')!.cost).toBe(165)
  })

  it('prefers the higher 7-day authorization rate and uses a neutral prior without data', () => {
    const ps = [prov('prov_a'), prov('prov_b')]
    const state = new Map<string, ProviderState>([
      ['prov_a', {status: 'active', authRate7d: 0.7}],
      ['prov_b', {status: 'active', authRate7d: null}],
    ])
    const d = route(card, ps, state, [], never)
    expect(d.candidates).toEqual(['prov_b', 'prov_a'])
    expect(d.scores[0].auth_rate).toBe(NEUTRAL_AUTH_RATE)
    expect(d.scores[1].auth_rate).toBe(0.7)
    const better = new Map<string, ProviderState>([['prov_a', {status: 'active', authRate7d: 0.95}]])
    expect(route(card, ps, better, [], never).candidates).toEqual(['prov_a', 'prov_b'])
  })

  it('gives a local-acquiring bonus for the currency and a direct-method bonus', () => {
    const ps = [prov('prov_a'), prov('prov_b', {localCurrencies: ['EUR']})]
    expect(route(card, ps, noState, [], never).candidates).toEqual(['prov_b', 'prov_a'])
    expect(route({...card, currency: 'USD'}, ps, noState, [], never).candidates).toEqual(['prov_a', 'prov_b'])
    const viaPartner = [prov('prov_a', {partnerMethods: ['card']}), prov('prov_b')]
    expect(route(card, viaPartner, noState, [], never).candidates).toEqual(['prov_b', 'prov_a'])
  })

  it('computes the documented score', () => {
    const a = prov('prov_a', {fees: {percent_bps: 250, fixed_minor: 0}, localCurrencies: ['EUR']})
    const b = prov('prov_b', {fees: {percent_bps: 100, fixed_minor: 0}, partnerMethods: ['card']})
    const d = route(card, [a, b], new Map([['prov_a', {status: 'active' as const, authRate7d: 0.9}]]), [], never)
    const scoreA = ROUTING_WEIGHTS.cost * (100 / 250) + ROUTING_WEIGHTS.authRate * 0.9 + ROUTING_WEIGHTS.currency + ROUTING_WEIGHTS.method
    const scoreB = ROUTING_WEIGHTS.cost + ROUTING_WEIGHTS.authRate * NEUTRAL_AUTH_RATE + ROUTING_WEIGHTS.method * 0.5
    expect(d.scores.find((s) => s.provider === 'prov_a')!.score).toBeCloseTo(scoreA, 4)
    expect(d.scores.find((s) => s.provider === 'prov_b')!.score).toBeCloseTo(scoreB, 4)
    expect(ROUTING_WEIGHTS.cost + ROUTING_WEIGHTS.authRate + ROUTING_WEIGHTS.currency + ROUTING_WEIGHTS.method).toBeCloseTo(1, 9)
  })

  it('breaks ties by provider id', () => {
    const ps = [prov('prov_c'), prov('prov_a'), prov('prov_b')]
    expect(route(card, ps, noState, [], never).candidates).toEqual(['prov_a', 'prov_b', 'prov_c'])
  })

  it('ranks by fee even for small amounts where fixed fees dominate', () => {
    const ps = [prov('prov_a', {fees: {percent_bps: 100, fixed_minor: 30}}), prov('prov_b', {fees: {percent_bps: 300, fixed_minor: 10}})]
    expect(route({...card, amount: 100}, ps, noState, [], never).candidates).toEqual(['prov_b', 'prov_a'])
    expect(route({...card, amount: 100_000}, ps, noState, [], never).candidates).toEqual(['prov_a', 'prov_b'])
  })

  it('handles a zero amount', () => {
    const d = route({...card, amount: 0}, [prov('prov_a')], noState, [], never)
    expect(d.candidates).toEqual(['prov_a'])
    expect(Number.isFinite(d.scores[0].score)).toBe(true)
  })

  it('gives at least two candidates for cards in EUR, USD, GBP, BRL and JPY with the real providers', () => {
    for (const currency of ['EUR', 'USD', 'GBP', 'BRL', 'JPY']) {
      const d = route({amount: 4999, currency, payment_method: 'card'}, PROVIDERS, noState, [], never)
      expect(d.candidates.length, currency).toBeGreaterThanOrEqual(2)
      expect(d.blocked_by_rule).toBeNull()
      expect(d.rule_applied).toBeNull()
    }
    expect(route({amount: 1000, currency: 'BRL', payment_method: 'pix'}, PROVIDERS, noState, [], never).candidates).toEqual(['prov_cruzeiro'])
    expect(route({amount: 1000, currency: 'EUR', payment_method: 'pix'}, PROVIDERS, noState, [], never).candidates).toEqual([])
  })

  it('is deterministic', () => {
    const {explain: ea, ...a} = route(card, PROVIDERS, noState, [], never)
    const {explain: eb, ...b} = route(card, PROVIDERS, noState, [], never)
    expect(a).toEqual(b)
    expect(ea()).toEqual(eb())
  })
})

describe('route: rules', () => {
  const ps = [prov('prov_a'), prov('prov_b', {fees: {percent_bps: 100, fixed_minor: 0}}), prov('prov_c', {fees: {percent_bps: 300, fixed_minor: 0}})]
  // smart order: prov_b (cheapest), prov_a, prov_c

  it('prefer moves the listed eligible providers to the front in listed order and keeps the rest', () => {
    const r = rule({id: 'rr_pref', action: 'prefer', providers: [{provider: 'prov_c'}, {provider: 'prov_x'}, {provider: 'prov_a'}]})
    const d = route(card, ps, noState, [r], never)
    expect(d.candidates).toEqual(['prov_c', 'prov_a', 'prov_b'])
    expect(d.rule_applied).toBe('rr_pref')
    expect(d.blocked_by_rule).toBeNull()
  })

  it('prefer skips disabled or ineligible listed providers', () => {
    const r = rule({action: 'prefer', providers: [{provider: 'prov_c'}, {provider: 'prov_a'}]})
    const state = new Map<string, ProviderState>([['prov_c', {status: 'disabled', authRate7d: null}]])
    expect(route(card, ps, state, [r], never).candidates).toEqual(['prov_a', 'prov_b'])
  })

  it('block returns no candidates and names the rule', () => {
    const r = rule({id: 'rr_block', action: 'block', conditions: {amount_gte: 5000}})
    const d = route(card, ps, noState, [r], never)
    expect(d).toMatchObject({candidates: [], blocked_by_rule: 'rr_block', rule_applied: 'rr_block'})
    expect(route({...card, amount: 4000}, ps, noState, [r], never).blocked_by_rule).toBeNull()
  })

  it('split picks one listed provider by weight, then the rest by score', () => {
    const r = rule({id: 'rr_split', action: 'split', providers: [{provider: 'prov_a', weight: 70}, {provider: 'prov_c', weight: 30}]})
    expect(route(card, ps, noState, [r], () => 0).candidates).toEqual(['prov_a', 'prov_b', 'prov_c'])
    expect(route(card, ps, noState, [r], () => 0.69).candidates[0]).toBe('prov_a')
    expect(route(card, ps, noState, [r], () => 0.7).candidates).toEqual(['prov_c', 'prov_b', 'prov_a'])
    expect(route(card, ps, noState, [r], () => 0.999999).candidates[0]).toBe('prov_c')
    expect(route(card, ps, noState, [r], () => 1).candidates[0]).toBe('prov_c')
    expect(route(card, ps, noState, [r], () => 0.5).rule_applied).toBe('rr_split')
  })

  it('split distributes roughly by weight', () => {
    const r = rule({action: 'split', providers: [{provider: 'prov_a', weight: 3}, {provider: 'prov_c', weight: 1}]})
    let a = 0
    for (let i = 0; i < 1000; i++) if (route(card, ps, noState, [r], () => i / 1000).candidates[0] === 'prov_a') a++
    expect(a).toBe(750)
  })

  it('split treats a missing weight as 1, ignores zero weights and ineligible providers', () => {
    const r = rule({action: 'split', providers: [{provider: 'prov_x', weight: 100}, {provider: 'prov_a', weight: 0}, {provider: 'prov_c'}]})
    for (const x of [0, 0.5, 0.99]) expect(route(card, ps, noState, [r], () => x).candidates[0]).toBe('prov_c')
    const none = rule({id: 'rr_none', action: 'split', providers: [{provider: 'prov_x'}]})
    const d = route(card, ps, noState, [none], () => 0.5)
    expect(d.candidates).toEqual(['prov_b', 'prov_a', 'prov_c'])
  })

  it('the lowest priority number wins', () => {
    const rules = [
      rule({id: 'rr_2', priority: 2, action: 'block'}),
      rule({id: 'rr_1', priority: 1, action: 'prefer', providers: [{provider: 'prov_c'}]}),
    ]
    expect(route(card, ps, noState, rules, never)).toMatchObject({candidates: ['prov_c', 'prov_b', 'prov_a'], rule_applied: 'rr_1'})
  })

  it('at equal priority a merchant rule beats an account-wide one, then the lower id', () => {
    const global = rule({id: 'rr_a', priority: 1, action: 'block'})
    const own = rule({id: 'rr_b', merchant: 'mer_1', priority: 1, action: 'prefer', providers: [{provider: 'prov_c'}]})
    expect(matchRule({...card, merchant: 'mer_1'}, [global, own])?.id).toBe('rr_b')
    expect(matchRule(card, [global, own])?.id).toBe('rr_a')
    expect(matchRule(card, [rule({id: 'rr_z'}), rule({id: 'rr_y'})])?.id).toBe('rr_y')
  })

  it('applies merchant rules only to that merchant, account-wide rules to all', () => {
    const own = rule({id: 'rr_m', merchant: 'mer_1', action: 'block'})
    expect(route({...card, merchant: 'mer_1'}, ps, noState, [own], never).blocked_by_rule).toBe('rr_m')
    expect(route({...card, merchant: 'mer_2'}, ps, noState, [own], never).blocked_by_rule).toBeNull()
    expect(route(card, ps, noState, [own], never).blocked_by_rule).toBeNull()
    const global = rule({id: 'rr_g', action: 'block'})
    expect(route({...card, merchant: 'mer_2'}, ps, noState, [global], never).blocked_by_rule).toBe('rr_g')
  })

  it('matches every condition', () => {
    const input: RouteInput = {amount: 5000, currency: 'EUR', payment_method: 'card', card_brand: 'visa', country: 'NL'}
    const matches = (conditions: RoutingRule['conditions']) => matchRule(input, [rule({conditions})]) !== null
    expect(matches({})).toBe(true)
    expect(matches({payment_method: 'card', currency: 'EUR', amount_gte: 5000, amount_lte: 5000, card_brand: 'visa', country: 'NL'})).toBe(true)
    expect(matches({payment_method: 'ideal'})).toBe(false)
    expect(matches({currency: 'USD'})).toBe(false)
    expect(matches({amount_gte: 5001})).toBe(false)
    expect(matches({amount_lte: 4999})).toBe(false)
    expect(matches({card_brand: 'mastercard'})).toBe(false)
    expect(matches({card_brand: 'VISA'})).toBe(true)
    expect(matches({country: 'DE'})).toBe(false)
    expect(matches({country: 'nl'})).toBe(true)
    // a condition on a field the payment lacks does not match
    expect(matchRule({...input, card_brand: null, country: undefined}, [rule({conditions: {card_brand: 'visa'}})])).toBeNull()
    expect(matchRule({...input, country: null}, [rule({conditions: {country: 'NL'}})])).toBeNull()
  })
})

describe('authRate', () => {
  it('is approved / total, null without data', () => {
    expect(authRate(0, 0)).toBeNull()
    expect(authRate(5, 0)).toBeNull()
    expect(authRate(9, 10)).toBe(0.9)
    expect(authRate(0, 4)).toBe(0)
    expect(authRate(4, 4)).toBe(1)
    expect(authRate(5, 4)).toBe(1)
  })
})
