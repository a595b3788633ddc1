// The schemas of what the engine stores beyond the API's objects (stored-rows.ts checks rows
// against them): internal fields (_x), jobs and their data, engine-only rows.
import {DISPUTE_REASONS} from '../../api/dispute-evidence.js'
import {EVENT_TYPES} from '../../api/event-types.js'
import {DISPUTE_STAGES, PROVIDER_STATUSES} from '../../api/types.js'
import type {LedgerEntryType} from '../domain/ledger.js'
import type {Instrument} from '../domain/payment.js'
import {PROVIDERS} from '../domain/providers.js'
import {type Kind} from '../ports/store.js'

export type Schema = Record<string, unknown>


// ---------------------------------------------------------------- schemas of engine-only state

/** A time as the engine writes it: Date.toISOString() of an instant with a four-digit year. */
export const ENGINE_TIME = 'engine-time'
export const time: Schema = {type: 'string', format: ENGINE_TIME}
export const str: Schema = {type: 'string'}
export const bool: Schema = {type: 'boolean'}
export const int = (minimum = 0, maximum = Number.MAX_SAFE_INTEGER): Schema => ({type: 'integer', minimum, maximum})
export const nullable = (s: Schema): Schema => ({anyOf: [s, {type: 'null'}]})
export const id = (prefix: string): Schema => ({type: 'string', pattern: `^${prefix}_[0-9A-Za-z]+$`})
export const strings: Schema = {type: 'array', items: str}
/** An object with these fields and no other (`optional` may be left out). */
export function closed(properties: Record<string, Schema>, optional: string[] = []): Schema {
  return {type: 'object', properties, required: Object.keys(properties).filter((k) => !optional.includes(k)), additionalProperties: false}
}

export const INSTRUMENT: Record<keyof Instrument, Schema> = {
  type: {const: 'card'},
  number: {type: 'string', pattern: '^[0-9]{12,19}$'},
  brand: str,
  last4: {type: 'string', pattern: '^[0-9]{4}$'},
  exp_month: int(1, 12),
  exp_year: int(1000, 9999),
  funding: {enum: ['credit', 'debit', 'prepaid', 'unknown']},
  country: str,
  network_token: bool,
  incremental: bool,
  multi_capture: bool,
  cvc: {enum: ['provided', 'missing', 'cryptogram']},
  test: {
    oneOf: [
      closed({kind: {enum: ['succeed', 'challenge', 'cvv_fail', 'refund_fails']}}),
      closed({kind: {const: 'decline'}, code: str}),
      closed({kind: {const: 'dispute'}, reason: {const: 'fraudulent'}}),
    ],
  },
  billing_postal_code: nullable(str),
  billing_country: nullable(str),
  sealed_number: {type: 'string', pattern: '^gwenc1:[A-Za-z0-9_-]+$'},
  fingerprint: {type: 'string', pattern: '^[A-Za-z0-9_-]{22}$'},
}
export const instrument = closed(INSTRUMENT, ['sealed_number', 'fingerprint'])

export const routingRecord = closed({
  at: time,
  state: {type: 'object', additionalProperties: {type: 'array', prefixItems: [{enum: [...PROVIDER_STATUSES]}, nullable({type: 'number', minimum: 0, maximum: 1})], minItems: 2, maxItems: 2}},
  rule: nullable({type: 'object'}),
  pick: nullable(id('prov')),
  tried: {type: 'array', items: id('prov')},
})

export const LEDGER_TYPES = Object.keys({payment: 1, fee: 1, refund: 1, refund_failure: 1, dispute: 1, dispute_reversal: 1, payout: 1} satisfies Record<LedgerEntryType, 1>)

export const SIGNING_SECRET: Schema = {type: 'string', pattern: '^(whsec_[0-9A-Za-z_-]+|gwenc1:[0-9A-Za-z_-]+)$', maxLength: 512}

/** The internal part (`_x`) of each kind that has one; `required`: every stored object of the kind has it. */
export const INTERNAL: Partial<Record<Kind, {schema: Schema; required: boolean}>> = {
  payment: {
    required: true,
    schema: closed(
      {
        instrument,
        session: closed({token: str, step: {enum: ['card_form', 'challenge', 'method']}, expires_at: time}),
        tried: {type: 'array', items: id('prov')},
        challenge_passed: bool,
        customer_done: bool,
        auth_expires_at: time,
        routing: {type: 'array', items: routingRecord},
        checkout_session: id('cs'),
        // the origin of the shop page whose card fields confirmed it (payments.ts parentOrigin)
        frame_origin: {type: 'string', pattern: '^https?://[^/?#]+$'},
      },
      ['instrument', 'session', 'challenge_passed', 'customer_done', 'auth_expires_at', 'routing', 'checkout_session', 'frame_origin'],
    ),
  },
  payment_method: {required: true, schema: closed({instrument})},
  refund: {
    required: true,
    schema: closed({
      provider: nullable(id('prov')),
      submitted: nullable(closed({outcome: {enum: ['approved', 'declined', 'soft_declined', 'timeout', 'error']}, decline_code: nullable(str)})),
      answers_at: time,
    }),
  },
  dispute: {
    required: true,
    schema: closed({
      network: nullable(str),
      submissions: {
        type: 'array',
        items: closed({
          stage: {enum: [...DISPUTE_STAGES]},
          evidence: closed({fields: {type: 'object', additionalProperties: str}, files: strings, submitted_at: time}),
          rendering: closed({scheme: {enum: ['visa', 'mastercard', 'amex', 'other']}, format: str, reason_code: str, payload: {type: 'object'}}),
          coverage: closed({recognized: strings, other: strings, suited: strings, missing: strings}),
        }),
      },
    }),
  },
  webhook_endpoint: {
    required: true,
    // a signing secret in the clear (include_secrets), sealed (gwenc1:, adapters/secret-box.ts), or none: the load gives it a new one (core/secrets.ts)
    schema: closed({secret: nullable(SIGNING_SECRET), streak_started_at: nullable(time), last_failure_at: nullable(time), previous_secret: nullable(SIGNING_SECRET)}, ['previous_secret']),
  },
  delivery: {required: true, schema: closed({retry_until: time, fail_first: int(1, 10)}, ['fail_first'])},
  checkout_session: {required: true, schema: closed({token: {type: 'string', minLength: 1}})},
}

