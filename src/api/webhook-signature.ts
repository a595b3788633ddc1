// Webhook signatures for receivers (docs/api.md#webhook-signatures): `Service-Signature: t=<unix>,v1=<hex>`,
// where v1 is the lowercase hex HMAC-SHA256 of `${t}.${raw_body}` keyed with the endpoint's whole
// `whsec_...` secret. This module is the package's public entry for merchants' servers
// (re-exported by src/index.ts): it depends on node:crypto only, never on oclif or the engine.
import {createHmac, timingSafeEqual} from 'node:crypto'

/** The header each delivery carries (lower-case it for Node's `req.headers`). */
export const SIGNATURE_HEADER = 'Service-Signature'

/** Default tolerance, in seconds, between the signed timestamp and the receiver's clock (docs/api.md#limits). */
export const DEFAULT_TOLERANCE_SECONDS = 300

export type Payload = string | Uint8Array

export type SignatureFailureReason =
  /** the header is missing, or has no `t=` or no well-formed `v1=` */
  | 'malformed_header'
  /** no `v1` value matches the payload under the secret(s) */
  | 'signature_mismatch'
  /** the signature matches but `t` is further than `tolerance` seconds from `now` */
  | 'timestamp_out_of_tolerance'

/** Thrown by verifySignature; `reason` says why, for logs and metrics. */
export class SignatureVerificationError extends Error {
  override readonly name = 'SignatureVerificationError'
  readonly reason: SignatureFailureReason
  /** the signed timestamp (unix seconds), when the header had one */
  readonly timestamp?: number
  /** now - timestamp in seconds (positive: signed in the past), for timestamp_out_of_tolerance */
  readonly ageSeconds?: number

  constructor(reason: SignatureFailureReason, message: string, extra: {timestamp?: number; ageSeconds?: number} = {}) {
    super(message)
    this.reason = reason
    this.timestamp = extra.timestamp
    this.ageSeconds = extra.ageSeconds
  }
}

export interface VerifyOptions {
  /** the raw request body exactly as received (a Buffer or the undecoded string), never re-serialised JSON */
  payload: Payload
  /** the Service-Signature header value (Node's `req.headers['service-signature']` is accepted as is) */
  header: string | string[] | undefined | null
  /** the endpoint's `whsec_...` secret; several during a rotation (any may match) */
  secret: string | readonly string[]
  /** seconds allowed between `t` and `now`, both ways; default 300. 0 checks nothing about time. */
  tolerance?: number
  /** the receiver's clock: a Date or milliseconds since the epoch (Date.now()); default now */
  now?: Date | number
}

export interface VerifiedSignature {
  /** the signed timestamp, unix seconds */
  timestamp: number
  /** the `v1` value that matched */
  signature: string
}

/** The `v1` value: lowercase hex HMAC-SHA256 of `${t}.${payload}` keyed with the secret. */
export function computeSignature(secret: string, payload: Payload, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest('hex')
}

/** A full header value, `t=<timestamp>,v1=<hex>`; useful to test a receiver. `timestamp` defaults to now (unix seconds). */
export function signatureHeader(secret: string | readonly string[], payload: Payload, timestamp = Math.floor(Date.now() / 1000)): string {
  // several secrets (a rotation's overlap): one v1 each, the newest first
  const secrets = typeof secret === 'string' ? [secret] : secret
  return `t=${timestamp},${secrets.map((s) => `v1=${computeSignature(s, payload, timestamp)}`).join(',')}`
}

export interface ParsedHeader {
  timestamp: number
  /** well-formed v1 values (64 lowercase hex characters), in header order */
  signatures: string[]
}

