// Disputes (spec §2 Dispute, §3 Dispute status and stage, §4 Disputes, §6 dispute.* events).
// Only the card network opens a dispute: the test helper POST /test_helpers/disputes, or
// test card 4000 0000 0000 0259 a minute after it succeeds. Every dispute event carries
// request_id null, since it originates from the network, even when an API call (evidence,
// accept) caused the change.
import type {Dispute} from '../../api/types.js'
import {methodInfo} from '../domain/catalog.js'
import {
  DISPUTE_REASONS,
  evidenceCoverage,
  renderEvidence,
  type DisputeReason,
  type DisputeStage,
  type EvidenceSubmission,
  type SchemeRendering,
} from '../domain/dispute-evidence.js'
import {ApiError, badState, invalid, notFound, unknownParam} from '../http/errors.js'
import type {HandlerResult, RequestCtx, Router} from '../http/router.js'
import {pageParams, validate} from '../http/validate.js'
import {INTERNAL, toApi, type Kernel} from '../kernel.js'
import type {ProviderConnection} from '../ports/provider.js'
import type {Filter, Job} from '../ports/store.js'
import {requireTestMode} from './admin.js'
import {Draft} from './draft.js'
import {Ledger} from './ledger.js'
import {MAX_AMOUNT, type PaymentRecord, type PaymentsService} from './payments.js'
import {refundableOf, RefundsService, type RefundRecord} from './refunds.js'

const DAY = 86_400

/** Time the merchant has to respond at each stage (engine clock). */
export const EVIDENCE_WINDOW_S: Readonly<Record<DisputeStage, number>> = {
  chargeback: 7 * DAY,
  pre_arbitration: 10 * DAY,
  arbitration: 10 * DAY,
}

/** Test card 4000 0000 0000 0259: the network opens its dispute this long after the payment succeeds. */
export const TEST_CARD_DISPUTE_DELAY_S = 60

const NEXT_STAGE: Readonly<Record<DisputeStage, DisputeStage | null>> = {
  chargeback: 'pre_arbitration',
  pre_arbitration: 'arbitration',
  arbitration: null,
}

export const EVIDENCE_LIMITS = {maxFields: 50, maxKeyLength: 100, maxValueLength: 20_000, maxFiles: 20, maxUrlLength: 2048}

export interface DisputeInternal {
  /** card scheme of the contested payment: visa, mastercard, amex, ... */
  network: string | null
  /** every evidence submission, per stage, with the rendering forwarded to the network */
  submissions: {stage: DisputeStage; evidence: EvidenceSubmission; rendering: SchemeRendering; coverage: ReturnType<typeof evidenceCoverage>}[]
}

export type DisputeRecord = Dispute & {_x: DisputeInternal}

const STATUSES = ['needs_response', 'under_review', 'won', 'lost', 'accepted'] as const

/** Card-family payments can be disputed; buy now pay later is chargeback-free (spec §4 method rule 4). */
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

