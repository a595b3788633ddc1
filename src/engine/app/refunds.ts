// Refund use cases: a refund is created pending against a succeeded payment, submitted to the
// provider that processed it, and answered by the rail on the engine clock.
import {providerChaos} from './chaos-providers.js'
import {methodInfo} from '../../api/catalog.js'
import {invalid, notFound} from '../domain/errors.js'
import {listPage, type PageQuery} from '../core/lists.js'
import {refundableOf, withRefundTotals} from '../domain/ledger.js'
import type {PaymentRecord} from '../domain/payment.js'
import {REFUND_DELAY_S, REFUND_STATUSES, railAnswered, refundAmount, type RefundInternal, type RefundRecord, type REFUND_REASONS} from '../domain/refund.js'
import type {ProviderCardInput} from '../ports/provider.js'
import type {ClaimedJob, Filter, ListPage} from '../ports/store.js'
import type {Core} from '../core/core.js'
import {openDisputeOf} from './disputes.js'
import {INTERNAL} from '../core/internal.js'
import {entriesFor, recordEntry} from './ledger.js'
import type {Unit} from '../core/unit.js'
import type {Body} from '../../api/types.js'

export type {RefundRecord} from '../domain/refund.js'

/** POST /refunds: the body as the document defines it. */
export type CreateRefund = Body<'createRefund'>

function cardOf(p: PaymentRecord | undefined): ProviderCardInput | undefined {
  const i = p?._x.instrument
  return i ? {brand: i.brand, last4: i.last4, number: i.number, exp_month: i.exp_month, exp_year: i.exp_year, cvc_provided: false, network_token: i.network_token} : undefined
}

export async function createRefund(u: Unit, body: CreateRefund): Promise<RefundRecord> {
  if (!body.payment.startsWith('pay_')) throw notFound('payment', body.payment, 'payment')
  await u.lock(body.payment)
  const got = await u.get<PaymentRecord>('payment', body.payment)
  if (!got) throw notFound('payment', body.payment, 'payment')
  const p = got.obj
  const m = methodInfo(p.payment_method)!
  const entries = await entriesFor(u, p.id)
  const refundable = refundableOf(p, entries)
  // the chargebacks that took money back are read only when they may be why less is left
  const short = p.status === 'succeeded' && (refundable === 0 || (body.amount ?? 0) > refundable)
  const closedDisputes = short ? await u.all<{id: string; status: string; amount: number; created_at: string}, 'dispute'>('dispute', [{field: 'payment', op: 'eq', value: p.id}, {field: 'status', op: 'in', value: ['lost', 'accepted']}]) : undefined
  const amount = refundAmount({payment: p, method: m, openDispute: p.status === 'succeeded' ? await openDisputeOf(u, p.id) : undefined, refundable, requested: body.amount, closedDisputes})

  const now = u.now
  const id = u.core.ids.next('rf')
  const conn = p.provider ? u.core.providers.get(p.provider) : undefined
  let submitted: RefundInternal['submitted'] = null
  if (conn) {
    let res = await conn.refund({payment_id: p.id, refund_id: id, amount, currency: p.currency, payment_method: p.payment_method, card: cardOf(p)})
    if (!u.core.chaos.none) res = await providerChaos(u, p.provider!, 'refund', res)
    submitted = {outcome: res.outcome, decline_code: res.decline_code}
  }
  const answersAt = new Date(now.getTime() + REFUND_DELAY_S[m.family] * 1000)
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
    livemode: u.livemode,
    created_at: now.toISOString(),
    [INTERNAL]: {provider: p.provider, submitted, answers_at: answersAt.toISOString()},
  }
  const entry = recordEntry(u, {type: 'refund', amount: -amount, currency: p.currency, payment: p.id, source: id, provider: p.provider, reference: p.reference, at: now})
  u.put('refund', refund)
  u.put('payment', withRefundTotals(p, [...entries, entry]), got.version)
  u.schedule('refund.rail_answer', p.id, answersAt, {refund: id})
  return refund
}

/** The rail answers: succeeded, or failed with the debit reversed. Runs under the payment's lock (the job's ref). */
async function onRailAnswer(u: Unit, job: ClaimedJob): Promise<void> {
  const got = await u.get<RefundRecord>('refund', String(job.data?.refund ?? ''))
  if (!got || got.obj.status !== 'pending') return
  const r = got.obj
  const pay = await u.get<PaymentRecord>('payment', r.payment)
  let answer = r._x.submitted
  if (!answer || (answer.outcome !== 'approved' && answer.outcome !== 'declined')) {
    // the submission got no final answer (timeout, provider error): ask the provider again
    const conn = r._x.provider ? u.core.providers.get(r._x.provider) : undefined
    let res = conn
      ? await conn.refund({payment_id: r.payment, refund_id: r.id, amount: r.amount, currency: r.currency, payment_method: pay?.obj.payment_method ?? 'card', card: cardOf(pay?.obj)})
      : undefined
    if (res && !u.core.chaos.none) res = await providerChaos(u, r._x.provider!, 'refund', res)
    answer = res ? {outcome: res.outcome, decline_code: res.decline_code} : {outcome: 'error', decline_code: null}
  }
  const {refund, succeeded} = railAnswered(r, answer)
  u.put('refund', refund, got.version)
  if (!succeeded && pay) {
    const entries = await entriesFor(u, r.payment)
    const entry = recordEntry(u, {type: 'refund_failure', amount: r.amount, currency: r.currency, payment: r.payment, source: r.id, provider: r._x.provider, reference: r.reference, at: u.now})
    u.put('payment', withRefundTotals(pay.obj, [...entries, entry]), pay.version)
  }
  u.emit(succeeded ? 'refund.succeeded' : 'refund.failed', refund)
}

export function registerRefundJobs(core: Core): void {
  core.jobs.register('refund.rail_answer', onRailAnswer)
}

export async function retrieveRefund(core: Core, id: string): Promise<RefundRecord> {
  const got = id.startsWith('rf_') ? await core.store.get<RefundRecord>('refund', id) : undefined
  if (!got) throw notFound('refund', id)
  return got.obj
}

export async function listRefunds(core: Core, q: PageQuery<'listRefunds'>): Promise<ListPage<RefundRecord>> {
  const filters: Filter<'refund'>[] = []
  if (q.payment !== undefined) filters.push({field: 'payment', op: 'eq', value: q.payment})
  if (q.status !== undefined) {
    if (!(REFUND_STATUSES as readonly string[]).includes(q.status)) throw invalid('status', `status must be one of ${REFUND_STATUSES.join(', ')}; got '${q.status}'.`)
    filters.push({field: 'status', op: 'eq', value: q.status})
  }
  return listPage<RefundRecord, 'refund'>(core, 'refund', q, filters, 'refund', true)
}
