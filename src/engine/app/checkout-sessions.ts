// Hosted checkout sessions (docs/decisions.md#browsers-and-hosted-pages): the shop's server creates one with its secret key and
// sends the customer to its `url` on {checkout_url}; the page offers the methods, takes a card or
// runs the method's own page, and lets the customer try again after a decline until a payment
// succeeds (or is processing: the customer's part is done), the session expires, or the
// customer goes back to the shop. Each try is a payment of its own, linked to the session; the
// session records the latest and, once complete, the one that completed it. The outcome
// reaches the shop by webhook (checkout.session.completed, checkout.session.expired), since the
// return to success_url "only signals that the customer came back" (docs/api.md#payment-lifecycle).
import {randomBytes} from 'node:crypto'
import {methodInfo, METHOD_CODES, type MethodCode} from '../../api/catalog.js'
import type {CheckoutSession, CheckoutSessionCreate} from '../../api/types.js'
import {badState, invalid, notFound} from '../domain/errors.js'
import {listPage, type PageQuery} from '../core/lists.js'
import type {PaymentRecord} from '../domain/payment.js'
import {PROVIDERS, providerServes} from '../domain/providers.js'
import {iso} from '../domain/time.js'
import type {ClaimedJob, Filter, ListPage} from '../ports/store.js'
import type {Core} from '../core/core.js'
import {assertCurrency, assertUrl, createPayment, type PaymentOutcome} from './payments.js'
import {cancelPayment} from './payment-changes.js'
import {loadPayment} from './payment-queries.js'
import type {Unit} from '../core/unit.js'

export type CheckoutSessionRecord = CheckoutSession & {_x: {token: string}}

const DEFAULT_EXPIRES_S = 24 * 3600
const MIN_EXPIRES_S = 30 * 60
const EXPIRY_JOB = 'checkout.session_expiry'

/** Methods a hosted checkout can take: a card, or any method with a customer page (direct debits need mandate data it does not collect). */
function offerable(code: string, currency: string): boolean {
  const m = methodInfo(code)
  return !!m && m.flow !== 'none' && m.currencies.includes(currency) && PROVIDERS.some((p) => providerServes(p, code, currency))
}

export async function createCheckoutSession(u: Unit, b: CheckoutSessionCreate): Promise<CheckoutSessionRecord> {
  if (!Number.isSafeInteger(b.amount) || b.amount < 1) throw invalid('amount', `amount must be a whole number of the currency's minor unit, 1 or more; got ${b.amount}.`)
  assertCurrency(b.currency)
  // without them, a stand-in page of the gateway shows what the shop would receive
  const standIn = (to: string) => `${u.core.urls.checkoutUrl}/returned/${to}`
  const successUrl = b.success_url ?? standIn('success')
  const cancelUrl = b.cancel_url ?? standIn('cancel')
  if (b.success_url !== undefined) assertUrl(b.success_url, 'success_url')
  if (b.cancel_url !== undefined) assertUrl(b.cancel_url, 'cancel_url')
  let methods: MethodCode[]
  if (b.payment_methods !== undefined) {
    if (b.payment_methods.length === 0) throw invalid('payment_methods', 'payment_methods lists at least one method, or leave it out for every method that takes the currency.')
    methods = [...new Set(b.payment_methods)].map((code, i) => {
      const m = methodInfo(code)
      if (!m) throw invalid(`payment_methods[${i}]`, `'${code}' is not a method code. Known codes: ${METHOD_CODES.join(', ')}.`)
      if (!m.currencies.includes(b.currency)) throw invalid(`payment_methods[${i}]`, `${m.name} (${m.code}) accepts ${m.currencies.join(', ')} only; got ${b.currency}.`, 'currency_not_supported')
      if (m.flow === 'none') throw invalid(`payment_methods[${i}]`, `${m.name} needs mandate details that hosted checkout does not collect; create the payment with the API instead.`)
      return m.code
    })
  } else {
    methods = METHOD_CODES.filter((c) => offerable(c, b.currency))
    if (methods.length === 0) throw invalid('currency', `No method a hosted checkout offers takes ${b.currency}.`, 'currency_not_supported')
  }
  if (b.customer !== undefined && !(await u.get('customer', b.customer))) throw notFound('customer', b.customer, 'customer')
  const expiresIn = b.expires_in ?? DEFAULT_EXPIRES_S
  if (!Number.isInteger(expiresIn) || expiresIn < MIN_EXPIRES_S || expiresIn > DEFAULT_EXPIRES_S)
    throw invalid('expires_in', `expires_in is 1800 to 86400 seconds (30 minutes to a day); got ${b.expires_in}.`)
  const id = u.core.ids.next('cs')
  const token = randomBytes(18).toString('base64url')
  const s: CheckoutSessionRecord = {
    id,
    object: 'checkout_session',
    status: 'open',
    url: `${u.core.urls.checkoutUrl}/session/${id}?account=${u.core.account}&token=${token}`,
    amount: b.amount,
    currency: b.currency,
    payment_methods: methods,
    reference: b.reference ?? id,
    customer: b.customer ?? null,
    success_url: successUrl,
    cancel_url: cancelUrl,
    payment: null,
    metadata: b.metadata ?? {},
    expires_at: iso(new Date(u.now.getTime() + expiresIn * 1000)),
    completed_at: null,
    livemode: u.livemode,
    created_at: iso(u.now),
    _x: {token},
  }
  u.put('checkout_session', s)
  u.schedule(EXPIRY_JOB, id, new Date(s.expires_at))
  return s
}

export async function retrieveCheckoutSession(core: Core, id: string): Promise<CheckoutSessionRecord> {
  const got = await core.store.get<CheckoutSessionRecord>('checkout_session', id)
  if (!got) throw notFound('checkout session', id)
  return got.obj
}

