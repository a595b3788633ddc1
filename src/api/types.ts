// Wire types of the gateway API (spec: ../shared/spec/payment-gateway-api.md, decisions.md).
// Shared by the CLI client and the embedded engine. Money is integer minor units everywhere.

export type PaymentStatus =
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'failed'
  | 'canceled'

export const PAYMENT_STATUSES: readonly PaymentStatus[] = [
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'succeeded',
  'failed',
  'canceled',
]

export type AttemptOutcome =
  | 'pending'
  | 'approved'
  | 'declined'
  | 'soft_declined'
  | 'timeout'
  | 'error'
  | 'authentication_failed'
  | 'abandoned'
  | 'canceled'

export const ATTEMPT_OUTCOMES: readonly AttemptOutcome[] = ['pending', 'approved', 'declined', 'soft_declined', 'timeout', 'error', 'authentication_failed', 'abandoned', 'canceled']

export interface ProviderAttempt {
  provider: string
  outcome: AttemptOutcome
  decline_code: string | null
  latency_ms: number | null
  attempted_at: string
}

export interface RiskResult {
  score: number
  decision: 'approved' | 'review' | 'blocked'
  checks: {avs_result: 'pass' | 'fail' | 'unavailable'; cvv_result: 'pass' | 'fail' | 'unavailable'}
}

export interface NextAction {
  type: 'redirect'
  url: string
}

export interface CardDetails {
  brand: string
  last4: string
  exp_month: number
  exp_year: number
  funding: 'credit' | 'debit' | 'prepaid' | 'unknown'
  country: string
}

export interface Payment {
  id: string
  object: 'payment'
  amount: number
  amount_captured: number
  amount_refunded: number
  currency: string
  status: PaymentStatus
  payment_method: string
  payment_method_id: string | null
  payment_method_details: Record<string, unknown> | null
  capture_method: 'automatic' | 'manual'
  customer: string | null
  description: string | null
  reference: string
  metadata: Record<string, string>
  provider: string | null
  provider_attempts: ProviderAttempt[]
  risk: RiskResult | null
  next_action: NextAction | null
  return_url: string | null
  refunded: boolean
  partially_refunded: boolean
  failure_code: string | null
  failure_message: string | null
  livemode: boolean
  created_at: string
  // decisions.md: optional sub-merchant
  merchant?: string | null
}

export interface Customer {
  id: string
  object: 'customer'
  email: string | null
  name: string | null
  description: string | null
  metadata: Record<string, string>
  livemode: boolean
  created_at: string
}

export interface PaymentMethod {
  id: string
  object: 'payment_method'
  type: string
  card: (CardDetails & {network_token: boolean}) | null
  billing_details: {
    name: string | null
    email: string | null
    address: {line1: string | null; postal_code: string | null; country: string | null} | null
  }
  customer: string | null
  livemode: boolean
  created_at: string
}

export type RefundStatus = 'pending' | 'succeeded' | 'failed'
export const REFUND_STATUSES: readonly RefundStatus[] = ['pending', 'succeeded', 'failed']
export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const
/** Why a payment was canceled (POST /payments/{id}/cancel `cancellation_reason`). */
export const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const

export interface Refund {
  id: string
  object: 'refund'
  payment: string
  amount: number
  currency: string
  status: RefundStatus
  reason: string | null
  failure_reason: string | null
  reference: string
  metadata: Record<string, string>
  livemode: boolean
  created_at: string
}

export type DisputeStatus = 'needs_response' | 'under_review' | 'won' | 'lost' | 'accepted'
export const DISPUTE_STATUSES: readonly DisputeStatus[] = ['needs_response', 'under_review', 'won', 'lost', 'accepted']
export type DisputeStage = 'chargeback' | 'pre_arbitration' | 'arbitration'
export const DISPUTE_STAGES: readonly DisputeStage[] = ['chargeback', 'pre_arbitration', 'arbitration']
export type DisputeReason = 'fraudulent' | 'product_not_received' | 'duplicate' | 'credit_not_processed' | 'general'

