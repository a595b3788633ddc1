// Sub-merchants (KYB status, capabilities, a MID once active) and routing rules.
import type {CapabilityStatus, Merchant, RoutingRule as StoredRule} from '../../api/types.js'
import {methodInfo} from '../../api/catalog.js'
import {invalid, notFound} from '../domain/errors.js'
import {listPage, type PageQuery} from '../core/lists.js'
import {PROVIDERS} from '../domain/providers.js'
import type {RoutingRule} from '../domain/routing.js'
import type {Filter, ListPage} from '../ports/store.js'
import type {Core} from '../core/core.js'
import type {Unit} from '../core/unit.js'
import type {Body} from '../../api/types.js'

export type {StoredRule}

/** KYB review of a new sub-merchant completes this long after it has its legal name and country. */
export const KYB_REVIEW_S = 60


/** POST /merchants and POST /merchants/{id}: the body as the document defines it. */
export type MerchantFields = Body<'updateMerchant'>

function assertCountry(country: unknown): void {
  if (typeof country === 'string' && !/^[A-Z]{2}$/.test(country)) throw invalid('country', 'country must be a two-letter uppercase ISO 3166 code such as NL.')
}

async function loadMerchant(u: Pick<Unit, 'get'>, id: string, param = 'id') {
  const got = id.startsWith('mer_') ? await u.get<Merchant>('merchant', id) : undefined
  if (!got) throw notFound('merchant', id, param)
  return got
}

export async function createMerchant(u: Unit, b: MerchantFields & {business_name: string}): Promise<Merchant> {
  assertCountry(b.country)
  const m: Merchant = {
    id: u.core.ids.next('mer'),
    object: 'merchant',
    business_name: b.business_name,
    legal_name: b.legal_name ?? null,
    country: b.country ?? null,
    email: b.email ?? null,
    kyb_status: 'pending',
    capabilities: {card_payments: 'pending', local_payments: 'pending', payouts: 'pending'},
    mid: null,
    metadata: b.metadata ?? {},
    livemode: u.livemode,
    created_at: u.now.toISOString(),
  }
  u.put('merchant', m)
  if (m.legal_name && m.country) u.schedule('merchant.kyb_review', m.id, new Date(u.now.getTime() + KYB_REVIEW_S * 1000))
  return m
}

export async function retrieveMerchant(core: Core, id: string): Promise<Merchant> {
  return (await loadMerchant(core.store, id)).obj
}

export async function listMerchants(core: Core, q: PageQuery<'listMerchants'>): Promise<ListPage<Merchant>> {
  const filters: Filter<'merchant'>[] = q.kyb_status !== undefined ? [{field: 'kyb_status', op: 'eq', value: q.kyb_status}] : []
  return listPage<Merchant, 'merchant'>(core, 'merchant', q, filters, 'merchant')
}

export async function updateMerchant(u: Unit, id: string, b: MerchantFields): Promise<Merchant> {
  assertCountry(b.country)
  await u.lock(id)
  const got = await loadMerchant(u, id)
  const m: Merchant = {...got.obj, capabilities: {...got.obj.capabilities}}
  const wasReviewable = !!(m.legal_name && m.country)
  if (b.business_name !== undefined) m.business_name = b.business_name
  if (b.legal_name !== undefined) m.legal_name = b.legal_name
  if (b.country !== undefined) m.country = b.country
  if (b.email !== undefined) m.email = b.email
  if (b.metadata !== undefined) m.metadata = {...m.metadata, ...b.metadata}
  let changed = false
  if (b.capabilities) {
    if (m.kyb_status !== 'active' && m.kyb_status !== 'restricted') throw invalid('capabilities', `Capabilities change only once KYB is complete (kyb_status is ${m.kyb_status}).`)
    for (const [k, v] of Object.entries(b.capabilities) as [keyof Merchant['capabilities'], CapabilityStatus][]) {
      if (m.capabilities[k] !== v) changed = true
      m.capabilities[k] = v
    }
    m.kyb_status = Object.values(m.capabilities).every((c) => c === 'active') ? 'active' : 'restricted'
  }
  if (m.kyb_status === 'pending' && !wasReviewable && m.legal_name && m.country) u.schedule('merchant.kyb_review', m.id, new Date(u.now.getTime() + KYB_REVIEW_S * 1000))
  u.put('merchant', m, got.version)
  if (changed) u.emit('merchant.updated', m)
  return m
}

export function registerMerchantJobs(core: Core): void {
  // KYB completes: active with a MID, or rejected when the legal name says so (test trigger)
  core.jobs.register('merchant.kyb_review', async (u, job) => {
    const got = await u.get<Merchant>('merchant', job.ref)
    if (!got || got.obj.kyb_status !== 'pending') return
    const m: Merchant = {...got.obj}
    if (/reject/i.test(m.legal_name ?? '')) {
      m.kyb_status = 'rejected'
      m.capabilities = {card_payments: 'inactive', local_payments: 'inactive', payouts: 'inactive'}
    } else {
      m.kyb_status = 'active'
      m.capabilities = {card_payments: 'active', local_payments: 'active', payouts: 'active'}
      m.mid = `MID${String(parseInt(m.id.slice(-6), 36) % 10 ** 10).padStart(10, '0')}`
    }
    u.put('merchant', m, got.version)
    u.emit('merchant.updated', m)
  })
}

