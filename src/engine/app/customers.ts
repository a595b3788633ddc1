// Customers and saved payment methods.
import type {Customer, PaymentMethod} from '../../api/types.js'
import {invalid, notFound} from '../domain/errors.js'
import {listPage, type PageQuery} from '../core/lists.js'
import {parseInstrument, type Instrument} from '../domain/payment.js'
import type {Filter, ListPage} from '../ports/store.js'
import type {Core} from '../core/core.js'
import {INTERNAL} from '../core/internal.js'
import type {Unit} from '../core/unit.js'
import {keptCard} from '../core/secrets.js'
import type {Body} from '../../api/types.js'

export type PaymentMethodRecord = PaymentMethod & {_x: {instrument: Instrument}}
/** POST /customers and POST /customers/{id}: the body as the document defines it. */
export type CustomerFields = Body<'updateCustomer'>

async function loadCustomer(u: Pick<Unit, 'get'>, id: string, param = 'id') {
  const got = id.startsWith('cus_') ? await u.get<Customer>('customer', id) : undefined
  if (!got) throw notFound('customer', id, param)
  return got
}

export async function createCustomer(u: Unit, b: CustomerFields): Promise<Customer> {
  const c: Customer = {
    id: u.core.ids.next('cus'),
    object: 'customer',
    email: b.email ?? null,
    name: b.name ?? null,
    description: b.description ?? null,
    metadata: b.metadata ?? {},
    livemode: u.livemode,
    created_at: u.now.toISOString(),
  }
  u.put('customer', c)
  return c
}

export async function retrieveCustomer(core: Core, id: string): Promise<Customer> {
  return (await loadCustomer(core.store, id)).obj
}

export async function updateCustomer(u: Unit, id: string, b: CustomerFields): Promise<Customer> {
  await u.lock(id)
  const {obj, version} = await loadCustomer(u, id)
  const c: Customer = {...obj}
  if (b.email !== undefined) c.email = b.email
  if (b.name !== undefined) c.name = b.name
  if (b.description !== undefined) c.description = b.description
  if (b.metadata !== undefined) c.metadata = {...c.metadata, ...b.metadata}
  u.put('customer', c, version)
  return c
}

export async function deleteCustomer(u: Unit, id: string): Promise<{id: string; object: 'customer'; deleted: true}> {
  await u.lock(id)
  const {obj} = await loadCustomer(u, id)
  u.delete('customer', obj.id)
  return {id: obj.id, object: 'customer', deleted: true}
}

export async function listCustomers(core: Core, q: PageQuery<'listCustomers'>): Promise<ListPage<Customer>> {
  const filters: Filter<'customer'>[] = q.email !== undefined ? [{field: 'email', op: 'eq', value: q.email}] : []
  return listPage<Customer, 'customer'>(core, 'customer', q, filters, 'customer')
}

// ---------------------------------------------------------------- payment methods

/** POST /payment_methods: the body as the document defines it. */
export type CreatePaymentMethod = Body<'createPaymentMethod'>

export async function createPaymentMethod(u: Unit, b: CreatePaymentMethod): Promise<PaymentMethodRecord> {
  if (u.livemode) throw invalid('card.number', 'Raw card numbers are accepted in test mode only; use hosted checkout in live mode.')
  const inst = keptCard(u.core.secrets, parseInstrument(b, u.now, ''))
  if (b.customer !== undefined) await loadCustomer(u, b.customer, 'customer')
  const addr = b.billing_details?.address
  const pm: PaymentMethodRecord = {
    id: u.core.ids.next('pm'),
    object: 'payment_method',
    type: 'card',
    card: {brand: inst.brand, last4: inst.last4, exp_month: inst.exp_month, exp_year: inst.exp_year, funding: inst.funding, country: inst.country, network_token: inst.network_token},
    billing_details: {
      name: b.billing_details?.name ?? null,
      email: b.billing_details?.email ?? null,
      address: addr ? {line1: addr.line1 ?? null, postal_code: addr.postal_code ?? null, country: addr.country ?? null} : null,
    },
    customer: b.customer ?? null,
    livemode: u.livemode,
    created_at: u.now.toISOString(),
    [INTERNAL]: {instrument: inst},
  }
  u.put('payment_method', pm)
  return pm
}

async function loadPm(u: Pick<Unit, 'get'>, id: string) {
  const got = id.startsWith('pm_') ? await u.get<PaymentMethodRecord>('payment_method', id) : undefined
  if (!got) throw notFound('payment method', id)
  return got
}

export async function retrievePaymentMethod(core: Core, id: string): Promise<PaymentMethodRecord> {
  return (await loadPm(core.store, id)).obj
}

export async function listPaymentMethods(core: Core, q: PageQuery<'listPaymentMethods'>): Promise<ListPage<PaymentMethodRecord>> {
  if (q.type !== undefined && q.type !== 'card') throw invalid('type', `type must be card; got '${q.type}'.`)
  const filters: Filter<'payment_method'>[] = q.customer !== undefined ? [{field: 'customer', op: 'eq', value: q.customer}] : []
  return listPage<PaymentMethodRecord, 'payment_method'>(core, 'payment_method', q, filters, 'payment method')
}

export async function detachPaymentMethod(u: Unit, id: string): Promise<PaymentMethodRecord> {
  await u.lock(id)
  const {obj, version} = await loadPm(u, id)
  if (obj.customer === null) throw invalid('id', `Payment method ${obj.id} is not attached to a customer.`, 'payment_method_not_attached')
  const pm = {...obj, customer: null}
  u.put('payment_method', pm, version)
  return pm
}
