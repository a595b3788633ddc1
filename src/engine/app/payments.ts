// Payment use cases: create and confirm, the acquiring chain (risk, routing, provider calls), and
// the payment timers; reads are payment-queries.ts, changes after creation payment-changes.ts. Orchestration only:
// risk, routing and provider calls here; every status change is a transition of
// domain/payment.ts; every write goes through the unit of work.
import {randomBytes} from 'node:crypto'
import type {Customer} from '../../api/types.js'
import {methodInfo, METHOD_CODES} from '../../api/catalog.js'
import {cardErrorCode, declineMessage, failsOver, type CardErrorCode} from '../domain/declines.js'
import {DomainError, badState, invalid, notFound} from '../domain/errors.js'
import * as pay from '../domain/payment.js'
import {PROVIDERS} from '../domain/providers.js'
import {assessRisk} from '../domain/risk.js'
import {route} from '../domain/routing.js'
import type {ProviderCardInput} from '../ports/provider.js'
import type {ClaimedJob} from '../ports/store.js'
import {providerChaos} from './chaos-providers.js'
import type {Core} from '../core/core.js'
import {onPaymentSucceeded} from './ledger.js'
import {scheduleTestCardDispute} from './disputes.js'
import {dayOf} from '../core/provider-state.js'
import type {Unit} from '../core/unit.js'
import {keptCard} from '../core/secrets.js'
import {iso} from '../domain/time.js'
import type {Body} from '../../api/types.js'
import {emailKey} from '../domain/search-keys.js'

import {assertCurrency, loadPayment, routeInput} from './payment-queries.js'

export {assertCurrency}
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
      // a test card that disputes (docs/decisions.md#test-cards-beyond-the-contracts): its dispute is scheduled as the payment succeeds
      scheduleTestCardDispute(u, p, at)
    }
  }
  return p
}

// ------------------------------------------------------------------ create and confirm

/**
 * The customer of an inline `{email, name}` (docs/api.md): the account's newest customer with that
 * email when there is one (one email, one customer, however many payments), else a new one. The
 * email's lock serialises two payments naming the same new email, so they share one customer.
 */
async function inlineCustomer(u: Unit, fields: {email?: string; name?: string}, now: Date): Promise<Customer> {
  if (fields.email !== undefined) {
    // one email in any case, one customer (an email is compared case-insensitively)
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
    instrument = keptCard(u.core.secrets, pay.parseInstrument(body.payment_method_data, now, 'payment_method_data.'))
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
 * What a confirm of a payment that can no longer be paid says to do: a payment is one
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
export async function proceed(u: Unit, p: PaymentRecord, now: Date): Promise<PaymentOutcome> {
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
    // the hold is in `processing` (docs/api.md#payment-lifecycle); a customer step (3-D Secure, wallet sheet) comes
    // first, so the payment never moves back from processing to requires_action
    if (p.risk!.decision === 'review' && !pay.needsCustomerStep(p)) return {payment: apply(u, pay.holdForReview(p), now)}
  }
  return routeAndRun(u, p, now)
}


/** One routing pass: the providers to try, in order; the payment keeps the decision's record. */
export async function candidates(u: Unit, p: PaymentRecord, now: Date): Promise<{p: PaymentRecord; list: string[]; blockedBy: string | null}> {
  const d = route(routeInput(p), PROVIDERS, u.core.providerState.snapshot(now), await u.core.rules.get(), Math.random, {at: now, tried: p._x.tried})
  return {p: pay.routed(p, d.record), list: d.candidates, blockedBy: d.blocked_by_rule}
}

export async function routeAndRun(u: Unit, p0: PaymentRecord, now: Date): Promise<PaymentOutcome> {
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

/** Tries candidates in order inside this call; a timeout or soft decline fails over, a final decline stops (docs/api.md#routing-and-failover). */
export async function authorize(u: Unit, p: PaymentRecord, now: Date, list: string[]): Promise<PaymentOutcome> {
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
    // the account's provider faults (docs/decisions.md#failure-on-purpose), if any
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
