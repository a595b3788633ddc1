// The wire types of the gateway API, every one derived from the OpenAPI document (src/api/openapi/,
// the one place a shape is written): contract.gen.ts is generated from it (`npm run contract`), and
// this file adds the names code reads them by. Shared by the CLI, its client, the SDK and the
// engine. Money is integer minor units everywhere.
//
//   Payment, Refund, CheckoutSession, ...   each schema of the document, by its name
//   CreatePaymentParams, ListPaymentsParams  each operation's body or query, by its operationId
//   Body<'createPayment'>, Query<'listPayments'>, PathParams<'retrievePayment'>, Response<'createPayment'>
import type {CheckoutSession, components, Dispute, Event, Merchant, operations, Payment, Provider, Refund, RoutingDecision, SettlementReport, WebhookEndpoint} from './contract.gen.js'
import type {EventType} from './event-types.js'

export type * from './contract.gen.js'
export * from './vocabulary.js'
// the document's PaymentStatus is built from PAYMENT_STATUSES: the same union
export type {PaymentStatus} from './vocabulary.js'

/** Every operationId of the document. */
export type OperationId = keyof operations

type Never<T> = [T] extends [never] ? Record<string, never> : T

/** The JSON body of an operation's request (never for an operation without one). */
export type Body<O extends OperationId> = NonNullable<operations[O]['requestBody']> extends {content: {'application/json': infer B}} ? B : never

/** An operation's query parameters (paging included), as the request validator hands them over: integers and booleans converted. */
export type Query<O extends OperationId> = Never<NonNullable<operations[O]['parameters']['query']>>

/** An operation's path parameters (`{id}`). */
export type PathParams<O extends OperationId> = Never<NonNullable<operations[O]['parameters']['path']>>

type Success<R> = {[S in keyof R]: S extends 200 | 201 ? (R[S] extends {content: {'application/json': infer B}} ? B : never) : never}[keyof R]

/** The JSON an operation answers with on success. */
export type Response<O extends OperationId> = Success<operations[O]['responses']>

/** A page of any list (docs/api.md#lists-and-pagination): the document's `<Name>List` envelopes, for any item type. */
export type ListEnvelope<T> = Omit<components['schemas']['PaymentList'], 'data'> & {data: T[]}

export type {EventType} from './event-types.js'

/** The object each type of event carries in `data.object`. */
export interface EventObjects {
  'payment.processing': Payment
  'payment.requires_action': Payment
  'payment.succeeded': Payment
  'payment.failed': Payment
  'payment.risk_review': Payment
  'payment.canceled': Payment
  'refund.succeeded': Refund
  'refund.failed': Refund
  'dispute.created': Dispute
  'dispute.updated': Dispute
  'dispute.closed': Dispute
  'merchant.updated': Merchant
  'settlement.report.ready': SettlementReport
  'provider.health.changed': Provider
  'webhook_endpoint.failing': WebhookEndpoint
  'webhook_endpoint.disabled': WebhookEndpoint
  'checkout.session.completed': CheckoutSession
  'checkout.session.expired': CheckoutSession
}

/** An event of one type: `data.object` is what that type carries. */
export type EventOf<K extends EventType> = Omit<Event, 'type' | 'data'> & {type: K; data: {object: EventObjects[K]}}

/**
 * An event. Without `T`: one of the known types, narrowed by `type` (`event.type ===
 * 'payment.succeeded'` makes `event.data.object` a Payment). Types added within v1 still arrive
 * at run time (acknowledge them in a `default` branch); they are left out of the union because a
 * member of `type: string` would keep every comparison from narrowing (docs/api.md#sdk-types).
 * With `T`: any event whose `data.object` the caller reads as a `T`.
 */
export type GwEvent<T = never> = [T] extends [never] ? {[K in EventType]: EventOf<K>}[EventType] : Omit<Event, 'data'> & {data: {object: T}}

/** The answer of a DELETE: the document's `Deleted<Name>` objects, for any object name. */
export type Deleted<O extends string> = Omit<components['schemas']['DeletedCustomer'], 'object'> & {object: O}

/** The error envelope (docs/api.md#errors). */
export type ApiErrorBody = components['schemas']['Error']
/** Every error code the API answers with (the document's list). */
export type ErrorCode = ApiErrorBody['error']['code']

export type RiskResult = components['schemas']['Risk']
export type DisputeClosedBy = NonNullable<Dispute['closed_by']>
export type WebhookEndpointStatus = WebhookEndpoint['status']
export type ApiKeyType = components['schemas']['ApiKey']['type']
export type CapabilityStatus = Merchant['capabilities']['card_payments']
/** Why a provider was not a candidate (docs/api.md#routing-explained). */
export type RoutingExclusion = NonNullable<RoutingDecision['providers'][number]['excluded']>