/** Validates an evidence body: `{fields: object of string to string, files: array of HTTPS URLs}`. */
export function parseEvidence(body: unknown): {fields: Record<string, string>; files: string[]} {
  const b = body ?? {}
  if (typeof b !== 'object' || Array.isArray(b)) throw invalid('body', 'The request body must be a JSON object {fields, files}.')
  for (const k of Object.keys(b)) if (k !== 'fields' && k !== 'files') throw unknownParam(k)
  const raw = b as {fields?: unknown; files?: unknown}
  const fields: Record<string, string> = {}
  if (raw.fields !== undefined) {
    if (typeof raw.fields !== 'object' || raw.fields === null || Array.isArray(raw.fields))
      throw invalid('fields', 'fields must be an object of string keys to string values, e.g. {"tracking_number": "1Z999..."}.')
    const entries = Object.entries(raw.fields as Record<string, unknown>)
    if (entries.length > EVIDENCE_LIMITS.maxFields) throw invalid('fields', `fields can hold at most ${EVIDENCE_LIMITS.maxFields} keys.`)
    for (const [k, v] of entries) {
      if (k.length === 0 || k.length > EVIDENCE_LIMITS.maxKeyLength)
        throw invalid(`fields.${k}`, `fields keys must be 1 to ${EVIDENCE_LIMITS.maxKeyLength} characters.`)
      if (typeof v !== 'string') throw invalid(`fields.${k}`, `fields.${k} must be a string.`)
      if (v.length > EVIDENCE_LIMITS.maxValueLength)
        throw invalid(`fields.${k}`, `fields.${k} must be at most ${EVIDENCE_LIMITS.maxValueLength} characters.`)
      fields[k] = v
    }
  }
  const files: string[] = []
  if (raw.files !== undefined) {
    if (!Array.isArray(raw.files)) throw invalid('files', 'files must be an array of HTTPS URLs.')
    if (raw.files.length > EVIDENCE_LIMITS.maxFiles) throw invalid('files', `files can hold at most ${EVIDENCE_LIMITS.maxFiles} URLs.`)
    raw.files.forEach((f, i) => {
      let u: URL | undefined
      if (typeof f === 'string' && f.length <= EVIDENCE_LIMITS.maxUrlLength) {
        try {
          u = new URL(f)
        } catch {
          u = undefined
        }
      }
      if (!u || u.protocol !== 'https:') throw invalid(`files[${i}]`, `files[${i}] must be an HTTPS URL such as https://shop.example/receipt.pdf.`)
      files.push(f as string)
    })
  }
  if (Object.keys(fields).length === 0 && files.length === 0)
    throw new ApiError(400, 'invalid_request_error', 'parameter_missing', 'Evidence needs at least one entry in fields or one file URL.', {param: 'fields'})
  return {fields, files}
}

export class DisputesService {
  constructor(
    private k: Kernel,
    private ledger: Ledger,
  ) {
    k.registerJob('dispute.deadline', (job, at) => this.onDeadline(job, at))
    k.registerJob('dispute.network_open', (job, at) => this.onNetworkOpen(job, at))
  }

  // ------------------------------------------------------------------ reads

  private async load(id: string): Promise<{dp: DisputeRecord; version: number}> {
    const got = id.startsWith('dp_') ? await this.k.store.get<DisputeRecord>('dispute', id) : undefined
    if (!got) throw notFound('dispute', id)
    return {dp: got.obj, version: got.version}
  }

  async retrieve(ctx: RequestCtx): Promise<HandlerResult> {
    const {dp} = await this.load(ctx.params.id!)
    return {status: 200, body: toApi(dp)}
  }

  async list(ctx: RequestCtx): Promise<HandlerResult> {
    const page = pageParams(ctx.query, ['status', 'payment'])
    const filters: Filter[] = []
    const status = ctx.query.get('status')
    if (status !== null) {
      if (!(STATUSES as readonly string[]).includes(status)) throw invalid('status', `status must be one of ${STATUSES.join(', ')}; got '${status}'.`)
      filters.push({field: 'status', op: 'eq', value: status})
    }
    const payment = ctx.query.get('payment')
    if (payment !== null) filters.push({field: 'payment', op: 'eq', value: payment})
    const res = await this.k.store.list<DisputeRecord>('dispute', {...page, filters})
    if (res.cursor_missing) throw invalid(res.cursor_missing, `${res.cursor_missing}: no such dispute '${page[res.cursor_missing]}'.`)
    return {status: 200, body: {object: 'list', url: '/v1/disputes', data: res.data.map(toApi), has_more: res.has_more}}
  }

  // ------------------------------------------------------------------ the network opens a dispute