/** Splits `t=...,v1=...[,v1=...]`. Throws SignatureVerificationError('malformed_header') naming what is wrong. */
export function parseSignatureHeader(header: string | string[] | undefined | null): ParsedHeader {
  const value = Array.isArray(header) ? header[0] : header
  if (value === undefined || value === null || value.trim() === '')
    throw new SignatureVerificationError('malformed_header', `No ${SIGNATURE_HEADER} header: the request is not signed.`)
  let timestamp: number | undefined
  let badTimestamp: string | undefined
  const signatures: string[] = []
  const bad: string[] = []
  for (const part of value.split(',')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const k = part.slice(0, eq).trim()
    const v = part.slice(eq + 1).trim()
    if (k === 't') {
      if (/^\d{1,15}$/.test(v)) timestamp = Number(v)
      else badTimestamp = v
    } else if (k === 'v1') {
      if (/^[0-9a-f]{64}$/.test(v)) signatures.push(v)
      else bad.push(v)
    }
  }
  if (timestamp === undefined)
    throw new SignatureVerificationError(
      'malformed_header',
      badTimestamp !== undefined
        ? `${SIGNATURE_HEADER} has t=${badTimestamp}, which is not a unix timestamp in seconds.`
        : `${SIGNATURE_HEADER} has no t=<unix timestamp> part; expected t=<unix>,v1=<hex>.`,
    )
  if (signatures.length === 0)
    throw new SignatureVerificationError(
      'malformed_header',
      bad.length
        ? `${SIGNATURE_HEADER} has v1=${bad[0]!.slice(0, 80)}, which is not 64 lowercase hex characters (a truncated or altered signature).`
        : `${SIGNATURE_HEADER} has no v1=<hex> signature; expected t=<unix>,v1=<hex>.`,
      {timestamp},
    )
  return {timestamp, signatures}
}

function nowSeconds(now: Date | number | undefined): number {
  if (now === undefined) return Date.now() / 1000
  return (now instanceof Date ? now.getTime() : now) / 1000
}

/** Whether any of `signatures` is the HMAC of `payload` at `timestamp` under any of `secrets` (constant-time compares). */
export function matchingSignature(secrets: readonly string[], payload: Payload, parsed: ParsedHeader): string | undefined {
  for (const secret of secrets) {
    const expected = Buffer.from(computeSignature(secret, payload, parsed.timestamp), 'hex')
    for (const sig of parsed.signatures) {
      const given = Buffer.from(sig, 'hex')
      if (given.length === expected.length && timingSafeEqual(given, expected)) return sig
    }
  }
  return undefined
}

/**
 * Verifies a webhook delivery as docs/api.md#webhook-signatures prescribes: parse the header, recompute the HMAC over
 * the raw bytes, compare in constant time (any `v1` may match), then check that `t` is within
 * `tolerance` seconds of `now` in either direction. Returns the verified timestamp; throws a
 * SignatureVerificationError with a `reason` otherwise. Verify before parsing the body.
 */
export function verifySignature(opts: VerifyOptions): VerifiedSignature {
  const secrets = (typeof opts.secret === 'string' ? [opts.secret] : [...opts.secret]).filter((s) => typeof s === 'string' && s !== '')
  if (secrets.length === 0) throw new TypeError('verifySignature: secret must be the endpoint\'s whsec_... signing secret.')
  if (typeof opts.payload !== 'string' && !(opts.payload instanceof Uint8Array))
    throw new TypeError('verifySignature: payload must be the raw body as a string or Buffer (use express.raw(), not express.json()).')
  const tolerance = opts.tolerance ?? DEFAULT_TOLERANCE_SECONDS
  if (!(tolerance >= 0)) throw new TypeError('verifySignature: tolerance must be a number of seconds, 0 or more.')
  const parsed = parseSignatureHeader(opts.header)
  const sig = matchingSignature(secrets, opts.payload, parsed)
  if (!sig)
    throw new SignatureVerificationError(
      'signature_mismatch',
      'No signature matches the payload: check the secret (the endpoint\'s whsec_..., rotated?) and that the payload is the raw body, not re-serialised JSON.',
      {timestamp: parsed.timestamp},
    )
  if (tolerance > 0) {
    const age = nowSeconds(opts.now) - parsed.timestamp
    if (Math.abs(age) > tolerance)
      throw new SignatureVerificationError(
        'timestamp_out_of_tolerance',
        `The signature's timestamp is ${describeAge(age)}, outside the ${tolerance} s tolerance (a replay, or a wrong clock).`,
        {timestamp: parsed.timestamp, ageSeconds: Math.round(age)},
      )
  }
  return {timestamp: parsed.timestamp, signature: sig}
}

/** "7m 12s old" or "3m in the future". */
export function describeAge(ageSeconds: number): string {
  let s = Math.round(Math.abs(ageSeconds))
  const parts: string[] = []
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (s >= size) {
      parts.push(`${Math.floor(s / size)}${unit}`)
      s %= size
    }
  }
  const text = parts.length ? parts.join(' ') : '0s'
  return ageSeconds >= 0 ? `${text} old` : `${text} in the future`
}
