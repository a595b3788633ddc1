// Dispute evidence: which submitted keys the networks recognize, which suit each dispute
// reason (docs/api.md#dispute-lifecycle), and how one submission is rendered in the format
// each card scheme expects. Pure: no clock, no store.
import {currencyExponent} from '../../api/money.js'

import type {DisputeReason, DisputeStage} from '../../api/types.js'
export type {DisputeReason, DisputeStage}

export {RECOGNIZED_KEYS, DISPUTE_REASONS, EVIDENCE_BY_REASON, type RecognizedKey} from '../../api/dispute-evidence.js'
import {RECOGNIZED_KEYS, EVIDENCE_BY_REASON, missingEvidence, type RecognizedKey} from '../../api/dispute-evidence.js'

export interface EvidenceSubmission {
  fields: Record<string, string>
  files: string[]
  submitted_at: string
}

/** How a submission covers its reason: recognized and free-text keys, and suited keys still missing. */
export function evidenceCoverage(reason: DisputeReason, fields: Record<string, string>) {
  const keys = Object.keys(fields)
  const recognized = keys.filter((k) => (RECOGNIZED_KEYS as readonly string[]).includes(k))
  const other = keys.filter((k) => !(RECOGNIZED_KEYS as readonly string[]).includes(k))
  const suited = EVIDENCE_BY_REASON[reason].keys
  const missing = missingEvidence(reason, fields)
  return {recognized, other, suited: [...suited], missing}
}

/** What a scheme rendering knows about the contested payment. */
export interface EvidenceContext {
  dispute: {id: string; reason: DisputeReason; stage: DisputeStage; amount: number; currency: string}
  payment: {id: string; reference: string; created_at: string; last4: string | null}
  /** three_d_secure: true when the cardholder passed a 3-D Secure challenge */
  authentication: {three_d_secure: boolean; avs_result: string | null; cvv_result: string | null}
  refunds: {id: string; amount: number; status: string; created_at: string}[]
}

export interface SchemeRendering {
  scheme: 'visa' | 'mastercard' | 'amex' | 'other'
  format: string
  reason_code: string
  payload: Record<string, unknown>
}

/** Amount as a decimal string in the major unit ("20.00", "1500", "1.250"). */
export function decimalAmount(amount: number, currency: string): string {
  const exp = currencyExponent(currency) ?? 2
  if (exp === 0) return String(amount)
  const neg = amount < 0
  const digits = String(Math.abs(amount)).padStart(exp + 1, '0')
  return `${neg ? '-' : ''}${digits.slice(0, -exp)}.${digits.slice(-exp)}`
}

/** Scheme reason codes per dispute reason. */
export const SCHEME_REASON_CODES: Readonly<Record<'visa' | 'mastercard' | 'amex', Record<DisputeReason, string>>> = {
  // Visa Claims Resolution dispute conditions
  visa: {fraudulent: '10.4', product_not_received: '13.1', duplicate: '12.6.1', credit_not_processed: '13.6', general: '13.3'},
  // Mastercard chargeback reason codes
  mastercard: {fraudulent: '4837', product_not_received: '4855', duplicate: '4834', credit_not_processed: '4860', general: '4853'},
  // American Express dispute reason codes
  amex: {fraudulent: 'F29', product_not_received: 'C08', duplicate: 'P08', credit_not_processed: 'C02', general: 'C31'},
}

const VISA_FIELD: Record<RecognizedKey, string> = {
  product_description: 'MerchandiseOrServicesDescription',
  customer_communication: 'CardholderCommunication',
  tracking_number: 'ProofOfDeliveryTrackingNumber',
  shipping_address: 'ShippingAddress',
  refund_policy: 'RefundPolicyDisclosure',
  service_date: 'ServiceProvidedDate',
}

const MASTERCARD_LABEL: Record<RecognizedKey, string> = {
  product_description: 'PRODUCT DESCRIPTION',
  customer_communication: 'CARDHOLDER COMMUNICATION',
  tracking_number: 'TRACKING NUMBER',
  shipping_address: 'SHIPPING ADDRESS',
  refund_policy: 'REFUND POLICY',
  service_date: 'SERVICE DATE',
}

const AMEX_FIELD: Record<RecognizedKey, string> = {
  product_description: 'goods_services_description',
  customer_communication: 'card_member_correspondence',
  tracking_number: 'proof_of_delivery',
  shipping_address: 'ship_to_address',
  refund_policy: 'return_cancellation_policy',
  service_date: 'service_date',
}

const isRecognized = (k: string): k is RecognizedKey => (RECOGNIZED_KEYS as readonly string[]).includes(k)

/** Visa: the case, the stage's response type and one named field per evidence item (VROL-like). */
function renderVisa(ctx: EvidenceContext, ev: EvidenceSubmission): SchemeRendering {
  const reason_code = SCHEME_REASON_CODES.visa[ctx.dispute.reason]
  const fields: Record<string, string> = {}
  const additional: {label: string; text: string}[] = []
  for (const [k, v] of Object.entries(ev.fields)) {
    if (isRecognized(k)) fields[VISA_FIELD[k]] = v
    else additional.push({label: k, text: v})
  }
  const responseType = {chargeback: 'DisputeResponse', pre_arbitration: 'PreArbitrationResponse', arbitration: 'ArbitrationCaseFiling'}[ctx.dispute.stage]
  return {
    scheme: 'visa',
    format: 'visa_vrol',
    reason_code,
    payload: {
      CaseNumber: ctx.dispute.id,
      ResponseType: responseType,
      DisputeCondition: reason_code,
      TransactionIdentifier: ctx.payment.id,
      MerchantReference: ctx.payment.reference,
      DisputeAmount: {Value: decimalAmount(ctx.dispute.amount, ctx.dispute.currency), Currency: ctx.dispute.currency},
      ...fields,
      AdditionalInformation: additional,
      CompellingEvidence: {
        ThreeDSecureAuthenticated: ctx.authentication.three_d_secure,
        AVSResult: ctx.authentication.avs_result,
        CVV2Result: ctx.authentication.cvv_result,
      },
      CreditsIssued: ctx.refunds.map((r) => ({CreditId: r.id, Amount: decimalAmount(r.amount, ctx.dispute.currency), Status: r.status, Date: r.created_at})),
      Attachments: ev.files.map((url, i) => ({Sequence: i + 1, DocumentUrl: url})),
      SubmittedAt: ev.submitted_at,
    },
  }
}

