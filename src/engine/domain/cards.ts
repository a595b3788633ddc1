// Card numbers: brand detection and Luhn (card-validator), test-card behaviour (docs/api.md#test-cards-and-amounts
// and docs/decisions.md#test-cards-beyond-the-contracts), expiry checks.
import cardValidator from 'card-validator'
import luhn10 from 'card-validator/dist/luhn-10.js'

export type CardDeclineCode = 'card_declined' | 'insufficient_funds' | 'expired_card' | 'incorrect_cvc'

export type TestCardBehaviour =
  | {kind: 'succeed'}
  | {kind: 'challenge'}
  | {kind: 'decline'; code: CardDeclineCode}
  | {kind: 'cvv_fail'}
  | {kind: 'dispute'; reason: 'fraudulent'}
  | {kind: 'refund_fails'}

export type CardFunding = 'credit' | 'debit' | 'prepaid' | 'unknown'

export interface CardInfo {
  /** digits only */
  number: string
  /** lowercase: visa, mastercard, amex, discover, diners, jcb, unionpay, maestro, ... or unknown */
  brand: string
  last4: string
  funding: CardFunding
  /** two-letter issuing country */
  country: string
  /** the scheme issues network tokens for saved cards (visa, mastercard, amex) */
  networkToken: boolean
  incrementalAuth: boolean
  multiCapture: boolean
  test: TestCardBehaviour
}

/** Behaviour of the named test cards; any other Luhn-valid number succeeds. */
export const TEST_CARDS: ReadonlyMap<string, TestCardBehaviour> = new Map<string, TestCardBehaviour>([
  ['4242424242424242', {kind: 'succeed'}],
  ['4000000000003220', {kind: 'challenge'}],
  ['4000000000000002', {kind: 'decline', code: 'card_declined'}],
  ['4000000000009995', {kind: 'decline', code: 'insufficient_funds'}],
  ['5555555555554444', {kind: 'succeed'}],
  ['378282246310005', {kind: 'succeed'}],
  ['4000000000000259', {kind: 'dispute', reason: 'fraudulent'}],
  ['4000000000000069', {kind: 'decline', code: 'expired_card'}],
  ['4000000000000127', {kind: 'decline', code: 'incorrect_cvc'}],
  ['4000000000000101', {kind: 'cvv_fail'}],
  ['4000000000005126', {kind: 'refund_fails'}],
])

/**
 * Issuing details of a few extra test numbers, for funding and country variations.
 * Every other number is a US credit card.
 */
export const TEST_CARD_ISSUERS: ReadonlyMap<string, {funding: CardFunding; country: string}> = new Map([
  ['4000056655665556', {funding: 'debit', country: 'US'}],
  ['5200828282828210', {funding: 'debit', country: 'US'}],
  ['5105105105105100', {funding: 'prepaid', country: 'US'}],
  ['4000000760000002', {funding: 'credit', country: 'BR'}],
  ['4000001240000000', {funding: 'credit', country: 'CA'}],
  ['4000004840008001', {funding: 'credit', country: 'MX'}],
  ['4000002760000016', {funding: 'credit', country: 'DE'}],
  ['4000008260000000', {funding: 'debit', country: 'GB'}],
  ['4000003920000003', {funding: 'credit', country: 'JP'}],
])

const BRAND_NAMES: Record<string, string> = {
  'american-express': 'amex',
  'diners-club': 'diners',
}

const NETWORK_TOKEN_BRANDS = new Set(['visa', 'mastercard', 'amex'])
/** Visa and Mastercard support incremental authorization and multiple capture. */
const EXTENDED_AUTH_BRANDS = new Set(['visa', 'mastercard'])

const MIN_LENGTH = 12
const MAX_LENGTH = 19

export type ParseCardResult = {ok: true; card: CardInfo} | {ok: false; message: string}

/** Recent results: the brand lookup copies the library's card table on every call, and one payment parses its number twice (validation, simulated issuer). */
const parsedCache = new Map<string, ParseCardResult>()
const PARSED_CACHE_MAX = 1024

