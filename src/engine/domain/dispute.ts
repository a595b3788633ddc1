// The dispute state machine (docs/api.md#dispute-lifecycle), pure: stages only move
// forward (chargeback, pre_arbitration, arbitration); won, lost and accepted are terminal.
// Effects: events, the response deadline timer, and the money withheld or returned.
import type {Dispute} from '../../api/types.js'
import type {DisputeReason, DisputeStage, EvidenceSubmission, SchemeRendering, evidenceCoverage} from './dispute-evidence.js'
import {badState} from './errors.js'

const DAY = 86_400

/** Time the merchant has to respond at each stage (engine clock). */
export const EVIDENCE_WINDOW_S: Readonly<Record<DisputeStage, number>> = {
  chargeback: 7 * DAY,
  pre_arbitration: 10 * DAY,
  arbitration: 10 * DAY,
}

const NEXT_STAGE: Readonly<Record<DisputeStage, DisputeStage | null>> = {
  chargeback: 'pre_arbitration',
  pre_arbitration: 'arbitration',
  arbitration: null,
}

export {DISPUTE_STATUSES} from '../../api/types.js'

export interface DisputeInternal {
  /** card scheme of the contested payment: visa, mastercard, amex, ... */
  network: string | null
  /** every evidence submission, per stage, with the rendering forwarded to the network */
  submissions: {stage: DisputeStage; evidence: EvidenceSubmission; rendering: SchemeRendering; coverage: ReturnType<typeof evidenceCoverage>}[]
}

export type DisputeRecord = Dispute & {_x: DisputeInternal}

export type DisputeEffect =
  | {emit: 'dispute.created' | 'dispute.updated' | 'dispute.closed'}
  | {scheduleDeadline: Date; stage: DisputeStage}
  | {unscheduleDeadline: true}
  /** money moves on the balance: negative withholds, positive returns */
  | {money: 'dispute' | 'dispute_reversal'; amount: number}

export interface DisputeStep {
  dispute: DisputeRecord
  effects: DisputeEffect[]
}

/** The network opens a dispute: needs_response at stage chargeback, the amount withheld. */
export function open(a: {id: string; payment: string; amount: number; currency: string; reason: DisputeReason; network: string | null; livemode: boolean; at: Date}): DisputeStep {
  const due = new Date(a.at.getTime() + EVIDENCE_WINDOW_S.chargeback * 1000)
  const dispute: DisputeRecord = {
    id: a.id,
    object: 'dispute',
    payment: a.payment,
    amount: a.amount,
    currency: a.currency,
    reason: a.reason,
    stage: 'chargeback',
    status: 'needs_response',
    evidence_due_by: due.toISOString(),
    evidence: null,
    previous_evidence: [],
    closed_by: null,
    livemode: a.livemode,
    created_at: a.at.toISOString(),
    _x: {network: a.network, submissions: []},
  }
  return {dispute, effects: [{money: 'dispute', amount: -a.amount}, {scheduleDeadline: due, stage: 'chargeback'}, {emit: 'dispute.created'}]}
}

/** Accept and evidence work only on a dispute in needs_response (docs/api.md#dispute-lifecycle); the error says why not. */
export function assertActionable(dp: Dispute, what: 'accepted' | 'answered with evidence'): void {
  if (dp.status === 'needs_response') return
  const why = dp.status === 'under_review' ? `evidence for the ${dp.stage} stage was already submitted and is under review` : `it is ${dp.status}, which is final`
  throw badState('dispute_not_actionable', `Dispute ${dp.id} cannot be ${what}: ${why}. Only a dispute in needs_response can be accepted or answered with evidence.`)
}

/** One evidence submission per stage: needs_response -> under_review. */
export function submitEvidence(dp0: DisputeRecord, sub: DisputeInternal['submissions'][number]): DisputeStep {
  assertActionable(dp0, 'answered with evidence')
  const dispute: DisputeRecord = {...dp0, status: 'under_review', evidence: sub.evidence, evidence_due_by: null, _x: {...dp0._x, submissions: [...dp0._x.submissions, sub]}}
  return {dispute, effects: [{unscheduleDeadline: true}, {emit: 'dispute.updated'}]}
}

export function accept(dp0: DisputeRecord): DisputeStep {
  assertActionable(dp0, 'accepted')
  return {dispute: {...dp0, status: 'accepted', evidence_due_by: null, closed_by: 'merchant'}, effects: [{unscheduleDeadline: true}, {emit: 'dispute.closed'}]}
}

/** The deadline of `stage` passed with no response: lost, not an error (docs/api.md#dispute-lifecycle). Undefined when it no longer applies. */
export function deadlinePassed(dp0: DisputeRecord, stage: unknown): DisputeStep | undefined {
  if (dp0.status !== 'needs_response' || dp0.stage !== stage) return undefined
  return {dispute: {...dp0, status: 'lost', evidence_due_by: null, closed_by: 'deadline'}, effects: [{emit: 'dispute.closed'}]}
}

/** The issuer or network rules on a dispute under review; escalation opens the next stage. */
export function ruled(dp0: DisputeRecord, outcome: 'won' | 'lost' | 'escalate', at: Date): DisputeStep {
  if (dp0.status !== 'under_review')
    throw badState('dispute_not_actionable', `Dispute ${dp0.id} is ${dp0.status}; the issuer or network rules only on a dispute under_review (after evidence was submitted).`)
  if (outcome === 'escalate') {
    const next = NEXT_STAGE[dp0.stage]
    if (!next) throw badState('dispute_not_actionable', `Dispute ${dp0.id} is at arbitration, whose ruling is binding; it cannot be escalated further.`)
    const due = new Date(at.getTime() + EVIDENCE_WINDOW_S[next] * 1000)
    // the next stage is answered afresh; what was argued before stays on the dispute, by stage
    const argued = dp0.evidence ? [{stage: dp0.stage, ...dp0.evidence}] : []
    const dispute: DisputeRecord = {...dp0, stage: next, status: 'needs_response', evidence: null, previous_evidence: [...(dp0.previous_evidence ?? []), ...argued], evidence_due_by: due.toISOString()}
    return {dispute, effects: [{scheduleDeadline: due, stage: next}, {emit: 'dispute.updated'}]}
  }
  const dispute: DisputeRecord = {...dp0, status: outcome, evidence_due_by: null, closed_by: 'ruling'}
  // funds stay withheld through every stage; a win returns them, a loss keeps the debit
  return {dispute, effects: [...(outcome === 'won' ? [{money: 'dispute_reversal' as const, amount: dp0.amount}] : []), {emit: 'dispute.closed'}]}
}
