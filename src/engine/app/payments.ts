// Payment use cases: create, confirm, capture, increment, cancel, the customer's step on a
// hosted page, the operator's risk review, reads, and the payment timers. Orchestration only:
// risk, routing and provider calls here; every status change is a transition of
// domain/payment.ts; every write goes through the unit of work.
import {randomBytes} from 'node:crypto'
import type {Customer} from '../../api/types.js'
import {PAYMENT_STATUSES, type PaymentRouting, type RoutingDecision} from '../../api/types.js'
import {methodInfo, METHOD_CODES} from '../../api/catalog.js'
import {cardErrorCode, declineMessage, failsOver, type CardErrorCode} from '../domain/declines.js'
import {DomainError, badState, invalid, notFound} from '../domain/errors.js'
import {currencyExponent, isCurrency} from '../../api/money.js'
import * as pay from '../domain/payment.js'
import {PROVIDERS} from '../domain/providers.js'
import {assessRisk} from '../domain/risk.js'
import {explainRecord, route, type RouteInput} from '../domain/routing.js'
import type {ProviderCardInput} from '../ports/provider.js'
import type {ClaimedJob, Filter, ListPage} from '../ports/store.js'
import {providerChaos} from './chaos-providers.js'
import type {Core} from '../core/core.js'
import {onPaymentSucceeded} from './money.js'
import {scheduleTestCardDispute} from './disputes.js'
import {dayOf} from '../core/provider-state.js'
import type {Unit} from '../core/unit.js'
import {iso} from '../domain/time.js'
import type {Body, Query} from '../../api/types.js'
import {domainKey, emailKey, nameKey} from '../ports/search-keys.js'

export type {Instrument, PaymentRecord} from '../domain/payment.js'
type PaymentRecord = pay.PaymentRecord
type Instrument = pay.Instrument

/** POST /payments: the body as the document defines it (src/api/openapi/resources/payments.ts). */
export type CreatePayment = Body<'createPayment'>

/** A payment as a use case leaves it; `declined` is the issuer's final decline code (the payment is stored failed). */
export interface PaymentOutcome {
  payment: PaymentRecord
  declined?: CardErrorCode
}

const ACTION_PATH: Record<pay.SessionStep, string> = {card_form: 'card', challenge: '3ds', method: 'method'}

export function assertCurrency(currency: string, param = 'currency'): void {
  if (!/^[A-Z]{3}$/.test(currency)) {
    const hint = /^[a-z]{3}$/.test(currency) ? ` Use uppercase: '${currency.toUpperCase()}'.` : ''
    throw invalid(param, `${param} must be an uppercase ISO 4217 code such as EUR; got '${currency}'.${hint}`)
  }
  if (!isCurrency(currency) || currencyExponent(currency) === undefined) throw invalid(param, `${param} '${currency}' is not an ISO 4217 currency code.`)
}

export function assertUrl(v: string, param: string): void {
  let u: URL
  try {
    u = new URL(v)
  } catch {
    throw invalid(param, `${param} must be an absolute URL such as https://shop.example/return; got '${v}'.`)
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid(param, `${param} must be an http(s) URL.`)
}

const cardInput = (i: Instrument): ProviderCardInput => ({
  brand: i.brand,
  last4: i.last4,
  number: i.number,
  exp_month: i.exp_month,
  exp_year: i.exp_year,
  cvc_provided: i.cvc === 'provided',
  network_token: i.network_token,
})

/** Carries out a transition's effects in the unit of work and returns the payment as it now is. */
export function apply(u: Unit, step: pay.Step, at: Date): PaymentRecord {
  const p = step.payment
  for (const e of step.effects) {
    if ('emit' in e) u.emit(e.emit, p, at)
    else if ('schedule' in e) u.schedule(e.schedule, p.id, e.due, e.data)
    else if ('unschedule' in e) u.unschedule(e.unschedule, p.id)
    else {
      onPaymentSucceeded(u, p, at)
      // a test card that disputes (decisions.md): its dispute is scheduled as the payment succeeds
      scheduleTestCardDispute(u, p, at)
    }
  }
  return p
}

// ------------------------------------------------------------------ reads

export async function loadPayment(u: Pick<Unit, 'get'>, id: string, param = 'id'): Promise<{p: PaymentRecord; version: number}> {
  const got = id.startsWith('pay_') ? await u.get<PaymentRecord>('payment', id) : undefined
  if (!got) throw notFound('payment', id, param)
  return {p: got.obj, version: got.version}
}

/** GET /payments: the query as the document defines it, the page size defaulted. */
export type PaymentQuery = Query<'listPayments'> & {limit: number}

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
  const page =
    q.metadata !== undefined
      ? await scanWhere(core, q, filters, metadataMatch(q.metadata))
      : await core.store.list<PaymentRecord, 'payment'>('payment', {limit: q.limit, starting_after: q.starting_after, ending_before: q.ending_before, filters})
  if (page.cursor_missing) throw invalid(page.cursor_missing, `${page.cursor_missing}: no such payment '${q[page.cursor_missing]}'.`)
  return page
}

