// What never rests in the clear (docs/decisions.md#secrets-at-rest): working API keys and webhook signing secrets in
// stored answers, and card numbers in snapshots. Pure: no store, no key material.
import {redactSecret} from '../../api/keys.js'
import {TEST_CARD_ISSUERS, TEST_CARDS} from './cards.js'

/**
 * A secret shown once as an answer carries it: `"secret"`, `"secret_key"` or `"publishable_key"`
 * holding an API key or a `whsec_` secret (the JSON the engine writes: no spaces, no escapes in
 * these values). The same pattern reads as a JavaScript RegExp and as a PostgreSQL regular
 * expression (the PostgreSQL migration scrubs with it): group 1 the member, 2 the prefix, 3 the
 * last four characters.
 */
export const SHOWN_ONCE_PATTERN = '"(secret|secret_key|publishable_key)":"((?:sk|rk|pk)_(?:test|live)_|whsec_)[A-Za-z0-9_-]*([A-Za-z0-9_-]{4})"'
const SHOWN_ONCE = new RegExp(SHOWN_ONCE_PATTERN, 'g')

/**
 * A stored answer with every secret shown once replaced by its redacted form (`sk_test_…wXyZ`):
 * for answers stored before the engine kept them redacted (a migration), and snapshots made then.
 */
export function scrubShownOnce(body: string): string {
  if (!body.includes('"secret') && !body.includes('"publishable_key"')) return body
  return body.replace(SHOWN_ONCE, (_m, member: string, prefix: string, last4: string) => `"${member}":"${prefix}…${last4}"`)
}

/** The members of an answer that hold a secret shown once. */
const SHOWN_ONCE_MEMBERS = ['secret', 'secret_key', 'publishable_key'] as const

/** An answer that shows secrets once (a new key, account or endpoint secret), as its idempotency record keeps it: each secret redacted. */
export function redactShownOnce<T extends object>(body: T): T {
  const out = {...body} as Record<string, unknown>
  for (const m of SHOWN_ONCE_MEMBERS) if (typeof out[m] === 'string') out[m] = redactSecret(out[m] as string)
  return out as T
}

/** The published test cards (docs/api.md#test-cards-and-amounts and docs/decisions.md#test-cards-beyond-the-contracts, and the documented funding and country numbers): public, and their numbers carry their behaviour. */
export const isPublishedTestCard = (number: string): boolean => TEST_CARDS.has(number) || TEST_CARD_ISSUERS.has(number)

/** Whether the digits pass the Luhn check. */
function luhnValid(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

/**
 * A card number as a snapshot keeps it: a published test card as it is; any other with only its
 * first six and last four digits kept (as a receipt may show them), the middle zeros but for one
 * digit (two where one would give the number back) chosen so the number still passes the Luhn check — the same brand, length and last four,
 * so a loaded card behaves as before (any number but a published test card succeeds as a US
 * credit card), and never one of the published test cards.
 */
export function maskCardNumber(number: string): string {
  if (isPublishedTestCard(number) || number.length < 12 || !/^\d+$/.test(number)) return number
  const head = number.slice(0, 6)
  const tail = number.slice(-4)
  const middle = number.length - 10
  // the check digit's position moves the fill digit's weight: try each position from the right
  for (let pos = middle - 1; pos >= 0; pos--)
    for (let d = 0; d <= 9; d++) {
      const fill = '0'.repeat(pos) + String(d) + '0'.repeat(middle - pos - 1)
      const masked = head + fill + tail
      if (luhnValid(masked) && !isPublishedTestCard(masked) && masked !== number) return masked
    }
  // a middle of zeros whose own number is the only one-digit fill that passes: two digits
  for (let p1 = middle - 1; p1 >= 0; p1--)
    for (let p2 = p1 - 1; p2 >= 0; p2--)
      for (let d1 = 1; d1 <= 9; d1++)
        for (let d2 = 1; d2 <= 9; d2++) {
          const digits = Array.from({length: middle}, () => '0')
          digits[p1] = String(d1)
          digits[p2] = String(d2)
          const masked = head + digits.join('') + tail
          if (luhnValid(masked) && !isPublishedTestCard(masked)) return masked
        }
  return head + '0'.repeat(middle) + tail
}
