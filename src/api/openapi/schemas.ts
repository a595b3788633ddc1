// JSON Schema (2020-12, as OpenAPI 3.1 uses it) building blocks of the gateway's contract.
// Pure data: no engine imports, so the CLI, the engine and the build can all load it.
import {EVENT_TYPES} from '../event-types.js'
import {PAYMENT_STATUSES} from '../types.js'

export type Schema = Record<string, unknown>

// the vocabulary: one list of each, in src/api
export {METHOD_CODES} from '../catalog.js'
export {ATTEMPT_OUTCOMES, CANCELLATION_REASONS, DELIVERY_STATUSES, DISPUTE_STAGES, DISPUTE_STATUSES, KYB_STATUSES, PAYOUT_STATUSES, PROVIDER_STATUSES, REFUND_REASONS, REFUND_STATUSES} from '../types.js'
export {DISPUTE_REASONS} from '../dispute-evidence.js'
import {METHOD_CODES} from '../catalog.js'
import {ATTEMPT_OUTCOMES, CANCELLATION_REASONS, CHAOS_API_FAULTS, CHAOS_PROVIDER_FAULTS, CHAOS_WEBHOOK_FAULTS, DELIVERY_STATUSES, DISPUTE_STAGES, DISPUTE_STATUSES, KYB_STATUSES, PAYOUT_STATUSES, PROVIDER_STATUSES, REFUND_REASONS, REFUND_STATUSES} from '../types.js'
import {DISPUTE_REASONS} from '../dispute-evidence.js'

/** Final issuer declines answered as 402 card_error (spec §7, engine/domain/declines.ts). */
export const CARD_ERROR_CODES = [
  'card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'do_not_honor', 'lost_card', 'stolen_card', 'fraudulent',
  'invalid_account', 'authentication_required',
] as const

/** Every error code, by HTTP status (spec §7, decisions.md, docs/api.md). */
export const ERROR_CODES = {
  400: [
    'parameter_invalid', 'parameter_missing', 'parameter_unknown', 'version_invalid', 'tls_required', 'request_malformed',
    'currency_not_supported', 'card_number_invalid', 'card_expiry_invalid', 'cvc_invalid', 'merchant_inactive', 'amount_too_large',
    'payment_unexpected_state', 'payment_not_capturable', 'payment_not_incrementable', 'payment_not_cancelable',
    'payment_not_refundable', 'payment_disputed', 'partial_refund_unsupported', 'payment_not_disputable', 'payment_already_disputed',
    'dispute_not_actionable', 'payment_method_not_attached', 'session_invalid', 'test_mode_only', 'webhook_endpoint_limit',
    'webhook_endpoint_disabled', 'no_webhook_endpoints', 'event_already_delivered', 'replay_too_large', 'api_key_limit', 'api_key_revoked', 'api_key_expired', 'account_not_deletable', 'checkout_session_not_open',
  ],
  401: ['api_key_missing', 'api_key_invalid', 'api_key_expired', 'api_key_revoked', 'live_mode_unavailable'],
  402: CARD_ERROR_CODES,
  403: ['permission_denied'],
  404: ['resource_missing', 'route_unknown'],
  408: ['request_timeout'],
  409: ['idempotency_key_reused', 'idempotency_key_in_use'],
  413: ['request_too_large'],
  429: ['rate_limit_exceeded'],
  431: ['request_header_too_large'],
  500: ['internal_error'],
  502: ['provider_error'],
  503: ['service_unavailable'],
} as const

export const ERROR_TYPE_OF_STATUS: Record<keyof typeof ERROR_CODES, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'card_error',
  403: 'permission_error',
  404: 'invalid_request_error',
  408: 'invalid_request_error',
  409: 'idempotency_error',
  413: 'invalid_request_error',
  429: 'rate_limit_error',
  431: 'invalid_request_error',
  500: 'api_error',
  502: 'api_error',
  503: 'api_error',
}

export const MAX_AMOUNT = 99_999_999
export const MAX_SAFE = Number.MAX_SAFE_INTEGER
export {MAX_ADVANCE_S} from '../clock-steps.js'
import {MAX_ADVANCE_S} from '../clock-steps.js'

export const ref = (name: string): Schema => ({$ref: `#/components/schemas/${name}`})
export const nullable = (s: Schema): Schema => {
  if (typeof s.type === 'string') {
    const out: Schema = {...s, type: [s.type, 'null']}
    if (Array.isArray(s.enum)) out.enum = [...s.enum, null]
    return out
  }
  return {anyOf: [s, {type: 'null'}]}
}

/** An object id with its prefix (`pay_...`). */
export const idOf = (prefix: string, description?: string): Schema => ({
  type: 'string',
  pattern: `^${prefix}_[0-9A-Za-z]+$`,
  ...(description ? {description} : {}),
})

/**
 * In a request body, the reference to another object: the prefix is part of the contract, but an
 * id that cannot exist is answered `404 resource_missing` by the use case (as for any unknown id),
 * not 400 — `x-checked-by-use-case` tells the request validator to leave the pattern to it.
 */
export const idRef = (prefix: string, what: string): Schema => ({
  type: 'string',
  pattern: `^${prefix}_[0-9A-Za-z]+$`,
  description: `${what} id (\`${prefix}_...\`); an unknown id is 404 resource_missing naming this parameter.`,
  'x-checked-by-use-case': ['pattern'],
})

const dateTime = (description?: string): Schema => ({type: 'string', format: 'date-time', ...(description ? {description} : {})})
const date = (description?: string): Schema => ({type: 'string', format: 'date', ...(description ? {description} : {})})
const currency: Schema = {type: 'string', pattern: '^[A-Z]{3}$', description: 'Uppercase ISO 4217 code.'}
const minor = (description: string, extra: Schema = {}): Schema => ({type: 'integer', description: `${description} In the currency's minor unit.`, ...extra})
const country: Schema = {type: 'string', pattern: '^[A-Z]{2}$', description: 'Two-letter ISO 3166 code.'}
const str = (extra: Schema = {}): Schema => ({type: 'string', ...extra})
const bool: Schema = {type: 'boolean'}
const livemode: Schema = {type: 'boolean', description: 'false for objects created with test keys.'}

/** An object whose listed properties are all present, and nothing else. */
export function obj(properties: Record<string, Schema>, opts: {optional?: string[]; description?: string; title?: string} = {}): Schema {
  const required = Object.keys(properties).filter((k) => !opts.optional?.includes(k))
  return {
    type: 'object',
    ...(opts.title ? {title: opts.title} : {}),
    ...(opts.description ? {description: opts.description} : {}),
    properties,
    required,
    additionalProperties: false,
  }
}

/** What every chaos rule has first: its id, kind and the share it faults. */
const chaosCommon = (kind: string): Record<string, Schema> => ({
  id: idOf('chaos'),
  object: {type: 'string', const: 'chaos_rule'},
  kind: {type: 'string', const: kind},
  rate: {type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'The share of matching requests, calls or deliveries faulted.'},
})
/** ... and last: how it ends. */
const chaosEnd: Record<string, Schema> = {
  count: nullable({type: 'integer', minimum: 1, description: 'Faults to inject before the rule is spent; null: until `until`.'}),
  seed: nullable({type: 'integer', description: 'Seeds what is faulted: the same ones every run.'}),
  created_at: dateTime(),
  until: dateTime('When the rule ends, on the engine clock: every fault ends.'),
  injected: nullable({type: 'integer', minimum: 0, description: 'Faults injected so far, for a rule with a count (status only).'}),
}
/** The parts every POST /v1/chaos/... body shares. */
const chaosCreateCommon: Record<string, Schema> = {
  rate: {type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'The share to fault; default 1.'},
  count: {type: 'integer', minimum: 1, description: 'How many faults, then the rule is spent.'},
  for_seconds: {type: 'integer', minimum: 1, maximum: 604800, description: 'How long the rule lasts on the engine clock; default 600 without a count, 7 days (604800) with one.'},
  seed: {type: 'integer', description: 'Seeds which requests, calls or deliveries a rate below 1 picks.'},
}

