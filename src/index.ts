// The package's library entry (package.json "exports" "."): helpers for merchants' Node servers.
// Nothing here loads oclif, Ink or the engine.
export {
  computeSignature,
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  signatureHeader,
  SignatureVerificationError,
  verifySignature,
  type ParsedHeader,
  type Payload,
  type SignatureFailureReason,
  type VerifiedSignature,
  type VerifyOptions,
} from './api/webhook-signature.js'
// events: narrowed by their type (event.type === 'payment.succeeded' makes event.data.object a Payment)
export type {EventObjects, EventOf, EventType, GwEvent} from './api/types.js'

// The SDK: the API client the CLI uses, typed from the same vocabulary as the engine's wire objects
export {Gateway, type GatewayOptions} from './sdk.js'
export {ApiError, NetworkError, type ApiErrorCode, type ApiErrorType} from './client/errors.js'
export type {PostOpts} from './client/index.js'
// what the card fields ({checkout_url}/gw.js) resolve with, for a shop's TypeScript page code
export type {CardFieldsError, CardPaymentResult, CardSaveResult} from './api/card-fields.js'
// The contract's types, every one generated from the OpenAPI document: each schema by its name
// (Payment, CheckoutSession, ChaosRule, Provider, RoutingDecision...), each operation's body or
// query by its operationId (CreatePaymentParams, ListPaymentsParams...), and `components`,
// `paths`, `operations` as openapi-typescript writes them. test/release/packages-install.test.ts imports
// every one of them from the packed package.
export type * from './api/contract.gen.js'
export type {Body, ErrorCode, ListEnvelope, OperationId, PathParams, Query, Response} from './api/types.js'
export type {ActionOutcome, BillingDetailsInput, CardInput, DisputeOutcome, ListParams, PaymentMethodData, ReviewDecision} from './client/params.js'
