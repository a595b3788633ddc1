// The payment state machine (docs/api.md#payment-lifecycle), pure: a transition takes the payment
// as it is, what happened and the engine-clock time, and returns the payment as it becomes
// plus the effects the application layer carries out (events to emit, timers to set or drop,
// captured funds to book). Nothing here reads a clock, the store or a provider.
import type {CardDetails, Payment, PaymentMethodDetails, PaymentStatus, ProviderAttempt} from '../../api/types.js'
import {expiryProblem, parseCardNumber, type TestCardBehaviour} from './cards.js'
import {methodInfo, type MethodInfo} from '../../api/catalog.js'
import {invalid} from './errors.js'
import type {RoutingRecord} from './routing.js'
import {iso} from './time.js'

/** Lifetime of a customer-action session (3-D Secure, redirect, QR, app approval, card form). */
export const SESSION_LIFETIME_S = 3600
/** Manual-capture authorizations are released after 7 days (docs/api.md#limits). */
export const AUTH_VALIDITY_S = 7 * 86_400
export const MAX_AMOUNT = 99_999_999

export interface Instrument {
  type: 'card'
  /**
   * The number the simulation reads; never returned. As stored: a published test card whole (its
   * digits carry its behaviour), any other masked (first six, last four, a Luhn-valid middle: the
   * same brand, length and behaviour), the whole number sealed in `sealed_number`
   * (core/secrets.ts keptCard; docs/api.md#secrets-at-rest).
   */
  number: string
  /** the whole number sealed with the engine's secrets key (`gwenc1:`), when `number` is masked */
  sealed_number?: string
  /** the same card's mark, whatever payment or payment method holds it: a keyed HMAC of the whole number, nothing to guess the number from */
  fingerprint?: string
  brand: string
  last4: string
  exp_month: number
  exp_year: number
  funding: CardDetails['funding']
  country: string
  network_token: boolean
  incremental: boolean
  multi_capture: boolean
  cvc: 'provided' | 'missing' | 'cryptogram'
  test: TestCardBehaviour
  billing_postal_code: string | null
  billing_country: string | null
}

export type SessionStep = 'card_form' | 'challenge' | 'method'

export interface PaymentInternal {
  instrument?: Instrument
  session?: {token: string; step: SessionStep; expires_at: string}
  /** providers tried in this payment's routing passes */
  tried: string[]
  challenge_passed?: boolean
  customer_done?: boolean
  auth_expires_at?: string
  /** each routing pass as decided (domain/routing.ts explainRecord explains it again) */
  routing?: RoutingRecord[]
  /** the hosted checkout session (cs_) the customer paid through */
  checkout_session?: string
  /**
   * The origin of the shop's page whose card fields confirmed the payment (docs/decisions.md#private-files-and-framed-pages): its hosted
   * pages may be framed there alone (the 3-D Secure modal), and their final page tells it the outcome.
   */
  frame_origin?: string
}

export type PaymentRecord = Payment & {_x: PaymentInternal}

/** Timers of a payment on the engine clock. */
export type PaymentJob = 'payment.session_expiry' | 'payment.unpaid_expiry' | 'payment.auth_expiry' | 'payment.rail_confirm'

export type PaymentEventType = 'payment.requires_action' | 'payment.processing' | 'payment.succeeded' | 'payment.failed' | 'payment.risk_review' | 'payment.canceled'

export type PaymentEffect =
  /** an event carrying the payment as it is after this transition */
  | {emit: PaymentEventType}
  | {schedule: PaymentJob; due: Date; data?: Record<string, unknown>}
  | {unschedule: PaymentJob}
  /** the authorization closed with funds captured: book them (ledger) and run what follows a success */
  | {captured: number}

export interface Step {
  payment: PaymentRecord
  effects: PaymentEffect[]
}