const metadata: Schema = {
  type: 'object',
  description: 'Key/value strings: at most 50 keys, keys up to 40 characters, values up to 500.',
  maxProperties: 50,
  propertyNames: {maxLength: 40},
  additionalProperties: {type: 'string', maxLength: 500},
}

const deleted = (prefix: string, object: string): Schema =>
  obj({id: idOf(prefix), object: {type: 'string', const: object}, deleted: {type: 'boolean', const: true}})

const cardDetailsProps = {
  brand: str({description: 'Card scheme, e.g. visa, mastercard, amex.'}),
  last4: str({pattern: '^[0-9]{4}$'}),
  exp_month: {type: 'integer', minimum: 1, maximum: 12},
  exp_year: {type: 'integer', minimum: 1000, maximum: 9999},
  funding: {type: 'string', enum: ['credit', 'debit', 'prepaid', 'unknown']},
  country,
}

const cardPaymentMethods = ['card', 'apple_pay', 'google_pay']

const webhookEndpointProps = (withSecret: boolean): Record<string, Schema> => ({
  id: idOf('wh'),
  object: {type: 'string', const: 'webhook_endpoint'},
  url: str({format: 'uri', pattern: '^https://', description: 'HTTPS URL the events are POSTed to.'}),
  ...(withSecret ? {secret: str({pattern: '^whsec_', description: 'Signing secret; returned only here (create, rotate_secret; an idempotent replay shows it redacted, `whsec_…wXyZ`).'})} : {}),
  enabled_events: {type: 'array', items: str({description: 'An event type, a prefix ending in `.*`, or `*`.'})},
  description: nullable(str()),
  metadata,
  status: {type: 'string', enum: ['enabled', 'failing', 'disabled']},
  disabled: bool,
  disabled_reason: nullable({type: 'string', enum: ['requested', 'failing']}),
  failing_since: nullable(dateTime()),
  previous_secret_expires_at: nullable(dateTime('After rotate_secret with an overlap: until this time (engine clock) every delivery is signed with the previous secret too (a second v1 in the signature header); null when only one secret signs.')),
  livemode,
  created_at: dateTime(),
})

