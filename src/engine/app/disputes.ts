// Dispute use cases. Only the card network opens a dispute: the test helper, or test card
// 4000 0000 0000 0259 a minute after it succeeds. Every dispute event carries request_id null
// (dispute events originate from the network: docs/api.md#event-types), including changes an API call caused.
import {methodInfo} from '../../api/catalog.js'
import * as dispute from '../domain/dispute.js'
import {DISPUTE_STATUSES, type DisputeRecord} from '../domain/dispute.js'
import {evidenceCoverage, renderEvidence, type DisputeReason, type EvidenceSubmission} from '../domain/dispute-evidence.js'
import {badState, DomainError, invalid, notFound} from '../domain/errors.js'
import {listPage, type PageQuery} from '../core/lists.js'
import {refundableOf} from '../domain/ledger.js'
import type {PaymentRecord} from '../domain/payment.js'
import type {RefundRecord} from '../domain/refund.js'
import type {ClaimedJob, Filter, ListPage} from '../ports/store.js'
import type {Core} from '../core/core.js'
import {entriesFor, recordEntry} from './ledger.js'
import type {Unit} from '../core/unit.js'

export type {DisputeRecord} from '../domain/dispute.js'

/** Test card 4000 0000 0000 0259: the network opens its dispute this long after the payment succeeds. */
export const TEST_CARD_DISPUTE_DELAY_S = 60

/** Card-family payments can be disputed; buy now pay later is chargeback-free (docs/api.md#payment-methods). */
function disputeProblem(p: PaymentRecord): string | null {
  const m = methodInfo(p.payment_method)!
  if (m.chargebackFree) return `${m.name} payments are chargeback-free; the network cannot open a dispute on ${p.id}.`
  if (!m.cardFamily) return `Only card payments (card, apple_pay, google_pay) can be disputed through a card network; ${p.id} was paid with ${p.payment_method}.`
  if (p.status !== 'succeeded') return `Payment ${p.id} is ${p.status}; only a succeeded payment can be disputed.`
  return null
}

function networkOf(p: PaymentRecord): string | null {
  if (p._x.instrument) return p._x.instrument.brand
  const details = p.payment_method_details?.[p.payment_method] as {brand?: string} | undefined
  return details?.brand ?? null
}

/** The open chargeback of a payment (needs_response or under_review), if any: refunds go through it (docs/api.md#dispute-lifecycle). */
export async function openDisputeOf(u: Pick<Unit, 'all'>, paymentId: string): Promise<DisputeRecord | undefined> {
  const open = await u.all<DisputeRecord, 'dispute'>('dispute', [
    {field: 'payment', op: 'eq', value: paymentId},
    {field: 'status', op: 'in', value: ['needs_response', 'under_review']},
  ])
  return open[0]
}

/** Carries out a dispute transition's effects; dispute events carry request_id null. */
function apply(u: Unit, step: dispute.DisputeStep, pay: {provider: string | null; reference: string} | undefined): DisputeRecord {
  const dp = step.dispute
  for (const e of step.effects) {
    if ('emit' in e) u.emit(e.emit, dp, u.now, null)
    else if ('scheduleDeadline' in e) u.schedule('dispute.deadline', dp.id, e.scheduleDeadline, {stage: e.stage})
    else if ('unscheduleDeadline' in e) u.unschedule('dispute.deadline', dp.id)
    else recordEntry(u, {type: e.money, amount: e.amount, currency: dp.currency, payment: dp.payment, source: dp.id, provider: pay?.provider ?? null, reference: pay?.reference ?? null, at: u.now})
  }
  return dp
}

async function openOn(u: Unit, p: PaymentRecord, reason: DisputeReason, amount: number): Promise<DisputeRecord> {
  const step = dispute.open({id: u.core.ids.next('dp'), payment: p.id, amount, currency: p.currency, reason, network: networkOf(p), livemode: p.livemode, at: u.now})
  const dp = apply(u, step, p)
  u.put('dispute', dp)
  return dp
}

/** POST /test_helpers/disputes {payment, reason?, amount?}: the network opens a dispute. */
export async function openTestDispute(u: Unit, body: {payment: string; reason?: DisputeReason; amount?: number}): Promise<DisputeRecord> {
  if (!body.payment.startsWith('pay_')) throw notFound('payment', body.payment, 'payment')
  await u.lock(body.payment)
  const got = await u.get<PaymentRecord>('payment', body.payment)
  if (!got) throw notFound('payment', body.payment, 'payment')
  const p = got.obj
  const problem = disputeProblem(p)
  if (problem) throw badState('payment_not_disputable', problem)
  const existing = await u.all<DisputeRecord, 'dispute'>('dispute', [{field: 'payment', op: 'eq', value: p.id}])
  if (existing.length > 0) throw badState('payment_already_disputed', `Payment ${p.id} already has a dispute (${existing[0]!.id}); a transaction is charged back once.`)
  const disputable = refundableOf(p, await entriesFor(u, p.id))
  const amount = body.amount ?? disputable
  if (disputable === 0) throw invalid('amount', `Nothing is left to dispute on ${p.id}: it is fully refunded.`, 'amount_too_large')
  if (amount > disputable) throw invalid('amount', `amount ${amount} exceeds the ${disputable} captured and not refunded on ${p.id}.`, 'amount_too_large')
  return openOn(u, p, body.reason ?? 'general', amount)
}

