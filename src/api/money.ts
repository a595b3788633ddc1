// ISO 4217 facts both sides rely on (docs/api.md#money-rules): a currency's minor-unit exponent
// (`amount = display value x 10^exponent`: EUR/BRL 2, JPY/CLP 0, KWD 3), which codes are
// currencies a payment can be made in, and fixed fees in hundredths scaled to a currency; and
// amounts for people, the CLI's and the engine's hosted pages alike: 2000 EUR -> "€20.00 EUR",
// "20.00" EUR -> 2000 (exact, no floating point), with the same exponents.
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

// ----- amounts for people

/** The exponent to show a currency with: ISO 4217's, else what Intl knows, else 2. */
export function displayExponent(currency: string): number {
  const code = currency.toUpperCase()
  const digits = currencyExponent(code)
  if (digits !== undefined) return digits
  try {
    return new Intl.NumberFormat('en-US', {style: 'currency', currency: code}).resolvedOptions().maximumFractionDigits ?? 2
  } catch {
    return 2
  }
}

/** The decimal value of minor units as a plain string, exact: 2000,2 -> "20.00"; -5,2 -> "-0.05". */
export function minorToDecimal(amount: number, exponent: number): string {
  const negative = amount < 0
  const digits = String(Math.abs(Math.trunc(amount))).padStart(exponent + 1, '0')
  const whole = exponent ? digits.slice(0, -exponent) : digits
  const frac = exponent ? digits.slice(-exponent) : ''
  return (negative ? '-' : '') + whole + (frac ? `.${frac}` : '')
}

/**
 * What Intl's en-US narrow-symbol currency format puts before the digits, for common
 * currencies ('' where the symbol would only repeat the code). Formatting these by hand spares
 * the ~10 ms ICU takes to load its number data the first time a process formats a number;
 * other currencies go through Intl. money.test.ts checks every entry still agrees with Intl.
 */
export const EN_US_PREFIX: Record<string, string> = {
  USD: '$', EUR: '€', GBP: '£', JPY: '¥', CNY: '¥', INR: '₹', KRW: '₩', BRL: 'R$', AUD: '$', CAD: '$', MXN: '$',
  NZD: '$', HKD: '$', SGD: '$', ARS: '$', CLP: '$', COP: '$', TRY: '₺', ILS: '₪', THB: '฿', PHP: '₱', RUB: '₽',
  UAH: '₴', NGN: '₦', VND: '₫', EGP: 'E£', PLN: 'zł ', SEK: 'kr ', NOK: 'kr ', DKK: 'kr ', CZK: 'Kč ', HUF: 'Ft ',
  ZAR: 'R ', IDR: 'Rp ', MYR: 'RM ', CHF: '', KWD: '', BHD: '', AED: '', SAR: '', PEN: '',
}

/** "€20.00 EUR", "¥1,500 JPY", "KWD" without a symbol: "1.500 KWD". */
export function formatMoney(amount: number, currency: string): string {
  const code = currency.toUpperCase()
  const exp = displayExponent(code)
  const prefix = EN_US_PREFIX[code]
  if (prefix !== undefined && Number.isSafeInteger(amount)) {
    const [whole, frac] = minorToDecimal(Math.abs(amount), exp).split('.')
    return `${amount < 0 ? '-' : ''}${prefix}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${frac ? `.${frac}` : ''} ${code}`
  }
  const value = Number(minorToDecimal(amount, exp))
  const digits = {minimumFractionDigits: exp, maximumFractionDigits: exp}
  const plain = () => `${new Intl.NumberFormat('en-US', digits).format(value)} ${code}`
  try {
    const fmt = new Intl.NumberFormat('en-US', {style: 'currency', currency: code, currencyDisplay: 'narrowSymbol', ...digits})
    const symbol = fmt.formatToParts(value).find((p) => p.type === 'currency')?.value
    if (!symbol || symbol === code) return plain()
    return `${fmt.format(value).replace(/\u00a0/g, ' ')} ${code}`
  } catch {
    return plain()
  }
}

/**
 * "20.00" EUR -> 2000. Exact (no floating point). Throws a message naming the problem when
 * the text is not a plain decimal or has more decimals than the currency allows.
 */
export function parseDisplayAmount(text: string, currency: string): number {
  const code = currency.toUpperCase()
  const exp = displayExponent(code)
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text.trim())
  if (!m) {
    throw new Error(`"${text}" is not a decimal amount; write it like 20.00 (a dot for decimals, no currency sign or thousands separator).`)
  }
  const whole = m[1]
  let frac = m[2] ?? ''
  if (frac.length > exp) {
    if (/[^0]/.test(frac.slice(exp))) {
      throw new Error(
        exp === 0
          ? `${code} has no minor unit; "${text}" must be a whole number.`
          : `${code} has ${exp} decimal places; "${text}" has more.`,
      )
    }
    frac = frac.slice(0, exp)
  }
  const minor = BigInt(whole) * 10n ** BigInt(exp) + BigInt(frac.padEnd(exp, '0') || '0')
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`"${text}" is too large.`)
  return Number(minor)
}