/**
 * The customer filters (issue 36) as one store filter: payments whose customer matches all of them,
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

// ------------------------------------------------------------------ create and confirm

/**
 * The customer of an inline `{email, name}` (docs/api.md): the account's newest customer with that
 * email when there is one (one email, one customer, however many payments), else a new one. The
 * email's lock serialises two payments naming the same new email, so they share one customer.
 */
async function inlineCustomer(u: Unit, fields: {email?: string; name?: string}, now: Date): Promise<Customer> {
  if (fields.email !== undefined) {
    // one email in any case, one customer (issue 36: an email is compared case-insensitively)
    const key = emailKey(fields.email) ?? fields.email
    await u.lock(`customer_email:${key}`)
    const known = await u.list<Customer & {created_at: string}, 'customer'>('customer', {limit: 1, filters: [{field: 'email_key', op: 'eq', value: key}]})
    const existing = known.data[0]
    if (existing) {
      // a name given now fills one the customer lacks; a different one is not overwritten by a payment
      if (fields.name !== undefined && existing.name === null) {
        const got = await u.get<Customer & {created_at: string}>('customer', existing.id)
        if (got) u.put('customer', {...got.obj, name: fields.name}, got.version)
      }
      return existing
    }
  }
  const customer: Customer = {id: u.core.ids.next('cus'), object: 'customer', email: fields.email ?? null, name: fields.name ?? null, description: null, metadata: {}, livemode: u.livemode, created_at: iso(now)}
  u.put('customer', customer)
  return customer
}

async function savedInstrument(u: Unit, id: string, param: string): Promise<{id: string; instrument: Instrument; customer: string | null}> {
  const got = id.startsWith('pm_') ? await u.get<{id: string; created_at: string; customer: string | null; _x?: {instrument: Instrument}}>('payment_method', id) : undefined
  if (!got) throw notFound('payment method', id, param)
  const inst = got.obj._x?.instrument
  if (!inst) throw invalid(param, `Payment method ${id} cannot be used for payments.`)
  return {id, instrument: {...inst, cvc: inst.network_token ? 'cryptogram' : 'missing'}, customer: got.obj.customer}
}

