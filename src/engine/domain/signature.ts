import {createHmac, timingSafeEqual} from 'node:crypto'

// Webhook signatures (spec §6 Signature). Pure functions: the engine signs with them and a
// receiver (the CLI's `verifySignature`) mirrors them byte for byte.

/** Header carrying the signature of each delivery. */
export const SIGNATURE_HEADER = 'Service-Signature'

/** Receivers reject timestamps further than this from their clock (spec §8). */
export const SIGNATURE_TOLERANCE_S = 300

/**
 * The `v1` value: lowercase hex HMAC-SHA256 of `${t}.${payload}` keyed with the endpoint's
 * whole `whsec_...` secret string (UTF-8). `payload` is the exact raw body, never re-serialised.
 */
export function signPayload(secret: string, payload: string | Uint8Array, t: number): string {
  return createHmac('sha256', secret).update(`${t}.`).update(payload).digest('hex')
}

/** The full header value: `t=<unix seconds>,v1=<hex>`. */
export function signatureHeader(secret: string, payload: string | Uint8Array, t: number): string {
  return `t=${t},v1=${signPayload(secret, payload, t)}`
}

/** Splits `t=...,v1=...[,v1=...]`; undefined when the header is malformed. */
export function parseSignatureHeader(header: string): {t: number; v1: string[]} | undefined {
  let t: number | undefined
  const v1: string[] = []
  for (const part of header.split(',')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const k = part.slice(0, eq).trim()
    const v = part.slice(eq + 1).trim()
    if (k === 't' && /^\d+$/.test(v)) t = Number(v)
    else if (k === 'v1' && /^[0-9a-f]{64}$/.test(v)) v1.push(v)
  }
  return t === undefined || v1.length === 0 ? undefined : {t, v1}
}

export type VerifyResult = {ok: true; t: number} | {ok: false; reason: 'malformed' | 'mismatch' | 'timestamp_out_of_tolerance'}

/**
 * Verification as §6 prescribes: split the header, recompute, compare in constant time, and
 * reject timestamps more than `toleranceS` from `nowS` (unix seconds).
 */
export function verifySignature(
  header: string,
  payload: string | Uint8Array,
  secret: string,
  nowS: number,
  toleranceS = SIGNATURE_TOLERANCE_S,
): VerifyResult {
  const parsed = parseSignatureHeader(header)
  if (!parsed) return {ok: false, reason: 'malformed'}
  const expected = Buffer.from(signPayload(secret, payload, parsed.t), 'hex')
  const match = parsed.v1.some((v) => timingSafeEqual(Buffer.from(v, 'hex'), expected))
  if (!match) return {ok: false, reason: 'mismatch'}
  if (Math.abs(nowS - parsed.t) > toleranceS) return {ok: false, reason: 'timestamp_out_of_tolerance'}
  return {ok: true, t: parsed.t}
}
