// Refunds (spec §2 Refund, §3 Refund states, §4 Refunds; decisions.md "Refund object").
// A refund is created `pending` against a succeeded payment, submitted to the provider that
// processed the payment, and answered by the rail on the engine clock: `succeeded` or
// `failed` (the amount becomes refundable again). The payment's status never changes; its
// amount_refunded / refunded / partially_refunded follow the ledger.
import type {Refund} from '../../api/types.js'
import {methodInfo, type MethodFamily, type MethodInfo} from '../domain/catalog.js'
import {badState, invalid, notFound} from '../http/errors.js'
import type {HandlerResult, RequestCtx} from '../http/router.js'
import {pageParams, validate} from '../http/validate.js'
import {INTERNAL, toApi, type Kernel} from '../kernel.js'
import type {ProviderConnection, ProviderResult} from '../ports/provider.js'
import type {Filter, Job} from '../ports/store.js'
import {Draft} from './draft.js'
import {paymentMoney, type Ledger, type LedgerEntry} from './ledger.js'
import {MAX_AMOUNT, type PaymentRecord} from './payments.js'

const MIN = 60
const HOUR = 3600
const DAY = 86_400

/**
 * How long the rail takes to answer a refund, by method family (engine clock). Card networks
 * accept a refund within the acquirer's next batch; instant rails answer in about a minute;
 * refunds to bank accounts go out as a credit transfer on the next banking day.
 */
export const REFUND_DELAY_S: Readonly<Record<MethodFamily, number>> = {
  card: 30 * MIN,
  wallet: 30 * MIN, // card-backed wallets follow the card network; app wallets credit the wallet in a batch
  crypto: 10 * MIN, // an on-chain USDC transfer back to the payer
  real_time: 1 * MIN,
  mobile_money: 1 * MIN,
  bnpl: 1 * HOUR,
  bank_redirect: 1 * DAY,
  bank_transfer: 1 * DAY,
  direct_debit: 1 * DAY,
  voucher: 2 * DAY, // paid back by bank transfer to the account the customer gives
}

export function refundDelaySeconds(m: MethodInfo): number {
  return REFUND_DELAY_S[m.family]
}

export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const

export interface RefundInternal {
  provider: string | null
  /** the provider's answer to the submission, applied when the rail answers */
  submitted: {outcome: ProviderResult['outcome']; decline_code: string | null} | null
  answers_at: string
}

export type RefundRecord = Refund & {_x: RefundInternal}

export interface OpenDispute {
  id: string
  status: string
}

/** Disputes whose chargeback is open (spec §2 Dispute money rule 5): refunds go through the dispute. */
export async function openDisputesOf(k: Kernel, paymentId: string): Promise<OpenDispute[]> {
  return k.store.all<OpenDispute & {created_at: string}>('dispute', [
    {field: 'payment', op: 'eq', value: paymentId},
    {field: 'status', op: 'in', value: ['needs_response', 'under_review']},
  ])
}

/** Sets the payment's refund fields from its ledger entries; flags are computed against amount_captured. */
export function applyRefundTotals(p: PaymentRecord, entries: readonly LedgerEntry[]): void {
  const {refunded} = paymentMoney(entries)
  p.amount_refunded = refunded
  p.refunded = p.amount_captured > 0 && refunded >= p.amount_captured
  p.partially_refunded = refunded > 0 && refunded < p.amount_captured
}

/** What can still be refunded: captured, less pending and succeeded refunds, less disputed amounts still debited. */
export function refundableOf(p: PaymentRecord, entries: readonly LedgerEntry[]): number {
  const m = paymentMoney(entries)
  return Math.max(0, p.amount_captured - m.refunded - m.disputed)
}

const CREATE_SCHEMA = {
  payment: {type: 'string', required: true},
  amount: {type: 'integer', min: 1, max: MAX_AMOUNT, hint: "in the payment currency's minor unit"},
  reason: {type: 'string', enum: REFUND_REASONS, nullable: true},
  metadata: {type: 'string_map', maxKeys: 50},
} as const

export class RefundsService {
  constructor(
    private k: Kernel,
    private providers: ReadonlyMap<string, ProviderConnection>,
    private ledger: Ledger,
  ) {
    k.registerJob('refund.rail_answer', (job, at) => this.onRailAnswer(job, at))
  }