/** Mastercard: a second presentment / pre-arbitration response with a memo and supporting documents (Mastercom-like). */
function renderMastercard(ctx: EvidenceContext, ev: EvidenceSubmission): SchemeRendering {
  const reason_code = SCHEME_REASON_CODES.mastercard[ctx.dispute.reason]
  const lines: string[] = []
  for (const [k, v] of Object.entries(ev.fields)) lines.push(`${isRecognized(k) ? MASTERCARD_LABEL[k] : k.toUpperCase()}: ${v}`)
  if (ctx.authentication.three_d_secure) lines.push('AUTHENTICATION: 3-D SECURE CHALLENGE PASSED')
  if (ctx.authentication.avs_result) lines.push(`AVS: ${ctx.authentication.avs_result.toUpperCase()}`)
  if (ctx.authentication.cvv_result) lines.push(`CVC2: ${ctx.authentication.cvv_result.toUpperCase()}`)
  for (const r of ctx.refunds) lines.push(`CREDIT ${r.id}: ${decimalAmount(r.amount, ctx.dispute.currency)} ${ctx.dispute.currency} ${r.status.toUpperCase()} ${r.created_at}`)
  const messageType = {chargeback: 'SECOND_PRESENTMENT', pre_arbitration: 'PRE_ARBITRATION_RESPONSE', arbitration: 'ARBITRATION_CASE'}[ctx.dispute.stage]
  return {
    scheme: 'mastercard',
    format: 'mastercard_mastercom',
    reason_code,
    payload: {
      claimId: ctx.dispute.id,
      messageType,
      reasonCode: reason_code,
      acquirerReferenceData: ctx.payment.id,
      merchantReference: ctx.payment.reference,
      amount: decimalAmount(ctx.dispute.amount, ctx.dispute.currency),
      currency: ctx.dispute.currency,
      memo: lines.join('\n'),
      documentIndicator: ev.files.length > 0,
      documents: ev.files.map((url) => ({url})),
      submittedAt: ev.submitted_at,
    },
  }
}

/** American Express: a merchant response to the case with named supporting data (Amex merchant response-like). */
function renderAmex(ctx: EvidenceContext, ev: EvidenceSubmission): SchemeRendering {
  const reason_code = SCHEME_REASON_CODES.amex[ctx.dispute.reason]
  const support: Record<string, string> = {}
  const remarks: string[] = []
  for (const [k, v] of Object.entries(ev.fields)) {
    if (isRecognized(k)) support[AMEX_FIELD[k]] = v
    else remarks.push(`${k}: ${v}`)
  }
  return {
    scheme: 'amex',
    format: 'amex_merchant_response',
    reason_code,
    payload: {
      case_number: ctx.dispute.id,
      case_type: {chargeback: 'chargeback', pre_arbitration: 'inquiry_escalation', arbitration: 'arbitration'}[ctx.dispute.stage],
      reason_code,
      response_type: 'merchant_support',
      transaction: {id: ctx.payment.id, reference: ctx.payment.reference, date: ctx.payment.created_at, card_last4: ctx.payment.last4},
      disputed_amount: {amount: decimalAmount(ctx.dispute.amount, ctx.dispute.currency), currency: ctx.dispute.currency},
      supporting_data: support,
      authentication: {safekey: ctx.authentication.three_d_secure, avs: ctx.authentication.avs_result, cid: ctx.authentication.cvv_result},
      credits: ctx.refunds.map((r) => ({credit_id: r.id, amount: decimalAmount(r.amount, ctx.dispute.currency), status: r.status, date: r.created_at})),
      remarks: remarks.join('\n'),
      supporting_documents: ev.files,
      submitted_at: ev.submitted_at,
    },
  }
}

/** Schemes without a dedicated format get a plain structured rendering. */
function renderOther(ctx: EvidenceContext, ev: EvidenceSubmission): SchemeRendering {
  return {
    scheme: 'other',
    format: 'generic',
    reason_code: ctx.dispute.reason,
    payload: {
      dispute: ctx.dispute.id,
      payment: ctx.payment.id,
      reference: ctx.payment.reference,
      stage: ctx.dispute.stage,
      amount: decimalAmount(ctx.dispute.amount, ctx.dispute.currency),
      currency: ctx.dispute.currency,
      fields: {...ev.fields},
      authentication: {...ctx.authentication},
      refunds: ctx.refunds.map((r) => ({...r})),
      files: [...ev.files],
      submitted_at: ev.submitted_at,
    },
  }
}

/** Renders one evidence submission in the format the card's scheme expects (docs/api.md#dispute-lifecycle). */
export function renderEvidence(brand: string | null, ctx: EvidenceContext, ev: EvidenceSubmission): SchemeRendering {
  switch (brand) {
    case 'visa':
      return renderVisa(ctx, ev)
    case 'mastercard':
      return renderMastercard(ctx, ev)
    case 'amex':
      return renderAmex(ctx, ev)
    default:
      return renderOther(ctx, ev)
  }
}