/** GET /v1/checkout_sessions: newest first, by status and by payment (the query the document defines). */
export async function listCheckoutSessions(core: Core, q: PageQuery<'listCheckoutSessions'>): Promise<ListPage<CheckoutSessionRecord>> {
  const filters: Filter<'checkout_session'>[] = []
  if (q.status !== undefined) filters.push({field: 'status', op: 'eq', value: q.status})
  if (q.payment !== undefined) filters.push({field: 'payment', op: 'eq', value: q.payment})
  return listPage<CheckoutSessionRecord, 'checkout_session'>(core, 'checkout_session', q, filters, 'checkout session', true)
}

/** POST /v1/checkout_sessions/{id}/expire: the shop ends an open session (its page then says so). */
export async function expireCheckoutSession(u: Unit, id: string): Promise<CheckoutSessionRecord> {
  await u.lock(id)
  const got = await u.get<CheckoutSessionRecord>('checkout_session', id)
  if (!got) throw notFound('checkout session', id)
  if (got.obj.status !== 'open') throw badState('checkout_session_not_open', `Checkout session ${id} is ${got.obj.status}; only an open session can be expired.`)
  return expire(u, got.obj, got.version)
}

function expire(u: Unit, s: CheckoutSessionRecord, version: number): CheckoutSessionRecord {
  const out: CheckoutSessionRecord = {...s, status: 'expired'}
  u.put('checkout_session', out, version)
  u.unschedule(EXPIRY_JOB, s.id)
  u.emit('checkout.session.expired', out, u.now, null)
  return out
}

/** The session behind a page: open, and the link's token its own (else not found: the link says nothing). */
export async function sessionForPage(u: Unit, id: string, token: string): Promise<{s: CheckoutSessionRecord; version: number}> {
  await u.lock(id)
  const got = await u.get<CheckoutSessionRecord>('checkout_session', id)
  if (!got || got.obj._x.token !== token) throw notFound('checkout session', id)
  return {s: got.obj, version: got.version}
}

/**
 * A payment of a session changed (made on its page, or its customer step done): the session
 * records it as its latest, and completes once it succeeded or is processing (not held for
 * review) — checkout.session.completed, caused by the customer (no request id).
 */
export async function sessionPaymentChanged(u: Unit, p: PaymentRecord): Promise<void> {
  const id = p._x.checkout_session
  if (!id) return
  await u.lock(id)
  const got = await u.get<CheckoutSessionRecord>('checkout_session', id)
  if (!got || got.obj.status !== 'open') return
  const paid = p.status === 'succeeded' || (p.status === 'processing' && p.risk?.decision !== 'review')
  if (!paid && got.obj.payment === p.id) return
  const s: CheckoutSessionRecord = {...got.obj, payment: p.id, ...(paid ? {status: 'complete' as const, completed_at: iso(u.now)} : {})}
  u.put('checkout_session', s, got.version)
  if (paid) {
    u.unschedule(EXPIRY_JOB, id)
    u.emit('checkout.session.completed', s, u.now, null)
  }
}

/**
 * POST /v1/checkout_sessions/{id}/pay (docs/decisions.md#browsers-and-hosted-pages): one try at paying an open session with a saved
 * card, as a try on its hosted page is — a payment of the session (its amount, currency,
 * reference, customer and metadata), recorded as its latest; a decline leaves the session open
 * for another card, a success completes it. The hosted card fields call it with the publishable
 * key (the session id is the capability); `frameOrigin` binds the 3-D Secure step to the shop's
 * page (Gw-Parent-Origin), as for confirmPayment. An earlier try still waiting for its customer
 * step is canceled first, so two tries can never both succeed.
 */
export async function payCheckoutSession(u: Unit, id: string, b: {payment_method_id: string}, opts: {frameOrigin?: string} = {}): Promise<PaymentOutcome> {
  await u.lock(id)
  const got = await u.get<CheckoutSessionRecord>('checkout_session', id)
  if (!got) throw notFound('checkout session', id)
  const s = got.obj
  if (s.status === 'complete') throw badState('checkout_session_not_open', `Checkout session ${id} is complete: payment ${s.payment} paid it. Nothing more to pay.`)
  if (s.status !== 'open') throw badState('checkout_session_not_open', `Checkout session ${id} is ${s.status}; create a new session for the order.`)
  if (!s.payment_methods.includes('card'))
    throw invalid('payment_method_id', `Checkout session ${id} does not take cards (payment_methods: ${s.payment_methods.join(', ')}); its customer pays on its page (url).`)
  if (s.payment) {
    const {p: last} = await loadPayment(u, s.payment)
    if (last.status === 'requires_action') await cancelPayment(u, last.id)
    else if (last.status === 'processing')
      throw badState('payment_unexpected_state', `The session's latest payment ${last.id} is held for risk review; the session completes if it is approved, and takes another try if it is blocked.`)
  }
  const out = await createPayment(
    u,
    {amount: s.amount, currency: s.currency, payment_method: 'card', payment_method_id: b.payment_method_id, reference: s.reference, metadata: s.metadata, ...(s.customer ? {customer: s.customer} : {})},
    {checkoutSession: s.id, frameOrigin: opts.frameOrigin},
  )
  await sessionPaymentChanged(u, out.payment)
  return out
}

export function registerCheckoutJobs(core: Core): void {
  // a payment of a session changed (payments.ts announces it): the session records it
  core.reactions.onPaymentChanged(sessionPaymentChanged)
  core.jobs.register(EXPIRY_JOB, async (u: Unit, job: ClaimedJob) => {
    const got = await u.get<CheckoutSessionRecord>('checkout_session', job.ref)
    if (got?.obj.status === 'open') expire(u, got.obj, got.version)
  })
}
