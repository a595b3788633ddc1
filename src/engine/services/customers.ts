import type {Customer, PaymentMethod} from '../../api/types.js'
import {invalid, notFound} from '../http/errors.js'
import type {HandlerResult, RequestCtx} from '../http/router.js'
import {pageParams, validate} from '../http/validate.js'
import {INTERNAL, toApi, type Kernel} from '../kernel.js'
import type {Filter} from '../ports/store.js'
import {Draft} from './draft.js'
import {BILLING_SCHEMA, PAYMENT_METHOD_DATA_SCHEMA, parseInstrument, type Instrument} from './payments.js'

type PmRecord = PaymentMethod & {_x: {instrument: Instrument}}

const CUSTOMER_FIELDS = {
  email: {type: 'string', maxLength: 200, nullable: true},
  name: {type: 'string', maxLength: 200, nullable: true},
  description: {type: 'string', maxLength: 1000, nullable: true},
  metadata: {type: 'string_map', maxKeys: 50},
} as const

export class CustomersService {
  constructor(private k: Kernel) {}

  private async loadCustomer(id: string, param = 'id') {
    const got = id.startsWith('cus_') ? await this.k.store.get<Customer>('customer', id) : undefined
    if (!got) throw notFound('customer', id, param)
    return got
  }

  async create(ctx: RequestCtx): Promise<HandlerResult> {
    const b = validate<Partial<Customer>>(ctx.body, CUSTOMER_FIELDS)
    const c: Customer = {
      id: this.k.ids.next('cus'),
      object: 'customer',
      email: b.email ?? null,
      name: b.name ?? null,
      description: b.description ?? null,
      metadata: b.metadata ?? {},
      livemode: ctx.livemode,
      created_at: this.k.clock.now().toISOString(),
    }
    const d = new Draft(this.k, ctx.requestId)
    d.put('customer', c)
    return {status: 201, body: c, changes: d.changeSet()}
  }

  async retrieve(ctx: RequestCtx): Promise<HandlerResult> {
    return {status: 200, body: (await this.loadCustomer(ctx.params.id!)).obj}
  }

  async update(ctx: RequestCtx): Promise<HandlerResult> {
    const b = validate<Partial<Customer>>(ctx.body, CUSTOMER_FIELDS)
    return this.k.locked(ctx.params.id!, async () => {
      const {obj, version} = await this.loadCustomer(ctx.params.id!)
      if (b.email !== undefined) obj.email = b.email
      if (b.name !== undefined) obj.name = b.name
      if (b.description !== undefined) obj.description = b.description
      if (b.metadata !== undefined) obj.metadata = {...obj.metadata, ...b.metadata}
      const d = new Draft(this.k, ctx.requestId)
      d.put('customer', obj, version)
      return {status: 200, body: obj, changes: d.changeSet()}
    })
  }

  async remove(ctx: RequestCtx): Promise<HandlerResult> {
    const {obj} = await this.loadCustomer(ctx.params.id!)
    return {status: 200, body: {id: obj.id, object: 'customer', deleted: true}, changes: {deletes: [{kind: 'customer', id: obj.id}]}}
  }

  async list(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['email'])
    const filters: Filter[] = []
    const email = ctx.query.get('email')
    if (email !== null) filters.push({field: 'email', op: 'eq', value: email})
    const res = await this.k.store.list<Customer>('customer', {...page, filters})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such customer.`)
    return {status: 200, body: {object: 'list', url: '/v1/customers', data: res.data, has_more: res.has_more}}
  }

  // ---------------------------------------------------------------- payment methods

  async createPaymentMethod(ctx: RequestCtx): Promise<HandlerResult> {
    const b = validate<{
      type: 'card'
      card: {number: string; exp_month: number; exp_year: number; cvc?: string}
      customer?: string
      billing_details?: {name?: string; email?: string; address?: {line1?: string; postal_code?: string; country?: string}}
    }>(ctx.body, PAYMENT_METHOD_DATA_SCHEMA)
    if (ctx.livemode) throw invalid('card.number', 'Raw card numbers are accepted in test mode only; use hosted checkout in live mode.')
    const now = this.k.clock.now()
    const inst = parseInstrument(b, now, '')
    if (b.customer !== undefined) await this.loadCustomer(b.customer, 'customer')
    const addr = b.billing_details?.address
    const pm: PmRecord = {
      id: this.k.ids.next('pm'),
      object: 'payment_method',
      type: 'card',
      card: {
        brand: inst.brand,
        last4: inst.last4,
        exp_month: inst.exp_month,
        exp_year: inst.exp_year,
        funding: inst.funding,
        country: inst.country,
        network_token: inst.network_token,
      },
      billing_details: {
        name: b.billing_details?.name ?? null,
        email: b.billing_details?.email ?? null,
        address: addr ? {line1: addr.line1 ?? null, postal_code: addr.postal_code ?? null, country: addr.country ?? null} : null,
      },
      customer: b.customer ?? null,
      livemode: ctx.livemode,
      created_at: now.toISOString(),
      [INTERNAL]: {instrument: inst},
    }
    const d = new Draft(this.k, ctx.requestId)
    d.put('payment_method', pm)
    return {status: 201, body: toApi(pm), changes: d.changeSet()}
  }

  private async loadPm(id: string) {
    const got = id.startsWith('pm_') ? await this.k.store.get<PmRecord>('payment_method', id) : undefined
    if (!got) throw notFound('payment method', id)
    return got
  }

  async retrievePaymentMethod(ctx: RequestCtx): Promise<HandlerResult> {
    return {status: 200, body: toApi((await this.loadPm(ctx.params.id!)).obj)}
  }

  async listPaymentMethods(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['customer', 'type'])
    const customer = ctx.query.get('customer')
    const type = ctx.query.get('type')
    if (type !== null && type !== 'card') throw invalid('type', `type must be card; got '${type}'.`)
    const filters: Filter[] = customer !== null ? [{field: 'customer', op: 'eq', value: customer}] : []
    const res = await this.k.store.list<PmRecord>('payment_method', {...page, filters})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such payment method.`)
    return {status: 200, body: {object: 'list', url: '/v1/payment_methods', data: res.data.map(toApi), has_more: res.has_more}}
  }

  async detachPaymentMethod(ctx: RequestCtx): Promise<HandlerResult> {
    validate(ctx.body, {})
    return this.k.locked(ctx.params.id!, async () => {
      const {obj, version} = await this.loadPm(ctx.params.id!)
      if (obj.customer === null) throw invalid('id', `Payment method ${obj.id} is not attached to a customer.`, 'payment_method_not_attached')
      obj.customer = null
      const d = new Draft(this.k, ctx.requestId)
      d.put('payment_method', obj, version)
      return {status: 200, body: toApi(obj), changes: d.changeSet()}
    })
  }
}