  async create(ctx: RequestCtx): Promise<HandlerResult> {
    const body = validate<{payment: string; amount?: number; reason?: (typeof REFUND_REASONS)[number] | null; metadata?: Record<string, string>}>(
      ctx.body,
      CREATE_SCHEMA,
    )
    if (!body.payment.startsWith('pay_')) throw notFound('payment', body.payment, 'payment')
    return this.k.locked(body.payment, async () => {
      const got = await this.k.store.get<PaymentRecord>('payment', body.payment)
      if (!got) throw notFound('payment', body.payment, 'payment')
      const p = got.obj
      if (p.status !== 'succeeded')
        throw badState('payment_not_refundable', `Payment ${p.id} is ${p.status}; only a succeeded payment can be refunded.`)
      const open = await openDisputesOf(this.k, p.id)
      if (open.length > 0)
        throw badState(
          'payment_disputed',
          `Payment ${p.id} has an open chargeback (${open[0]!.id}, ${open[0]!.status}); the money moves through the dispute, not through a refund. Accept the dispute or submit evidence instead.`,
        )
      const m = methodInfo(p.payment_method)!
      const entries = await this.ledger.entriesFor(p.id)
      const refundable = refundableOf(p, entries)
      if (!m.partialRefund && body.amount !== undefined && body.amount !== p.amount_captured)
        throw invalid(
          'amount',
          `${m.name} refunds cannot be partial: refund the full ${p.amount_captured} or omit amount.`,
          'partial_refund_unsupported',
        )
      const amount = body.amount ?? refundable
      if (refundable === 0)
        throw invalid('amount', `Nothing is left to refund on ${p.id}: ${p.amount_refunded} of ${p.amount_captured} is refunded or pending.`, 'amount_too_large')
      if (amount > refundable)
        throw invalid('amount', `amount ${amount} exceeds the ${refundable} still refundable on ${p.id}.`, 'amount_too_large')

      const now = this.k.clock.now()
      const id = this.k.ids.next('rf')
      const conn = p.provider ? this.providers.get(p.provider) : undefined
      const i = p._x.instrument
      let submitted: RefundInternal['submitted'] = null
      if (conn) {
        const res = await conn.refund({
          payment_id: p.id,
          refund_id: id,
          amount,
          currency: p.currency,
          payment_method: p.payment_method,
          card: i
            ? {brand: i.brand, last4: i.last4, number: i.number, exp_month: i.exp_month, exp_year: i.exp_year, cvc_provided: false, network_token: i.network_token}
            : undefined,
        })
        submitted = {outcome: res.outcome, decline_code: res.decline_code}
      }
      const answersAt = new Date(now.getTime() + refundDelaySeconds(m) * 1000)
      const refund: RefundRecord = {
        id,
        object: 'refund',
        payment: p.id,
        amount,
        currency: p.currency,
        status: 'pending',
        reason: body.reason ?? null,
        failure_reason: null,
        reference: p.reference,
        metadata: body.metadata ?? {},
        livemode: ctx.livemode,
        created_at: now.toISOString(),
        [INTERNAL]: {provider: p.provider, submitted, answers_at: answersAt.toISOString()},
      }
      const d = new Draft(this.k, ctx.requestId)
      const entry = this.ledger.record(d, {
        type: 'refund',
        amount: -amount,
        currency: p.currency,
        payment: p.id,
        source: id,
        provider: p.provider,
        reference: p.reference,
        at: now,
      })
      applyRefundTotals(p, [...entries, entry])
      d.put('refund', refund)
      d.put('payment', p, got.version)
      d.schedule('refund.rail_answer', p.id, answersAt, {refund: id})
      return {status: 201, body: toApi(refund), changes: d.changeSet()}
    })
  }

  /** The rail answers: succeeded, or failed with the debit reversed. Runs under the payment's lock. */
  private async onRailAnswer(job: Job, at: Date) {
    const refundId = String(job.data?.refund ?? '')
    const got = await this.k.store.get<RefundRecord>('refund', refundId)
    if (!got || got.obj.status !== 'pending') return undefined
    const r = got.obj
    const d = new Draft(this.k, null)
    let answer = r._x.submitted
    if (!answer || (answer.outcome !== 'approved' && answer.outcome !== 'declined')) {
      // the submission got no final answer (timeout, provider error): ask the provider again
      const conn = r._x.provider ? this.providers.get(r._x.provider) : undefined
      const pay = await this.k.store.get<PaymentRecord>('payment', r.payment)
      const i = pay?.obj._x.instrument
      const res = conn
        ? await conn.refund({
            payment_id: r.payment,
            refund_id: r.id,
            amount: r.amount,
            currency: r.currency,
            payment_method: pay?.obj.payment_method ?? 'card',
            card: i
              ? {brand: i.brand, last4: i.last4, number: i.number, exp_month: i.exp_month, exp_year: i.exp_year, cvc_provided: false, network_token: i.network_token}
              : undefined,
          })
        : undefined
      answer = res ? {outcome: res.outcome, decline_code: res.decline_code} : {outcome: 'error', decline_code: null}
    }
    if (answer.outcome === 'approved') {
      r.status = 'succeeded'
      d.put('refund', r, got.version)
      d.emit('refund.succeeded', r, at)
      return d.changeSet()
    }
    r.status = 'failed'
    r.failure_reason = answer.outcome === 'declined' ? 'declined' : 'provider_unavailable'
    const pay = await this.k.store.get<PaymentRecord>('payment', r.payment)
    if (pay) {
      const entries = await this.ledger.entriesFor(r.payment)
      const entry = this.ledger.record(d, {
        type: 'refund_failure',
        amount: r.amount,
        currency: r.currency,
        payment: r.payment,
        source: r.id,
        provider: r._x.provider,
        reference: r.reference,
        at,
      })
      applyRefundTotals(pay.obj, [...entries, entry])
      d.put('payment', pay.obj, pay.version)
    }
    d.put('refund', r, got.version)
    d.emit('refund.failed', r, at)
    return d.changeSet()
  }

  async retrieve(ctx: RequestCtx): Promise<HandlerResult> {
    const id = ctx.params.id!
    const got = id.startsWith('rf_') ? await this.k.store.get<RefundRecord>('refund', id) : undefined
    if (!got) throw notFound('refund', id)
    return {status: 200, body: toApi(got.obj)}
  }

  async list(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['payment', 'status'])
    const filters: Filter[] = []
    const payment = ctx.query.get('payment')
    if (payment !== null) filters.push({field: 'payment', op: 'eq', value: payment})
    const status = ctx.query.get('status')
    if (status !== null) {
      const all = ['pending', 'succeeded', 'failed']
      if (!all.includes(status)) throw invalid('status', `status must be one of ${all.join(', ')}; got '${status}'.`)
      filters.push({field: 'status', op: 'eq', value: status})
    }
    const res = await this.k.store.list<RefundRecord>('refund', {...page, filters})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such refund '${page[res.cursor_missing]}'.`)
    return {status: 200, body: {object: 'list', url: '/v1/refunds', data: res.data.map(toApi), has_more: res.has_more}}
  }
}
