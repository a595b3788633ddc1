// Decline codes: the one table saying which declines are soft (retried on the next
// provider inside the same API call: docs/api.md#routing-and-failover) and which are final (never retried), with
// the human message used for `failure_message`.
import {CARD_ERROR_CODES} from '../../api/openapi/errors.js'
import type {AttemptOutcome} from '../../api/types.js'

/** The codes a final decline answers with (402 card_error): the document's list. */
export type CardErrorCode = (typeof CARD_ERROR_CODES)[number]

export type DeclineKind = 'soft' | 'final'

export interface DeclineInfo {
  kind: DeclineKind
  message: string
}

export const DECLINES: Readonly<Record<string, DeclineInfo>> = Object.freeze({
  // soft: the provider or issuer could not decide now; another provider may approve
  processing_error: {kind: 'soft', message: 'An error occurred while processing the payment.'},
  issuer_unavailable: {kind: 'soft', message: 'The card issuer could not be reached.'},
  try_again_later: {kind: 'soft', message: 'The payment was declined temporarily; it can be tried again later.'},
  provider_unavailable: {kind: 'soft', message: 'The payment provider is temporarily unavailable.'},
  reenter_transaction: {kind: 'soft', message: 'The issuer could not process the payment and asks for it to be submitted again.'},

  // final: the issuer or rules said no; retrying elsewhere would not change it
  card_declined: {kind: 'final', message: 'The card was declined.'},
  insufficient_funds: {kind: 'final', message: 'The card has insufficient funds to complete the payment.'},
  expired_card: {kind: 'final', message: 'The card has expired.'},
  incorrect_cvc: {kind: 'final', message: "The card's security code is incorrect."},
  do_not_honor: {kind: 'final', message: 'The card was declined by the issuer (do not honor).'},
  lost_card: {kind: 'final', message: 'The card was declined: it has been reported lost.'},
  stolen_card: {kind: 'final', message: 'The card was declined: it has been reported stolen.'},
  fraudulent: {kind: 'final', message: 'The payment was declined because the issuer suspects fraud.'},
  invalid_account: {kind: 'final', message: 'The card or account is invalid.'},
  authentication_required: {kind: 'final', message: '3-D Secure authentication could not be completed, or the challenge was failed or refused.'},
  payment_blocked: {kind: 'final', message: 'The payment was blocked by risk screening.'},
  // refunds: the provider refused the refund (refund.failure_reason)
  refund_failed: {kind: 'final', message: 'The refund could not be processed by the provider.'},
} satisfies Record<string, DeclineInfo>)

function lookup(code: string): DeclineInfo | undefined {
  return Object.prototype.hasOwnProperty.call(DECLINES, code) ? DECLINES[code] : undefined
}

/** Unknown codes are final: never retrying an unknown decline is the safe choice for money. */
export function declineKind(code: string): DeclineKind {
  return lookup(code)?.kind ?? 'final'
}

export function declineMessage(code: string): string {
  return lookup(code)?.message ?? `The payment was declined (${code}).`
}

/** A final decline's code as the 402 error's: one of the document's card codes (document.test.ts checks the simulated issuers give no other); card_declined for any other. */
export function cardErrorCode(code: string): CardErrorCode {
  return CARD_ERROR_CODES.find((c) => c === code) ?? 'card_declined'
}

/** True when the attempt's result lets routing try the next provider within the same call. */
export function failsOver(outcome: string, declineCode: string | null): boolean {
  if (outcome === 'timeout' || outcome === 'error' || outcome === 'soft_declined') return true
  if (outcome === 'declined' && declineCode !== null) return declineKind(declineCode) === 'soft'
  return false
}

/** Every value of `provider_attempts[].outcome`, with its meaning. */
export const ATTEMPT_OUTCOMES: Readonly<Record<AttemptOutcome, string>> = Object.freeze({
  pending: 'the attempt waits on a customer step (3-D Secure, redirect, QR, voucher) or on the rail to confirm',
  approved: 'the provider authorized (and, for automatic capture, captured) the payment',
  declined: 'a final decline (decline_code says why); never retried on another provider',
  soft_declined: 'a temporary decline; the next provider is tried inside the same call',
  timeout: 'the provider did not answer within its timeout; the next provider is tried',
  error: 'the provider returned an error or could not be reached; the next provider is tried',
  authentication_failed: '3-D Secure failed or was refused by the customer',
  abandoned: 'the customer session expired before the customer completed the step',
  canceled: 'the payment was canceled while this attempt was pending',
})