export async function createPayment(u: Unit, body: CreatePayment, internal: {checkoutSession?: string; frameOrigin?: string} = {}): Promise<PaymentOutcome> {
  const now = u.now
  assertCurrency(body.currency)
  if (body.payment_method_id !== undefined && body.payment_method_data !== undefined)
    throw invalid('payment_method_data', 'Send either payment_method_id or payment_method_data, not both.')
  let method = body.payment_method
  if (method === undefined) {
    if (body.payment_method_id !== undefined || body.payment_method_data !== undefined) method = 'card'
    else throw new DomainError('invalid_request', 'parameter_missing', 'Missing required parameter: payment_method (for example card, ideal, pix).', {param: 'payment_method'})
  }
  const m = methodInfo(method)
  if (!m) throw invalid('payment_method', `payment_method '${method}' is not a method code. Known codes: ${METHOD_CODES.join(', ')}.`)
  if (!m.currencies.includes(body.currency)) throw invalid('currency', `${m.name} (${m.code}) accepts ${m.currencies.join(', ')} only; got ${body.currency}.`, 'currency_not_supported')
  const captureMethod = body.capture_method ?? 'automatic'
  if (captureMethod === 'manual' && !m.manualCapture) throw invalid('capture_method', `capture_method 'manual' applies to cards only; ${m.name} captures on approval.`)
  if (body.return_url !== undefined) assertUrl(body.return_url, 'return_url')

  let instrument: Instrument | undefined
  let pmId: string | null = null
  let pmCustomer: string | null = null
  if (body.payment_method_id !== undefined) {
    if (m.code !== 'card') throw invalid('payment_method_id', `payment_method_id holds a card; it cannot pay with ${m.code}.`)
    const pm = await savedInstrument(u, body.payment_method_id, 'payment_method_id')
    instrument = pm.instrument
    pmId = pm.id
    pmCustomer = pm.customer
  } else if (body.payment_method_data !== undefined) {
    if (m.code !== 'card') throw invalid('payment_method_data', `payment_method_data describes a card; it cannot pay with ${m.code}.`)
    if (u.livemode) throw invalid('payment_method_data.card.number', 'Raw card numbers are accepted in test mode only; collect cards with hosted checkout in live mode.')
    instrument = pay.parseInstrument(body.payment_method_data, now, 'payment_method_data.')
  }

  let customerId: string | null = null
  if (body.customer !== undefined) {
    const c = body.customer
    const id = typeof c === 'string' ? c : c.id
    if (id !== undefined) {
      if (typeof c === 'object' && (c.email !== undefined || c.name !== undefined))
        throw invalid('customer', 'Send customer as {id} for an existing customer, or {email, name} for a new one, not both.')
      if (!(await u.get('customer', id))) throw notFound('customer', id, 'customer')
      customerId = id
    } else {
      const fields = typeof c === 'object' ? c : {}
      if (fields.email === undefined && fields.name === undefined) throw invalid('customer', 'customer needs an id, or an email and/or name to create one.')
      customerId = (await inlineCustomer(u, fields, now)).id
    }
  }
  if (pmCustomer && customerId && pmCustomer !== customerId) throw invalid('payment_method_id', `Payment method ${pmId} belongs to customer ${pmCustomer}, not ${customerId}.`)
  if (pmCustomer && !customerId) customerId = pmCustomer

  if (body.merchant !== undefined) {
    const mer = await u.get<{id: string; created_at: string; kyb_status?: string}>('merchant', body.merchant)
    if (!mer) throw notFound('merchant', body.merchant, 'merchant')
    if (mer.obj.kyb_status !== undefined && mer.obj.kyb_status !== 'active')
      throw invalid('merchant', `Merchant ${body.merchant} is not active (kyb_status: ${mer.obj.kyb_status}).`, 'merchant_inactive')
  }

  const id = u.core.ids.next('pay')
  let p: PaymentRecord = {
    id,
    object: 'payment',
    amount: body.amount,
    amount_captured: 0,
    amount_refunded: 0,
    currency: body.currency,
    status: 'requires_confirmation',
    payment_method: m.code,
    payment_method_id: pmId,
    payment_method_details: instrument ? {card: pay.cardDetails(instrument)} : null,
    capture_method: captureMethod,
    customer: customerId,
    description: body.description ?? null,
    reference: body.reference ?? id,
    metadata: body.metadata ?? {},
    provider: null,
    provider_attempts: [],
    risk: null,
    next_action: null,
    return_url: body.return_url ?? null,
    refunded: false,
    partially_refunded: false,
    failure_code: null,
    failure_message: null,
    livemode: u.livemode,
    created_at: iso(now),
    merchant: body.merchant ?? null,
    _x: {instrument, tried: [], ...(internal.checkoutSession ? {checkout_session: internal.checkoutSession} : {}), ...(internal.frameOrigin ? {frame_origin: internal.frameOrigin} : {})},
  }
  let outcome: PaymentOutcome = {payment: p}
  if (body.confirm !== false) outcome = await proceed(u, p, now)
  p = outcome.payment
  u.put('payment', p)
  return outcome
}

/**
 * What a confirm of a payment that can no longer be paid says to do (issue 36): a payment is one
 * try; a customer who may try another card needs a checkout session, each try a payment of it.
 */
