// How the SQLite adapter keeps large JSON: raw deflate with a preset dictionary of the shapes
// the engine writes (a payment, an event envelope, a delivery, a card's internal state), so a
// payment of ~950 bytes takes a few hundred. The writer thread packs; readers unpack. A packed
// value is a BLOB whose first byte names the dictionary version; TEXT values (written before
// packing existed, or too small to pack) are read as they are. Dictionaries are append-only:
// a new version gets a new byte, and every version stays readable.
import {deflateRawSync, inflateRawSync} from 'node:zlib'

/**
 * Values shorter than this are kept as text: each packing costs about 300k instructions of
 * zlib set-up whatever the size, worth it for a payment or an event (~1 KB), not for a delivery.
 */
export const PACK_MIN = 600

/**
 * Window of 4 KiB (the dictionary fits in it), small memory level: cheap to set up per value;
 * 1 KiB output chunks (zlib's default, 16 KiB per call, made garbage for the collector to chase).
 */
export const DEFLATE_OPTIONS = {level: 1, windowBits: 12, memLevel: 4, chunkSize: 1024} as const

const EPOCH = '2026-01-01T00:00:00.000Z'
const DICTIONARY_V1 = [
  // least likely first: zlib reaches the end of the dictionary most cheaply
  `{"id":"re_00000000000000000000000000","object":"refund","payment":"pay_","amount":1000,"currency":"EUR","status":"pending","reason":"requested_by_customer","failure_reason":null,"reference":"order-","metadata":{},"livemode":false,"created_at":"${EPOCH}"}`,
  `{"id":"dp_","object":"dispute","payment":"pay_","amount":2000,"currency":"EUR","reason":"fraudulent","stage":"chargeback","status":"needs_response","evidence_due_by":"${EPOCH}","evidence":null,"livemode":false,"created_at":"${EPOCH}"}`,
  `{"instrument":{"type":"card","number":"4242424242424242","brand":"visa","last4":"4242","exp_month":12,"exp_year":2030,"funding":"credit","country":"US","network_token":true,"incremental":true,"multi_capture":true,"cvc":"provided","test":{"kind":"succeed"},"billing_postal_code":null,"billing_country":null},"tried":["prov_"],"session":{"token":"","step":"challenge","expires_at":"${EPOCH}"},"challenge_passed":true,"customer_done":true,"auth_expires_at":"${EPOCH}"}`,
  `{"id":"whd_000000000000000000000000","object":"webhook_delivery","event":"evt_","event_type":"payment.succeeded","endpoint":"wh_","status":"succeeded","attempts":[{"at":"${EPOCH}","status_code":200,"error":null,"error_message":null,"latency_ms":3,"response_excerpt":""}],"next_attempt_at":null,"undeliverable_reason":null,"livemode":false,"created_at":"${EPOCH}"}`,
  `{"id":"evt_000000000000000000000000","object":"event","type":"payment.succeeded","created_at":"${EPOCH}","livemode":false,"request_id":"req_000000000000000000000000","data":{"object":`,
  `{"id":"pay_000000000000000000000000","object":"payment","amount":2000,"amount_captured":2000,"amount_refunded":0,"currency":"EUR","status":"succeeded","payment_method":"card","payment_method_id":null,"payment_method_details":{"card":{"brand":"visa","last4":"4242","exp_month":12,"exp_year":2030,"funding":"credit","country":"US"}},"capture_method":"automatic","customer":null,"description":null,"reference":"pay_","metadata":{},"provider":"prov_","provider_attempts":[{"provider":"prov_","outcome":"approved","decline_code":null,"latency_ms":100,"attempted_at":"${EPOCH}"}],"risk":{"score":10,"decision":"approved","checks":{"avs_result":"unavailable","cvv_result":"pass"}},"next_action":null,"return_url":null,"refunded":false,"partially_refunded":false,"failure_code":null,"failure_message":null,"livemode":false,"created_at":"${EPOCH}","merchant":null}`,
].join('')

/** Dictionaries by the version byte that starts a packed value. */
export const DICTIONARIES: Readonly<Record<number, Buffer>> = {1: Buffer.from(DICTIONARY_V1)}
export const CURRENT = 1

/** Packs a value for storage (the writer thread's side). */
export function pack(value: string): string | Buffer {
  if (value.length < PACK_MIN) return value
  const z = deflateRawSync(value, {...DEFLATE_OPTIONS, dictionary: DICTIONARIES[CURRENT]})
  const out = Buffer.allocUnsafe(z.length + 1)
  out[0] = CURRENT
  z.copy(out, 1)
  return out
}

/** A stored value as text: unpacked if it was packed. */
export function unpack(value: string | Buffer): string
export function unpack(value: string | Buffer | null): string | null
export function unpack(value: string | Buffer | null): string | null {
  if (value === null || typeof value === 'string') return value
  const dictionary = DICTIONARIES[value[0]!]
  if (!dictionary) throw new Error(`stored value packed with unknown dictionary ${value[0]}`)
  return inflateRawSync(value.subarray(1), {windowBits: DEFLATE_OPTIONS.windowBits, dictionary, chunkSize: 4096}).toString('utf8')
}
