// What creating a payment (or saving a card as a payment method) takes from the command line:
// the card of --card, --exp and --cvc, checked before anything is sent; the reference; and the
// flag each API param came from, so a 400 naming one reads as a usage error.
import {createHash, randomBytes} from 'node:crypto'
import type {ParamFlags} from '../../../base/flag-errors.js'
import {UsageError} from '../../../errors.js'

/** "12/27", "12/2027", "2027-12" -> {exp_month: 12, exp_year: 2027} */
export function parseExpiry(text: string, flag = '--exp'): {exp_month: number; exp_year: number} {
  const t = text.trim()
  let month: number
  let year: number
  let m = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(t)
  if (m) {
    month = Number(m[1])
    year = Number(m[2])
  } else if ((m = /^(\d{4})-(\d{1,2})$/.exec(t))) {
    year = Number(m[1])
    month = Number(m[2])
  } else {
    throw new UsageError(`${flag} "${text}" is not an expiry date.`, `Write it as MM/YY or MM/YYYY, e.g. ${flag} 12/30.`)
  }
  if (month < 1 || month > 12) throw new UsageError(`${flag} "${text}": the month must be 01 to 12.`, `e.g. ${flag} 12/30`)
  if (year < 100) year += 2000
  return {exp_month: month, exp_year: year}
}

/** A card number with spaces or dashes -> digits only; it must pass the Luhn check. */
export function parseCardNumber(text: string, flag = '--card'): string {
  const digits = text.replace(/[\s-]/g, '')
  if (!/^\d{12,19}$/.test(digits)) {
    throw new UsageError(`${flag} "${text}" is not a card number.`, `Give 12 to 19 digits, e.g. ${flag} 4242424242424242 (a test card).`)
  }
  if (!luhn(digits)) {
    throw new UsageError(`${flag} ${text} is not a valid card number: it fails the Luhn check (a typo?).`, `Test cards: ${flag} 4242424242424242 (succeeds), 4000000000003220 (3-D Secure), 378282246310005 (Amex).`)
  }
  return digits
}

export function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/** American Express (34, 37) has a 4-digit security code; the other networks 3. */
export const cvcLength = (number: string) => (/^3[47]/.test(number) ? 4 : 3)

/** The default security code for a test card: one of the length its brand needs. */
export const defaultCvc = (number: string) => (cvcLength(number) === 4 ? '1234' : '123')

/** `--cvc`: digits of the length the card's brand needs. */
export function parseCvc(text: string, number: string, flag = '--cvc'): string {
  const t = text.trim()
  const len = cvcLength(number)
  if (!/^\d+$/.test(t) || t.length !== len) {
    throw new UsageError(`${flag} must be ${len} digits for ${len === 4 ? 'an American Express' : 'this'} card, got "${text}".`, `e.g. ${flag} ${defaultCvc(number)} (or leave it out: the default suits the card).`)
  }
  return t
}

/** An expiry that is not in the past (the card's month still counts). */
export function checkNotExpired(exp: {exp_month: number; exp_year: number}, text: string, flag = '--exp', now = new Date()): {exp_month: number; exp_year: number} {
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth() + 1
  if (exp.exp_year < y || (exp.exp_year === y && exp.exp_month < m)) {
    throw new UsageError(`${flag} ${text} is in the past: the card has expired.`, `Use a future date, e.g. ${flag} 12/${String((y + 3) % 100).padStart(2, '0')} (or leave it out).`)
  }
  return exp
}

/** A test-mode default expiry: December, three years ahead. */
export function defaultExpiry(now = new Date()): {exp_month: number; exp_year: number} {
  return {exp_month: 12, exp_year: now.getUTCFullYear() + 3}
}

/** The card of --card, --exp and --cvc, checked before anything is sent; defaults suit the brand. */
export function cardInput(card: string, exp: string | undefined, cvc: string | undefined, now = new Date()): {number: string; exp_month: number; exp_year: number; cvc: string} {
  const number = parseCardNumber(card)
  const expiry = exp ? checkNotExpired(parseExpiry(exp), exp, '--exp', now) : defaultExpiry(now)
  return {number, ...expiry, cvc: cvc === undefined ? defaultCvc(number) : parseCvc(cvc, number)}
}

/** The reference of a payment created with --idempotency-key and no --reference: the same key, the same reference. */
export function referenceForKey(key: string): string {
  return `gw_key_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`
}

/** A merchant reference for a payment created without one. */
export function generateReference(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '')
  return `gw_${day}_${randomBytes(5).toString('hex')}`
}

/** API params of a payment (and a payment method) and the flags that set them. */
export const PAYMENT_PARAMS: ParamFlags = {
  amount: '--amount',
  currency: '--currency',
  payment_method: '--method',
  'payment_method_data.card.number': '--card',
  'payment_method_data.card.exp_month': '--exp',
  'payment_method_data.card.exp_year': '--exp',
  'payment_method_data.card.cvc': '--cvc',
  'card.number': '--card',
  'card.exp_month': '--exp',
  'card.exp_year': '--exp',
  'card.cvc': '--cvc',
  'billing_details.': '--billing-*',
  payment_method_id: '--payment-method-id',
  'customer.email': '--customer-email',
  'customer.name': '--customer-name',
  customer: '--customer',
  reference: '--reference',
  return_url: '--return-url',
  capture_method: '--capture',
  description: '--description',
  merchant: '--merchant',
  'metadata.': '--metadata',
  metadata: '--metadata',
}
