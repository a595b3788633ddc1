import {randomBytes} from 'node:crypto'
import type {CardDetails, Customer, Payment, ProviderAttempt} from '../../api/types.js'
import {parseCardNumber, expiryProblem, type TestCardBehaviour} from '../domain/cards.js'
import {methodInfo, METHOD_CODES, type MethodInfo} from '../domain/catalog.js'
import {declineMessage, failsOver} from '../domain/declines.js'
import {currencyExponent, isCurrency} from '../domain/money.js'
import {PROVIDERS} from '../domain/providers.js'
import {assessRisk} from '../domain/risk.js'
import {route, type RoutingRule} from '../domain/routing.js'
import {ApiError, badState, invalid, notFound} from '../http/errors.js'
import type {HandlerResult, RequestCtx} from '../http/router.js'
import {isoParam, pageParams, validate, type Schema} from '../http/validate.js'
import {INTERNAL, toApi, type Kernel} from '../kernel.js'
import type {ProviderConnection, ProviderResult} from '../ports/provider.js'
import type {Filter, Job} from '../ports/store.js'
import {Draft} from './draft.js'
import {dayOf, type ProviderStateCache} from './provider-state.js'

export const MAX_AMOUNT = 99_999_999
/** Lifetime of a customer-action session (3-D Secure, redirect, QR, app approval, card form). */
export const SESSION_LIFETIME_S = 3600
/** Manual-capture authorizations are released after 7 days (§8). */
export const AUTH_VALIDITY_S = 7 * 86_400

