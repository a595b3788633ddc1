// The contract's value lists: each an `as const` array, its type derived from it. The OpenAPI
// document's enums are built from these arrays (src/api/openapi/schemas/), the generated types
// (contract.gen.ts) from the document, and code that needs the values at run time (a flag's
// options, a use case's check) reads the same arrays. Pure data: the CLI, the SDK and the engine
// all load it.

export const PAYMENT_STATUSES = ['requires_confirmation', 'requires_action', 'processing', 'requires_capture', 'succeeded', 'failed', 'canceled'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

export const ATTEMPT_OUTCOMES = ['pending', 'approved', 'declined', 'soft_declined', 'timeout', 'error', 'authentication_failed', 'abandoned', 'canceled'] as const
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number]

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const
export type RefundStatus = (typeof REFUND_STATUSES)[number]
export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const
export type RefundReason = (typeof REFUND_REASONS)[number]
/** Why a payment was canceled (POST /payments/{id}/cancel `cancellation_reason`). */
export const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const
export type CancellationReason = (typeof CANCELLATION_REASONS)[number]

export const DISPUTE_STATUSES = ['needs_response', 'under_review', 'won', 'lost', 'accepted'] as const
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number]
export const DISPUTE_STAGES = ['chargeback', 'pre_arbitration', 'arbitration'] as const
export type DisputeStage = (typeof DISPUTE_STAGES)[number]
export const DISPUTE_REASONS = ['fraudulent', 'product_not_received', 'duplicate', 'credit_not_processed', 'general'] as const
export type DisputeReason = (typeof DISPUTE_REASONS)[number]

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed_retrying', 'undeliverable'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export const PAYOUT_STATUSES = ['in_transit', 'paid'] as const
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number]

export const PROVIDER_STATUSES = ['active', 'degraded', 'disabled'] as const
export type ProviderStatus = (typeof PROVIDER_STATUSES)[number]

export const KYB_STATUSES = ['pending', 'active', 'restricted', 'rejected'] as const
export type KybStatus = (typeof KYB_STATUSES)[number]

/** open: the customer may pay (and try again after a decline); complete: a payment of it succeeded or is processing; expired. */
export const CHECKOUT_SESSION_STATUSES = ['open', 'complete', 'expired'] as const
export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number]

/** An injected API fault (docs/decisions.md#failure-on-purpose): an error status, a slow answer, or the response lost after the work committed. */
export const CHAOS_API_FAULTS = ['500', '503', '429', 'slow', 'response_lost'] as const
export type ChaosApiFault = (typeof CHAOS_API_FAULTS)[number]
/** A provider fault: down (every call fails, health degraded), a share of calls timing out or soft-declining, added latency. */
export const CHAOS_PROVIDER_FAULTS = ['down', 'timeout', 'soft_decline', 'latency'] as const
export type ChaosProviderFault = (typeof CHAOS_PROVIDER_FAULTS)[number]
/** A webhook fault: deliveries duplicated, held and shuffled, delayed, or their first attempts failed. */
export const CHAOS_WEBHOOK_FAULTS = ['duplicate', 'shuffle', 'delay', 'fail_first'] as const
export type ChaosWebhookFault = (typeof CHAOS_WEBHOOK_FAULTS)[number]