const RETRY_WITH_A_SESSION =
  " A payment is one try: to let the customer try another card on the same order, create one checkout session per order on your server (POST /v1/checkout_sessions, the order's Idempotency-Key) and pay it from the page with card.confirmCheckoutSession('cs_…') (gw.js): each try is a payment of the session."

/**
 * The origin the hosted card fields confirm from (header Gw-Parent-Origin): an http(s) origin and
 * nothing more, as a browser writes MessageEvent.origin.
 */
export function parentOrigin(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined
  const v = Array.isArray(raw) ? raw[0]! : raw
  let origin: string | undefined
  try {
    origin = new URL(v).origin
  } catch {
    // not a URL
  }
  if (origin !== v || !/^https?:/.test(v))
    throw invalid('Gw-Parent-Origin', `The Gw-Parent-Origin header is the origin of the page that mounted the card fields, such as https://shop.example or http://localhost:3000; got '${v}'.`)
  return v
}

export async function confirmPayment(u: Unit, id: string, body: {payment_method_id?: string; return_url?: string}, opts: {frameOrigin?: string} = {}): Promise<PaymentOutcome> {
  await u.lock(id)
  const loaded = await loadPayment(u, id)
  let p = loaded.p
  if (p.status !== 'requires_confirmation') throw badState('payment_unexpected_state', `Payment ${p.id} is ${p.status}; only a payment in requires_confirmation can be confirmed.${p.status === 'failed' || p.status === 'canceled' ? RETRY_WITH_A_SESSION : ''}`)
  p = {...p}
  p._x = {...p._x}
  if (body.payment_method_id !== undefined) {
    if (p.payment_method !== 'card') throw invalid('payment_method_id', `payment_method_id holds a card; this payment uses ${p.payment_method}.`)
    const pm = await savedInstrument(u, body.payment_method_id, 'payment_method_id')
    if (p.customer && pm.customer && pm.customer !== p.customer) throw invalid('payment_method_id', `Payment method ${pm.id} belongs to customer ${pm.customer}, not ${p.customer}.`)
    p._x.instrument = pm.instrument
    p.payment_method_id = pm.id
    p.payment_method_details = {card: pay.cardDetails(pm.instrument)}
  }
  if (body.return_url !== undefined) {
    assertUrl(body.return_url, 'return_url')
    p.return_url = body.return_url
  }
  // bound now, by whoever confirms (the card fields' frame, from its parent's message): a page's URL cannot change it
  if (opts.frameOrigin !== undefined) p._x.frame_origin = opts.frameOrigin
  const out = await proceed(u, p, u.now)
  u.put('payment', out.payment, loaded.version)
  return out
}

// ------------------------------------------------------------------ the acquiring chain

/** Confirmation: risk, then routing, then a customer step or authorization. */
async function proceed(u: Unit, p: PaymentRecord, now: Date): Promise<PaymentOutcome> {
  const m = methodInfo(p.payment_method)!
  if (m.flow === 'card' && !p._x.instrument) return {payment: await requireAction(u, p, 'card_form', null, now)}
  if (m.riskScored && p.risk === null) {
    const i = p._x.instrument
    p = {...p}
    p.risk = assessRisk({
      amount: p.amount,
      currency: p.currency,
      payment_method: p.payment_method,
      cvc: i ? i.cvc : 'cryptogram',
      cvvFail: i?.test.kind === 'cvv_fail',
      billingPostalCode: i?.billing_postal_code ?? null,
      billingCountry: i?.billing_country ?? null,
      cardCountry: i?.country ?? null,
    })
    if (p.risk!.decision === 'blocked') return {payment: apply(u, pay.fail(p, 'payment_blocked', 'Risk screening blocked the payment; no provider was attempted.'), now)}
    // the hold is in `processing` (§3); a customer step (3-D Secure, wallet sheet) comes
    // first, so the payment never moves back from processing to requires_action
    if (p.risk!.decision === 'review' && !pay.needsCustomerStep(p)) return {payment: apply(u, pay.holdForReview(p), now)}
  }
  return routeAndRun(u, p, now)
}