/** Response objects (additionalProperties: false, so an undocumented field fails validation). */
export function responseSchemas(): Record<string, Schema> {
  const eventObjects = ['Payment', 'Refund', 'Dispute', 'Merchant', 'SettlementReport', 'Provider', 'WebhookEndpoint', 'CheckoutSession']
  return {
    MethodCode: {type: 'string', enum: [...METHOD_CODES], description: 'The 43 payment method codes (spec §4).'},
    Currency: currency,
    PaymentStatus: {type: 'string', enum: [...PAYMENT_STATUSES]},
    Metadata: metadata,
    ProviderAttempt: obj({
      provider: idOf('prov'),
      outcome: {type: 'string', enum: [...ATTEMPT_OUTCOMES]},
      decline_code: nullable(str()),
      latency_ms: nullable({type: 'integer', minimum: 0}),
      attempted_at: dateTime(),
    }),
    Risk: obj({
      score: {type: 'integer', minimum: 0, maximum: 99},
      decision: {type: 'string', enum: ['approved', 'review', 'blocked']},
      checks: obj({
        avs_result: {type: 'string', enum: ['pass', 'fail', 'unavailable']},
        cvv_result: {type: 'string', enum: ['pass', 'fail', 'unavailable']},
      }),
    }),
    NextAction: obj({type: {type: 'string', const: 'redirect'}, url: str({format: 'uri', description: 'A `{checkout_url}` page.'})}),
    CardDetails: obj(
      {
        ...cardDetailsProps,
        three_d_secure: obj({result: {type: 'string', enum: ['authenticated'], description: 'The cardholder passed a 3-D Secure challenge.'}}, {description: 'Present once the cardholder passed a 3-D Secure challenge on this payment (attached to dispute evidence); absent when no challenge was passed.'}),
      },
      {optional: ['three_d_secure']},
    ),
    MethodDetails: obj(
      {bank: str(), iban_last4: str({pattern: '^[0-9]{4}$'}), account_last4: str({pattern: '^[0-9]{4}$'})},
      {optional: ['bank', 'iban_last4', 'account_last4'], description: 'Details of a non-card method once the customer completed it.'},
    ),
    PaymentMethodDetails: {
      type: 'object',
      description: 'Keyed by method: card (and card-backed wallets) carry card details; other methods their bank or account.',
      maxProperties: 1,
      propertyNames: ref('MethodCode'),
      properties: Object.fromEntries(cardPaymentMethods.map((m) => [m, ref('CardDetails')])),
      additionalProperties: ref('MethodDetails'),
    },
    Payment: obj(
      {
        id: idOf('pay'),
        object: {type: 'string', const: 'payment'},
        amount: minor('The total authorized amount, raised by increment_authorization.', {minimum: 1, maximum: MAX_AMOUNT}),
        amount_captured: minor('Captured so far.', {minimum: 0}),
        amount_refunded: minor('Refunded across all refunds (pending and succeeded).', {minimum: 0}),
        currency: ref('Currency'),
        status: ref('PaymentStatus'),
        payment_method: ref('MethodCode'),
        payment_method_id: nullable(idOf('pm')),
        payment_method_details: nullable(ref('PaymentMethodDetails')),
        capture_method: {type: 'string', enum: ['automatic', 'manual']},
        customer: nullable(idOf('cus')),
        description: nullable(str()),
        reference: str({description: 'Merchant order id; defaults to the payment id.'}),
        metadata: ref('Metadata'),
        provider: nullable(idOf('prov')),
        provider_attempts: {type: 'array', items: ref('ProviderAttempt')},
        risk: nullable(ref('Risk')),
        next_action: nullable(ref('NextAction')),
        return_url: nullable(str()),
        refunded: bool,
        partially_refunded: bool,
        failure_code: nullable(str()),
        failure_message: nullable(str()),
        livemode,
        created_at: dateTime(),
        merchant: nullable(idOf('mer')),
      },
      {title: 'Payment'},
    ),
    Customer: obj({
      id: idOf('cus'),
      object: {type: 'string', const: 'customer'},
      email: nullable(str()),
      name: nullable(str()),
      description: nullable(str()),
      metadata: ref('Metadata'),
      livemode,
      created_at: dateTime(),
    }),
    DeletedCustomer: deleted('cus', 'customer'),
    PaymentMethod: obj({
      id: idOf('pm'),
      object: {type: 'string', const: 'payment_method'},
      type: {type: 'string', const: 'card'},
      card: nullable(obj({...cardDetailsProps, network_token: bool})),
      billing_details: obj({
        name: nullable(str()),
        email: nullable(str()),
        address: nullable(obj({line1: nullable(str()), postal_code: nullable(str()), country: nullable(str())})),
      }),
      customer: nullable(idOf('cus')),
      livemode,
      created_at: dateTime(),
    }),
    Refund: obj({
      id: idOf('rf'),
      object: {type: 'string', const: 'refund'},
      payment: idOf('pay'),
      amount: minor('Refunded amount.', {minimum: 1}),
      currency: ref('Currency'),
      status: {type: 'string', enum: [...REFUND_STATUSES]},
      reason: nullable({type: 'string', enum: [...REFUND_REASONS]}),
      failure_reason: nullable({type: 'string', enum: ['declined', 'provider_unavailable']}),
      reference: str({description: "The payment's reference."}),
      metadata: ref('Metadata'),
      livemode,
      created_at: dateTime(),
    }),
    DisputeEvidence: obj({
      fields: {type: 'object', additionalProperties: {type: 'string'}},
      files: {type: 'array', items: str({format: 'uri'})},
      submitted_at: dateTime(),
    }),
    Dispute: obj({
      id: idOf('dp'),
      object: {type: 'string', const: 'dispute'},
      payment: idOf('pay'),
      amount: minor('Disputed amount; can be less than the payment amount.', {minimum: 1}),
      currency: ref('Currency'),
      reason: {type: 'string', enum: [...DISPUTE_REASONS]},
      stage: {type: 'string', enum: [...DISPUTE_STAGES]},
      status: {type: 'string', enum: [...DISPUTE_STATUSES]},
      evidence_due_by: nullable(dateTime('Null once resolved and while under_review.')),
      evidence: nullable(ref('DisputeEvidence')),
      previous_evidence: {
        type: 'array',
        description: 'Evidence argued at earlier stages, oldest first: after a ruling escalates the dispute, `evidence` is the next stage\'s (null until submitted) and what was argued before stays here. Absent on disputes stored before this field.',
        items: obj({
          stage: {type: 'string', enum: [...DISPUTE_STAGES]},
          fields: {type: 'object', additionalProperties: {type: 'string'}},
          files: {type: 'array', items: str({format: 'uri'})},
          submitted_at: dateTime(),
        }),
      },
      closed_by: nullable({type: 'string', enum: ['ruling', 'deadline', 'merchant'], description: 'Who closed it: `ruling` (the issuer or network ruled: won or lost), `deadline` (the evidence deadline passed unanswered: lost), `merchant` (accepted). Null while open; absent on disputes closed before this field.'}),
      livemode,
      created_at: dateTime(),
    }, {optional: ['previous_evidence', 'closed_by']}),
    Event: obj({
      id: idOf('evt'),
      object: {type: 'string', const: 'event'},
      type: str({
        description: `Event type. Known: ${EVENT_TYPES.join(', ')}. Unknown types can appear within v1; acknowledge them.`,
        examples: [...EVENT_TYPES],
      }),
      created_at: dateTime(),
      livemode,
      request_id: nullable(str({pattern: '^req_[0-9A-Za-z]+$'})),
      data: obj({object: {oneOf: eventObjects.map(ref)}}),
    }),
    WebhookEndpoint: obj(webhookEndpointProps(false)),
    WebhookEndpointWithSecret: obj(webhookEndpointProps(true)),
    DeletedWebhookEndpoint: deleted('wh', 'webhook_endpoint'),
    WebhookReplay: obj({
      object: {type: 'string', const: 'webhook_replay'},
      endpoint: idOf('wh'),
      since: dateTime('Deliveries created at or after this engine time were considered.'),
      queued: {type: 'integer', minimum: 0, description: 'New deliveries, for events whose deliveries had given up.'},
      rescheduled: {type: 'integer', minimum: 0, description: 'Deliveries still retrying, made due now.'},
      skipped: obj({already_received: {type: 'integer', minimum: 0}, event_expired: {type: 'integer', minimum: 0}}),
    }),
    WebhookDeliveryAttempt: obj({
      at: dateTime(),
      status_code: nullable({type: 'integer', minimum: 100, maximum: 599}),
      error: nullable({type: 'string', enum: ['timeout', 'connection_refused', 'dns_error', 'tls_error', 'connection_error', 'destination_blocked', 'chaos_fail_first'], description: '`chaos_fail_first`: failed on purpose by a chaos rule of the account (fail_first); nothing was sent.'}),
      error_message: nullable(str()),
      latency_ms: {type: 'integer', minimum: 0},
      response_excerpt: nullable(str({maxLength: 500})),
    }),
    WebhookDelivery: obj({
      id: idOf('whd'),
      object: {type: 'string', const: 'webhook_delivery'},
      event: idOf('evt'),
      event_type: str(),
      endpoint: idOf('wh'),
      status: {type: 'string', enum: [...DELIVERY_STATUSES]},
      attempts: {type: 'array', items: ref('WebhookDeliveryAttempt')},
      next_attempt_at: nullable(dateTime()),
      undeliverable_reason: nullable({type: 'string', enum: ['retry_window_expired', 'endpoint_disabled', 'endpoint_deleted', 'event_expired']}),
      livemode,
      created_at: dateTime(),
      chaos: idOf('chaos', 'The chaos rule that shaped this delivery: a duplicate, held and shuffled, delayed, or its first attempts failed on purpose. Absent otherwise.'),
    }, {optional: ['chaos']}),
    Provider: obj({
      id: idOf('prov'),
      object: {type: 'string', const: 'provider'},
      methods: {type: 'array', items: ref('MethodCode')},
      currencies: {type: 'array', items: ref('Currency')},
      regions: {type: 'array', items: str()},
      status: {type: 'string', enum: [...PROVIDER_STATUSES]},
      auth_rate_7d: nullable({type: 'number', minimum: 0, maximum: 1, description: 'Approved / decided attempts over 7 engine-clock days; null without attempts.'}),
      attempts_7d: {type: 'integer', minimum: 0},
      fees: obj({
        percent_bps: {type: 'integer', minimum: 0},
        fixed: {type: 'object', description: 'Fixed fee per currency, in its minor unit.', propertyNames: ref('Currency'), additionalProperties: {type: 'integer', minimum: 0}},
      }),
      latency_ms: obj({p50: {type: 'integer', minimum: 0}, p99: {type: 'integer', minimum: 0}}),
      livemode,
    }),
    RoutingDecision: obj({
      object: {type: 'string', const: 'routing_decision'},
      decided_at: dateTime(),
      input: obj({amount: minor('The amount routed.'), currency: ref('Currency'), payment_method: ref('MethodCode'), card_brand: nullable(str()), country: nullable(str()), merchant: nullable(idOf('mer'))}),
      providers: {
        type: 'array',
        description: 'Every provider in catalog order: eligible, or excluded and why.',
        items: obj({
          provider: idOf('prov'),
          status: {type: 'string', enum: [...PROVIDER_STATUSES]},
          eligible: bool,
          excluded: nullable({type: 'string', enum: ['currency_not_processed', 'method_not_supported', 'provider_disabled', 'already_tried']}),
        }),
      },
      rule: nullable(
        obj({
          id: idOf('rr'),
          priority: {type: 'integer', minimum: 0},
          action: {type: 'string', enum: ['prefer', 'split', 'block']},
          merchant: nullable(idOf('mer')),
          providers: {type: 'array', items: obj({provider: idOf('prov'), weight: {type: 'integer', minimum: 0}}, {optional: ['weight']})},
        }, {description: 'The routing rule that matched, as it was when the decision was made; null: smart routing alone decided.'}),
      ),
      strategy: {type: 'string', enum: ['smart_routing', 'rule_prefer', 'rule_split', 'rule_block']},
      weights: obj({cost: {type: 'number'}, auth_rate: {type: 'number'}, currency: {type: 'number'}, method: {type: 'number'}}),
      scores: {
        type: 'array',
        description: 'Eligible providers in smart-routing order.',
        items: obj({
          provider: idOf('prov'),
          score: {type: 'number', minimum: 0, maximum: 1},
          degraded: bool,
          cost: obj({fee: minor('The provider fee for this amount.'), component: {type: 'number', minimum: 0, maximum: 1}}),
          auth_rate: obj({rate_7d: nullable({type: 'number', minimum: 0, maximum: 1}), used: {type: 'number', minimum: 0, maximum: 1}}),
          currency: obj({local: bool, component: {type: 'number', minimum: 0, maximum: 1}}),
          method: obj({partner: bool, component: {type: 'number', minimum: 0, maximum: 1}}),
        }),
      },
      tie_break: str(),
      split_pick: nullable(idOf('prov')),
      order: {type: 'array', items: idOf('prov'), description: 'Providers in the order they are tried.'},
    }),
    PaymentRouting: obj({
      object: {type: 'string', const: 'payment_routing'},
      payment: idOf('pay'),
      decisions: {type: 'array', items: ref('RoutingDecision')},
      attempts: {
        type: 'array',
        items: obj({
          provider: idOf('prov'),
          outcome: {type: 'string', enum: [...ATTEMPT_OUTCOMES]},
          decline_code: nullable(str()),
          decline_class: nullable({type: 'string', enum: ['soft', 'final'], description: 'soft: the next provider was tried; final: routing stopped.'}),
          latency_ms: nullable({type: 'integer', minimum: 0}),
          attempted_at: dateTime(),
        }),
      },
    }),
    Snapshot: obj(
      {
        object: {type: 'string', const: 'snapshot'},
        format: {type: 'string', const: 'gw.snapshot'},
        version: {type: 'integer', minimum: 1},
        account: {type: 'string'},
        livemode: {type: 'boolean'},
        created_at: dateTime('Wall-clock time of the save.'),
        engine_time: dateTime("The account's engine clock at the save; loading restores it."),
        rows: {
          type: 'object',
          description: 'Every row of the account but its keys and account objects: objects (with versions and internal parts), events (their exact bytes), timeline jobs, idempotency records, provider statistics, settings (the test clock among them). Documented in docs/api.md "Snapshots".',
          properties: {objects: {type: 'array'}, events: {type: 'array'}, jobs: {type: 'array'}, idempotency: {type: 'array'}, stats: {type: 'array'}, settings: {type: 'object'}},
          required: ['objects', 'events', 'jobs', 'idempotency', 'stats', 'settings'],
        },
      },
      {description: "An account's whole state (issue 27)."},
    ),
    SnapshotLoad: obj(
      {
        object: {type: 'string', const: 'snapshot_load'},
        from_account: {type: 'string'},
        objects: {type: 'integer', minimum: 0},
        events: {type: 'integer', minimum: 0},
        jobs: {type: 'integer', minimum: 0},
        idempotency_keys: {type: 'integer', minimum: 0},
        new_webhook_secrets: {type: 'integer', minimum: 0, description: 'Webhook endpoints the snapshot holds without their signing secret (saved without include_secrets): each got a new secret, shown by rotating it (POST /webhook_endpoints/{id}/rotate_secret).'},
        engine_time: dateTime("The account's engine clock once loaded."),
      },
      {description: 'What a snapshot load replaced the account\'s state with.'},
    ),
    TestClock: obj(
      {
        object: {type: 'string', const: 'test_clock'},
        now: dateTime(),
        offset_seconds: {type: 'integer', minimum: 0},
        fired: {
          type: 'object',
          description: 'Advance only: what it set off — events the clock caused, by type, plus payout.created and payout.paid (docs/api.md).',
          additionalProperties: {type: 'integer', minimum: 1},
        },
        frozen: {type: 'boolean', description: 'Frozen: the clock moves only when advanced or set (POST /test_helpers/clock).'},
        pending_attempts: {type: 'integer', minimum: 1, description: 'Advance with `wait` only, when 30 s were not enough: webhook attempts still due (a receiver that does not answer takes 10 s per attempt).'},
      },
      {optional: ['fired', 'pending_attempts']},
    ),
    RequestLog: obj(
      {
        id: str({pattern: '^req_[0-9A-Za-z]+$', description: "The request's id (its Request-Id); also the cursor."}),
        object: {type: 'string', const: 'request_log'},
        method: {type: 'string', enum: ['GET', 'POST', 'DELETE', 'HEAD', 'PUT', 'PATCH', 'OPTIONS']},
        path: str({pattern: '^/v1', description: 'The path as requested, without the query string.'}),
        status: {type: 'integer', minimum: 100, maximum: 599},
        latency_ms: {type: 'integer', minimum: 0},
        idempotent_replayed: {type: 'boolean', description: 'A POST answered from the stored response of its Idempotency-Key.'},
        instance: str({description: 'The engine instance that answered (host:port): a fleet behind a load balancer keeps one log.'}),
        api_key: nullable(idOf('key', 'The key that made the request; null when authentication failed.')),
        livemode,
        created_at: dateTime(),
        chaos: str({description: 'A fault the account\'s chaos rules injected into this request: the rule id and the fault (`chaos_… response_lost`).'}),
      },
      {description: 'One API request the engine answered (the request log behind `gw logs tail`).', optional: ['chaos']},
    ),
    CheckoutSession: obj({
      id: idOf('cs'),
      object: {type: 'string', const: 'checkout_session'},
      status: {type: 'string', enum: ['open', 'complete', 'expired'], description: 'open: the customer may pay, and try again after a decline; complete: a payment succeeded or is processing; expired.'},
      url: str({format: 'uri', description: 'The page on {checkout_url} to send the customer to.'}),
      amount: minor('What the customer pays.', {minimum: 1, maximum: MAX_AMOUNT}),
      currency: ref('Currency'),
      payment_methods: {type: 'array', items: ref('MethodCode'), description: 'The methods the page offers.'},
      reference: str({description: 'Merchant order id, given to each payment; defaults to the session id.'}),
      customer: nullable(idOf('cus')),
      success_url: str(),
      cancel_url: str(),
      payment: nullable(idOf('pay', 'The payment that completed the session; while open, the latest try (null before the first).')),
      metadata: ref('Metadata'),
      expires_at: dateTime(),
      completed_at: nullable(dateTime()),
      livemode,
      created_at: dateTime(),
    }, {description: 'A hosted checkout session (test mode): what the customer pays on a page of {checkout_url}, and what came of it.'}),
    ChaosRule: {
      description: 'A fault the account switched on to rehearse failures (test mode): of the API, a provider, or webhook deliveries.',
      oneOf: [ref('ChaosApiRule'), ref('ChaosProviderRule'), ref('ChaosWebhookRule')],
    },
    ChaosApiRule: obj(
      {
        ...chaosCommon('api'),
        method: {type: 'string', enum: ['GET', 'POST', 'DELETE', '*']},
        path: str({description: 'An API path under /v1: /payments, /payments/* (one segment), /refunds/** (any depth below).'}),
        fault: {type: 'string', enum: [...CHAOS_API_FAULTS]},
        latency_ms: nullable({type: 'integer', minimum: 1, description: 'The slow fault\'s added latency.'}),
        ...chaosEnd,
      },
      {description: 'An API fault: matching requests answered with an error, slowly, or not at all.', optional: ['injected']},
    ),
    ChaosProviderRule: obj(
      {
        ...chaosCommon('provider'),
        provider: idOf('prov'),
        fault: {type: 'string', enum: [...CHAOS_PROVIDER_FAULTS]},
        latency_ms: nullable({type: 'integer', minimum: 1, description: 'The latency fault\'s added latency.'}),
        ...chaosEnd,
      },
      {description: 'A provider fault: its authorizations and refunds fail (down), time out, soft-decline or slow down.', optional: ['injected']},
    ),
    ChaosWebhookRule: obj(
      {
        ...chaosCommon('webhooks'),
        endpoint: nullable(idOf('wh', 'One endpoint\'s deliveries; null: every endpoint\'s.')),
        fault: {type: 'string', enum: [...CHAOS_WEBHOOK_FAULTS]},
        delay_seconds: nullable({type: 'integer', minimum: 1, description: 'delay: how long each delivery is held; shuffle: the window deliveries are spread over.'}),
        attempts: nullable({type: 'integer', minimum: 1, description: 'fail_first: attempts of each delivery failed on purpose before one is sent.'}),
        ...chaosEnd,
      },
      {description: 'A webhook fault: what happens to the deliveries created while it is active.', optional: ['injected']},
    ),
    ChaosApiFaultCreate: obj(
      {
        method: {type: 'string', enum: ['GET', 'POST', 'DELETE', '*'], description: 'Default *.'},
        path: str({description: 'The API path to fault, under /v1: /payments, /payments/*, /refunds/**.', examples: ['/payments']}),
        fault: {type: 'string', enum: [...CHAOS_API_FAULTS], description: '500, 503 or 429 (with Retry-After) instead of the answer; slow: the answer after latency_ms; response_lost: the work is done and committed, then the connection is dropped with no response.'},
        ...chaosCreateCommon,
        latency_ms: {type: 'integer', minimum: 1, maximum: 30000, description: 'The slow fault\'s added latency; default 2000.'},
      },
      {optional: ['method', 'rate', 'count', 'for_seconds', 'latency_ms', 'seed']},
    ),
    ChaosProviderFaultCreate: obj(
      {
        provider: idRef('prov', 'The provider (GET /v1/providers)'),
        fault: {type: 'string', enum: [...CHAOS_PROVIDER_FAULTS], description: 'down: every call fails (a provider error) and the provider is marked degraded until the rule ends; timeout: a share of calls time out; soft_decline: a share of authorizations are declined softly (try_again_later); latency: calls answer latency_ms later (really waited), and time out when that passes the provider\'s timeout. Routing fails over as after a real failure.'},
        ...chaosCreateCommon,
        latency_ms: {type: 'integer', minimum: 1, maximum: 30000, description: 'The latency fault\'s added latency; default 1000.'},
      },
      {optional: ['rate', 'count', 'for_seconds', 'latency_ms', 'seed']},
    ),
    ChaosWebhookFaultCreate: obj(
      {
        fault: {type: 'string', enum: [...CHAOS_WEBHOOK_FAULTS], description: 'duplicate: the event is delivered twice (two deliveries, each signed and logged); shuffle: deliveries are held a random time within delay_seconds, so they arrive out of order; delay: every delivery is held delay_seconds; fail_first: the first `attempts` attempts of each delivery fail on purpose (logged, nothing sent) and the retry schedule takes over.'},
        endpoint: {...idRef('wh', 'Webhook endpoint'), description: 'Only this endpoint\'s deliveries (default: every endpoint\'s); an unknown id is 404 resource_missing naming this parameter.'},
        ...chaosCreateCommon,
        delay_seconds: {type: 'integer', minimum: 1, maximum: 86400, description: 'delay: the hold (required); shuffle: the window (default 10).'},
        attempts: {type: 'integer', minimum: 1, maximum: 10, description: 'fail_first: how many attempts of each delivery fail (default 1).'},
      },
      {optional: ['endpoint', 'rate', 'count', 'for_seconds', 'delay_seconds', 'attempts', 'seed']},
    ),
    BalanceAmount: obj({amount: minor('Signed amount.'), currency: ref('Currency')}),
    Balance: obj({
      object: {type: 'string', const: 'balance'},
      available: {type: 'array', items: ref('BalanceAmount')},
      pending: {type: 'array', items: ref('BalanceAmount')},
    }),
    SettlementLine: obj(
      {
        type: {type: 'string', enum: ['payment', 'refund', 'fee', 'dispute', 'dispute_reversal', 'conversion']},
        payment: nullable(idOf('pay')),
        reference: nullable(str()),
        amount: minor('Signed amount of `currency`.'),
        currency: ref('Currency'),
        created_at: dateTime(),
        rate: {type: 'number', exclusiveMinimum: 0},
        converted_amount: {type: 'integer'},
        converted_currency: ref('Currency'),
      },
      {optional: ['rate', 'converted_amount', 'converted_currency'], description: 'Conversion lines carry rate, converted_amount and converted_currency.'},
    ),
    SettlementReport: obj({
      id: idOf('stl'),
      object: {type: 'string', const: 'settlement_report'},
      provider: idOf('prov'),
      date: date('Engine-clock day the report covers.'),
      currency: ref('Currency'),
      gross: minor('Captured payments.'),
      refunds: minor('Refunds (negative).'),
      fees: minor('Provider fees (negative).'),
      net: minor('gross + refunds + fees.'),
      adjustments: minor('Dispute debits and reversals.'),
      payout_amount: minor('net + adjustments.'),
      payout_currency: ref('Currency'),
      converted_payout_amount: minor('payout_amount in payout_currency.'),
      lines: {type: 'array', items: ref('SettlementLine')},
      payout: nullable(idOf('po')),
      livemode,
      created_at: dateTime(),
    }),
    Payout: obj({
      id: idOf('po'),
      object: {type: 'string', const: 'payout'},
      amount: minor('Paid out amount.', {minimum: 1}),
      currency: ref('Currency'),
      status: {type: 'string', enum: [...PAYOUT_STATUSES]},
      arrival_date: date(),
      settlement_reports: {type: 'array', items: idOf('stl')},
      livemode,
      created_at: dateTime(),
    }),
    Merchant: obj({
      id: idOf('mer'),
      object: {type: 'string', const: 'merchant'},
      business_name: str(),
      legal_name: nullable(str()),
      country: nullable(country),
      email: nullable(str()),
      kyb_status: {type: 'string', enum: [...KYB_STATUSES]},
      capabilities: obj({
        card_payments: {type: 'string', enum: ['pending', 'active', 'inactive']},
        local_payments: {type: 'string', enum: ['pending', 'active', 'inactive']},
        payouts: {type: 'string', enum: ['pending', 'active', 'inactive']},
      }),
      mid: nullable(str()),
      metadata: ref('Metadata'),
      livemode,
      created_at: dateTime(),
    }),
    RoutingRuleConditions: obj(
      {
        payment_method: ref('MethodCode'),
        currency: ref('Currency'),
        amount_gte: {type: 'integer', minimum: 0},
        amount_lte: {type: 'integer', minimum: 0},
        card_brand: str(),
        country: str(),
      },
      {optional: ['payment_method', 'currency', 'amount_gte', 'amount_lte', 'card_brand', 'country']},
    ),
    RoutingRule: obj({
      id: idOf('rr'),
      object: {type: 'string', const: 'routing_rule'},
      merchant: nullable(idOf('mer')),
      priority: {type: 'integer', minimum: 0, maximum: 1_000_000, description: 'The lowest number wins.'},
      action: {type: 'string', enum: ['prefer', 'split', 'block']},
      providers: {type: 'array', items: obj({provider: idOf('prov'), weight: {type: 'integer', minimum: 0, maximum: 1000}}, {optional: ['weight']})},
      conditions: ref('RoutingRuleConditions'),
      livemode,
      created_at: dateTime(),
    }),
    DeletedRoutingRule: deleted('rr', 'routing_rule'),
    ...accountSchemas(),
    ErrorDetail: obj(
      {
        type: {type: 'string', enum: ['invalid_request_error', 'authentication_error', 'permission_error', 'card_error', 'idempotency_error', 'rate_limit_error', 'api_error']},
        code: {type: 'string', enum: [...new Set(Object.values(ERROR_CODES).flat())]},
        message: str({minLength: 1, description: 'Human-readable: names the field and the fix.'}),
        doc_url: str({format: 'uri', description: "Link to the error's reference entry."}),
        request_id: str({pattern: '^req_[0-9A-Za-z]+$', description: 'Equal to the Request-Id header.'}),
        param: str({description: 'The offending parameter: dotted path for nested fields (payment_method_data.card.number), [i] for array items.'}),
        payment: idOf('pay', 'On 402 card errors: the failed payment, stored and retrievable.'),
        permission: str({pattern: '^[a-z_]+:(read|write)(,[a-z_]+:(read|write))*$', description: 'On 403 permission_error: the permission the request needs, e.g. payments:write; several joined by commas when it needs them all (webhooks:write,events:read), as gw keys create --permissions takes them.'}),
      },
      {optional: ['param', 'payment', 'permission']},
    ),
    Error: obj({error: ref('ErrorDetail')}, {description: 'The error envelope (spec §7).'}),
    ...listSchemas(['Payment', 'Customer', 'PaymentMethod', 'Refund', 'Dispute', 'Event', 'WebhookEndpoint', 'WebhookDelivery', 'Provider', 'Merchant', 'RoutingRule', 'SettlementReport', 'Payout', 'RequestLog', 'Account', 'ApiKey', 'ChaosRule']),
  }
}

