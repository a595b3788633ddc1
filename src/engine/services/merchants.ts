import {PROVIDERS} from '../domain/providers.js'
import type {RoutingRule} from '../domain/routing.js'
import {methodInfo} from '../domain/catalog.js'
import {invalid, notFound} from '../http/errors.js'
import type {HandlerResult, RequestCtx} from '../http/router.js'
import {pageParams, validate, type Schema} from '../http/validate.js'
import type {Kernel} from '../kernel.js'
import type {Filter, Job} from '../ports/store.js'
import {Draft} from './draft.js'
import type {CapabilityStatus, KybStatus, Merchant, RoutingRule as ApiRoutingRule} from '../../api/types.js'

export type {KybStatus, CapabilityStatus, Merchant}

/** A routing rule as stored and served: the domain's rule plus its wire fields. */
export type StoredRule = ApiRoutingRule

/** KYB review of a new sub-merchant completes this long after it has its legal name and country. */
export const KYB_REVIEW_S = 60

const MERCHANT_FIELDS: Schema = {
  business_name: {type: 'string', maxLength: 200},
  legal_name: {type: 'string', maxLength: 200},
  country: {type: 'string', maxLength: 2},
  email: {type: 'string', maxLength: 200},
  metadata: {type: 'string_map', maxKeys: 50},
  capabilities: {
    type: 'object',
    fields: {
      card_payments: {type: 'string', enum: ['active', 'inactive']},
      local_payments: {type: 'string', enum: ['active', 'inactive']},
      payouts: {type: 'string', enum: ['active', 'inactive']},
    },
  },
}

const CONDITIONS: Schema = {
  payment_method: {type: 'string'},
  currency: {type: 'string', maxLength: 3},
  amount_gte: {type: 'integer', min: 0},
  amount_lte: {type: 'integer', min: 0},
  card_brand: {type: 'string', maxLength: 20},
  country: {type: 'string', maxLength: 2},
}

/** Sub-merchants with KYB status and capabilities, and per-merchant routing rules. */
export class MerchantsService {
  constructor(private k: Kernel) {
    k.registerJob('merchant.kyb_review', (job, at) => this.onKybReview(job, at))
  }

  private async loadMerchant(id: string, param = 'id') {
    const got = id.startsWith('mer_') ? await this.k.store.get<Merchant>('merchant', id) : undefined
    if (!got) throw notFound('merchant', id, param)
    return got
  }

  async create(ctx: RequestCtx): Promise<HandlerResult> {
    const b = validate<Partial<Merchant> & {business_name: string}>(ctx.body, {
      ...MERCHANT_FIELDS,
      business_name: {type: 'string', required: true, maxLength: 200},
      capabilities: {type: 'object', fields: {}},
    })
    if (typeof b.country === 'string' && !/^[A-Z]{2}$/.test(b.country)) throw invalid('country', 'country must be a two-letter uppercase ISO 3166 code such as NL.')
    const now = this.k.clock.now()
    const m: Merchant = {
      id: this.k.ids.next('mer'),
      object: 'merchant',
      business_name: b.business_name,
      legal_name: b.legal_name ?? null,
      country: b.country ?? null,
      email: b.email ?? null,
      kyb_status: 'pending',
      capabilities: {card_payments: 'pending', local_payments: 'pending', payouts: 'pending'},
      mid: null,
      metadata: b.metadata ?? {},
      livemode: ctx.livemode,
      created_at: now.toISOString(),
    }
    const d = new Draft(this.k, ctx.requestId)
    d.put('merchant', m)
    if (m.legal_name && m.country) d.schedule('merchant.kyb_review', m.id, new Date(now.getTime() + KYB_REVIEW_S * 1000))
    return {status: 201, body: m, changes: d.changeSet()}
  }

  async retrieve(ctx: RequestCtx): Promise<HandlerResult> {
    return {status: 200, body: (await this.loadMerchant(ctx.params.id!)).obj}
  }

