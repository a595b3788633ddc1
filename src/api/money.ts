// ISO 4217 facts both sides rely on (spec §1 "Money rules"): a currency's minor-unit exponent
// (`amount = display value x 10^exponent`: EUR/BRL 2, JPY/CLP 0, KWD 3), which codes are
// currencies a payment can be made in, and fixed fees in hundredths scaled to a currency.
// Formatting amounts for people lives in src/output/money.ts.
import {createRequire} from 'node:module'

type CurrencyCodes = typeof import('currency-codes')
let codes: CurrencyCodes | undefined
/** currency-codes is CommonJS: require() on first use skips the ESM export lexer on its data at every CLI start. */
const currencyCodes = (): CurrencyCodes => (codes ??= createRequire(import.meta.url)('currency-codes') as CurrencyCodes)
/**
 * ISO 4217 codes that are not circulating currencies a payment can be made in:
 * precious metals, bond-market units, SDR, test and "no currency" codes, and fund /
 * index units (e.g. Chile's Unidad de Fomento).
 */
export const NON_PAYMENT_CODES: ReadonlySet<string> = new Set([
  // metals
  'XAU', 'XAG', 'XPD', 'XPT',
  // bond-market units, SDR, Sucre, ADB unit
  'XBA', 'XBB', 'XBC', 'XBD', 'XDR', 'XSU', 'XUA',
  // testing / no currency
  'XTS', 'XXX',
  // funds codes and index units
  'BOV', 'CHE', 'CHW', 'CLF', 'COU', 'MXV', 'USN', 'UYI', 'UYW',
])

const CODE_SHAPE = /^[A-Z]{3}$/

// Only well-shaped codes are cached (at most 26^3 entries), so garbage input cannot grow it.
const exponentCache = new Map<string, number | undefined>()

/** ISO 4217 minor-unit exponent of an uppercase code, or undefined when unknown. */
export function currencyExponent(code: string): number | undefined {
  if (typeof code !== 'string' || !CODE_SHAPE.test(code)) return undefined
  if (exponentCache.has(code)) return exponentCache.get(code)
  const record = currencyCodes().code(code)
  const exponent = record && Number.isInteger(record.digits) ? record.digits : undefined
  exponentCache.set(code, exponent)
  return exponent
}

/** True for an uppercase 3-letter ISO 4217 code a payment can be made in. */
export function isCurrency(code: string): boolean {
  return currencyExponent(code) !== undefined && !NON_PAYMENT_CODES.has(code)
}

/**
 * Converts an amount expressed in hundredths of the major unit ("cents-equivalent",
 * the way fixed fees are defined) to the currency's minor unit, rounding half up.
 * EUR 30 -> 30, JPY 30 -> 0 (0.30 yen), KWD 30 -> 300. Unknown currencies count as exponent 2.
 */
export function fromHundredths(hundredths: number, currency: string): number {
  const exponent = currencyExponent(currency) ?? 2
  if (exponent >= 2) return hundredths * 10 ** (exponent - 2)
  const divisor = 10 ** (2 - exponent)
  return Math.floor((hundredths + divisor / 2) / divisor)
}

/** An uppercase ISO 4217 code, a currency or not (metals and fund units included). */
export function isKnownCurrency(code: string): boolean {
  return currencyExponent(code) !== undefined
}
