// Payment changes after creation: capture, increment, cancel, the customer's step on a hosted
// page, the test helpers' and the operator's risk review. Each is a transition of
// domain/payment.ts on the unit of work; a step that continues the acquiring chain hands back to
// payments.ts (proceed, routeAndRun).
import {methodInfo} from '../../api/catalog.js'
import {cardErrorCode} from '../domain/declines.js'
import {DomainError, badState, invalid} from '../domain/errors.js'
import * as pay from '../domain/payment.js'
import type {Unit} from '../core/unit.js'
import {keptCard} from '../core/secrets.js'

import {apply, authorize, candidates, proceed, routeAndRun} from './payments.js'
import {loadPayment} from './payment-queries.js'
type PaymentRecord = pay.PaymentRecord
type Instrument = pay.Instrument

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
    p = apply(u, pay.cardEntered(p, keptCard(u.core.secrets, opts.card)), now)
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
  // paid through a hosted checkout session: the session learns of it, through the core's reactions
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