export interface Dispute {
  id: string
  object: 'dispute'
  payment: string
  amount: number
  currency: string
  reason: DisputeReason
  stage: DisputeStage
  status: DisputeStatus
  evidence_due_by: string | null
  evidence?: {fields: Record<string, string>; files: string[]; submitted_at: string} | null
  /** evidence argued at earlier stages, oldest first (a dispute escalated after a ruling); docs/api.md */
  previous_evidence?: {stage: DisputeStage; fields: Record<string, string>; files: string[]; submitted_at: string}[]
  /** who closed it: the network's `ruling` (won or lost), the missed `deadline` (lost), the `merchant` (accepted); null while open */
  closed_by?: DisputeClosedBy | null
  livemode: boolean
  created_at: string
}

export type DisputeClosedBy = 'ruling' | 'deadline' | 'merchant'

export interface GwEvent<T = unknown> {
  id: string
  object: 'event'
  type: string
  created_at: string
  livemode: boolean
  request_id: string | null
  data: {object: T}
}

export interface WebhookEndpoint {
  id: string
  object: 'webhook_endpoint'
  url: string
  enabled_events: string[]
  secret?: string
  disabled: boolean
  disabled_reason?: 'requested' | 'failing' | null
  created_at: string
  livemode: boolean
  // engine additions (docs/api.md): health and annotations
  status?: WebhookEndpointStatus
  description?: string | null
  metadata?: Record<string, string>
  failing_since?: string | null
  /** after a rotation with an overlap: until then (engine clock) deliveries are signed with the previous secret too */
  previous_secret_expires_at?: string | null
}

export type WebhookEndpointStatus = 'enabled' | 'failing' | 'disabled'