/** Kinds never served by the API: their whole object is engine-only. */
export const INTERNAL_OBJECTS: Partial<Record<Kind, Schema>> = {
  ledger_entry: closed({
    id: id('le'),
    object: {const: 'ledger_entry'},
    type: {enum: LEDGER_TYPES},
    amount: int(Number.MIN_SAFE_INTEGER),
    currency: {type: 'string', pattern: '^[A-Z]{3}$'},
    payment: nullable(id('pay')),
    source: nullable({type: 'string', pattern: '^(rf|dp|po)_[0-9A-Za-z]+$'}),
    provider: nullable(id('prov')),
    reference: nullable(str),
    available_at: time,
    created_at: time,
  }),
}

/** The response schema of each kind a snapshot may hold (OpenAPI components). */
export const RESPONSE: Partial<Record<Kind, string>> = {
  payment: 'Payment',
  customer: 'Customer',
  payment_method: 'PaymentMethod',
  refund: 'Refund',
  dispute: 'Dispute',
  webhook_endpoint: 'WebhookEndpoint',
  delivery: 'WebhookDelivery',
  merchant: 'Merchant',
  routing_rule: 'RoutingRule',
  settlement_report: 'SettlementReport',
  payout: 'Payout',
  checkout_session: 'CheckoutSession',
}

/** Fields a client writes, bounded as the request schema (component, property) that writes them bounds them. */
export const WRITTEN: Partial<Record<Kind, [field: string, body: string][]>> = {
  payment: [['description', 'PaymentCreate'], ['reference', 'PaymentCreate'], ['return_url', 'PaymentCreate'], ['metadata', 'PaymentCreate']],
  customer: [['email', 'CustomerFields'], ['name', 'CustomerFields'], ['description', 'CustomerFields'], ['metadata', 'CustomerFields']],
  refund: [['metadata', 'RefundCreate']],
  webhook_endpoint: [['url', 'WebhookEndpointCreate'], ['enabled_events', 'WebhookEndpointCreate'], ['description', 'WebhookEndpointCreate'], ['metadata', 'WebhookEndpointCreate']],
  merchant: [['business_name', 'MerchantCreate'], ['legal_name', 'MerchantCreate'], ['email', 'MerchantCreate'], ['metadata', 'MerchantCreate']],
  checkout_session: [['success_url', 'CheckoutSessionCreate'], ['cancel_url', 'CheckoutSessionCreate'], ['reference', 'CheckoutSessionCreate'], ['metadata', 'CheckoutSessionCreate'], ['payment_methods', 'CheckoutSessionCreate']],
}

/** Fields of stored objects that rows written before they existed may lack (the API fills them in when it serves them). */
export const MAY_LACK: Partial<Record<Kind, string[]>> = {webhook_endpoint: ['previous_secret_expires_at']}

/** Each timeline job kind: the prefix of the object it acts on (or the literal ref), and the data it carries. */
export const JOB_SHAPES: Readonly<Record<string, {ref: Schema; data?: Schema}>> = {
  'payment.session_expiry': {ref: id('pay'), data: closed({step: {enum: ['card_form', 'challenge', 'method']}})},
  'payment.unpaid_expiry': {ref: id('pay'), data: closed({step: {enum: ['card_form', 'challenge', 'method']}})},
  'payment.auth_expiry': {ref: id('pay')},
  'payment.rail_confirm': {ref: id('pay')},
  'refund.rail_answer': {ref: id('pay'), data: closed({refund: id('rf')})},
  'dispute.network_open': {ref: id('pay'), data: closed({reason: {enum: [...DISPUTE_REASONS]}})},
  'dispute.deadline': {ref: id('dp'), data: closed({stage: {enum: [...DISPUTE_STAGES]}})},
  'settlement.run': {ref: {const: 'settlement'}},
  'payout.arrive': {ref: id('po')},
  'merchant.kyb_review': {ref: id('mer')},
  'chaos.provider_down_ended': {ref: id('chaos'), data: closed({provider: id('prov')})},
  'checkout.session_expiry': {ref: id('cs')},
}

export const ROW_SCHEMAS = {
  object: closed({kind: str, obj: {type: 'object'}, version: int(1)}),
  event: closed({id: id('evt'), type: {enum: [...EVENT_TYPES]}, created_at: time, json: str, object_id: nullable(str), payment: nullable(str)}, ['object_id', 'payment']),
  job: closed({id: id('job'), kind: {enum: Object.keys(JOB_SHAPES)}, ref: str, due_at: time, data: {type: 'object'}}, ['data']),
  idempotency: closed({scope: {const: 'test'}, key: {type: 'string', minLength: 1, maxLength: 255}, request_hash: {type: 'string', pattern: '^[0-9a-f]{64}$'}, status: int(100, 599), body: str, created_at: time, expires_at: time}),
  stat: closed({provider: {enum: PROVIDERS.map((p) => p.id)}, day: {type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$'}, approved: int(), total: int()}),
}

