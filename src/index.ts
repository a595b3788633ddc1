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
export type {GwEvent} from './api/types.js'

// The SDK: the API client the CLI uses, typed from the same vocabulary as the engine's wire objects
export {Gateway, type GatewayOptions} from './sdk.js'
export {ApiError, NetworkError} from './client/errors.js'
export type {
  Account,
  ApiKey,
  Balance,
  Customer,
  Dispute,
  ListEnvelope,
  Payment,
  PaymentMethod,
  Payout,
  Refund,
  SettlementReport,
  Snapshot,
  SnapshotLoad,
  TestClock,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookReplay,
} from './api/types.js'
