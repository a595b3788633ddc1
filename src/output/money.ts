// Money on screen: integer minor units shown with the currency's ISO 4217 exponent
// (spec §1: EUR 2, JPY 0, KWD 3), e.g. 2000 EUR -> "€20.00 EUR". The exponent comes from
// the same ISO table the engine uses (currency-codes), so both sides agree.
import {currencyExponent} from '../api/money.js'

export {isKnownCurrency} from '../api/money.js'

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
 * other currencies go through Intl. output.test.ts checks every entry still agrees with Intl.
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