/** Rank of each status (docs/api.md#webhook-delivery): a payment only ever moves to an equal or higher rank. */
export const STATUS_RANK: Readonly<Record<PaymentStatus, number>> = {
  requires_confirmation: 0,
  requires_action: 1,
  processing: 2,
  requires_capture: 3,
  succeeded: 4,
  failed: 4,
  canceled: 4,
}

export const TERMINAL: ReadonlySet<PaymentStatus> = new Set(['succeeded', 'failed', 'canceled'])

/**
 * A working copy: the caller's object is never changed. (A plain clone, then stores: in a literal,
 * each property after a spread is defined through a call into the runtime, ~20k instructions a payment.)
 */
function copy(p: PaymentRecord): PaymentRecord {
  const q = {...p}
  q.provider_attempts = p.provider_attempts.slice()
  const x = {...p._x}
  x.tried = p._x.tried.slice()
  q._x = x
  return q
}

function moveTo(p: PaymentRecord, to: PaymentStatus): void {
  const from = p.status
  if (TERMINAL.has(from) || STATUS_RANK[to] < STATUS_RANK[from]) throw new Error(`payment ${p.id}: ${from} -> ${to} would move backwards`)
  p.status = to
}

export const cardDetails = (i: Instrument): CardDetails => ({
  brand: i.brand,
  last4: i.last4,
  exp_month: i.exp_month,
  exp_year: i.exp_year,
  funding: i.funding,
  country: i.country,
})

/** Deterministic bank/account details shown once the customer completed a non-card method. */
export function methodDetails(p: Payment, m: MethodInfo): PaymentMethodDetails {
  const seed = parseInt(p.id.slice(-4).replace(/[^0-9a-f]/gi, '0') || '0', 16) % 10000
  const last4 = String(seed).padStart(4, '0')
  switch (m.family) {
    case 'bank_redirect':
    case 'direct_debit':
      return {[m.code]: {bank: m.code === 'ideal' ? 'ing' : 'test_bank', iban_last4: last4}}
    case 'wallet':
      if (m.cardFamily) return {[m.code]: {brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, funding: 'credit', country: 'US'}}
      return {[m.code]: {account_last4: last4}}
    default:
      return {[m.code]: {}}
  }
}

/** A card as typed (payment_method_data, the hosted card form, a saved payment method). */
export function parseInstrument(
  data: {card: {number: string; exp_month: number; exp_year: number; cvc?: string}; billing_details?: {address?: {postal_code?: string; country?: string} | null} | null},
  now: Date,
  prefix: string,
): Instrument {
  const parsed = parseCardNumber(data.card.number)
  if (!parsed.ok) throw invalid(`${prefix}card.number`, `${prefix}card.number: ${parsed.message}`, 'card_number_invalid')
  const exp = expiryProblem(data.card.exp_month, data.card.exp_year, now)
  if (exp) throw invalid(`${prefix}card.exp_month`, exp, 'card_expiry_invalid')
  const card = parsed.card
  const cvc = data.card.cvc
  if (cvc !== undefined) {
    const len = card.brand === 'amex' ? 4 : 3
    if (!new RegExp(`^\\d{${len}}$`).test(cvc)) throw invalid(`${prefix}card.cvc`, `${prefix}card.cvc must be ${len} digits for ${/^[aeiou]/.test(card.brand) ? "an" : "a"} ${card.brand} card.`, 'cvc_invalid')
  }
  const address = data.billing_details?.address ?? {}
  return {
    type: 'card',
    number: card.number,
    brand: card.brand,
    last4: card.last4,
    exp_month: data.card.exp_month,
    exp_year: data.card.exp_year,
    funding: card.funding,
    country: card.country,
    network_token: card.networkToken,
    incremental: card.incrementalAuth,
    multi_capture: card.multiCapture,
    cvc: cvc !== undefined ? 'provided' : 'missing',
    test: card.test,
    billing_postal_code: address.postal_code ?? null,
    billing_country: address.country ?? null,
  }
}