/** After a success: test card 4000 0000 0000 0259 is disputed by the network a minute later. */
export function scheduleTestCardDispute(u: Unit, p: PaymentRecord, at: Date): void {
  const t = p._x.instrument?.test
  if (t?.kind !== 'dispute') return
  u.schedule('dispute.network_open', p.id, new Date(at.getTime() + TEST_CARD_DISPUTE_DELAY_S * 1000), {reason: t.reason})
}

async function onNetworkOpen(u: Unit, job: ClaimedJob): Promise<void> {
  const got = await u.get<PaymentRecord>('payment', job.ref)
  if (!got || disputeProblem(got.obj)) return
  const p = got.obj
  if ((await u.all('dispute', [{field: 'payment', op: 'eq', value: p.id}])).length > 0) return
  const amount = refundableOf(p, await entriesFor(u, p.id))
  if (amount === 0) return // refunded in full before the cardholder disputed
  await openOn(u, p, (job.data?.reason as DisputeReason | undefined) ?? 'fraudulent', amount)
}

async function loadDispute(u: Pick<Unit, 'get'>, id: string): Promise<{dp: DisputeRecord; version: number}> {
  const got = id.startsWith('dp_') ? await u.get<DisputeRecord>('dispute', id) : undefined
  if (!got) throw notFound('dispute', id)
  return {dp: got.obj, version: got.version}
}

async function paymentOf(u: Unit, dp: DisputeRecord): Promise<PaymentRecord | undefined> {
  return (await u.get<PaymentRecord>('payment', dp.payment))?.obj
}

/** Runs a transition of the dispute under its lock, writing it at the version read. */
async function change(u: Unit, id: string, fn: (dp: DisputeRecord, p: PaymentRecord | undefined) => Promise<dispute.DisputeStep> | dispute.DisputeStep): Promise<DisputeRecord> {
  await u.lock(id)
  const {dp, version} = await loadDispute(u, id)
  const p = await paymentOf(u, dp)
  const out = apply(u, await fn(dp, p), p)
  u.put('dispute', out, version)
  return out
}

export function submitEvidence(u: Unit, id: string, ev: {fields: Record<string, string>; files: string[]}): Promise<DisputeRecord> {
  if (Object.keys(ev.fields).length === 0 && ev.files.length === 0)
    throw new DomainError('invalid_request', 'parameter_missing', 'Evidence needs at least one entry in fields or one file URL.', {param: 'fields'})
  return change(u, id, async (dp, p) => {
    const evidence: EvidenceSubmission = {fields: ev.fields, files: ev.files, submitted_at: u.now.toISOString()}
    dispute.assertActionable(dp, 'answered with evidence')
    const refunds = await u.all<RefundRecord, 'refund'>('refund', [{field: 'payment', op: 'eq', value: dp.payment}])
    const card = p?.payment_method_details?.[p.payment_method] as {last4?: string} | undefined
    // the submission in the format the payment's card scheme expects (forwarded to the network)
    const rendering = renderEvidence(
      dp._x.network,
      {
        dispute: {id: dp.id, reason: dp.reason, stage: dp.stage, amount: dp.amount, currency: dp.currency},
        payment: {id: dp.payment, reference: p?.reference ?? dp.payment, created_at: p?.created_at ?? dp.created_at, last4: card?.last4 ?? null},
        authentication: {three_d_secure: p?._x.challenge_passed === true, avs_result: p?.risk?.checks.avs_result ?? null, cvv_result: p?.risk?.checks.cvv_result ?? null},
        refunds: refunds.map((r) => ({id: r.id, amount: r.amount, status: r.status, created_at: r.created_at})),
      },
      evidence,
    )
    return dispute.submitEvidence(dp, {stage: dp.stage, evidence, rendering, coverage: evidenceCoverage(dp.reason, ev.fields)})
  })
}

export function acceptDispute(u: Unit, id: string): Promise<DisputeRecord> {
  return change(u, id, (dp) => dispute.accept(dp))
}

/** POST /test_helpers/disputes/{id}/resolve {outcome: won | lost | escalate}, from under_review. */
export function resolveDispute(u: Unit, id: string, outcome: 'won' | 'lost' | 'escalate'): Promise<DisputeRecord> {
  return change(u, id, (dp) => dispute.ruled(dp, outcome, u.now))
}

export function registerDisputeJobs(core: Core): void {
  core.jobs.register('dispute.network_open', onNetworkOpen)
  core.jobs.register('dispute.deadline', async (u, job) => {
    const got = await u.get<DisputeRecord>('dispute', job.ref)
    const step = got && dispute.deadlinePassed(got.obj, job.data?.stage)
    if (!step) return
    const out = apply(u, step, await paymentOf(u, got.obj))
    u.put('dispute', out, got.version)
  })
}

export async function retrieveDispute(core: Core, id: string): Promise<DisputeRecord> {
  return (await loadDispute(core.store, id)).dp
}

export async function listDisputes(core: Core, q: PageQuery<'listDisputes'>): Promise<ListPage<DisputeRecord>> {
  const filters: Filter<'dispute'>[] = []
  if (q.status !== undefined) {
    if (!(DISPUTE_STATUSES as readonly string[]).includes(q.status)) throw invalid('status', `status must be one of ${DISPUTE_STATUSES.join(', ')}; got '${q.status}'.`)
    filters.push({field: 'status', op: 'eq', value: q.status})
  }
  if (q.payment !== undefined) filters.push({field: 'payment', op: 'eq', value: q.payment})
  return listPage<DisputeRecord, 'dispute'>(core, 'dispute', q, filters, 'dispute', true)
}