  /** Opens a dispute in the draft: needs_response at stage chargeback, the amount withheld, dispute.created. */
  private open(p: PaymentRecord, d: Draft, now: Date, reason: DisputeReason, amount: number, livemode: boolean): DisputeRecord {
    const id = this.k.ids.next('dp')
    const due = new Date(now.getTime() + EVIDENCE_WINDOW_S.chargeback * 1000)
    const dp: DisputeRecord = {
      id,
      object: 'dispute',
      payment: p.id,
      amount,
      currency: p.currency,
      reason,
      stage: 'chargeback',
      status: 'needs_response',
      evidence_due_by: due.toISOString(),
      evidence: null,
      livemode,
      created_at: now.toISOString(),
      [INTERNAL]: {network: networkOf(p), submissions: []},
    }
    this.ledger.record(d, {type: 'dispute', amount: -amount, currency: p.currency, payment: p.id, source: id, provider: p.provider, reference: p.reference, at: now})
    d.put('dispute', dp)
    d.schedule('dispute.deadline', id, due, {stage: 'chargeback'})
    d.emit('dispute.created', dp, now)
    return dp
  }

  /** POST /test_helpers/disputes {payment, reason?, amount?}: the network opens a dispute. */
  async createTest(ctx: RequestCtx): Promise<HandlerResult> {
    requireTestMode(ctx)
    const body = validate<{payment: string; reason?: DisputeReason; amount?: number}>(ctx.body, {
      payment: {type: 'string', required: true},
      reason: {type: 'string', enum: DISPUTE_REASONS},
      amount: {type: 'integer', min: 1, max: MAX_AMOUNT, hint: "in the payment currency's minor unit"},
    })
    if (!body.payment.startsWith('pay_')) throw notFound('payment', body.payment, 'payment')
    return this.k.locked(body.payment, async () => {
      const got = await this.k.store.get<PaymentRecord>('payment', body.payment)
      if (!got) throw notFound('payment', body.payment, 'payment')
      const p = got.obj
      const problem = disputeProblem(p)
      if (problem) throw badState('payment_not_disputable', problem)
      const existing = await this.k.store.all<DisputeRecord>('dispute', [{field: 'payment', op: 'eq', value: p.id}])
      if (existing.length > 0)
        throw badState('payment_already_disputed', `Payment ${p.id} already has a dispute (${existing[0]!.id}); a transaction is charged back once.`)
      const disputable = refundableOf(p, await this.ledger.entriesFor(p.id))
      const amount = body.amount ?? disputable
      if (disputable === 0) throw invalid('amount', `Nothing is left to dispute on ${p.id}: it is fully refunded.`, 'amount_too_large')
      if (amount > disputable)
        throw invalid('amount', `amount ${amount} exceeds the ${disputable} captured and not refunded on ${p.id}.`, 'amount_too_large')
      const d = new Draft(this.k, null)
      const dp = this.open(p, d, this.k.clock.now(), body.reason ?? 'general', amount, ctx.livemode)
      return {status: 201, body: toApi(dp), changes: d.changeSet()}
    })
  }

  /** Success hook: test card 4000 0000 0000 0259 is disputed by the network a minute later. */
  onPaymentSucceeded = (p: PaymentRecord, d: Draft, now: Date): void => {
    const t = p._x.instrument?.test
    if (t?.kind !== 'dispute') return
    d.schedule('dispute.network_open', p.id, new Date(now.getTime() + TEST_CARD_DISPUTE_DELAY_S * 1000), {reason: t.reason})
  }

  private async onNetworkOpen(job: Job, at: Date) {
    const got = await this.k.store.get<PaymentRecord>('payment', job.ref)
    if (!got || disputeProblem(got.obj)) return undefined
    const p = got.obj
    const existing = await this.k.store.all<DisputeRecord>('dispute', [{field: 'payment', op: 'eq', value: p.id}])
    if (existing.length > 0) return undefined
    const amount = refundableOf(p, await this.ledger.entriesFor(p.id))
    if (amount === 0) return undefined // refunded in full before the cardholder disputed
    const d = new Draft(this.k, null)
    const reason = (job.data?.reason as DisputeReason | undefined) ?? 'fraudulent'
    this.open(p, d, at, reason, amount, p.livemode)
    return d.changeSet()
  }