const routeInput = (p: PaymentRecord): RouteInput => ({
  amount: p.amount,
  currency: p.currency,
  payment_method: p.payment_method,
  card_brand: p._x.instrument?.brand ?? null,
  country: p._x.instrument?.country ?? null,
  merchant: p.merchant ?? null,
})

/** One routing pass: the providers to try, in order; the payment keeps the decision's record. */
async function candidates(u: Unit, p: PaymentRecord, now: Date): Promise<{p: PaymentRecord; list: string[]; blockedBy: string | null}> {
  const d = route(routeInput(p), PROVIDERS, u.core.providerState.snapshot(now), await u.core.rules.get(), Math.random, {at: now, tried: p._x.tried})
  return {p: pay.routed(p, d.record), list: d.candidates, blockedBy: d.blocked_by_rule}
}

async function routeAndRun(u: Unit, p0: PaymentRecord, now: Date): Promise<PaymentOutcome> {
  const m = methodInfo(p0.payment_method)!
  const {p, list, blockedBy} = await candidates(u, p0, now)
  if (list.length === 0) {
    const step = blockedBy
      ? pay.fail(p, 'routing_blocked', `A routing rule (${blockedBy}) blocks this payment.`)
      : pay.fail(p, 'no_provider_available', `No active provider processes ${m.code} in ${p.currency} right now.`)
    return {payment: apply(u, step, now)}
  }
  const first = list[0]!
  if (m.flow === 'card' && p._x.instrument?.test.kind === 'challenge' && !p._x.challenge_passed) return {payment: await requireAction(u, p, 'challenge', first, now)}
  if (m.flow !== 'card' && m.flow !== 'none' && !p._x.customer_done) return {payment: await requireAction(u, p, 'method', first, now)}
  if (m.flow === 'none') return {payment: apply(u, pay.debitPending(p, first, now), now)}
  return authorize(u, p, now, list)
}

async function requireAction(u: Unit, p: PaymentRecord, step: pay.SessionStep, provider: string | null, now: Date): Promise<PaymentRecord> {
  const token = randomBytes(18).toString('base64url')
  // the page finds the payment in its account (ids are unique per account: a snapshot loaded in several has the same ids)
  const url = `${u.core.urls.checkoutUrl}/${ACTION_PATH[step]}/${p.id}?session=${token}&account=${u.core.account}`
  return apply(u, pay.requireAction(p, {step, provider, token, url, at: now}), now)
}

/** Tries candidates in order inside this call; a timeout or soft decline fails over, a final decline stops (§1). */
async function authorize(u: Unit, p: PaymentRecord, now: Date, list: string[]): Promise<PaymentOutcome> {
  const m = methodInfo(p.payment_method)!
  const capture = p.capture_method === 'automatic' || !m.manualCapture
  const pending = p.provider_attempts.find((a) => a.outcome === 'pending')
  const order = pending ? [pending.provider, ...list.filter((c) => c !== pending.provider)] : list
  let last: {outcome: string; decline_code: string | null} | undefined
  for (let idx = 0; idx < order.length; idx++) {
    const provId = order[idx]!
    const conn = u.core.providers.get(provId)
    if (!conn) continue
    const i = p._x.instrument
    let res = await conn.authorize({payment_id: p.id, amount: p.amount, currency: p.currency, payment_method: p.payment_method, card: i ? cardInput(i) : undefined, route_index: idx, capture})
    // the account's provider faults (issue 29), if any
    if (!u.core.chaos.none) res = await providerChaos(u, provId, 'authorize', res)
    last = res
    p = pay.attempted(p, {provider: provId, outcome: res.outcome, decline_code: res.decline_code, latency_ms: res.latency_ms, attempted_at: iso(now)}).payment
    u.stat({provider: provId, day: dayOf(now), approved: res.outcome === 'approved' ? 1 : 0, total: 1})
    if (res.outcome === 'approved') return {payment: apply(u, pay.authorized(p, now), now)}
    if (!failsOver(res.outcome, res.decline_code)) {
      const code = res.decline_code ?? 'card_declined'
      return {payment: apply(u, pay.fail(p, code, declineMessage(code)), now), declined: cardErrorCode(code)}
    }
    // timeout, error or soft decline: next provider, same call
  }
  const why = last ? (last.decline_code ?? last.outcome) : 'no provider'
  return {payment: apply(u, pay.fail(p, 'processing_error', `No provider approved the payment: every attempt failed over (last: ${why}). Retrying later may succeed.`), now)}
}

