// Refunds (docs/api.md#refund-rules): pending until the rail answers, then succeeded,
// or failed with the amount restored to the refundable balance. Pure rules.
import type {Refund} from '../../api/types.js'
import type {MethodFamily, MethodInfo} from '../../api/catalog.js'
import {badState, invalid} from './errors.js'
import type {ProviderResult} from '../ports/provider.js'

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

export {REFUND_REASONS} from '../../api/types.js'
export {REFUND_STATUSES} from '../../api/types.js'

export interface RefundInternal {
  provider: string | null
  /** the provider's answer to the submission, applied when the rail answers */
  submitted: {outcome: ProviderResult['outcome']; decline_code: string | null} | null
  answers_at: string
}

export type RefundRecord = Refund & {_x: RefundInternal}

/**
 * The amount a refund request may take, or why not, in the documented order: payment state,
 * open chargeback, partial refund of a voucher, amount (docs/api.md "Refund check order").
 */
export function refundAmount(a: {
  payment: {id: string; status: string; amount_captured: number; amount_refunded: number; currency?: string}
  method: MethodInfo
  openDispute: {id: string; status: string} | undefined
  refundable: number
  requested: number | undefined
  /** chargebacks that took money back for good (lost or accepted): named when they leave less to refund */
  closedDisputes?: readonly {id: string; status: string; amount: number}[]
}): number {
  const p = a.payment
  if (p.status !== 'succeeded') throw badState('payment_not_refundable', `Payment ${p.id} is ${p.status}; only a succeeded payment can be refunded.`)
  if (a.openDispute) throw badState('payment_disputed', `Payment ${p.id} has an open chargeback (${a.openDispute.id}, ${a.openDispute.status}); the money moves through the dispute, not through a refund. ${whileDisputed(a.openDispute)}`)
  if (!a.method.partialRefund && a.requested !== undefined && a.requested !== p.amount_captured)
    throw invalid('amount', `${a.method.name} refunds cannot be partial: refund the full ${p.amount_captured} or omit amount.`, 'partial_refund_unsupported')
  const taken = (a.closedDisputes ?? []).filter((d) => d.status === 'lost' || d.status === 'accepted')
  const why = [
    ...taken.map((d) => `the chargeback ${d.id} (${d.status}) took ${d.amount}${p.currency ? ` ${p.currency}` : ''} back to the cardholder`),
    ...(p.amount_refunded > 0 ? [`${p.amount_refunded} of ${p.amount_captured} is refunded or pending`] : []),
  ]
  if (a.refundable === 0)
    throw invalid('amount', `Nothing is left to refund on ${p.id}: ${why.length ? why.join('; ') : `${p.amount_refunded} of ${p.amount_captured} is refunded or pending`}.`, 'amount_too_large')
  const amount = a.requested ?? a.refundable
  if (amount > a.refundable) throw invalid('amount', `amount ${amount} exceeds the ${a.refundable} still refundable on ${p.id}${taken.length ? ` (${why.join('; ')})` : ''}.`, 'amount_too_large')
  return amount
}

/** What can be done about an open chargeback instead of a refund, by its status. */
function whileDisputed(d: {id: string; status: string}): string {
  if (d.status === 'under_review')
    return `Its evidence is under review: nothing can be done until the ruling (won: the amount returns and the payment can be refunded as usual; lost: it went to the cardholder).`
  return `Accept the dispute (the cardholder keeps the amount) or submit evidence to contest it.`
}

/** The rail's final answer: succeeded, or failed (declined by the rail, or no final answer came). */
export function railAnswered(r: RefundRecord, answer: {outcome: string}): {refund: RefundRecord; succeeded: boolean} {
  if (answer.outcome === 'approved') return {refund: {...r, status: 'succeeded'}, succeeded: true}
  return {refund: {...r, status: 'failed', failure_reason: answer.outcome === 'declined' ? 'declined' : 'provider_unavailable'}, succeeded: false}
}