  // ------------------------------------------------------------------ the merchant responds

  private notActionable(dp: DisputeRecord, what: string): ApiError {
    const why =
      dp.status === 'under_review'
        ? `evidence for the ${dp.stage} stage was already submitted and is under review`
        : `it is ${dp.status}, which is final`
    return badState('dispute_not_actionable', `Dispute ${dp.id} cannot be ${what}: ${why}. Only a dispute in needs_response can be accepted or answered with evidence.`)
  }

  async submitEvidence(ctx: RequestCtx): Promise<HandlerResult> {
    const ev = parseEvidence(ctx.body)
    const id = ctx.params.id!
    return this.k.locked(id, async () => {
      const {dp, version} = await this.load(id)
      if (dp.status !== 'needs_response') throw this.notActionable(dp, 'answered with evidence')
      const now = this.k.clock.now()
      const submission: EvidenceSubmission = {fields: ev.fields, files: ev.files, submitted_at: now.toISOString()}
      const rendering = await this.render(dp, submission)
      dp._x.submissions.push({stage: dp.stage, evidence: submission, rendering, coverage: evidenceCoverage(dp.reason, ev.fields)})
      dp.evidence = submission
      dp.status = 'under_review'
      dp.evidence_due_by = null
      const d = new Draft(this.k, null)
      d.unschedule('dispute.deadline', dp.id)
      d.put('dispute', dp, version)
      d.emit('dispute.updated', dp, now)
      return {status: 200, body: toApi(dp), changes: d.changeSet()}
    })
  }

  /** The submission in the format the payment's card scheme expects (forwarded to the network). */
  private async render(dp: DisputeRecord, ev: EvidenceSubmission): Promise<SchemeRendering> {
    const pay = await this.k.store.get<PaymentRecord>('payment', dp.payment)
    const p = pay?.obj
    const refunds = await this.k.store.all<RefundRecord>('refund', [{field: 'payment', op: 'eq', value: dp.payment}])
    const card = p?.payment_method_details?.[p.payment_method] as {last4?: string} | undefined
    return renderEvidence(
      dp._x.network,
      {
        dispute: {id: dp.id, reason: dp.reason, stage: dp.stage, amount: dp.amount, currency: dp.currency},
        payment: {id: dp.payment, reference: p?.reference ?? dp.payment, created_at: p?.created_at ?? dp.created_at, last4: card?.last4 ?? null},
        authentication: {
          three_d_secure: p?._x.challenge_passed === true,
          avs_result: p?.risk?.checks.avs_result ?? null,
          cvv_result: p?.risk?.checks.cvv_result ?? null,
        },
        refunds: refunds.map((r) => ({id: r.id, amount: r.amount, status: r.status, created_at: r.created_at})),
      },
      ev,
    )
  }

  async accept(ctx: RequestCtx): Promise<HandlerResult> {
    validate(ctx.body, {})
    const id = ctx.params.id!
    return this.k.locked(id, async () => {
      const {dp, version} = await this.load(id)
      if (dp.status !== 'needs_response') throw this.notActionable(dp, 'accepted')
      const now = this.k.clock.now()
      dp.status = 'accepted'
      dp.evidence_due_by = null
      const d = new Draft(this.k, null)
      d.unschedule('dispute.deadline', dp.id)
      d.put('dispute', dp, version)
      d.emit('dispute.closed', dp, now)
      return {status: 200, body: toApi(dp), changes: d.changeSet()}
    })
  }

  /** The response deadline passed with no evidence and no acceptance: lost (spec §7 other rule 2). */
  private async onDeadline(job: Job, at: Date) {
    const got = await this.k.store.get<DisputeRecord>('dispute', job.ref)
    if (!got) return undefined
    const dp = got.obj
    if (dp.status !== 'needs_response' || dp.stage !== job.data?.stage) return undefined
    dp.status = 'lost'
    dp.evidence_due_by = null
    const d = new Draft(this.k, null)
    d.put('dispute', dp, got.version)
    d.emit('dispute.closed', dp, at)
    return d.changeSet()
  }