/** A routing pass was decided: the payment keeps its record (GET /payments/{id}/routing). */
export function routed(p: PaymentRecord, record: RoutingRecord): PaymentRecord {
  const q = {...p}
  const x = {...p._x}
  x.routing = p._x.routing ? [...p._x.routing, record] : [record]
  q._x = x
  return q
}

/** True while a customer step (challenge, redirect, QR, app approval) is still to be done. */
export function needsCustomerStep(p: PaymentRecord): boolean {
  const m = methodInfo(p.payment_method)!
  if (m.flow === 'card') return p._x.instrument?.test.kind === 'challenge' && !p._x.challenge_passed
  return m.flow !== 'none' && !p._x.customer_done
}

const EXPIRY_JOBS: PaymentJob[] = ['payment.session_expiry', 'payment.unpaid_expiry', 'payment.auth_expiry']

// ------------------------------------------------------------------ transitions

/** Terminal failure: all attempts exhausted, a decline, a block, a failed or expired customer step. */
export function fail(p0: PaymentRecord, code: string, message: string): Step {
  const p = copy(p0)
  moveTo(p, 'failed')
  p.failure_code = code
  p.failure_message = message
  p.next_action = null
  delete p._x.session
  return {payment: p, effects: [...EXPIRY_JOBS.map((j) => ({unschedule: j})), {emit: 'payment.failed'}]}
}

/** The customer must act on a hosted page: a pending attempt on `provider` (if routed), a session and its expiry. */
export function requireAction(p0: PaymentRecord, a: {step: SessionStep; provider: string | null; token: string; url: string; at: Date}): Step {
  const p = copy(p0)
  const m = methodInfo(p.payment_method)!
  if (a.provider) addPending(p, a.provider, a.at)
  const unpaid = m.unpaidExpirySeconds !== undefined && a.step === 'method'
  const expires = new Date(a.at.getTime() + (unpaid ? m.unpaidExpirySeconds! : SESSION_LIFETIME_S) * 1000)
  p._x.session = {token: a.token, step: a.step, expires_at: iso(expires)}
  moveTo(p, 'requires_action')
  p.next_action = {type: 'redirect', url: a.url}
  return {
    payment: p,
    effects: [{unschedule: 'payment.session_expiry'}, {schedule: unpaid ? 'payment.unpaid_expiry' : 'payment.session_expiry', due: expires, data: {step: a.step}}, {emit: 'payment.requires_action'}],
  }
}

/** Risk screening holds the payment for an operator (status processing, docs/api.md#payment-lifecycle). */
export function holdForReview(p0: PaymentRecord): Step {
  const p = copy(p0)
  moveTo(p, 'processing')
  p.next_action = null
  return {payment: p, effects: [{emit: 'payment.risk_review'}]}
}

/** The customer completed the step (3-D Secure passed, bank login, wallet, voucher paid): routing continues. */
export function customerCompleted(p0: PaymentRecord, detailsOf: MethodInfo | null): Step {
  const p = copy(p0)
  const step = p._x.session?.step
  delete p._x.session
  if (step === 'challenge') {
    p._x.challenge_passed = true
    const card = p.payment_method_details?.card
    if (card) p.payment_method_details = {card: {...card, three_d_secure: {result: 'authenticated'}}}
  } else if (detailsOf) {
    p._x.customer_done = true
    p.payment_method_details = methodDetails(p, detailsOf)
  }
  moveTo(p, 'processing')
  p.next_action = null
  return {payment: p, effects: [{unschedule: 'payment.session_expiry'}, {unschedule: 'payment.unpaid_expiry'}, {emit: 'payment.processing'}]}
}

/** The hosted card form was filled in: the payment now has an instrument and carries on from requires_action. */
export function cardEntered(p0: PaymentRecord, card: Instrument): Step {
  const p = copy(p0)
  delete p._x.session
  p._x.instrument = card
  p.payment_method_details = {card: cardDetails(card)}
  return {payment: p, effects: [{unschedule: 'payment.session_expiry'}, {unschedule: 'payment.unpaid_expiry'}]}
}

