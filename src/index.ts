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