const accountProps: Record<string, Schema> = {
  id: idOf('acct'),
  object: {type: 'string', const: 'account'},
  name: nullable(str()),
  metadata,
  livemode,
  created_at: dateTime('Wall-clock time.'),
}
const apiKeyProps: Record<string, Schema> = {
  id: idOf('key'),
  object: {type: 'string', const: 'api_key'},
  type: {type: 'string', enum: ['secret', 'restricted', 'publishable']},
  name: nullable(str()),
  redacted: str({pattern: '^(sk|rk|pk)_test_…', description: 'The prefix and last four characters; the key itself is returned only when it is made.'}),
  permissions: nullable({type: 'array', items: str({pattern: '^[a-z_]+:(read|write)$'}), description: 'A restricted key\'s permissions (write includes read); null for secret and publishable keys.'}),
  status: {type: 'string', enum: ['active', 'revoked']},
  expires_at: nullable(dateTime('Wall-clock time after which the key stops working (a rolled key\'s old secret).')),
  last_used_at: nullable(dateTime('Wall-clock time of the last use, to the minute.')),
  revoked_at: nullable(dateTime()),
  livemode,
  created_at: dateTime('Wall-clock time.'),
}

/** Accounts and API keys (issue 24). */
function accountSchemas(): Record<string, Schema> {
  return {
    Account: obj(accountProps, {description: 'An account: a complete, independent gateway sharing the engine.'}),
    AccountWithKeys: obj(
      {
        ...accountProps,
        secret_key: str({pattern: '^sk_test_', description: "The new account's secret key, returned only here (an idempotent replay shows it redacted, `sk_test_…wXyZ`: it is stored nowhere)."}),
        publishable_key: str({pattern: '^pk_test_', description: "The new account's publishable key, returned only here (redacted in an idempotent replay)."}),
      },
      {description: 'A new account with its keys (shown once).'},
    ),
    DeletedAccount: deleted('acct', 'account'),
    ApiKey: obj(apiKeyProps, {description: 'An API key, without its secret.'}),
    ApiKeyWithSecret: obj({...apiKeyProps, secret: str({pattern: '^(sk|rk|pk)_test_([0-9A-Za-z]+|…[0-9A-Za-z]{4})$', description: 'The key itself, returned only here (an idempotent replay shows it redacted, `sk_test_…wXyZ`: it is stored nowhere).'})}, {description: 'A new API key with its secret (shown once).'}),
  }
}

