// Request shapes the CLI sends (spec §4, decisions.md). Responses use src/api/types.ts.
import type {DisputeReason, DisputeStatus, PaymentStatus, RoutingRuleConditions} from '../api/types.js'

export interface CardInput {
  number: string
  exp_month: number
  exp_year: number
  cvc?: string
}

export interface BillingDetailsInput {
  name?: string
  email?: string
  address?: {line1?: string; postal_code?: string; country?: string}
}

/** decisions.md: body of POST /payment_methods, also `payment_method_data` of POST /payments */
export interface PaymentMethodData {
  type: 'card'
  card: CardInput
  customer?: string
  billing_details?: BillingDetailsInput
}

export interface CreatePaymentParams {
  amount: number
  currency: string
  payment_method: string
  reference?: string
  customer?: {id: string} | {email?: string; name?: string}
  return_url?: string
  capture_method?: 'automatic' | 'manual'
  confirm?: boolean
  payment_method_id?: string
  payment_method_data?: PaymentMethodData
  metadata?: Record<string, string>
  description?: string
  merchant?: string
}

export interface ListParams {
  limit?: number
  starting_after?: string
  ending_before?: string
}

export interface ListPaymentsParams extends ListParams {
  status?: PaymentStatus
  customer?: string
  /** payments of every customer with this email (any case) */
  customer_email?: string
  /** the customer's email domain (any case) */
  email_domain?: string
  /** a prefix of the customer's name or of its last word */
  customer_name?: string
  /** the card's last four digits */
  card_last4?: string
  reference?: string
  reference_prefix?: string
  /** key:value */
  metadata?: string
  created_gte?: string
  created_lte?: string
}

export interface CreateCustomerParams {
  email?: string
  name?: string
  description?: string
  metadata?: Record<string, string>
}

export interface ListPaymentMethodsParams extends ListParams {
  customer?: string
}

export type CreatePaymentMethodParams = PaymentMethodData

export type ActionOutcome = 'approve' | 'fail' | 'abandon'
export type ReviewDecision = 'approve' | 'block'

/** decisions.md "Refund object": POST /refunds */
export interface CreateRefundParams {
  payment: string
  amount?: number
  reason?: 'duplicate' | 'fraudulent' | 'requested_by_customer'
  metadata?: Record<string, string>
}

export interface ListRefundsParams extends ListParams {
  payment?: string
  status?: 'pending' | 'succeeded' | 'failed'
}

export interface ListDisputesParams extends ListParams {
  status?: DisputeStatus
  payment?: string
}

/** spec §4 Submit evidence: fields of string to string, files as HTTPS URLs */
export interface EvidenceParams {
  fields: Record<string, string>
  files: string[]
}

export interface SimulateDisputeParams {
  payment: string
  reason?: DisputeReason
  amount?: number
}

export type DisputeOutcome = 'won' | 'lost' | 'escalate'

export interface ListSettlementReportsParams extends ListParams {
  provider?: string
  currency?: string
  date?: string
}

export interface ListPayoutsParams extends ListParams {
  currency?: string
  status?: string
}

export interface UpdateCustomerParams {
  email?: string | null
  name?: string | null
  description?: string | null
  metadata?: Record<string, string>
}

export interface ListProvidersParams extends ListParams {
  payment_method?: string
  currency?: string
}

export interface MerchantParams {
  business_name?: string
  legal_name?: string
  country?: string
  email?: string
  metadata?: Record<string, string>
  capabilities?: Partial<Record<'card_payments' | 'local_payments' | 'payouts', 'active' | 'inactive'>>
}

export type CreateMerchantParams = MerchantParams & {business_name: string}

export interface ListMerchantsParams extends ListParams {
  kyb_status?: string
}

export interface RoutingRuleParams {
  merchant?: string | null
  priority?: number
  action?: 'prefer' | 'split' | 'block'
  providers?: {provider: string; weight?: number}[]
  conditions?: RoutingRuleConditions
}

export interface ListRoutingRulesParams extends ListParams {
  merchant?: string
}

/** GET /routing/simulate (docs/api.md "Routing explained") */
export interface SimulateRoutingParams {
  amount: number
  currency: string
  payment_method: string
  card_brand?: string
  country?: string
  merchant?: string
}