/** Parses a raw card number (spaces and dashes allowed) into brand, last4 and test behaviour. Results are frozen and may be shared. */
export function parseCardNumber(raw: string): ParseCardResult {
  const hit = parsedCache.get(raw)
  if (hit) return hit
  const result = parseUncached(raw)
  if (parsedCache.size >= PARSED_CACHE_MAX) parsedCache.clear()
  if (typeof raw === 'string') parsedCache.set(raw, deepFreeze(result))
  return result
}

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v && typeof v === 'object' && !Object.isFrozen(v)) deepFreeze(v as object)
  return Object.freeze(o)
}

function parseUncached(raw: string): ParseCardResult {
  if (typeof raw !== 'string' || raw.trim() === '') return {ok: false, message: 'The card number is missing.'}
  const digits = raw.replace(/[\s-]/g, '')
  if (!/^\d+$/.test(digits)) {
    return {ok: false, message: 'The card number must contain only digits (spaces and dashes are allowed).'}
  }
  const type = cardValidator.creditCardType.default(digits)[0]
  const brand = type ? (BRAND_NAMES[type.type] ?? type.type) : 'unknown'
  if (type && !type.lengths.includes(digits.length)) {
    return {
      ok: false,
      message: `The card number has ${digits.length} digits; a ${type.niceType} number has ${formatLengths(type.lengths)} digits.`,
    }
  }
  if (digits.length < MIN_LENGTH || digits.length > MAX_LENGTH) {
    return {ok: false, message: `The card number has ${digits.length} digits; card numbers have ${MIN_LENGTH} to ${MAX_LENGTH} digits.`}
  }
  if (!luhn10(digits)) {
    return {ok: false, message: 'The card number is invalid: it fails the Luhn check. Check it for a typo.'}
  }
  const issuer = TEST_CARD_ISSUERS.get(digits) ?? {funding: 'credit' as const, country: 'US'}
  return {
    ok: true,
    card: {
      number: digits,
      brand,
      last4: digits.slice(-4),
      funding: issuer.funding,
      country: issuer.country,
      networkToken: NETWORK_TOKEN_BRANDS.has(brand),
      incrementalAuth: EXTENDED_AUTH_BRANDS.has(brand),
      multiCapture: EXTENDED_AUTH_BRANDS.has(brand),
      test: TEST_CARDS.get(digits) ?? {kind: 'succeed'},
    },
  }
}

function formatLengths(lengths: readonly number[]): string {
  if (lengths.length === 1) return String(lengths[0])
  return `${lengths.slice(0, -1).join(', ')} or ${lengths[lengths.length - 1]}`
}

/** Furthest expiry year accepted, relative to now. */
export const MAX_EXPIRY_YEARS_AHEAD = 50

/**
 * Checks exp_month (integer 1-12) and exp_year (four-digit integer). Returns a message
 * naming the offending field, or null. A card whose expiry month lies before now's month
 * (UTC) is expired; a card is valid through the end of its expiry month.
 */
export function expiryProblem(exp_month: unknown, exp_year: unknown, now: Date): string | null {
  if (exp_month === undefined || exp_month === null) return 'exp_month is required.'
  if (typeof exp_month !== 'number' || !Number.isInteger(exp_month)) return 'exp_month must be an integer from 1 to 12.'
  if (exp_month < 1 || exp_month > 12) return `exp_month must be from 1 to 12; got ${exp_month}.`
  if (exp_year === undefined || exp_year === null) return 'exp_year is required.'
  if (typeof exp_year !== 'number' || !Number.isInteger(exp_year)) return 'exp_year must be a four-digit integer year, e.g. 2030.'
  if (exp_year < 1000 || exp_year > 9999) return `exp_year must be a four-digit year, e.g. 2030; got ${exp_year}.`
  const year = now.getUTCFullYear()
  const month = now.getUTCMonth() + 1
  if (exp_year < year) return `exp_year ${exp_year} is in the past: the card has expired.`
  if (exp_year === year && exp_month < month) {
    return `exp_month ${exp_month} of ${exp_year} is in the past: the card has expired.`
  }
  if (exp_year > year + MAX_EXPIRY_YEARS_AHEAD) return `exp_year ${exp_year} is too far in the future.`
  return null
}