function listSchemas(names: string[]): Record<string, Schema> {
  return Object.fromEntries(
    names.map((n) => [
      `${n}List`,
      obj(
        {
          object: {type: 'string', const: 'list'},
          url: str({pattern: '^/v1/', description: 'The endpoint path that produced the page.'}),
          data: {type: 'array', items: ref(n), description: 'The page, newest first; may be empty.'},
          has_more: {type: 'boolean', description: 'More results exist beyond this page in the paging direction.'},
        },
        {description: `A page of ${n} objects (list envelope, spec §2).`},
      ),
    ]),
  )
}

// ---------------------------------------------------------------- request bodies
//
// These mirror the engine's request validation field by field, in the order it checks them
// (the request validator reports the first problem in that order). `x-hint` completes the
// human message of a type or enum error; `x-checked-by-use-case` lists assertion keywords that
// are part of the contract but checked later by the use case, with domain context and its own
// message (e.g. a currency the method does not accept, an id that does not exist → 404).

const hint = (h: string): Schema => ({'x-hint': h})
const required = (s: Schema): Schema => ({...s, 'x-required': true})
const useCase = (s: Schema, ...keywords: string[]): Schema => ({...s, 'x-checked-by-use-case': keywords})

/** Builds a request-body object from fields marked with required(). Unknown fields are rejected (400 parameter_unknown). */
export function body(fields: Record<string, Schema>, description?: string): Schema {
  const properties: Record<string, Schema> = {}
  const req: string[] = []
  for (const [k, v] of Object.entries(fields)) {
    const {'x-required': r, ...rest} = v
    if (r) req.push(k)
    properties[k] = rest
  }
  return {type: 'object', ...(description ? {description} : {}), properties, ...(req.length ? {required: req} : {}), additionalProperties: false}
}

