// Dispute evidence vocabulary shared by the engine and the CLI (docs/api.md#dispute-lifecycle):
// the recognized keys, their meaning, and the evidence that suits each reason. Pure data:
// the CLI imports it without loading engine code.
import {DISPUTE_REASONS, type DisputeReason} from './vocabulary.js'

/** The keys the service recognizes in `fields`; any other key is accepted and forwarded as free text. */
export const RECOGNIZED_KEYS = [
  'product_description',
  'customer_communication',
  'tracking_number',
  'shipping_address',
  'refund_policy',
  'service_date',
] as const
export type RecognizedKey = (typeof RECOGNIZED_KEYS)[number]

export {DISPUTE_REASONS}

/**
 * The evidence that suits each reason (docs/api.md#dispute-lifecycle), as recognized keys, plus what
 * the service attaches by itself from the payment (3-D Secure, AVS/CVV, refunds).
 */
export const EVIDENCE_BY_REASON: Readonly<Record<DisputeReason, {keys: readonly RecognizedKey[]; oneOf?: readonly (readonly RecognizedKey[])[]; attached: readonly string[]; advice: string}>> = {
  fraudulent: {
    keys: ['customer_communication', 'shipping_address', 'product_description'],
    attached: ['three_d_secure', 'avs_result', 'cvv_result'],
    advice: 'Proof that the cardholder ordered: communication with the customer, a shipping address that matches the billing address; 3-D Secure and AVS/CVV results are attached automatically.',
  },
  product_not_received: {
    keys: ['tracking_number', 'service_date', 'shipping_address'],
    // "tracking number with delivery confirmation, or service date": either one
    oneOf: [['tracking_number', 'service_date']],
    attached: [],
    advice: 'A tracking number with delivery confirmation, or the date the service was provided.',
  },
  duplicate: {
    keys: ['product_description', 'customer_communication'],
    attached: [],
    advice: 'Receipts of two distinct orders (as files), and what each order contained.',
  },
  credit_not_processed: {
    keys: ['refund_policy', 'customer_communication'],
    attached: ['refunds'],
    advice: 'The refund id and date, or the refund policy the customer accepted; refunds of the payment are attached automatically.',
  },
  general: {
    keys: [...RECOGNIZED_KEYS],
    attached: ['three_d_secure', 'avs_result', 'cvv_result', 'refunds'],
    advice: 'Everything relevant to the transaction.',
  },
}

/** What each recognized key holds, for checklists and the form. */
export const KEY_HINTS: Readonly<Record<RecognizedKey, string>> = {
  product_description: 'what was sold, per order',
  customer_communication: 'emails or chat with the customer',
  tracking_number: 'carrier tracking number with delivery confirmation',
  shipping_address: 'where the order was shipped',
  refund_policy: 'the refund policy the customer accepted',
  service_date: 'the date the service was provided',
}

/** Evidence files are HTTPS URLs the service can fetch (docs/api.md#dispute-lifecycle). */
export function isHttpsUrl(text: string): boolean {
  try {
    const u = new URL(text.trim())
    return u.protocol === 'https:' && Boolean(u.hostname)
  } catch {
    return false
  }
}

const filled = (fields: Readonly<Record<string, string>> | null | undefined, k: string) => typeof fields?.[k] === 'string' && fields[k]!.trim() !== ''

/**
 * The suited evidence a submission still lacks (the suited-evidence rule read literally): a group of
 * alternatives counts once, as "a or b", and is met by any one of them; every other suited key
 * is listed on its own.
 */
export function missingEvidence(reason: DisputeReason, fields: Readonly<Record<string, string>> | null | undefined): string[] {
  const info = EVIDENCE_BY_REASON[reason]
  const groups = info.oneOf ?? []
  const out: string[] = []
  const done = new Set<string>()
  for (const key of info.keys) {
    if (done.has(key)) continue
    const group = groups.find((g) => g.includes(key))
    if (group) {
      for (const k of group) done.add(k)
      if (!group.some((k) => filled(fields, k))) out.push(group.join(' or '))
    } else if (!filled(fields, key)) out.push(key)
  }
  return out
}

/** The key that stands in for `key` (an alternative of its group that is filled), if any. */
export function metByAlternative(reason: DisputeReason, key: RecognizedKey, fields: Readonly<Record<string, string>> | null | undefined): RecognizedKey | undefined {
  if (filled(fields, key)) return undefined
  const group = EVIDENCE_BY_REASON[reason].oneOf?.find((g) => g.includes(key))
  return group?.find((k) => k !== key && filled(fields, k))
}

/** Optimal string alignment distance: edits, with a swap of neighbours counting once. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({length: a.length + 1}, (_, i) => [i, ...Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) d[0]![j] = j
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1)
      d[i]![j] = v
    }
  return d[a.length]![b.length]!
}

/**
 * The recognized key a free-text key is a near miss of (docs/decisions.md#disputes-and-evidence):
 * any key is accepted, but `custmer_communication` is almost surely `customer_communication` mistyped,
 * and a submission is one-shot. Case and dashes are ignored; up to two edits (one for short keys).
 */
export function nearMissKey(key: string): RecognizedKey | undefined {
  if ((RECOGNIZED_KEYS as readonly string[]).includes(key)) return undefined
  const k = key.trim().toLowerCase().replace(/[-\s]+/g, '_')
  let best: {key: RecognizedKey; d: number} | undefined
  for (const r of RECOGNIZED_KEYS) {
    const d = distance(k, r)
    if (d <= (r.length > 8 ? 2 : 1) && (!best || d < best.d)) best = {key: r, d}
  }
  return best?.key
}

/** Every near miss among the keys: [typed, meant]. */
export function nearMisses(keys: Iterable<string>): [string, RecognizedKey][] {
  const out: [string, RecognizedKey][] = []
  for (const k of keys) {
    const m = nearMissKey(k)
    if (m) out.push([k, m])
  }
  return out
}

/** Bounds of an evidence submission (docs/api.md "Evidence body"): the OpenAPI document's DisputeEvidenceSubmit is written with them, so its request validator enforces them. */
export const EVIDENCE_LIMITS = {maxFields: 50, maxKeyLength: 100, maxValueLength: 20_000, maxFiles: 20, maxUrlLength: 2048} as const
