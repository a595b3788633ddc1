// Risk screening of card-family payments (docs/api.md#risk-screening). Deterministic: the same
// input always gives the same score. A failed AVS or CVV check never declines by itself; it
// raises the score, which may tip the decision to review or blocked.
import {currencyExponent} from '../../api/money.js'

export interface RiskInput {
  amount: number
  currency: string
  payment_method: string
  /** 'cryptogram': wallet or network-token charge, no CVC to check */
  cvc: 'provided' | 'missing' | 'cryptogram'
  /** test card 4000 0000 0000 0101 */
  cvvFail: boolean
  billingPostalCode?: string | null
  billingCountry?: string | null
  cardCountry?: string | null
}

export type CheckResult = 'pass' | 'fail' | 'unavailable'
export type RiskDecision = 'approved' | 'review' | 'blocked'

export interface RiskAssessment {
  score: number
  decision: RiskDecision
  checks: {avs_result: CheckResult; cvv_result: CheckResult}
}

/** score < 65: approved; 65-84: review (payment held in processing); >= 85: blocked. */
export const RISK_REVIEW_THRESHOLD = 65
export const RISK_BLOCK_THRESHOLD = 85

/** Test amounts (docs/api.md#test-cards-and-amounts): 4991 is always held for review, 4992 always blocked. */
export const RISK_REVIEW_TEST_AMOUNT = 4991
export const RISK_BLOCK_TEST_AMOUNT = 4992

/** Billing postal code that makes the AVS check fail (test trigger, like Stripe's). */
export const AVS_FAIL_POSTAL_CODE = '00000'

export const RISK_POINTS = Object.freeze({
  /** base score = AMOUNT_PER_DECADE x log10(1 + amount in major units), capped */
  AMOUNT_PER_DECADE: 5,
  AMOUNT_CAP: 40,
  CVV_FAIL: 30,
  /** card charged without a CVC and without a cryptogram */
  CVC_MISSING: 5,
  AVS_FAIL: 20,
  /** billing country differs from the card's issuing country */
  COUNTRY_MISMATCH: 10,
})

export function riskDecision(score: number): RiskDecision {
  if (score >= RISK_BLOCK_THRESHOLD) return 'blocked'
  if (score >= RISK_REVIEW_THRESHOLD) return 'review'
  return 'approved'
}

export function assessRisk(input: RiskInput): RiskAssessment {
  // CVV: a cryptogram replaces the CVC (unavailable); the 0101 test card fails the check.
  let cvv_result: CheckResult
  if (input.cvc === 'cryptogram') cvv_result = 'unavailable'
  else if (input.cvvFail) cvv_result = 'fail'
  else if (input.cvc === 'provided') cvv_result = 'pass'
  else cvv_result = 'unavailable'

  const postal = input.billingPostalCode?.trim() ?? ''
  const avs_result: CheckResult = postal === '' ? 'unavailable' : postal === AVS_FAIL_POSTAL_CODE ? 'fail' : 'pass'

  const exponent = currencyExponent(input.currency) ?? 2
  const major = Math.max(0, input.amount) / 10 ** exponent
  let score = Math.min(RISK_POINTS.AMOUNT_CAP, Math.round(RISK_POINTS.AMOUNT_PER_DECADE * Math.log10(1 + major)))
  if (cvv_result === 'fail') score += RISK_POINTS.CVV_FAIL
  if (input.cvc === 'missing' && cvv_result === 'unavailable') score += RISK_POINTS.CVC_MISSING
  if (avs_result === 'fail') score += RISK_POINTS.AVS_FAIL
  const billing = input.billingCountry?.trim().toUpperCase()
  const issuing = input.cardCountry?.trim().toUpperCase()
  if (billing && issuing && billing !== issuing) score += RISK_POINTS.COUNTRY_MISMATCH

  if (input.amount === RISK_REVIEW_TEST_AMOUNT) score = Math.min(RISK_BLOCK_THRESHOLD - 1, Math.max(score, 70))
  else if (input.amount === RISK_BLOCK_TEST_AMOUNT) score = Math.max(score, 90)

  score = Math.max(0, Math.min(99, Math.round(score)))
  return {score, decision: riskDecision(score), checks: {avs_result, cvv_result}}
}