const reqStr = (extra: Schema = {}): Schema => required({type: 'string', minLength: 1, ...extra})
const int = (min: number, max: number, h?: string): Schema => ({type: 'integer', minimum: min, maximum: max, ...(h ? hint(h) : {})})

export const BILLING_DETAILS = body({
  name: str({maxLength: 200}),
  email: str({maxLength: 200}),
  phone: str({maxLength: 40}),
  address: body({
    line1: str({maxLength: 200}),
    line2: str({maxLength: 200}),
    city: str({maxLength: 100}),
    state: str({maxLength: 100}),
    postal_code: str({maxLength: 20}),
    country: useCase(str({maxLength: 2, pattern: '^[A-Z]{2}$'}), 'pattern'),
  }),
})

export const PAYMENT_METHOD_DATA = body(
  {
    type: reqStr({enum: ['card'], ...hint('Only card instruments can be created with raw details.')}),
    card: required(
      body({
        number: reqStr({maxLength: 30, description: 'Card number (test mode only); Luhn-checked by the use case.'}),
        exp_month: required(useCase(int(1, 12), 'minimum', 'maximum')),
        exp_year: required(useCase({...int(1000, 9999), description: 'Four digits; an expired card is 400 card_expiry_invalid.'}, 'minimum', 'maximum')),
        cvc: useCase(str({maxLength: 4, pattern: '^[0-9]{3,4}$'}), 'pattern'),
      }),
    ),
    customer: idRef('cus', 'Customer'),
    billing_details: BILLING_DETAILS,
  },
  'A card instrument (decisions.md "Instruments"). Raw card numbers are accepted in test mode only.',
)

