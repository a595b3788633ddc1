// Payment reads: one payment, the list and its filters (customer, metadata, dates), and why a
// payment was routed as it was or how a payment would be (routing explained).
import {PAYMENT_STATUSES, type PaymentRouting, type RoutingDecision} from '../../api/types.js'
import {methodInfo, METHOD_CODES} from '../../api/catalog.js'
import {failsOver} from '../domain/declines.js'
import {invalid, notFound} from '../domain/errors.js'
import {currencyExponent, isCurrency} from '../../api/money.js'
import * as pay from '../domain/payment.js'
import {PROVIDERS} from '../domain/providers.js'
import {explainRecord, route, type RouteInput} from '../domain/routing.js'
import type {Filter, ListPage} from '../ports/store.js'
import type {Core} from '../core/core.js'
import type {Unit} from '../core/unit.js'
import {cursorFound, listPage, type PageQuery} from '../core/lists.js'
import type {Query} from '../../api/types.js'
import {domainKey, emailKey, nameKey} from '../domain/search-keys.js'

type PaymentRecord = pay.PaymentRecord

export function assertCurrency(currency: string, param = 'currency'): void {
  if (!/^[A-Z]{3}$/.test(currency)) {
    const hint = /^[a-z]{3}$/.test(currency) ? ` Use uppercase: '${currency.toUpperCase()}'.` : ''
    throw invalid(param, `${param} must be an uppercase ISO 4217 code such as EUR; got '${currency}'.${hint}`)
  }
  if (!isCurrency(currency) || currencyExponent(currency) === undefined) throw invalid(param, `${param} '${currency}' is not an ISO 4217 currency code.`)
}

// ------------------------------------------------------------------ reads

export async function loadPayment(u: Pick<Unit, 'get'>, id: string, param = 'id'): Promise<{p: PaymentRecord; version: number}> {
  const got = id.startsWith('pay_') ? await u.get<PaymentRecord>('payment', id) : undefined
  if (!got) throw notFound('payment', id, param)
  return {p: got.obj, version: got.version}
}

/** GET /payments: the query as the document defines it, the page size defaulted. */
export type PaymentQuery = PageQuery<'listPayments'>

/** The payment filters that match customers' data (what GET /customers shows): asking them needs customers:read too (docs/api.md#what-a-key-reaches). */
export const CUSTOMER_DATA_FILTERS = ['customer_email', 'email_domain', 'customer_name'] as const satisfies readonly (keyof PaymentQuery)[]

export async function listPayments(core: Core, q: PaymentQuery): Promise<ListPage<PaymentRecord>> {
  const filters: Filter<'payment'>[] = []
  if (q.status !== undefined) {
    if (!(PAYMENT_STATUSES as readonly string[]).includes(q.status)) throw invalid('status', `status must be one of ${PAYMENT_STATUSES.join(', ')}; got '${q.status}'.`)
    filters.push({field: 'status', op: 'eq', value: q.status})
  }
  if (q.customer !== undefined) {
    if (!q.customer.startsWith('cus_'))
      throw invalid(
        'customer',
        q.customer.includes('@')
          ? `customer takes a customer id (cus_...); '${q.customer}' is an email: filter with customer_email=${q.customer} instead.`
          : `customer takes a customer id (cus_...); got '${q.customer}'.`,
      )
    filters.push({field: 'customer', op: 'eq', value: q.customer})
  }
  const of = customerFilter(q)
  if (of) filters.push(of)
  if (q.card_last4 !== undefined) {
    if (!/^[0-9]{4}$/.test(q.card_last4)) throw invalid('card_last4', `card_last4 takes the card's last four digits (for example 4242); got '${q.card_last4}'.`)
    filters.push({field: 'card_last4', op: 'eq', value: q.card_last4})
  }
  if (q.reference !== undefined) filters.push({field: 'reference', op: 'eq', value: q.reference})
  if (q.reference_prefix !== undefined) filters.push({field: 'reference', op: 'prefix', value: q.reference_prefix})
  if (q.created_gte) filters.push({field: 'created_at', op: 'gte', value: q.created_gte})
  if (q.created_lte) filters.push({field: 'created_at', op: 'lte', value: q.created_lte})
  if (q.metadata !== undefined) return cursorFound(await scanWhere(core, q, filters, metadataMatch(q.metadata)), 'payment', q, true)
  return listPage<PaymentRecord, 'payment'>(core, 'payment', q, filters, 'payment', true)
}

/**
 * The customer filters (docs/decisions.md#finding-payments) as one store filter: payments whose customer matches all of them,
 * read in one query through the customers' indexes (never a list of ids gathered first). A name
 * matches by a prefix of the whole name or of its last word, so it is two alternatives.
 */