  // ------------------------------------------------------------------ the issuer or network rules

  /** POST /test_helpers/disputes/{id}/resolve {outcome: won | lost | escalate}, from under_review. */
  async resolve(ctx: RequestCtx): Promise<HandlerResult> {
    requireTestMode(ctx)
    const body = validate<{outcome: 'won' | 'lost' | 'escalate'}>(ctx.body, {
      outcome: {type: 'string', required: true, enum: ['won', 'lost', 'escalate']},
    })
    const id = ctx.params.id!
    return this.k.locked(id, async () => {
      const {dp, version} = await this.load(id)
      if (dp.status !== 'under_review')
        throw badState(
          'dispute_not_actionable',
          `Dispute ${dp.id} is ${dp.status}; the issuer or network rules only on a dispute under_review (after evidence was submitted).`,
        )
      const now = this.k.clock.now()
      const d = new Draft(this.k, null)
      if (body.outcome === 'escalate') {
        const next = NEXT_STAGE[dp.stage]
        if (!next) throw badState('dispute_not_actionable', `Dispute ${dp.id} is at arbitration, whose ruling is binding; it cannot be escalated further.`)
        const due = new Date(now.getTime() + EVIDENCE_WINDOW_S[next] * 1000)
        dp.stage = next
        dp.status = 'needs_response'
        dp.evidence = null // earlier evidence is not carried over (kept in _x.submissions)
        dp.evidence_due_by = due.toISOString()
        d.schedule('dispute.deadline', dp.id, due, {stage: next})
        d.put('dispute', dp, version)
        d.emit('dispute.updated', dp, now)
      } else {
        dp.status = body.outcome
        dp.evidence_due_by = null
        if (body.outcome === 'won') {
          const pay = await this.k.store.get<PaymentRecord>('payment', dp.payment)
          this.ledger.record(d, {
            type: 'dispute_reversal',
            amount: dp.amount,
            currency: dp.currency,
            payment: dp.payment,
            source: dp.id,
            provider: pay?.obj.provider ?? null,
            reference: pay?.obj.reference ?? null,
            at: now,
          })
        }
        d.put('dispute', dp, version)
        d.emit('dispute.closed', dp, now)
      }
      return {status: 200, body: toApi(dp), changes: d.changeSet()}
    })
  }
}

/**
 * Wires the ledger, refunds and disputes into the engine: success hooks on payments (ledger
 * entries for captured funds, the dispute of test card 0259) and their routes.
 */
export async function installMoney(opts: {
  kernel: Kernel
  router: Router
  payments: PaymentsService
  providers: ReadonlyMap<string, ProviderConnection>
}): Promise<{ledger: Ledger; refunds: RefundsService; disputes: DisputesService}> {
  const {kernel, router: r, payments, providers} = opts
  const ledger = new Ledger(kernel)
  await ledger.load()
  const refunds = new RefundsService(kernel, providers, ledger)
  const disputes = new DisputesService(kernel, ledger)
  payments.successHooks.push(ledger.onPaymentSucceeded, disputes.onPaymentSucceeded)
  r.get('/balance', (c) => ledger.retrieveBalance(c))
    .post('/refunds', (c) => refunds.create(c))
    .get('/refunds', (c) => refunds.list(c))
    .get('/refunds/:id', (c) => refunds.retrieve(c))
    .get('/disputes', (c) => disputes.list(c))
    .get('/disputes/:id', (c) => disputes.retrieve(c))
    .post('/disputes/:id/evidence', (c) => disputes.submitEvidence(c))
    .post('/disputes/:id/accept', (c) => disputes.accept(c))
    .post('/test_helpers/disputes', (c) => disputes.createTest(c))
    .post('/test_helpers/disputes/:id/resolve', (c) => disputes.resolve(c))
  return {ledger, refunds, disputes}
}