export function requestSchemas(): Record<string, Schema> {
  const metadataReq = metadata
  return {
    PaymentCreate: body({
      amount: required({...int(1, MAX_AMOUNT, "in the currency's minor unit (2000 = €20.00)"), description: 'Integer minor units, 1 to 99,999,999.'}),
      currency: required(useCase({type: 'string', minLength: 1, pattern: '^[A-Z]{3}$', description: 'Uppercase ISO 4217 code the method accepts.'}, 'pattern')),
      payment_method: useCase(
        {type: 'string', enum: [...METHOD_CODES], description: 'Method code; may be omitted with payment_method_id or payment_method_data (then card).'},
        'enum',
      ),
      payment_method_id: idRef('pm', 'Saved payment method'),
      payment_method_data: PAYMENT_METHOD_DATA,
      reference: str({maxLength: 255, description: 'Merchant order id; defaults to the payment id.'}),
      customer: {
        description: 'A customer id, `{id}`, or `{email, name}` to create one; the response returns the id string.',
        anyOf: [
          idRef('cus', 'Customer'),
          body({id: idRef('cus', 'Customer'), email: str({maxLength: 200}), name: str({maxLength: 200})}),
        ],
      },
      return_url: useCase(str({maxLength: 2048, format: 'uri'}), 'format'),
      capture_method: str({enum: ['automatic', 'manual'], description: '`manual` for cards only.'}),
      confirm: {type: 'boolean', description: 'Default true; false leaves the payment in requires_confirmation.'},
      description: nullable(str({maxLength: 1000})),
      metadata: metadataReq,
      merchant: idRef('mer', 'Active sub-merchant'),
    }),
    CheckoutSessionCreate: body({
      amount: required({...int(1, MAX_AMOUNT, "in the currency's minor unit (2000 = €20.00)"), description: 'Integer minor units, 1 to 99,999,999.'}),
      currency: required(useCase({type: 'string', minLength: 1, pattern: '^[A-Z]{3}$', description: 'Uppercase ISO 4217 code.'}, 'pattern')),
      success_url: useCase(str({maxLength: 2048, format: 'uri', description: 'Where the customer returns after paying, with `session` and `payment` added; default a stand-in page of the gateway ({checkout_url}/returned/success) that shows them.'}), 'format'),
      cancel_url: useCase(str({maxLength: 2048, format: 'uri', description: 'Where "Back to the shop" leads, with `session` added (the session stays open); default {checkout_url}/returned/cancel.'}), 'format'),
      payment_methods: {
        type: 'array',
        minItems: 1,
        maxItems: 50,
        items: useCase({type: 'string', enum: [...METHOD_CODES]}, 'enum'),
        description: 'The methods to offer, each taking the currency; default every method that takes it and has a customer page.',
      },
      reference: str({maxLength: 255, description: 'Merchant order id for every payment of the session; defaults to the session id.'}),
      customer: idRef('cus', 'Customer'),
      metadata: metadataReq,
      expires_in: {...int(1800, 86_400, 'in seconds, 1800 to 86400'), description: 'Seconds until the session expires (engine clock); default 86400.'},
    }),
    // issue 36: the body of payCheckoutSession
    CheckoutSessionPay: body({payment_method_id: required(idRef('pm', 'Saved card (the hosted card fields save it with the publishable key)'))}),
    PaymentConfirm: body({payment_method_id: idRef('pm', 'Saved payment method'), return_url: useCase(str({maxLength: 2048, format: 'uri'}), 'format')}),
    PaymentCapture: body({
      amount: {...int(1, MAX_SAFE, "in the currency's minor unit"), description: 'Omit to capture the rest of the authorization.'},
      final_capture: {type: 'boolean', description: 'Close the authorization after this capture (release the rest).'},
    }),
    PaymentIncrement: body({amount: required({...int(1, MAX_AMOUNT, 'as the new total authorization in minor units'), description: 'The new total; greater than the current amount.'})}),
    PaymentCancel: body({cancellation_reason: str({enum: [...CANCELLATION_REASONS]})}),
    CustomerFields: body({
      email: nullable(str({maxLength: 200})),
      name: nullable(str({maxLength: 200})),
      description: nullable(str({maxLength: 1000})),
      metadata: metadataReq,
    }),
    PaymentMethodCreate: PAYMENT_METHOD_DATA,
    AccountFields: body({name: nullable(str({maxLength: 200})), metadata: metadataReq}),
    ApiKeyCreate: body({
      type: str({enum: ['restricted', 'secret', 'publishable'], description: 'restricted (the default) needs permissions.'}),
      name: str({maxLength: 200}),
      permissions: {
        type: 'array',
        maxItems: 64,
        items: {type: 'string', maxLength: 64},
        description: 'For restricted keys: resource:read or resource:write (write includes read), or *:read / *:write. Resources: payments, refunds, disputes, customers, payment_methods, webhooks, events, routing, merchants, settlement, request_logs, test_helpers (and accounts on the engine\'s own account).',
      },
    }),
    ApiKeyRoll: body({expires_in: {...int(0, 7 * 86_400, 'in seconds, 0 to 604800 (7 days)'), description: 'How long the old key keeps working (wall clock); default 86400 (24 h), 0: at once.'}}),
    Empty: body({}, 'No parameters.'),
    WebhookReplayCreate: body({
      since: {type: 'string', format: 'date-time', description: 'Deliveries created at or after this time (engine clock). Give this or within.'},
      within: {type: 'integer', minimum: 1, description: 'Deliveries created in the last this many seconds of engine time. Give this or since.'},
      status: {type: 'array', minItems: 1, items: {type: 'string', enum: ['pending', 'failed_retrying', 'undeliverable']}, description: 'Which deliveries to send again; default failed_retrying and undeliverable.'},
    }),
    WebhookSecretRotate: body({
      expires_in: {type: 'integer', minimum: 0, maximum: 604_800, description: 'Seconds (engine clock) the previous secret keeps signing alongside the new one (a second v1); default 0: the new secret alone, at once.'},
    }),
    RefundCreate: body({
      payment: required(useCase({type: 'string', minLength: 1, pattern: '^pay_[0-9A-Za-z]+$', description: 'The succeeded payment to refund; unknown → 404.'}, 'pattern')),
      amount: {...int(1, MAX_AMOUNT, "in the payment currency's minor unit"), description: 'Omit to refund everything still refundable.'},
      reason: nullable(str({enum: [...REFUND_REASONS]})),
      metadata: metadataReq,
    }),
    DisputeEvidenceSubmit: {
      ...body({
        fields: {
          type: 'object',
          description: 'Any keys; recognized: product_description, customer_communication, tracking_number, shipping_address, refund_policy, service_date.',
          maxProperties: 50,
          propertyNames: {minLength: 1, maxLength: 100},
          additionalProperties: {type: 'string', maxLength: 20_000},
          'x-messages': {
            type: '{path} must be an object of string keys to string values, e.g. {"tracking_number": "1Z999..."}.',
            maxProperties: '{path} can hold at most {limit} keys.',
            propertyNames: 'fields keys must be 1 to 100 characters.',
            'additionalProperties.type': '{path} must be a string.',
            'additionalProperties.maxLength': '{path} must be at most {limit} characters.',
          },
        },
        files: {
          type: 'array',
          maxItems: 20,
          items: {type: 'string', maxLength: 2048, format: 'uri', pattern: '^https://', 'x-messages': {'*': '{path} must be an HTTPS URL such as https://shop.example/receipt.pdf.'}},
          'x-messages': {type: '{path} must be an array of HTTPS URLs.', maxItems: '{path} can hold at most {limit} URLs.'},
        },
      }),
      'x-messages': {type: 'The request body must be a JSON object {fields, files}.'},
      description: 'At least one field or file (else 400 parameter_missing, checked by the use case).',
    },
    TestPaymentAction: body({outcome: reqStr({enum: ['approve', 'fail', 'abandon']})}),
    TestPaymentReview: body({decision: reqStr({enum: ['approve', 'block']})}),
    TestDisputeCreate: body({
      payment: required(useCase({type: 'string', minLength: 1, pattern: '^pay_[0-9A-Za-z]+$'}, 'pattern')),
      reason: str({enum: [...DISPUTE_REASONS]}),
      amount: {...int(1, MAX_AMOUNT, "in the payment currency's minor unit"), description: 'Defaults to, and may not exceed, captured minus refunded.'},
    }),
    TestDisputeResolve: body({outcome: reqStr({enum: ['won', 'lost', 'escalate']})}),
    TestProviderHealth: body({status: reqStr({enum: [...PROVIDER_STATUSES]})}),
    SnapshotBody: body(
      {
        object: {type: 'string', const: 'snapshot'},
        format: {type: 'string', description: "'gw.snapshot'"},
        version: {type: 'integer', description: 'The snapshot format version (1); other versions are refused by name.'},
        account: {type: 'string'},
        livemode: {type: 'boolean'},
        created_at: {type: 'string'},
        engine_time: {type: 'string'},
        rows: {type: 'object', description: 'The account\'s rows as saved (docs/api.md "Snapshots"); checked by the engine, not by this schema.'},
      },
      'A snapshot as GET /test_helpers/snapshot answered it.',
    ),
    TestClockSet: body({
      frozen: {type: 'boolean', description: 'Freeze the clock where it stands (or at now), or let it tick again.'},
      now: {type: 'string', format: 'date-time', description: 'Set the clock to this instant: the current engine time or later (the clock never moves back), at most 400 days later (as an advance: the jobs due in between run before the answer).'},
    }),
    TestClockAdvance: body({
      seconds: required(int(1, MAX_ADVANCE_S, '(whole seconds to move the engine clock forward)')),
      wait: {type: 'boolean', description: 'Answer only once every webhook attempt the advance made due (retries included) has ended and been recorded, up to 30 s; default false (the attempts follow the answer within milliseconds).'},
    }),
    WebhookEndpointCreate: body({
      url: reqStr({maxLength: 2048, format: 'uri', pattern: '^https://', 'x-checked-by-use-case': ['format', 'pattern']}),
      enabled_events: required(
        useCase(
          {type: 'array', minItems: 1, maxItems: 100, items: {type: 'string'}, description: 'Event types, prefixes ending in `.*`, or `*`; unknown types are rejected.'},
          'minItems',
        ),
      ),
      description: nullable(str({maxLength: 1000})),
      metadata: metadataReq,
    }),
    WebhookEndpointUpdate: body({
      url: useCase(str({maxLength: 2048, format: 'uri', pattern: '^https://'}), 'format', 'pattern'),
      enabled_events: useCase({type: 'array', minItems: 1, maxItems: 100, items: {type: 'string'}}, 'minItems'),
      description: nullable(str({maxLength: 1000})),
      metadata: metadataReq,
      disabled: {type: 'boolean'},
    }),
    EventResend: body({
      endpoint: idRef('wh', 'Webhook endpoint'),
      all: {type: 'boolean', description: 'Without endpoint: also to the endpoints that already received the event (default false: only those that have not).'},
    }),
    MerchantCreate: body({
      business_name: reqStr({maxLength: 200}),
      legal_name: str({maxLength: 200}),
      country: useCase(str({maxLength: 2, pattern: '^[A-Z]{2}$'}), 'pattern'),
      email: str({maxLength: 200}),
      metadata: metadataReq,
      capabilities: body({}, 'Capabilities change only once KYB is complete: none on create.'),
    }),
    MerchantUpdate: body({
      business_name: str({maxLength: 200}),
      legal_name: str({maxLength: 200}),
      country: useCase(str({maxLength: 2, pattern: '^[A-Z]{2}$'}), 'pattern'),
      email: str({maxLength: 200}),
      metadata: metadataReq,
      capabilities: body({
        card_payments: str({enum: ['active', 'inactive']}),
        local_payments: str({enum: ['active', 'inactive']}),
        payouts: str({enum: ['active', 'inactive']}),
      }),
    }),
    ...routingRuleBodies(),
  }
}

