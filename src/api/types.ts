// The wire types of the gateway API, every one derived from the OpenAPI document (src/api/openapi/,
// the one place a shape is written): contract.gen.ts is generated from it (`npm run contract`), and
// this file adds the names code reads them by. Shared by the CLI, its client, the SDK and the
// engine. Money is integer minor units everywhere.
//
//   Payment, Refund, CheckoutSession, ...   each schema of the document, by its name
//   CreatePaymentParams, ListPaymentsParams  each operation's body or query, by its operationId
//   Body<'createPayment'>, Query<'listPayments'>, PathParams<'retrievePayment'>, Response<'createPayment'>
import type {components, Dispute, Event, Merchant, operations, RoutingDecision, WebhookEndpoint} from './contract.gen.js'

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

/** A page of any list (spec §2): the document's `<Name>List` envelopes, for any item type. */
export type ListEnvelope<T> = Omit<components['schemas']['PaymentList'], 'data'> & {data: T[]}

/** An event; `T` narrows what `data.object` is (the document: one of the objects events carry). */
export type GwEvent<T = Event['data']['object']> = Omit<Event, 'data'> & {data: {object: T}}

/** The answer of a DELETE: the document's `Deleted<Name>` objects, for any object name. */
export type Deleted<O extends string> = Omit<components['schemas']['DeletedCustomer'], 'object'> & {object: O}

/** The error envelope (spec §7). */
export type ApiErrorBody = components['schemas']['Error']
/** Every error code the API answers with (the document's list). */
export type ErrorCode = ApiErrorBody['error']['code']

export type RiskResult = components['schemas']['Risk']
export type DisputeClosedBy = NonNullable<Dispute['closed_by']>
export type WebhookEndpointStatus = WebhookEndpoint['status']
export type ApiKeyType = components['schemas']['ApiKey']['type']
export type CapabilityStatus = Merchant['capabilities']['card_payments']
/** Why a provider was not a candidate (docs/api.md "Routing explanations"). */
export type RoutingExclusion = NonNullable<RoutingDecision['providers'][number]['excluded']>