// ---------------------------------------------------------------- routing rules

/** POST /routing_rules/{id}: the body as the document defines it (creation's requires priority and action). */
export type RuleFields = Body<'updateRoutingRule'>

function providersParam(raw: unknown, action: RoutingRule['action']): RoutingRule['providers'] {
  if (raw === undefined) raw = []
  if (!Array.isArray(raw)) throw invalid('providers', 'providers must be an array of {provider, weight?}.')
  const out = raw.map((x, i) => {
    if (typeof x !== 'object' || x === null) throw invalid(`providers[${i}]`, `providers[${i}] must be an object {provider, weight?}.`)
    const o = x as Record<string, unknown>
    for (const k of Object.keys(o)) if (k !== 'provider' && k !== 'weight') throw invalid(`providers[${i}].${k}`, `Received unknown parameter: providers[${i}].${k}.`, 'parameter_unknown')
    if (typeof o.provider !== 'string' || !PROVIDERS.some((p) => p.id === o.provider))
      throw invalid(`providers[${i}].provider`, `providers[${i}].provider must be a provider id (${PROVIDERS.map((p) => p.id).join(', ')}).`)
    if (o.weight !== undefined && (typeof o.weight !== 'number' || !Number.isInteger(o.weight) || o.weight < 0 || o.weight > 1000))
      throw invalid(`providers[${i}].weight`, `providers[${i}].weight must be an integer from 0 to 1000.`)
    return o.weight === undefined ? {provider: o.provider} : {provider: o.provider, weight: o.weight as number}
  })
  if (action !== 'block' && out.length === 0) throw invalid('providers', `A ${action} rule needs at least one provider.`)
  return out
}

/** Checks what a rule names (its merchant, its conditions' method and currency); the conditions as the rule keeps them. */
async function checkRefs(u: Unit, merchant: string | null | undefined, cond: RuleFields['conditions'] = {}): Promise<StoredRule['conditions']> {
  if (merchant) await loadMerchant(u, merchant, 'merchant')
  const m = cond.payment_method === undefined ? undefined : methodInfo(cond.payment_method)
  if (cond.payment_method !== undefined && !m) throw invalid('conditions.payment_method', `conditions.payment_method '${cond.payment_method}' is not a method code.`)
  if (cond.currency !== undefined && !/^[A-Z]{3}$/.test(cond.currency)) throw invalid('conditions.currency', 'conditions.currency must be an uppercase ISO 4217 code.')
  const {payment_method: _, ...rest} = cond
  return m ? {...cond, payment_method: m.code} : rest
}

export async function createRule(u: Unit, b: RuleFields & {priority: number; action: RoutingRule['action']}): Promise<StoredRule> {
  const providers = providersParam(b.providers, b.action)
  const conditions = await checkRefs(u, b.merchant, b.conditions)
  const rule: StoredRule = {
    id: u.core.ids.next('rr'),
    object: 'routing_rule',
    merchant: b.merchant ?? null,
    priority: b.priority,
    action: b.action,
    providers,
    conditions,
    livemode: u.livemode,
    created_at: u.now.toISOString(),
  }
  u.put('routing_rule', rule)
  return rule
}

async function loadRule(u: Pick<Unit, 'get'>, id: string) {
  const got = id.startsWith('rr_') ? await u.get<StoredRule>('routing_rule', id) : undefined
  if (!got) throw notFound('routing rule', id)
  return got
}

export async function retrieveRule(core: Core, id: string): Promise<StoredRule> {
  return (await loadRule(core.store, id)).obj
}

export async function listRules(core: Core, q: PageQuery<'listRoutingRules'>): Promise<ListPage<StoredRule>> {
  const filters: Filter<'routing_rule'>[] = q.merchant !== undefined ? [{field: 'merchant', op: 'eq', value: q.merchant}] : []
  return listPage<StoredRule, 'routing_rule'>(core, 'routing_rule', q, filters, 'routing rule')
}

export async function updateRule(u: Unit, id: string, b: RuleFields): Promise<StoredRule> {
  await u.lock(id)
  const got = await loadRule(u, id)
  const rule: StoredRule = {...got.obj}
  if (b.merchant !== undefined) rule.merchant = b.merchant
  if (b.priority !== undefined) rule.priority = b.priority
  if (b.action !== undefined) rule.action = b.action
  if (b.providers !== undefined || b.action !== undefined) rule.providers = providersParam(b.providers ?? rule.providers, rule.action)
  rule.conditions = await checkRefs(u, rule.merchant, b.conditions ?? rule.conditions)
  u.put('routing_rule', rule, got.version)
  return rule
}

export async function deleteRule(u: Unit, id: string): Promise<{id: string; object: 'routing_rule'; deleted: true}> {
  await u.lock(id)
  const {obj} = await loadRule(u, id)
  u.delete('routing_rule', obj.id)
  return {id: obj.id, object: 'routing_rule', deleted: true}
}