/** Direct debit: the mandate is in place; the debit is pending on the rail until it clears. */
export function debitPending(p0: PaymentRecord, provider: string, at: Date): Step {
  const p = copy(p0)
  const m = methodInfo(p.payment_method)!
  addPending(p, provider, at)
  moveTo(p, 'processing')
  p.next_action = null
  p.payment_method_details = methodDetails(p, m)
  return {payment: p, effects: [{emit: 'payment.processing'}, {schedule: 'payment.rail_confirm', due: new Date(at.getTime() + (m.clearingSeconds ?? 86_400) * 1000)}]}
}

/** One provider answered an authorization: the attempt is recorded (it closes a pending attempt on that provider). */
export function attempted(p0: PaymentRecord, a: ProviderAttempt): Step {
  const p = copy(p0)
  const pending = p.provider_attempts.findIndex((x) => x.outcome === 'pending' && x.provider === a.provider)
  if (pending >= 0) p.provider_attempts[pending] = {...a, attempted_at: p.provider_attempts[pending]!.attempted_at}
  else p.provider_attempts.push(a)
  if (!p._x.tried.includes(a.provider)) p._x.tried.push(a.provider)
  p.provider = a.provider
  return {payment: p, effects: []}
}

/** The provider approved. Automatic capture succeeds now (or when the rail confirms); manual capture waits for capture. */
export function authorized(p0: PaymentRecord, at: Date): Step {
  const p = copy(p0)
  const m = methodInfo(p.payment_method)!
  p.next_action = null
  delete p._x.session
  const capture = p.capture_method === 'automatic' || !m.manualCapture
  if (capture && m.confirmDelaySeconds) {
    // the rail confirms later (Multibanco): processing until then
    moveTo(p, 'processing')
    return {payment: p, effects: [{schedule: 'payment.rail_confirm', due: new Date(at.getTime() + m.confirmDelaySeconds * 1000)}]}
  }
  if (capture) {
    p.amount_captured = p.amount
    moveTo(p, 'succeeded')
    return {payment: p, effects: [{emit: 'payment.succeeded'}, {captured: p.amount_captured}]}
  }
  moveTo(p, 'requires_capture')
  const exp = new Date(at.getTime() + AUTH_VALIDITY_S * 1000)
  p._x.auth_expires_at = iso(exp)
  return {payment: p, effects: [{schedule: 'payment.auth_expiry', due: exp}]}
}

/** A capture the provider confirmed; a final one closes the authorization (the remainder is released). */
export function captured(p0: PaymentRecord, amount: number, final: boolean): Step {
  const p = copy(p0)
  p.amount_captured += amount
  if (!final) return {payment: p, effects: []}
  return closeCaptured(p)
}

/** The authorization closes with funds captured: the payment succeeds (docs/api.md#payment-lifecycle). */
function closeCaptured(p: PaymentRecord): Step {
  moveTo(p, 'succeeded')
  p.next_action = null
  return {payment: p, effects: [{unschedule: 'payment.auth_expiry'}, {emit: 'payment.succeeded'}, {captured: p.amount_captured}]}
}

export function incremented(p0: PaymentRecord, amount: number): Step {
  const p = copy(p0)
  p.amount = amount
  return {payment: p, effects: []}
}

/** Pending attempts that will never reach the provider are closed with this outcome. */
function settlePending(p: PaymentRecord, outcome: ProviderAttempt['outcome']): void {
  p.provider_attempts = p.provider_attempts.map((a) => (a.outcome === 'pending' ? {...a, outcome} : a))
}

/**
 * Cancel (void): from requires_confirmation, requires_action or requires_capture. An
 * authorization with funds already captured closes as succeeded instead, with the remainder
 * released, as the 7-day expiry does; with nothing captured the payment is canceled.
 */