export interface Instrument {
  type: 'card'
  /** full number in test mode only (drives the simulation); never returned */
  number: string
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

export interface PaymentInternal {
  instrument?: Instrument
  session?: {token: string; step: 'card_form' | 'challenge' | 'method'; expires_at: string}
  tried: string[]
  challenge_passed?: boolean
  customer_done?: boolean
  auth_expires_at?: string
}

export type PaymentRecord = Payment & {_x: PaymentInternal}

export const BILLING_SCHEMA: Schema = {
  name: {type: 'string', maxLength: 200},
  email: {type: 'string', maxLength: 200},
  phone: {type: 'string', maxLength: 40},
  address: {
    type: 'object',
    fields: {
      line1: {type: 'string', maxLength: 200},
      line2: {type: 'string', maxLength: 200},
      city: {type: 'string', maxLength: 100},
      state: {type: 'string', maxLength: 100},
      postal_code: {type: 'string', maxLength: 20},
      country: {type: 'string', maxLength: 2},
    },
  },
}

export const PAYMENT_METHOD_DATA_SCHEMA: Schema = {
  type: {type: 'string', required: true, enum: ['card'], hint: 'Only card instruments can be created with raw details.'},
  card: {
    type: 'object',
    required: true,
    fields: {
      number: {type: 'string', required: true, maxLength: 30},
      exp_month: {type: 'integer', required: true},
      exp_year: {type: 'integer', required: true},
      cvc: {type: 'string', maxLength: 4},
    },
  },
  customer: {type: 'string'},
  billing_details: {type: 'object', fields: BILLING_SCHEMA},
}

const CREATE_SCHEMA: Schema = {
  amount: {type: 'integer', required: true, min: 1, max: MAX_AMOUNT, hint: "in the currency's minor unit (2000 = €20.00)"},
  currency: {type: 'string', required: true},
  payment_method: {type: 'string'},
  payment_method_id: {type: 'string'},
  payment_method_data: {type: 'object', fields: PAYMENT_METHOD_DATA_SCHEMA},
  reference: {type: 'string', maxLength: 255},
  customer: {
    type: 'string_or_object',
    fields: {id: {type: 'string'}, email: {type: 'string', maxLength: 200}, name: {type: 'string', maxLength: 200}},
  },
  return_url: {type: 'string', maxLength: 2048},
  capture_method: {type: 'string', enum: ['automatic', 'manual']},
  confirm: {type: 'boolean'},
  description: {type: 'string', maxLength: 1000, nullable: true},
  metadata: {type: 'string_map', maxKeys: 50},
  merchant: {type: 'string'},
}

interface StepOutcome {
  /** a final issuer decline to report as 402 on create/confirm */
  declined?: string
}

function assertCurrency(currency: string, param = 'currency'): void {
  if (!/^[A-Z]{3}$/.test(currency)) {
    const hint = /^[a-z]{3}$/.test(currency) ? ` Use uppercase: '${currency.toUpperCase()}'.` : ''
    throw invalid(param, `${param} must be an uppercase ISO 4217 code such as EUR; got '${currency}'.${hint}`)
  }
  if (!isCurrency(currency) || currencyExponent(currency) === undefined)
    throw invalid(param, `${param} '${currency}' is not an ISO 4217 currency code.`)
}

export function parseInstrument(
  data: {card: {number: string; exp_month: number; exp_year: number; cvc?: string}; billing_details?: Record<string, unknown>},
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
    if (!new RegExp(`^\\d{${len}}$`).test(cvc))
      throw invalid(`${prefix}card.cvc`, `${prefix}card.cvc must be ${len} digits for a ${card.brand} card.`, 'cvc_invalid')
  }
  const address = (data.billing_details?.address ?? {}) as {postal_code?: string; country?: string}
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

const cardDetails = (i: Instrument) => ({
  brand: i.brand,
  last4: i.last4,
  exp_month: i.exp_month,
  exp_year: i.exp_year,
  funding: i.funding,
  country: i.country,
})

/** Deterministic bank/account details shown once the customer completed a non-card method. */
function methodDetails(p: PaymentRecord, m: MethodInfo): Record<string, unknown> {
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

const ACTION_PATH: Record<string, string> = {
  card_form: 'card',
  challenge: '3ds',
  method: 'method',
}

export class PaymentsService {
  constructor(
    private k: Kernel,
    private providers: ReadonlyMap<string, ProviderConnection>,
    private providerState: ProviderStateCache,
    private rules: () => Promise<RoutingRule[]>,
  ) {
    k.registerJob('payment.session_expiry', (job, at) => this.onSessionExpiry(job, at))
    k.registerJob('payment.unpaid_expiry', (job, at) => this.onSessionExpiry(job, at))
    k.registerJob('payment.auth_expiry', (job, at) => this.onAuthExpiry(job, at))
    k.registerJob('payment.rail_confirm', (job, at) => this.onRailConfirm(job, at))
  }

  // ------------------------------------------------------------------ reads

  async load(id: string): Promise<{p: PaymentRecord; version: number}> {
    const got = id.startsWith('pay_') ? await this.k.store.get<PaymentRecord>('payment', id) : undefined
    if (!got) throw notFound('payment', id)
    return {p: got.obj, version: got.version}
  }

  async retrieve(ctx: RequestCtx): Promise<HandlerResult> {
    const {p} = await this.load(ctx.params.id!)
    return {status: 200, body: toApi(p)}
  }

  async list(ctx: RequestCtx): Promise<HandlerResult> {
    const q = ctx.query
    const page = pageParams(q, ['status', 'customer', 'reference', 'created_gte', 'created_lte'])
    const filters: Filter[] = []
    const status = q.get('status')
    if (status !== null) {
      const all = ['requires_confirmation', 'requires_action', 'processing', 'requires_capture', 'succeeded', 'failed', 'canceled']
      if (!all.includes(status)) throw invalid('status', `status must be one of ${all.join(', ')}; got '${status}'.`)
      filters.push({field: 'status', op: 'eq', value: status})
    }
    const customer = q.get('customer')
    if (customer !== null) filters.push({field: 'customer', op: 'eq', value: customer})
    const reference = q.get('reference')
    if (reference !== null) filters.push({field: 'reference', op: 'eq', value: reference})
    const gte = isoParam(q, 'created_gte')
    const lte = isoParam(q, 'created_lte')
    if (gte) filters.push({field: 'created_at', op: 'gte', value: gte})
    if (lte) filters.push({field: 'created_at', op: 'lte', value: lte})
    const res = await this.k.store.list<PaymentRecord>('payment', {...page, filters})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such payment '${page[res.cursor_missing]}'.`)
    return {status: 200, body: {object: 'list', url: '/v1/payments', data: res.data.map(toApi), has_more: res.has_more}}
  }

  // ------------------------------------------------------------------ create

  async create(ctx: RequestCtx): Promise<HandlerResult> {
    const body = validate<{
      amount: number
      currency: string
      payment_method?: string
      payment_method_id?: string
      payment_method_data?: {type: 'card'; card: {number: string; exp_month: number; exp_year: number; cvc?: string}; customer?: string; billing_details?: Record<string, unknown>}
      reference?: string
      customer?: string | {id?: string; email?: string; name?: string}
      return_url?: string
      capture_method?: 'automatic' | 'manual'
      confirm?: boolean
      description?: string | null
      metadata?: Record<string, string>
      merchant?: string
    }>(ctx.body, CREATE_SCHEMA)
    const now = this.k.clock.now()
    const d = new Draft(this.k, ctx.requestId)
    assertCurrency(body.currency)

    if (body.payment_method_id !== undefined && body.payment_method_data !== undefined)
      throw invalid('payment_method_data', 'Send either payment_method_id or payment_method_data, not both.')
    let method = body.payment_method
    if (method === undefined) {
      if (body.payment_method_id !== undefined || body.payment_method_data !== undefined) method = 'card'
      else throw new ApiError(400, 'invalid_request_error', 'parameter_missing', 'Missing required parameter: payment_method (for example card, ideal, pix).', {param: 'payment_method'})
    }
    const m = methodInfo(method)
    if (!m) throw invalid('payment_method', `payment_method '${method}' is not a method code. Known codes: ${METHOD_CODES.join(', ')}.`)
    if (!m.currencies.includes(body.currency))
      throw invalid('currency', `${m.name} (${m.code}) accepts ${m.currencies.join(', ')} only; got ${body.currency}.`, 'currency_not_supported')
    const captureMethod = body.capture_method ?? 'automatic'
    if (captureMethod === 'manual' && !m.manualCapture)
      throw invalid('capture_method', `capture_method 'manual' applies to cards only; ${m.name} captures on approval.`)
    if (body.return_url !== undefined) assertUrl(body.return_url, 'return_url')

    // instrument
    let instrument: Instrument | undefined
    let pmId: string | null = null
    let pmCustomer: string | null = null
    if (body.payment_method_id !== undefined) {
      if (m.code !== 'card') throw invalid('payment_method_id', `payment_method_id holds a card; it cannot pay with ${m.code}.`)
      const pm = await this.savedInstrument(body.payment_method_id, 'payment_method_id')
      instrument = pm.instrument
      pmId = pm.id
      pmCustomer = pm.customer
    } else if (body.payment_method_data !== undefined) {
      if (m.code !== 'card') throw invalid('payment_method_data', `payment_method_data describes a card; it cannot pay with ${m.code}.`)
      if (ctx.livemode) throw invalid('payment_method_data.card.number', 'Raw card numbers are accepted in test mode only; collect cards with hosted checkout in live mode.')
      instrument = parseInstrument(body.payment_method_data, now, 'payment_method_data.')
    }

    // customer
    let customerId: string | null = null
    if (body.customer !== undefined) {
      const c = body.customer
      const id = typeof c === 'string' ? c : c.id
      if (id !== undefined) {
        if (typeof c === 'object' && (c.email !== undefined || c.name !== undefined))
          throw invalid('customer', 'Send customer as {id} for an existing customer, or {email, name} for a new one, not both.')
        const got = await this.k.store.get('customer', id)
        if (!got) throw notFound('customer', id, 'customer')
        customerId = id
      } else {
        const obj = c as {email?: string; name?: string}
        if (obj.email === undefined && obj.name === undefined)
          throw invalid('customer', 'customer needs an id, or an email and/or name to create one.')
        customerId = this.k.ids.next('cus')
        const customer: Customer = {
          id: customerId,
          object: 'customer',
          email: obj.email ?? null,
          name: obj.name ?? null,
          description: null,
          metadata: {},
          livemode: ctx.livemode,
          created_at: now.toISOString(),
        }
        d.put('customer', customer)
      }
    }
    if (pmCustomer && customerId && pmCustomer !== customerId)
      throw invalid('payment_method_id', `Payment method ${pmId} belongs to customer ${pmCustomer}, not ${customerId}.`)
    if (pmCustomer && !customerId) customerId = pmCustomer

    if (body.merchant !== undefined) {
      const mer = await this.k.store.get<{id: string; created_at: string; kyb_status?: string}>('merchant', body.merchant)
      if (!mer) throw notFound('merchant', body.merchant, 'merchant')
      if (mer.obj.kyb_status !== undefined && mer.obj.kyb_status !== 'active')
        throw invalid('merchant', `Merchant ${body.merchant} is not active (kyb_status: ${mer.obj.kyb_status}).`, 'merchant_inactive')
    }

    const id = this.k.ids.next('pay')
    const p: PaymentRecord = {
      id,
      object: 'payment',
      amount: body.amount,
      amount_captured: 0,
      amount_refunded: 0,
      currency: body.currency,
      status: 'requires_confirmation',
      payment_method: m.code,
      payment_method_id: pmId,
      payment_method_details: instrument ? {card: cardDetails(instrument)} : null,
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
      livemode: ctx.livemode,
      created_at: now.toISOString(),
      merchant: body.merchant ?? null,
      [INTERNAL]: {instrument, tried: []},
    }
    let outcome: StepOutcome = {}
    if (body.confirm !== false) outcome = await this.proceed(p, d, now)
    d.put('payment', p)
    return this.respond(p, d, outcome, 201)
  }

  private respond(p: PaymentRecord, d: Draft, outcome: StepOutcome, status: number): HandlerResult {
    const changes = d.changeSet()
    if (outcome.declined) {
      throw new ApiError(402, 'card_error', outcome.declined, p.failure_message ?? declineMessage(outcome.declined), {
        payment: p.id,
        changes,
      })
    }
    return {status, body: toApi(p), changes}
  }

  private async savedInstrument(id: string, param: string): Promise<{id: string; instrument: Instrument; customer: string | null}> {
    const got = id.startsWith('pm_')
      ? await this.k.store.get<{id: string; created_at: string; customer: string | null; _x?: {instrument: Instrument}}>('payment_method', id)
      : undefined
    if (!got) throw notFound('payment method', id, param)
    const inst = got.obj._x?.instrument
    if (!inst) throw invalid(param, `Payment method ${id} cannot be used for payments.`)
    return {id, instrument: {...inst, cvc: inst.network_token ? 'cryptogram' : 'missing'}, customer: got.obj.customer}
  }

  // ------------------------------------------------------------------ confirm / capture / increment / cancel

  async confirm(ctx: RequestCtx): Promise<HandlerResult> {
    const body = validate<{payment_method_id?: string; return_url?: string}>(ctx.body, {
      payment_method_id: {type: 'string'},
      return_url: {type: 'string', maxLength: 2048},
    })
    return this.k.locked(ctx.params.id!, async () => {
      const {p, version} = await this.load(ctx.params.id!)
      if (p.status !== 'requires_confirmation')
        throw badState('payment_unexpected_state', `Payment ${p.id} is ${p.status}; only a payment in requires_confirmation can be confirmed.`)
      const d = new Draft(this.k, ctx.requestId)
      if (body.payment_method_id !== undefined) {
        if (p.payment_method !== 'card') throw invalid('payment_method_id', `payment_method_id holds a card; this payment uses ${p.payment_method}.`)
        const pm = await this.savedInstrument(body.payment_method_id, 'payment_method_id')
        if (p.customer && pm.customer && pm.customer !== p.customer)
          throw invalid('payment_method_id', `Payment method ${pm.id} belongs to customer ${pm.customer}, not ${p.customer}.`)
        p._x.instrument = pm.instrument
        p.payment_method_id = pm.id
        p.payment_method_details = {card: cardDetails(pm.instrument)}
      }
      if (body.return_url !== undefined) {
        assertUrl(body.return_url, 'return_url')
        p.return_url = body.return_url
      }
      const outcome = await this.proceed(p, d, this.k.clock.now())
      d.put('payment', p, version)
      return this.respond(p, d, outcome, 200)
    })
  }

  async capture(ctx: RequestCtx): Promise<HandlerResult> {
    const body = validate<{amount?: number; final_capture?: boolean}>(ctx.body, {
      amount: {type: 'integer', min: 1, hint: "in the currency's minor unit"},
      final_capture: {type: 'boolean'},
    })
    return this.k.locked(ctx.params.id!, async () => {
      const {p, version} = await this.load(ctx.params.id!)
      if (p.status !== 'requires_capture')
        throw badState('payment_not_capturable', `Payment ${p.id} is ${p.status}; only a payment in requires_capture can be captured.`)
      const remaining = p.amount - p.amount_captured
      const amount = body.amount ?? remaining
      if (amount > remaining)
        throw invalid('amount', `amount ${amount} exceeds the ${remaining} still capturable on ${p.id}.`, 'amount_too_large')
      const now = this.k.clock.now()
      const provider = this.providers.get(p.provider!)!
      const multi = p._x.instrument?.multi_capture ?? false
      const final = amount === remaining || !multi || body.final_capture === true
      const res = await provider.capture({payment_id: p.id, amount, currency: p.currency, final})
      if (res.outcome !== 'approved') throw new ApiError(502, 'api_error', 'provider_error', `The provider did not confirm the capture (${res.decline_code ?? res.outcome}). Retry with the same Idempotency-Key.`)
      const d = new Draft(this.k, ctx.requestId)
      p.amount_captured += amount
      if (final) this.closeCaptured(p, d, now)
      d.put('payment', p, version)
      return {status: 200, body: toApi(p), changes: d.changeSet()}
    })
  }

  /** The authorization closes with funds captured: the payment succeeds, any remainder is released. */
  private closeCaptured(p: PaymentRecord, d: Draft, now: Date) {
    p.status = 'succeeded'
    p.next_action = null
    d.unschedule('payment.auth_expiry', p.id)
    d.emit('payment.succeeded', p, now)
    this.afterSuccess(p, d, now)
  }

  /** Hook for features that react to captured funds (ledger, disputes of test cards). */
  readonly successHooks: ((p: PaymentRecord, d: Draft, now: Date) => void)[] = []
  private afterSuccess(p: PaymentRecord, d: Draft, now: Date) {
    for (const h of this.successHooks) h(p, d, now)
  }

  async increment(ctx: RequestCtx): Promise<HandlerResult> {
    const body = validate<{amount: number}>(ctx.body, {
      amount: {type: 'integer', required: true, min: 1, max: MAX_AMOUNT, hint: 'as the new total authorization in minor units'},
    })
    return this.k.locked(ctx.params.id!, async () => {
      const {p, version} = await this.load(ctx.params.id!)
      if (p.status !== 'requires_capture')
        throw badState('payment_not_incrementable', `Payment ${p.id} is ${p.status}; only a payment in requires_capture can be incremented.`)
      if (!p._x.instrument?.incremental)
        throw badState('payment_not_incrementable', `The ${p._x.instrument?.brand ?? p.payment_method} network does not support incremental authorization; the original authorization is unchanged.`)
      if (body.amount <= p.amount)
        throw invalid('amount', `amount is the new total authorization and must be greater than the current ${p.amount}; got ${body.amount}.`)
      const res = await this.providers.get(p.provider!)!.incrementAuthorization({payment_id: p.id, amount: body.amount, currency: p.currency})
      if (res.outcome !== 'approved')
        throw new ApiError(402, 'card_error', res.decline_code ?? 'card_declined', `The issuer declined the increment (${res.decline_code ?? res.outcome}); the original authorization of ${p.amount} stands.`, {payment: p.id})
      p.amount = body.amount
      const d = new Draft(this.k, ctx.requestId)
      d.put('payment', p, version)
      return {status: 200, body: toApi(p), changes: d.changeSet()}
    })
  }

  async cancel(ctx: RequestCtx): Promise<HandlerResult> {
    const body = validate<{cancellation_reason?: string}>(ctx.body, {
      cancellation_reason: {type: 'string', enum: ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned']},
    })
    void body
    return this.k.locked(ctx.params.id!, async () => {
      const {p, version} = await this.load(ctx.params.id!)
      if (!['requires_confirmation', 'requires_action', 'requires_capture'].includes(p.status))
        throw badState('payment_not_cancelable', `Payment ${p.id} is ${p.status}; only payments in requires_confirmation, requires_action or requires_capture can be canceled.`)
      const now = this.k.clock.now()
      const d = new Draft(this.k, ctx.requestId)
      if (p.status === 'requires_capture') await this.providers.get(p.provider!)!.void({payment_id: p.id})
      if (p.status === 'requires_capture' && p.amount_captured > 0) {
        // partial captures were made: the captured money is the merchant's, so canceling closes
        // the authorization as succeeded and releases only the remainder (as the 7-day expiry does)
        this.closeCaptured(p, d, now)
        d.put('payment', p, version)
        return {status: 200, body: toApi(p), changes: d.changeSet()}
      }
      this.settlePending(p, 'canceled', now)
      p.status = 'canceled'
      p.next_action = null
      delete p._x.session
      d.unschedule('payment.session_expiry', p.id)
      d.unschedule('payment.unpaid_expiry', p.id)
      d.unschedule('payment.auth_expiry', p.id)
      d.emit('payment.canceled', p, now)
      d.put('payment', p, version)
      return {status: 200, body: toApi(p), changes: d.changeSet()}
    })
  }

  // ------------------------------------------------------------------ the acquiring chain

  /** Confirmation: risk, then routing, then a customer step or authorization. */
  private async proceed(p: PaymentRecord, d: Draft, now: Date): Promise<StepOutcome> {
    const m = methodInfo(p.payment_method)!
    if (m.flow === 'card' && !p._x.instrument) {
      await this.requireAction(p, d, now, 'card_form', null)
      return {}
    }
    if (m.riskScored && p.risk === null) {
      const i = p._x.instrument
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
      if (p.risk.decision === 'blocked') {
        this.fail(p, d, now, 'payment_blocked', 'Risk screening blocked the payment; no provider was attempted.')
        return {}
      }
      // the hold is in `processing` (§3); a customer step (3-D Secure, wallet sheet) comes
      // first, so the payment never moves back from processing to requires_action
      if (p.risk.decision === 'review' && !this.needsCustomerStep(p)) {
        this.holdForReview(p, d, now)
        return {}
      }
    }
    return this.routeAndRun(p, d, now)
  }

  /** True while a customer step (challenge, redirect, QR, app approval) is still to be done. */
  private needsCustomerStep(p: PaymentRecord): boolean {
    const m = methodInfo(p.payment_method)!
    if (m.flow === 'card') return p._x.instrument?.test.kind === 'challenge' && !p._x.challenge_passed
    return m.flow !== 'none' && !p._x.customer_done
  }

  private holdForReview(p: PaymentRecord, d: Draft, now: Date) {
    p.status = 'processing'
    p.next_action = null
    d.emit('payment.risk_review', p, now)
  }

  private async candidates(p: PaymentRecord, now: Date): Promise<{list: string[]; blockedBy: string | null}> {
    const decision = route(
      {
        amount: p.amount,
        currency: p.currency,
        payment_method: p.payment_method,
        card_brand: p._x.instrument?.brand ?? null,
        country: p._x.instrument?.country ?? null,
        merchant: p.merchant ?? null,
      },
      PROVIDERS,
      this.providerState.snapshot(PROVIDERS.map((x) => x.id), now),
      await this.rules(),
      Math.random,
    )
    return {list: decision.candidates.filter((c) => !p._x.tried.includes(c)), blockedBy: decision.blocked_by_rule}
  }

  private async routeAndRun(p: PaymentRecord, d: Draft, now: Date): Promise<StepOutcome> {
    const m = methodInfo(p.payment_method)!
    const {list, blockedBy} = await this.candidates(p, now)
    if (list.length === 0) {
      if (blockedBy) this.fail(p, d, now, 'routing_blocked', `A routing rule (${blockedBy}) blocks this payment.`)
      else this.fail(p, d, now, 'no_provider_available', `No active provider processes ${m.code} in ${p.currency} right now.`)
      return {}
    }
    const first = list[0]!
    if (m.flow === 'card' && p._x.instrument?.test.kind === 'challenge' && !p._x.challenge_passed) {
      await this.requireAction(p, d, now, 'challenge', first)
      return {}
    }
    if (m.flow !== 'card' && m.flow !== 'none' && !p._x.customer_done) {
      await this.requireAction(p, d, now, 'method', first)
      return {}
    }
    if (m.flow === 'none') {
      // direct debit: the mandate is in place; the debit clears later on the rail
      this.addPending(p, first, now)
      p.status = 'processing'
      p.next_action = null
      p.payment_method_details = methodDetails(p, m)
      d.emit('payment.processing', p, now)
      d.schedule('payment.rail_confirm', p.id, new Date(now.getTime() + (m.clearingSeconds ?? 86_400) * 1000))
      return {}
    }
    return this.authorize(p, d, now, list)
  }

  private addPending(p: PaymentRecord, provider: string, now: Date) {
    p.provider = provider
    p.provider_attempts.push({provider, outcome: 'pending', decline_code: null, latency_ms: null, attempted_at: now.toISOString()})
    p._x.tried.push(provider)
  }

  /** Closes a pending attempt that will not go to the provider (canceled, abandoned, failed challenge). */
  private settlePending(p: PaymentRecord, outcome: ProviderAttempt['outcome'], _now: Date) {
    for (const a of p.provider_attempts) if (a.outcome === 'pending') a.outcome = outcome
  }

  private async requireAction(p: PaymentRecord, d: Draft, now: Date, step: 'card_form' | 'challenge' | 'method', provider: string | null) {
    const m = methodInfo(p.payment_method)!
    if (provider) this.addPending(p, provider, now)
    const token = randomBytes(18).toString('base64url')
    const lifetime = m.unpaidExpirySeconds && step === 'method' ? m.unpaidExpirySeconds : SESSION_LIFETIME_S
    const expires = new Date(now.getTime() + lifetime * 1000)
    p._x.session = {token, step, expires_at: expires.toISOString()}
    p.status = 'requires_action'
    p.next_action = {type: 'redirect', url: `${this.k.urls.checkoutUrl}/${ACTION_PATH[step]}/${p.id}?session=${token}`}
    d.unschedule('payment.session_expiry', p.id)
    d.schedule(m.unpaidExpirySeconds && step === 'method' ? 'payment.unpaid_expiry' : 'payment.session_expiry', p.id, expires, {step})
    d.emit('payment.requires_action', p, now)
  }

  /** Tries candidates in order inside this call; a timeout or soft decline fails over, a final decline stops. */
  private async authorize(p: PaymentRecord, d: Draft, now: Date, candidates: string[]): Promise<StepOutcome> {
    const m = methodInfo(p.payment_method)!
    const capture = p.capture_method === 'automatic' || !m.manualCapture
    const i = p._x.instrument
    const pendingIdx = p.provider_attempts.findIndex((a) => a.outcome === 'pending')
    const order = pendingIdx >= 0 ? [p.provider_attempts[pendingIdx]!.provider, ...candidates.filter((c) => c !== p.provider_attempts[pendingIdx]!.provider)] : candidates
    let last: ProviderResult | undefined
    for (let idx = 0; idx < order.length; idx++) {
      const provId = order[idx]!
      const conn = this.providers.get(provId)
      if (!conn) continue
      const attemptAt = new Date(now.getTime())
      const res = await conn.authorize({
        payment_id: p.id,
        amount: p.amount,
        currency: p.currency,
        payment_method: p.payment_method,
        card: i
          ? {brand: i.brand, last4: i.last4, number: i.number, exp_month: i.exp_month, exp_year: i.exp_year, cvc_provided: i.cvc === 'provided', network_token: i.network_token}
          : undefined,
        route_index: idx,
        capture,
      })
      last = res
      const attempt: ProviderAttempt = {
        provider: provId,
        outcome: res.outcome,
        decline_code: res.decline_code,
        latency_ms: res.latency_ms,
        attempted_at: attemptAt.toISOString(),
      }
      if (idx === 0 && pendingIdx >= 0) p.provider_attempts[pendingIdx] = {...attempt, attempted_at: p.provider_attempts[pendingIdx]!.attempted_at}
      else {
        p.provider_attempts.push(attempt)
        if (!p._x.tried.includes(provId)) p._x.tried.push(provId)
      }
      d.stats.push({provider: provId, day: dayOf(now), approved: res.outcome === 'approved' ? 1 : 0, total: 1})
      p.provider = provId
      if (res.outcome === 'approved') {
        p.next_action = null
        delete p._x.session
        if (capture) {
          if (m.confirmDelaySeconds) {
            // the rail confirms later (Multibanco): stays processing until then
            p.status = 'processing'
            d.schedule('payment.rail_confirm', p.id, new Date(now.getTime() + m.confirmDelaySeconds * 1000))
            return {}
          }
          p.amount_captured = p.amount
          p.status = 'succeeded'
          d.emit('payment.succeeded', p, now)
          this.afterSuccess(p, d, now)
        } else {
          p.status = 'requires_capture'
          const exp = new Date(now.getTime() + AUTH_VALIDITY_S * 1000)
          p._x.auth_expires_at = exp.toISOString()
          d.schedule('payment.auth_expiry', p.id, exp)
        }
        return {}
      }
      if (!failsOver(res.outcome, res.decline_code)) {
        const code = res.decline_code ?? 'card_declined'
        this.fail(p, d, now, code, declineMessage(code))
        return {declined: code}
      }
      // timeout, error or soft decline: next provider, same call (§1)
    }
    const why = last ? (last.decline_code ?? last.outcome) : 'no provider'
    this.fail(p, d, now, 'processing_error', `No provider approved the payment: every attempt failed over (last: ${why}). Retrying later may succeed.`)
    return {}
  }

  private fail(p: PaymentRecord, d: Draft, now: Date, code: string, message: string) {
    p.status = 'failed'
    p.failure_code = code
    p.failure_message = message
    p.next_action = null
    delete p._x.session
    d.unschedule('payment.session_expiry', p.id)
    d.unschedule('payment.unpaid_expiry', p.id)
    d.unschedule('payment.auth_expiry', p.id)
    d.emit('payment.failed', p, now)
  }

  // ------------------------------------------------------------------ customer and operator steps

  /**
   * The customer on the hosted page (or the test helper standing in): approve, fail or
   * abandon the current step. `card` carries the card typed into the hosted card form.
   */
  async customerAction(
    id: string,
    outcome: 'approve' | 'fail' | 'abandon',
    opts: {card?: Instrument; session?: string} = {},
  ): Promise<PaymentRecord> {
    return this.k.locks.run(id, async () => {
      const {p, version} = await this.load(id)
      if (p.status !== 'requires_action' || !p._x.session)
        throw badState('payment_unexpected_state', `Payment ${p.id} is ${p.status}; there is no customer step to complete.`)
      if (opts.session !== undefined && opts.session !== p._x.session.token)
        throw badState('session_invalid', 'This checkout session is no longer valid.')
      const now = this.k.clock.now()
      const d = new Draft(this.k, null)
      const m = methodInfo(p.payment_method)!
      const step = p._x.session.step
      if (outcome === 'abandon') {
        this.expire(p, d, now)
      } else if (outcome === 'fail') {
        this.settlePending(p, 'authentication_failed', now)
        if (m.family === 'voucher' || m.family === 'bank_transfer') this.fail(p, d, now, 'payment_expired', 'The voucher or transfer was not paid.')
        else this.fail(p, d, now, 'authentication_required', step === 'challenge' ? 'The 3-D Secure challenge was failed or refused.' : 'The customer did not authorize the payment.')
      } else {
        d.unschedule('payment.session_expiry', p.id)
        d.unschedule('payment.unpaid_expiry', p.id)
        delete p._x.session
        if (step === 'card_form') {
          const card = opts.card
          if (!card) throw invalid('card', 'The hosted card form needs a card.')
          p._x.instrument = card
          p.payment_method_details = {card: cardDetails(card)}
          const out = await this.proceed(p, d, now)
          void out
        } else {
          if (step === 'challenge') p._x.challenge_passed = true
          else {
            p._x.customer_done = true
            p.payment_method_details = methodDetails(p, m)
          }
          p.status = 'processing'
          p.next_action = null
          d.emit('payment.processing', p, now)
          if (p.risk?.decision === 'review') this.holdForReview(p, d, now)
          else {
            const {list} = await this.candidates(p, now)
            await this.authorize(p, d, now, list)
          }
        }
      }
      d.put('payment', p, version)
      await this.k.commit(d.changeSet())
      return p
    })
  }

  /** An abandoned session expires: the payment fails. */
  private expire(p: PaymentRecord, d: Draft, now: Date) {
    const m = methodInfo(p.payment_method)!
    const step = p._x.session?.step
    this.settlePending(p, 'abandoned', now)
    if (step === 'method' && (m.family === 'voucher' || m.family === 'bank_transfer'))
      this.fail(p, d, now, 'payment_expired', `The ${m.name} ${m.family === 'voucher' ? 'voucher' : 'transfer'} expired unpaid.`)
    else if (step === 'challenge') this.fail(p, d, now, 'authentication_required', 'The 3-D Secure session expired before the customer completed it.')
    else this.fail(p, d, now, 'session_expired', 'The customer did not complete the payment before the session expired.')
  }

  /** The operator decides a risk review (test helper). */
  async review(id: string, decision: 'approve' | 'block'): Promise<PaymentRecord> {
    return this.k.locks.run(id, async () => {
      const {p, version} = await this.load(id)
      if (p.status !== 'processing' || p.risk?.decision !== 'review')
        throw badState('payment_unexpected_state', `Payment ${p.id} is not held in risk review (status ${p.status}).`)
      const now = this.k.clock.now()
      const d = new Draft(this.k, null)
      if (decision === 'block') {
        p.risk = {...p.risk, decision: 'blocked'}
        this.settlePending(p, 'canceled', now)
        this.fail(p, d, now, 'payment_blocked', 'An operator blocked the payment after risk review; no provider was attempted.')
      } else {
        p.risk = {...p.risk, decision: 'approved'}
        await this.routeAndRun(p, d, now)
      }
      d.put('payment', p, version)
      await this.k.commit(d.changeSet())
      return p
    })
  }

  // ------------------------------------------------------------------ jobs

  private async onSessionExpiry(job: Job, at: Date) {
    const got = await this.k.store.get<PaymentRecord>('payment', job.ref)
    if (!got || got.obj.status !== 'requires_action') return undefined
    const p = got.obj
    const d = new Draft(this.k, null)
    this.expire(p, d, at)
    d.put('payment', p, got.version)
    return d.changeSet()
  }

  private async onAuthExpiry(job: Job, at: Date) {
    const got = await this.k.store.get<PaymentRecord>('payment', job.ref)
    if (!got || got.obj.status !== 'requires_capture') return undefined
    const p = got.obj
    const d = new Draft(this.k, null)
    await this.providers.get(p.provider!)?.void({payment_id: p.id})
    if (p.amount_captured > 0) this.closeCaptured(p, d, at)
    else {
      p.status = 'canceled'
      d.emit('payment.canceled', p, at)
    }
    d.put('payment', p, got.version)
    return d.changeSet()
  }

  /** Direct debit clearing, Multibanco confirmation: the rail confirms the pending attempt. */
  private async onRailConfirm(job: Job, at: Date) {
    const got = await this.k.store.get<PaymentRecord>('payment', job.ref)
    if (!got || got.obj.status !== 'processing') return undefined
    const p = got.obj
    const d = new Draft(this.k, null)
    const pending = p.provider_attempts.find((a) => a.outcome === 'pending')
    if (pending) {
      pending.outcome = 'approved'
      pending.latency_ms = Math.max(0, at.getTime() - Date.parse(pending.attempted_at))
      d.stats.push({provider: pending.provider, day: dayOf(at), approved: 1, total: 1})
    }
    p.amount_captured = p.amount
    p.status = 'succeeded'
    d.emit('payment.succeeded', p, at)
    this.afterSuccess(p, d, at)
    d.put('payment', p, got.version)
    return d.changeSet()
  }
}

function assertUrl(v: string, param: string) {
  let u: URL
  try {
    u = new URL(v)
  } catch {
    throw invalid(param, `${param} must be an absolute URL such as https://shop.example/return; got '${v}'.`)
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid(param, `${param} must be an http(s) URL.`)
}