function customerFilter(q: PaymentQuery): Filter<'payment'> | undefined {
  const base: Filter<'customer'>[] = []
  if (q.customer_email !== undefined) {
    const key = emailKey(q.customer_email)
    if (key === null) throw invalid('customer_email', 'customer_email takes an email (for example zoe@example.com); got an empty value.')
    base.push({field: 'email_key', op: 'eq', value: key})
  }
  if (q.email_domain !== undefined) {
    const domain = domainKey(q.email_domain)
    if (domain === '' || domain.includes('@')) throw invalid('email_domain', `email_domain takes a domain (for example example.com, or @example.com); got '${q.email_domain}'.`)
    base.push({field: 'email_domain', op: 'eq', value: domain})
  }
  let any: Filter<'customer'>[][] = [base]
  if (q.customer_name !== undefined) {
    const name = nameKey(q.customer_name)
    if (name === null || name.length < 2) throw invalid('customer_name', `customer_name takes at least 2 letters of the customer's name (its start, or its family name's); got '${q.customer_name}'.`)
    any = [
      [...base, {field: 'name_key', op: 'prefix', value: name}],
      // a single word may start the family name too
      ...(name.includes(' ') ? [] : [[...base, {field: 'surname_key', op: 'prefix', value: name} as Filter<'customer'>]]),
    ]
  }
  return any[0]!.length === 0 ? undefined : {field: 'customer', op: 'of', kind: 'customer', any}
}

function metadataMatch(pair: string): (p: PaymentRecord) => boolean {
  const at = pair.indexOf(':')
  if (at <= 0) throw invalid('metadata', `metadata takes key:value (for example order_id:1008); got '${pair}'.`)
  const key = pair.slice(0, at)
  const value = pair.slice(at + 1)
  return (p) => (p.metadata as Record<string, string> | undefined)?.[key] === value
}

/**
 * A page of payments that also pass `keep` (a filter the store has no index for): reads on in
 * the page's direction until `limit` match or nothing is left. Cursors keep their meaning.
 */
async function scanWhere(core: Core, q: PaymentQuery, filters: Filter<'payment'>[], keep: (p: PaymentRecord) => boolean): Promise<ListPage<PaymentRecord>> {
  const backward = q.ending_before !== undefined
  const found: PaymentRecord[] = []
  let cursor = {starting_after: q.starting_after, ending_before: q.ending_before}
  for (;;) {
    const page = await core.store.list<PaymentRecord, 'payment'>('payment', {limit: 200, ...cursor, filters})
    if (page.cursor_missing) return page
    const kept = page.data.filter(keep)
    if (backward) found.unshift(...kept)
    else found.push(...kept)
    if (found.length > q.limit || !page.has_more || page.data.length === 0) break
    cursor = backward ? {starting_after: undefined, ending_before: page.data[0]!.id} : {starting_after: page.data[page.data.length - 1]!.id, ending_before: undefined}
  }
  const has_more = found.length > q.limit
  return {data: backward ? found.slice(-q.limit) : found.slice(0, q.limit), has_more}
}

export const routeInput = (p: PaymentRecord): RouteInput => ({
  amount: p.amount,
  currency: p.currency,
  payment_method: p.payment_method,
  card_brand: p._x.instrument?.brand ?? null,
  country: p._x.instrument?.country ?? null,
  merchant: p.merchant ?? null,
})

// ------------------------------------------------------------------ routing explained

const REFUSALS: ReadonlySet<string> = new Set(['declined', 'soft_declined', 'timeout', 'error'])

/** GET /payments/{id}/routing: every routing pass as it was decided, and every attempt with its decline class. */
export async function paymentRouting(core: Core, id: string): Promise<PaymentRouting> {
  const {p} = await loadPayment(core.store, id)
  return {
    object: 'payment_routing',
    payment: p.id,
    decisions: (p._x.routing ?? []).map((r) => explainRecord(routeInput(p), PROVIDERS, r)),
    // the class of a provider's refusal: soft fails over to the next provider, final stops routing
    attempts: p.provider_attempts.map((a) => ({...a, decline_class: !REFUSALS.has(a.outcome) ? null : failsOver(a.outcome, a.decline_code) ? 'soft' : 'final'})),
  }
}

/** GET /routing/simulate: the query as the document defines it. */
export type SimulateRouting = Query<'simulateRouting'>

/** GET /routing/simulate: the decision routing would make now for such a payment; creates nothing. */
export async function simulateRouting(core: Core, q: SimulateRouting): Promise<RoutingDecision> {
  assertCurrency(q.currency)
  const m = methodInfo(q.payment_method)
  if (!m) throw invalid('payment_method', `payment_method '${q.payment_method}' is not a method code. Known codes: ${METHOD_CODES.join(', ')}.`)
  if (!m.currencies.includes(q.currency)) throw invalid('currency', `${m.name} (${m.code}) accepts ${m.currencies.join(', ')} only; got ${q.currency}.`, 'currency_not_supported')
  if (q.merchant !== undefined && !(await core.store.get('merchant', q.merchant))) throw notFound('merchant', q.merchant, 'merchant')
  const now = core.clock.now()
  const input: RouteInput = {amount: q.amount, currency: q.currency, payment_method: m.code, card_brand: q.card_brand ?? null, country: q.country ?? null, merchant: q.merchant ?? null}
  return route(input, PROVIDERS, core.providerState.snapshot(now), await core.rules.get(), Math.random, {at: now}).explain()
}