export function cancel(p0: PaymentRecord): Step {
  const p = copy(p0)
  settlePending(p, 'canceled')
  delete p._x.session
  if (p.status === 'requires_capture' && p.amount_captured > 0) {
    const s = closeCaptured(p)
    return {payment: s.payment, effects: [{unschedule: 'payment.session_expiry'}, {unschedule: 'payment.unpaid_expiry'}, ...s.effects]}
  }
  moveTo(p, 'canceled')
  p.next_action = null
  return {payment: p, effects: [...EXPIRY_JOBS.map((j) => ({unschedule: j})), {emit: 'payment.canceled'}]}
}

export const CANCELABLE: ReadonlySet<PaymentStatus> = new Set(['requires_confirmation', 'requires_action', 'requires_capture'])

/** 7 days without a final capture: released; captured funds stay captured. */
export function authExpired(p0: PaymentRecord): Step {
  const p = copy(p0)
  if (p.amount_captured > 0) return closeCaptured(p)
  moveTo(p, 'canceled')
  return {payment: p, effects: [{emit: 'payment.canceled'}]}
}

/** The customer failed or refused the step. */
export function customerFailed(p0: PaymentRecord): Step {
  const p = copy(p0)
  const m = methodInfo(p.payment_method)!
  const step = p._x.session?.step
  settlePending(p, 'authentication_failed')
  if (m.family === 'voucher' || m.family === 'bank_transfer') return fail(p, 'payment_expired', 'The voucher or transfer was not paid.')
  return fail(p, 'authentication_required', step === 'challenge' ? 'The 3-D Secure challenge was failed or refused.' : 'The customer did not authorize the payment.')
}

/** The session expired (or the customer abandoned it): the payment fails. */
export function sessionExpired(p0: PaymentRecord): Step {
  const p = copy(p0)
  const m = methodInfo(p.payment_method)!
  const step = p._x.session?.step
  settlePending(p, 'abandoned')
  if (step === 'method' && (m.family === 'voucher' || m.family === 'bank_transfer'))
    return fail(p, 'payment_expired', `The ${m.name} ${m.family === 'voucher' ? 'voucher' : 'transfer'} expired unpaid.`)
  if (step === 'challenge') return fail(p, 'authentication_required', 'The 3-D Secure session expired before the customer completed it.')
  return fail(p, 'session_expired', 'The customer did not complete the payment before the session expired.')
}

/** The customer pressed cancel on the hosted page: the payment fails with its own code, not a timeout's. */
export function customerCanceled(p0: PaymentRecord): Step {
  const p = copy(p0)
  settlePending(p, 'canceled')
  return fail(p, 'customer_canceled', 'The customer canceled on the payment page.')
}

/** The operator blocked a payment held in review. */
export function reviewBlocked(p0: PaymentRecord): Step {
  const p = copy(p0)
  p.risk = {...p.risk!, decision: 'blocked'}
  settlePending(p, 'canceled')
  return fail(p, 'payment_blocked', 'An operator blocked the payment after risk review; no provider was attempted.')
}

export function reviewApproved(p0: PaymentRecord): Step {
  const p = copy(p0)
  p.risk = {...p.risk!, decision: 'approved'}
  return {payment: p, effects: []}
}

/** The rail confirmed the pending debit (direct debit clearing, Multibanco). */
export function railConfirmed(p0: PaymentRecord, at: Date): Step {
  const p = copy(p0)
  const i = p.provider_attempts.findIndex((a) => a.outcome === 'pending')
  if (i >= 0) {
    const a = p.provider_attempts[i]!
    p.provider_attempts[i] = {...a, outcome: 'approved', latency_ms: Math.max(0, at.getTime() - Date.parse(a.attempted_at))}
  }
  p.amount_captured = p.amount
  moveTo(p, 'succeeded')
  return {payment: p, effects: [{emit: 'payment.succeeded'}, {captured: p.amount_captured}]}
}

function addPending(p: PaymentRecord, provider: string, at: Date): void {
  p.provider = provider
  p.provider_attempts.push({provider, outcome: 'pending', decline_code: null, latency_ms: null, attempted_at: iso(at)})
  p._x.tried.push(provider)
}