export interface WebhookDeliveryAttempt {
  at: string
  status_code: number | null
  error: string | null
  error_message: string | null
  latency_ms: number
  response_excerpt: string | null
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed_retrying' | 'undeliverable'
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed_retrying', 'undeliverable']

export interface WebhookDelivery {
  id: string
  object: 'webhook_delivery'
  event: string
  event_type: string
  endpoint: string
  status: DeliveryStatus
  attempts: WebhookDeliveryAttempt[]
  next_attempt_at: string | null
  undeliverable_reason: string | null
  livemode: boolean
  created_at: string
  /** the chaos rule that shaped this delivery (a duplicate, held, delayed, first attempts failed on purpose); absent otherwise */
  chaos?: string
}

export interface ListEnvelope<T> {
  object: 'list'
  url: string
  data: T[]
  has_more: boolean
}

export interface ApiErrorBody {
  error: {
    type: 'invalid_request_error' | 'authentication_error' | 'permission_error' | 'card_error' | 'idempotency_error' | 'rate_limit_error' | 'api_error'
    code: string
    message: string
    doc_url: string
    request_id: string
    param?: string
    payment?: string
    /** 403 permission_error: the permission the request needs (e.g. payments:write); several joined by commas when it needs them all (webhooks:write,events:read) */
    permission?: string
  }
}

/** An account: a complete, independent gateway sharing the engine (issue 24). */
export interface Account {
  id: string
  object: 'account'
  name: string | null
  metadata: Record<string, string>
  livemode: boolean
  created_at: string
  /** POST /accounts only, shown once: the new account's keys */
  secret_key?: string
  publishable_key?: string
}

export type ApiKeyType = 'secret' | 'restricted' | 'publishable'

/** An API key of an account, never with its secret after its creation (issue 24). */
export interface ApiKey {
  id: string
  object: 'api_key'
  type: ApiKeyType
  name: string | null
  /** the key's prefix and last four characters, e.g. rk_test_…wXyZ */
  redacted: string
  /** a restricted key's permissions (resource:read|write); null for secret and publishable keys */
  permissions: string[] | null
  status: 'active' | 'revoked'
  /** wall-clock time after which the key no longer works (a rolled key's old secret); null: no expiry */
  expires_at: string | null
  /** wall-clock time of its last use, to the minute; null: never used */
  last_used_at: string | null
  revoked_at: string | null
  livemode: boolean
  /** wall-clock time */
  created_at: string
  /** POST /api_keys and POST /api_keys/{id}/roll only: the key itself, shown once */
  secret?: string
}

export interface TestClock {
  object: 'test_clock'
  now: string
  offset_seconds: number
  /** POST /test_helpers/clock/advance only: what the advance set off: events by type, plus payout.created and payout.paid (docs/api.md) */
  fired?: Record<string, number>
  /** frozen: the clock moves only when advanced or set */
  frozen?: boolean
  /** advance with wait only: webhook attempts still due when the 30 s wait ran out */
  pending_attempts?: number
}

/** decisions.md: GET /balance */
export interface Balance {
  object: 'balance'
  available: {amount: number; currency: string}[]
  pending: {amount: number; currency: string}[]
}

/** A settlement report line (decisions.md): signed minor units of `currency`. */
export interface SettlementLine {
  type: 'payment' | 'refund' | 'fee' | 'dispute' | 'dispute_reversal' | 'conversion'
  payment: string | null
  reference: string | null
  amount: number
  currency: string
  created_at: string
  rate?: number
  converted_amount?: number
  converted_currency?: string
}

/** decisions.md: one report per provider, day and currency; gross + refunds + fees = net, payout_amount = net + adjustments. */
export interface SettlementReport {
  id: string
  object: 'settlement_report'
  provider: string
  date: string
  currency: string
  gross: number
  refunds: number
  fees: number
  net: number
  adjustments: number
  payout_amount: number
  /** the currency the payout is made in (the report's own, or the account's payout currency) */
  payout_currency: string
  /** payout_amount in payout_currency */
  converted_payout_amount: number
  lines: SettlementLine[]
  payout: string | null
  livemode: boolean
  created_at: string
}

export type PayoutStatus = 'in_transit' | 'paid'
export const PAYOUT_STATUSES: readonly PayoutStatus[] = ['in_transit', 'paid']

export interface Payout {
  id: string
  object: 'payout'
  amount: number
  currency: string
  status: PayoutStatus
  arrival_date: string
  settlement_reports: string[]
  livemode: boolean
  created_at: string
}

export type ProviderStatus = 'active' | 'degraded' | 'disabled'
export const PROVIDER_STATUSES: readonly ProviderStatus[] = ['active', 'degraded', 'disabled']

export interface Provider {
  id: string
  object: 'provider'
  methods: string[]
  currencies: string[]
  regions: string[]
  status: ProviderStatus
  /** approved / decided attempts over the last 7 days of the engine clock; null without attempts */
  auth_rate_7d: number | null
  attempts_7d: number
  /** percentage in basis points plus a fixed fee per currency, in that currency's minor unit */
  fees: {percent_bps: number; fixed: Record<string, number>}
  latency_ms: {p50: number; p99: number}
  livemode: boolean
}

export type KybStatus = 'pending' | 'active' | 'restricted' | 'rejected'
export const KYB_STATUSES: readonly KybStatus[] = ['pending', 'active', 'restricted', 'rejected']
export type CapabilityStatus = 'pending' | 'active' | 'inactive'

export interface Merchant {
  id: string
  object: 'merchant'
  business_name: string
  legal_name: string | null
  country: string | null
  email: string | null
  kyb_status: KybStatus
  capabilities: {card_payments: CapabilityStatus; local_payments: CapabilityStatus; payouts: CapabilityStatus}
  mid: string | null
  metadata: Record<string, string>
  livemode: boolean
  created_at: string
}

export interface RoutingRuleConditions {
  payment_method?: string
  currency?: string
  amount_gte?: number
  amount_lte?: number
  card_brand?: string
  country?: string
}

export interface RoutingRule {
  id: string
  object: 'routing_rule'
  merchant: string | null
  priority: number
  action: 'prefer' | 'split' | 'block'
  providers: {provider: string; weight?: number}[]
  conditions: RoutingRuleConditions
  livemode: boolean
  created_at: string
}

export interface Deleted<O extends string> {
  id: string
  object: O
  deleted: boolean
}

/** Why a provider was not a candidate (docs/api.md "Routing explanations"). */
export type RoutingExclusion = 'currency_not_processed' | 'method_not_supported' | 'provider_disabled' | 'already_tried'

/**
 * A routing decision explained: the router's own account of one routing pass, recorded when a
 * payment is routed (GET /payments/{id}/routing) or computed as a dry run (GET /routing/simulate).
 */
export interface RoutingDecision {
  object: 'routing_decision'
  decided_at: string
  input: {amount: number; currency: string; payment_method: string; card_brand: string | null; country: string | null; merchant: string | null}
  /** every provider, in catalog order: eligible, or excluded and why */
  providers: {provider: string; status: ProviderStatus; eligible: boolean; excluded: RoutingExclusion | null}[]
  /** the routing rule that matched (as it was then), or null: smart routing alone decided */
  rule: {id: string; priority: number; action: 'prefer' | 'split' | 'block'; merchant: string | null; providers: {provider: string; weight?: number}[]} | null
  strategy: 'smart_routing' | 'rule_prefer' | 'rule_split' | 'rule_block'
  /** score = sum of weight x component (each in [0, 1]); degraded providers' scores halved */
  weights: {cost: number; auth_rate: number; currency: number; method: number}
  /** eligible providers in smart-routing order: active before degraded, then higher score, then provider id */
  scores: {
    provider: string
    score: number
    degraded: boolean
    /** fee for this amount in minor units, and the cost component (cheapest fee / this fee) */
    cost: {fee: number; component: number}
    /** the 7-day authorization rate (null: no data, the neutral prior is used) and the value used */
    auth_rate: {rate_7d: number | null; used: number}
    currency: {local: boolean; component: number}
    method: {partner: boolean; component: number}
  }[]
  tie_break: string
  /** the provider a split rule drew, or null */
  split_pick: string | null
  /** providers in the order they would be tried (empty: no provider, or blocked by the rule) */
  order: string[]
}

/** GET /payments/{id}/routing: each routing pass of a payment and each provider attempt. */
export interface PaymentRouting {
  object: 'payment_routing'
  payment: string
  decisions: RoutingDecision[]
  attempts: (ProviderAttempt & {decline_class: 'soft' | 'final' | null})[]
}

/** GET /test_helpers/snapshot: an account's whole state (docs/api.md "Snapshots") */
export interface Snapshot {
  object: 'snapshot'
  format: 'gw.snapshot'
  version: number
  account: string
  livemode: boolean
  created_at: string
  engine_time: string
  rows: {objects: unknown[]; events: unknown[]; jobs: unknown[]; idempotency: unknown[]; stats: unknown[]; settings: Record<string, string>}
}

/** POST /test_helpers/snapshot: what a load replaced the account's state with */
export interface SnapshotLoad {
  object: 'snapshot_load'
  from_account: string
  objects: number
  events: number
  jobs: number
  idempotency_keys: number
  /** webhook endpoints saved without their signing secret (a snapshot saved without include_secrets): each got a new one (gw webhooks rotate-secret shows a secret) */
  new_webhook_secrets: number
  engine_time: string
}

/** POST /webhook_endpoints/{id}/replay: what was sent again */
export interface WebhookReplay {
  object: 'webhook_replay'
  endpoint: string
  since: string
  queued: number
  rescheduled: number
  skipped: {already_received: number; event_expired: number}
}

/** A hosted checkout session (issue 28): what the customer pays on a page of {checkout_url}, and what came of it. */
export interface CheckoutSession {
  id: string
  object: 'checkout_session'
  /** open: the customer may pay (and try again after a decline); complete: a payment of it succeeded or is processing; expired */
  status: 'open' | 'complete' | 'expired'
  /** the page to send the customer to */
  url: string
  amount: number
  currency: string
  /** the methods the page offers */
  payment_methods: string[]
  reference: string
  customer: string | null
  success_url: string
  cancel_url: string
  /** the payment that completed it; while open, the latest attempt (null before the first) */
  payment: string | null
  metadata: Record<string, string>
  expires_at: string
  completed_at: string | null
  livemode: boolean
  created_at: string
}

/** POST /v1/checkout_sessions */
export interface CheckoutSessionCreate {
  amount: number
  currency: string
  /** default: a stand-in page of the gateway ({checkout_url}/returned) */
  success_url?: string
  cancel_url?: string
  payment_methods?: string[]
  reference?: string
  customer?: string
  metadata?: Record<string, string>
  expires_in?: number
}

/** POST /v1/checkout_sessions/{id}/pay (issue 36): one try at paying the session with a saved card */
export interface CheckoutSessionPay {
  payment_method_id: string
}

/** An injected API fault (issue 29): an error status, a slow answer, or the response lost after the work committed. */
export type ChaosApiFault = '500' | '503' | '429' | 'slow' | 'response_lost'
export const CHAOS_API_FAULTS: readonly ChaosApiFault[] = ['500', '503', '429', 'slow', 'response_lost']

/** POST /v1/chaos/api: what to fault, how often, and until when. */
export interface ChaosApiFaultCreate {
  method?: 'GET' | 'POST' | 'DELETE' | '*'
  /** an API path under /v1: /payments, /payments/*, /refunds/** */
  path: string
  fault: ChaosApiFault
  rate?: number
  count?: number
  for_seconds?: number
  latency_ms?: number
  seed?: number
}

/** A provider fault (issue 29): down (every call fails, health degraded), a share of calls timing out or soft-declining, added latency. */
export type ChaosProviderFault = 'down' | 'timeout' | 'soft_decline' | 'latency'
export const CHAOS_PROVIDER_FAULTS: readonly ChaosProviderFault[] = ['down', 'timeout', 'soft_decline', 'latency']

/** POST /v1/chaos/providers: which provider, what goes wrong, how often, and until when. */
export interface ChaosProviderFaultCreate {
  provider: string
  fault: ChaosProviderFault
  rate?: number
  count?: number
  for_seconds?: number
  latency_ms?: number
  seed?: number
}

/** A webhook fault (issue 29): deliveries duplicated, held and shuffled, delayed, or their first attempts failed. */
export type ChaosWebhookFault = 'duplicate' | 'shuffle' | 'delay' | 'fail_first'
export const CHAOS_WEBHOOK_FAULTS: readonly ChaosWebhookFault[] = ['duplicate', 'shuffle', 'delay', 'fail_first']

/** POST /v1/chaos/webhooks: what happens to new deliveries (of one endpoint, or every one). */
export interface ChaosWebhookFaultCreate {
  fault: ChaosWebhookFault
  endpoint?: string
  rate?: number
  count?: number
  for_seconds?: number
  delay_seconds?: number
  attempts?: number
  seed?: number
}

interface ChaosRuleBase {
  id: string
  object: 'chaos_rule'
  /** the share of matching requests, calls or deliveries faulted, (0, 1] */
  rate: number
  /** faults to inject before the rule is spent; null: until `until` */
  count: number | null
  /** seeds the draw that picks what is faulted (the same ones every run); null: random */
  seed: number | null
  created_at: string
  /** engine-clock time the rule ends */
  until: string
  /** faults injected so far (status only) */
  injected?: number | null
}

/** An API fault: matching requests answered with an error, slowly, or not at all. */
export interface ChaosApiRule extends ChaosRuleBase {
  kind: 'api'
  /** GET, POST, DELETE, or * */
  method: string
  /** an API path under /v1: /payments, /payments/* (one segment), /refunds/** (any depth) */
  path: string
  fault: ChaosApiFault
  /** the slow fault's added latency */
  latency_ms: number | null
}

/** A provider fault: the provider's authorizations and refunds fail, time out, soft-decline or slow down. */
export interface ChaosProviderRule extends ChaosRuleBase {
  kind: 'provider'
  provider: string
  fault: ChaosProviderFault
  /** the latency fault's added latency */
  latency_ms: number | null
}

/** A webhook fault: what happens to the deliveries created while it is active. */
export interface ChaosWebhookRule extends ChaosRuleBase {
  kind: 'webhooks'
  /** one endpoint's deliveries, or null: every endpoint's */
  endpoint: string | null
  fault: ChaosWebhookFault
  /** delay: how long each delivery is held; shuffle: the window deliveries are spread over */
  delay_seconds: number | null
  /** fail_first: attempts of each delivery failed on purpose before one is sent */
  attempts: number | null
}

/** A fault an account switched on to rehearse failures (test mode); it ends after `count` faults or at `until` (engine clock). */
export type ChaosRule = ChaosApiRule | ChaosProviderRule | ChaosWebhookRule