function routingRuleBodies(): Record<string, Schema> {
  const conditions = body({
    payment_method: useCase(str({enum: [...METHOD_CODES]}), 'enum'),
    currency: useCase(str({maxLength: 3, pattern: '^[A-Z]{3}$'}), 'pattern'),
    amount_gte: int(0, MAX_SAFE),
    amount_lte: int(0, MAX_SAFE),
    card_brand: str({maxLength: 20}),
    country: str({maxLength: 2}),
  })
  const providers: Schema = {
    type: 'array',
    description: 'At least one for prefer and split (checked by the use case).',
    items: {
      ...body({provider: required(useCase({type: 'string', pattern: '^prov_[0-9A-Za-z]+$'}, 'pattern')), weight: int(0, 1000)}),
      'x-messages': {
        type: '{path} must be an object {provider, weight?}.',
        additionalProperties: 'Received unknown parameter: {path}.',
        'provider.*': '{path} must be a provider id.',
        'weight.*': '{path} must be an integer from 0 to 1000.',
      },
    },
    'x-messages': {type: '{path} must be an array of {provider, weight?}.'},
  }
  const mk = (create: boolean) =>
    body({
      merchant: nullable(idRef('mer', 'Merchant (null: every payment of the account)')),
      priority: create ? required(int(0, 1_000_000)) : int(0, 1_000_000),
      action: create ? reqStr({enum: ['prefer', 'split', 'block']}) : str({enum: ['prefer', 'split', 'block']}),
      conditions,
      providers,
    })
  return {RoutingRuleCreate: mk(true), RoutingRuleUpdate: mk(false)}
}