// ------------------------------------------------------------------ capture, increment, cancel

export async function capturePayment(u: Unit, id: string, body: {amount?: number; final_capture?: boolean}): Promise<PaymentRecord> {
  await u.lock(id)
  const {p, version} = await loadPayment(u, id)
  if (p.status !== 'requires_capture') throw badState('payment_not_capturable', `Payment ${p.id} is ${p.status}; only a payment in requires_capture can be captured.`)
  const remaining = p.amount - p.amount_captured
  const amount = body.amount ?? remaining
  if (amount > remaining) throw invalid('amount', `amount ${amount} exceeds the ${remaining} still capturable on ${p.id}.`, 'amount_too_large')
  const multi = p._x.instrument?.multi_capture ?? false
  const final = amount === remaining || !multi || body.final_capture === true
  const res = await u.core.providers.get(p.provider!)!.capture({payment_id: p.id, amount, currency: p.currency, final})
  if (res.outcome !== 'approved')
    throw new DomainError('provider_unavailable', 'provider_error', `The provider did not confirm the capture (${res.decline_code ?? res.outcome}). Retry with the same Idempotency-Key.`)
  const out = apply(u, pay.captured(p, amount, final), u.now)
  u.put('payment', out, version)
  return out
}

export async function incrementAuthorization(u: Unit, id: string, body: {amount: number}): Promise<PaymentRecord> {
  await u.lock(id)
  const {p, version} = await loadPayment(u, id)
  if (p.status !== 'requires_capture') throw badState('payment_not_incrementable', `Payment ${p.id} is ${p.status}; only a payment in requires_capture can be incremented.`)
  if (!p._x.instrument?.incremental)
    throw badState('payment_not_incrementable', `The ${p._x.instrument?.brand ?? p.payment_method} network does not support incremental authorization; the original authorization is unchanged.`)
  if (body.amount <= p.amount) throw invalid('amount', `amount is the new total authorization and must be greater than the current ${p.amount}; got ${body.amount}.`)
  const res = await u.core.providers.get(p.provider!)!.incrementAuthorization({payment_id: p.id, amount: body.amount, currency: p.currency})
  if (res.outcome !== 'approved')
    throw new DomainError('card', cardErrorCode(res.decline_code ?? 'card_declined'), `The issuer declined the increment (${res.decline_code ?? res.outcome}); the original authorization of ${p.amount} stands.`, {payment: p.id})
  const out = apply(u, pay.incremented(p, body.amount), u.now)
  u.put('payment', out, version)
  return out
}

export async function cancelPayment(u: Unit, id: string): Promise<PaymentRecord> {
  await u.lock(id)
  const {p, version} = await loadPayment(u, id)
  if (!pay.CANCELABLE.has(p.status))
    throw badState('payment_not_cancelable', `Payment ${p.id} is ${p.status}; only payments in requires_confirmation, requires_action or requires_capture can be canceled.`)
  if (p.status === 'requires_capture') await u.core.providers.get(p.provider!)!.void({payment_id: p.id})
  const out = apply(u, pay.cancel(p), u.now)
  u.put('payment', out, version)
  return out
}

// ------------------------------------------------------------------ customer and operator steps

/**
 * The customer on the hosted page (or the test helper standing in): approve, fail or abandon
 * the current step. `card` is the card typed into the hosted card form. `session` is the
 * page's session token, checked when given.
 */
