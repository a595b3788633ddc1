// The parameters of the client's methods: every one an operation's body or query as the OpenAPI
// document defines it (src/api/contract.gen.ts, named by operationId: `CreatePaymentParams` is
// the body of createPayment, `ListPaymentsParams` the query of listPayments). Nothing is written
// here twice; the few names below are parts of those, for code that builds them piece by piece.
import type {
  CreatePaymentParams,
  ListPaymentsParams,
  TestPaymentActionParams,
  TestPaymentReviewParams,
  TestResolveDisputeParams,
  UpdateMerchantParams,
  UpdateRoutingRuleParams,
  SubmitDisputeEvidenceParams,
} from '../api/contract.gen.js'

// every operation's parameters (and the schemas they use), as generated
export type * from '../api/contract.gen.js'

/** The paging every list takes (docs/api.md#lists-and-pagination). */
export type ListParams = Pick<ListPaymentsParams, 'limit' | 'starting_after' | 'ending_before'>

/** `payment_method_data` of POST /payments (docs/decisions.md#saved-and-one-time-instruments): a card as typed. */
export type PaymentMethodData = NonNullable<CreatePaymentParams['payment_method_data']>
export type CardInput = PaymentMethodData['card']
export type BillingDetailsInput = NonNullable<PaymentMethodData['billing_details']>

export type ActionOutcome = TestPaymentActionParams['outcome']
export type ReviewDecision = TestPaymentReviewParams['decision']
export type DisputeOutcome = TestResolveDisputeParams['outcome']

// names the CLI used before the document was the source
/** what the CLI sends: both members, always */
export type EvidenceParams = Required<SubmitDisputeEvidenceParams>
export type MerchantParams = UpdateMerchantParams
export type RoutingRuleParams = UpdateRoutingRuleParams