  async list(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['kyb_status'])
    const st = ctx.query.get('kyb_status')
    const filters: Filter[] = st !== null ? [{field: 'kyb_status', op: 'eq', value: st}] : []
    const res = await this.k.store.list<Merchant>('merchant', {...page, filters})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such merchant.`)
    return {status: 200, body: {object: 'list', url: '/v1/merchants', data: res.data, has_more: res.has_more}}
  }

  async update(ctx: RequestCtx): Promise<HandlerResult> {
    const b = validate<Partial<Merchant>>(ctx.body, MERCHANT_FIELDS)
    if (typeof b.country === 'string' && !/^[A-Z]{2}$/.test(b.country)) throw invalid('country', 'country must be a two-letter uppercase ISO 3166 code such as NL.')
    return this.k.locked(ctx.params.id!, async () => {
      const {obj: m, version} = await this.loadMerchant(ctx.params.id!)
      const now = this.k.clock.now()
      const d = new Draft(this.k, ctx.requestId)
      const wasReviewable = !!(m.legal_name && m.country)
      if (b.business_name !== undefined) m.business_name = b.business_name
      if (b.legal_name !== undefined) m.legal_name = b.legal_name
      if (b.country !== undefined) m.country = b.country
      if (b.email !== undefined) m.email = b.email
      if (b.metadata !== undefined) m.metadata = {...m.metadata, ...b.metadata}
      let changed = false
      if (b.capabilities) {
        if (m.kyb_status !== 'active' && m.kyb_status !== 'restricted')
          throw invalid('capabilities', `Capabilities change only once KYB is complete (kyb_status is ${m.kyb_status}).`)
        for (const [k, v] of Object.entries(b.capabilities) as [keyof Merchant['capabilities'], CapabilityStatus][]) {
          if (m.capabilities[k] !== v) changed = true
          m.capabilities[k] = v
        }
        const all = Object.values(m.capabilities)
        m.kyb_status = all.every((c) => c === 'active') ? 'active' : 'restricted'
      }
      if (m.kyb_status === 'pending' && !wasReviewable && m.legal_name && m.country)
        d.schedule('merchant.kyb_review', m.id, new Date(now.getTime() + KYB_REVIEW_S * 1000))
      d.put('merchant', m, version)
      if (changed) d.emit('merchant.updated', m, now)
      return {status: 200, body: m, changes: d.changeSet()}
    })
  }

  /** KYB completes: active with a MID, or rejected when the legal name says so (test trigger). */
  private async onKybReview(job: Job, at: Date) {
    const got = await this.k.store.get<Merchant>('merchant', job.ref)
    if (!got || got.obj.kyb_status !== 'pending') return undefined
    const m = got.obj
    const d = new Draft(this.k, null)
    if (/reject/i.test(m.legal_name ?? '')) {
      m.kyb_status = 'rejected'
      m.capabilities = {card_payments: 'inactive', local_payments: 'inactive', payouts: 'inactive'}
    } else {
      m.kyb_status = 'active'
      m.capabilities = {card_payments: 'active', local_payments: 'active', payouts: 'active'}
      m.mid = `MID${String(parseInt(m.id.slice(-6), 36) % 10 ** 10).padStart(10, '0')}`
    }
    d.put('merchant', m, got.version)
    d.emit('merchant.updated', m, at)
    return d.changeSet()
  }

  // ---------------------------------------------------------------- routing rules

  private parseRule(body: unknown, partial: boolean) {
    const b = validate<{
      merchant?: string | null
      priority?: number
      action?: RoutingRule['action']
      providers?: unknown
      conditions?: RoutingRule['conditions']
    }>(body, {
      merchant: {type: 'string', nullable: true},
      priority: {type: 'integer', required: !partial, min: 0, max: 1_000_000},
      action: {type: 'string', required: !partial, enum: ['prefer', 'split', 'block']},
      providers: {type: 'string_array'} as never,
      conditions: {type: 'object', fields: CONDITIONS},
    })
    return b
  }

  private providersParam(raw: unknown, action: RoutingRule['action']): RoutingRule['providers'] {
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

  private async checkRefs(merchant: string | null | undefined, cond: RoutingRule['conditions'] | undefined) {
    if (merchant) await this.loadMerchant(merchant, 'merchant')
    if (cond?.payment_method !== undefined && !methodInfo(cond.payment_method))
      throw invalid('conditions.payment_method', `conditions.payment_method '${cond.payment_method}' is not a method code.`)
    if (cond?.currency !== undefined && !/^[A-Z]{3}$/.test(cond.currency))
      throw invalid('conditions.currency', 'conditions.currency must be an uppercase ISO 4217 code.')
  }

  async createRule(ctx: RequestCtx): Promise<HandlerResult> {
    const raw = (ctx.body ?? {}) as Record<string, unknown>
    const b = this.parseRule({...raw, providers: undefined}, false)
    const providers = this.providersParam(raw.providers, b.action!)
    await this.checkRefs(b.merchant, b.conditions)
    const rule: StoredRule = {
      id: this.k.ids.next('rr'),
      object: 'routing_rule',
      merchant: b.merchant ?? null,
      priority: b.priority!,
      action: b.action!,
      providers,
      conditions: b.conditions ?? {},
      livemode: ctx.livemode,
      created_at: this.k.clock.now().toISOString(),
    }
    const d = new Draft(this.k, ctx.requestId)
    d.put('routing_rule', rule)
    return {status: 201, body: rule, changes: d.changeSet()}
  }

  private async loadRule(id: string) {
    const got = id.startsWith('rr_') ? await this.k.store.get<StoredRule>('routing_rule', id) : undefined
    if (!got) throw notFound('routing rule', id)
    return got
  }

  async retrieveRule(ctx: RequestCtx): Promise<HandlerResult> {
    return {status: 200, body: (await this.loadRule(ctx.params.id!)).obj}
  }

  async listRules(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['merchant'])
    const mer = ctx.query.get('merchant')
    const filters: Filter[] = mer !== null ? [{field: 'merchant', op: 'eq', value: mer}] : []
    const res = await this.k.store.list<StoredRule>('routing_rule', {...page, filters})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such routing rule.`)
    return {status: 200, body: {object: 'list', url: '/v1/routing_rules', data: res.data, has_more: res.has_more}}
  }

  async updateRule(ctx: RequestCtx): Promise<HandlerResult> {
    const raw = (ctx.body ?? {}) as Record<string, unknown>
    const b = this.parseRule({...raw, providers: undefined}, true)
    return this.k.locked(ctx.params.id!, async () => {
      const {obj: rule, version} = await this.loadRule(ctx.params.id!)
      if (b.merchant !== undefined) rule.merchant = b.merchant
      if (b.priority !== undefined) rule.priority = b.priority
      if (b.action !== undefined) rule.action = b.action
      if (b.conditions !== undefined) rule.conditions = b.conditions
      if (raw.providers !== undefined || b.action !== undefined) rule.providers = this.providersParam(raw.providers ?? rule.providers, rule.action)
      await this.checkRefs(rule.merchant, rule.conditions)
      const d = new Draft(this.k, ctx.requestId)
      d.put('routing_rule', rule, version)
      return {status: 200, body: rule, changes: d.changeSet()}
    })
  }

  async deleteRule(ctx: RequestCtx): Promise<HandlerResult> {
    const {obj} = await this.loadRule(ctx.params.id!)
    return {status: 200, body: {id: obj.id, object: 'routing_rule', deleted: true}, changes: {deletes: [{kind: 'routing_rule', id: obj.id}]}}
  }
}