export async function customerAction(u: Unit, id: string, outcome: 'approve' | 'fail' | 'abandon' | 'cancel', opts: {card?: Instrument; session?: string} = {}): Promise<PaymentRecord> {
  await u.lock(id)
  const loaded = await loadPayment(u, id)
  let p = loaded.p
  if (p.status !== 'requires_action' || !p._x.session) throw badState('payment_unexpected_state', `Payment ${p.id} is ${p.status}; there is no customer step to complete.`)
  if (opts.session !== undefined && opts.session !== p._x.session.token) throw badState('session_invalid', 'This checkout session is no longer valid.')
  const now = u.now
  const m = methodInfo(p.payment_method)!
  if (outcome === 'abandon') p = apply(u, pay.sessionExpired(p), now)
  else if (outcome === 'cancel') p = apply(u, pay.customerCanceled(p), now)
  else if (outcome === 'fail') p = apply(u, pay.customerFailed(p), now)
  else if (p._x.session.step === 'card_form') {
    if (!opts.card) throw invalid('card', 'The hosted card form needs a card.')
    p = apply(u, pay.cardEntered(p, opts.card), now)
    p = (await proceed(u, p, now)).payment
  } else {
    p = apply(u, pay.customerCompleted(p, p._x.session.step === 'challenge' ? null : m), now)
    if (p.risk?.decision === 'review') p = apply(u, pay.holdForReview(p), now)
    else {
      const next = await candidates(u, p, now)
      p = (await authorize(u, next.p, now, next.list)).payment
    }
  }
  u.put('payment', p, loaded.version)
  // paid through a hosted checkout session: the session learns of it (issue 28), through the core's reactions
  await u.core.reactions.paymentChanged(u, p)
  return p
}

/** The hosted card form needs the test helper to type a card: test card 4242 4242 4242 4242. */
export function helperCard(now: Date): Instrument {
  return pay.parseInstrument({card: {number: '4242424242424242', exp_month: 12, exp_year: now.getUTCFullYear() + 3, cvc: '123'}}, now, '')
}

/** The test helper standing in for the customer; on the hosted card form it types test card 4242 4242 4242 4242. */
export async function testHelperAction(u: Unit, id: string, outcome: 'approve' | 'fail' | 'abandon'): Promise<PaymentRecord> {
  const {p} = await loadPayment(u, id)
  const card = outcome === 'approve' && p._x.session?.step === 'card_form' ? helperCard(u.now) : undefined
  return customerAction(u, id, outcome, {card})
}

/** The operator decides a risk review (test helper). */
export async function reviewPayment(u: Unit, id: string, decision: 'approve' | 'block'): Promise<PaymentRecord> {
  await u.lock(id)
  const loaded = await loadPayment(u, id)
  let p = loaded.p
  if (p.status !== 'processing' || p.risk?.decision !== 'review') throw badState('payment_unexpected_state', `Payment ${p.id} is not held in risk review (status ${p.status}).`)
  if (decision === 'block') p = apply(u, pay.reviewBlocked(p), u.now)
  else p = (await routeAndRun(u, pay.reviewApproved(p).payment, u.now)).payment
  u.put('payment', p, loaded.version)
  await u.core.reactions.paymentChanged(u, p)
  return p
}

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

// ------------------------------------------------------------------ timers

export function registerPaymentJobs(core: Core): void {
  const expire = async (u: Unit, job: ClaimedJob) => {
    const got = await u.get<PaymentRecord>('payment', job.ref)
    if (!got || got.obj.status !== 'requires_action') return
    u.put('payment', apply(u, pay.sessionExpired(got.obj), u.now), got.version)
  }
  core.jobs.register('payment.session_expiry', expire)
  core.jobs.register('payment.unpaid_expiry', expire)
  core.jobs.register('payment.auth_expiry', async (u, job) => {
    const got = await u.get<PaymentRecord>('payment', job.ref)
    if (!got || got.obj.status !== 'requires_capture') return
    await u.core.providers.get(got.obj.provider!)?.void({payment_id: got.obj.id})
    u.put('payment', apply(u, pay.authExpired(got.obj), u.now), got.version)
  })
  core.jobs.register('payment.rail_confirm', async (u, job) => {
    const got = await u.get<PaymentRecord>('payment', job.ref)
    if (!got || got.obj.status !== 'processing') return
    const pending = got.obj.provider_attempts.find((a) => a.outcome === 'pending')
    if (pending) u.stat({provider: pending.provider, day: dayOf(u.now), approved: 1, total: 1})
    u.put('payment', apply(u, pay.railConfirmed(got.obj, u.now), u.now), got.version)
  })
}
