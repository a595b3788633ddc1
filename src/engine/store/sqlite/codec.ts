// How the SQLite adapter keeps large JSON: compressed with a preset dictionary of the shapes the
// engine writes (a payment, an event envelope, a delivery, a card's internal state), so a
// payment of ~950 bytes takes about 150. The writer thread packs; readers unpack. A packed value
// is a BLOB whose first byte names its format; TEXT values (written before packing existed, or
// too small to pack) are read as they are. Formats are append-only: a new one gets a new byte,
// and every one stays readable.
//   1: raw deflate (level 1, 4 KiB window) with DICTIONARY_V1 — written until 2026-11; about
//      15 µs per value, most of it setting up a zlib stream and its dictionary for each value.
//   2: a zstd frame (level 1, content size in the header) with DICTIONARY_V1 as its raw-content
//      dictionary — one compression context per thread with the dictionary loaded once: about
//      5 µs per value (bench/README.md, "Where a payment's time goes").
import {inflateRawSync} from 'node:zlib'
import {Compressor, Decompressor} from 'zstd-napi'

/**
 * Values shorter than this are kept as text: chosen when each packing cost a zlib set-up (about
 * 300k instructions) whatever the size — worth it for a payment or an event (~1 KB), not for a
 * delivery. Kept with format 2, so the storage figures of bench `storage` stay comparable.
 */
export const PACK_MIN = 600

/** Format 1's inflate window: 4 KiB (the dictionary fits in it). */
const DEFLATE_WINDOW_BITS = 12

/** Format 2's zstd parameters: level 1 (level 3 packs 4 % smaller for the same time; level 1 is the faster on larger values). */
export const ZSTD_PARAMETERS = {compressionLevel: 1, contentSizeFlag: true, checksumFlag: false} as const

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

/** The dictionary of each format byte. */
export const DICTIONARIES: Readonly<Record<number, Buffer>> = {1: Buffer.from(DICTIONARY_V1), 2: Buffer.from(DICTIONARY_V1)}
/** The format new values are packed in. */
export const CURRENT = 2

let compressor: Compressor | undefined
let decompressor: Decompressor | undefined

/** A compression context with format 2's parameters and dictionary (one per thread: the writer thread makes its own). */
function newCompressor(): Compressor {
  const c = new Compressor()
  c.setParameters(ZSTD_PARAMETERS)
  c.loadDictionary(DICTIONARIES[2]!)
  return c
}

/** Packs a value for storage (the writer thread packs with its own context, the same way). */
export function pack(value: string): string | Buffer {
  if (value.length < PACK_MIN) return value
  return frame((compressor ??= newCompressor()).compress(Buffer.from(value, 'utf8')))
}

/** A packed value: the format byte, then the compressed bytes. */
function frame(z: Buffer): Buffer {
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
  switch (value[0]) {
    case 2:
      if (!decompressor) {
        decompressor = new Decompressor()
        decompressor.loadDictionary(DICTIONARIES[2]!)
      }
      return decompressor.decompress(value.subarray(1)).toString('utf8')
    case 1:
      return inflateRawSync(value.subarray(1), {windowBits: DEFLATE_WINDOW_BITS, dictionary: DICTIONARIES[1], chunkSize: 4096}).toString('utf8')
    default:
      throw new Error(`stored value packed in unknown format ${value[0]}`)
  }
}
