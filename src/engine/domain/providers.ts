// Simulated provider profiles (test mode). Providers appear in the API only as opaque
// `prov_` ids (docs/api.md#routing-and-failover). Each has its own methods, currencies, regions, fees and latency, so
// that smart routing has real choices: every catalog method in every currency it allows is
// served by at least one provider, and cards in EUR, USD, GBP, BRL and JPY by at least two
// (failover). providers.test.ts checks this exhaustively.
import {GLOBAL_CURRENCIES, type MethodCode} from '../../api/catalog.js'
import {currencyExponent, fromHundredths} from '../../api/money.js'

export interface ProviderProfile {
  id: string
  name: string
  methods: readonly MethodCode[]
  currencies: readonly string[]
  regions: readonly string[]
  fees: {
    /** percentage fee in basis points of the amount */
    percent_bps: number
    /** fixed fee in hundredths of the major unit (EUR 25 = 0.25 EUR); scaled by the currency's exponent (JPY 25 -> 0, KWD 25 -> 250) */
    fixed_minor: number
  }
  latency: {p50_ms: number; p99_ms: number}
  /** the engine gives up on a call after this long (outcome `timeout`) */
  timeout_ms: number
  /** currencies it acquires locally (routing bonus) */
  localCurrencies: readonly string[]
  /** methods it reaches through a partner network rather than a direct connection (smaller routing method score) */
  partnerMethods?: readonly string[]
}

function profile(p: ProviderProfile): ProviderProfile {
  return Object.freeze({
    ...p,
    methods: Object.freeze([...p.methods]),
    currencies: Object.freeze([...new Set(p.currencies)]),
    regions: Object.freeze([...p.regions]),
    fees: Object.freeze({...p.fees}),
    latency: Object.freeze({...p.latency}),
    localCurrencies: Object.freeze([...p.localCurrencies]),
    partnerMethods: Object.freeze([...(p.partnerMethods ?? [])]),
  })
}

export const PROVIDERS: readonly ProviderProfile[] = Object.freeze([
  // Global card acquirer: every major currency, US methods, cross-border wallets.
  profile({
    id: 'prov_atlas',
    name: 'Atlas Global Acquiring',
    methods: ['card', 'apple_pay', 'google_pay', 'paypal', 'usdc', 'cashapp', 'alipay', 'wechat_pay', 'klarna', 'affirm', 'afterpay_clearpay', 'ach', 'acss_debit'],
    currencies: [...GLOBAL_CURRENCIES, 'CNY'],
    regions: ['NA', 'EU', 'UK', 'LATAM', 'APAC', 'MEA'],
    fees: {percent_bps: 290, fixed_minor: 30},
    latency: {p50_ms: 220, p99_ms: 1200},
    timeout_ms: 4000,
    localCurrencies: ['USD', 'CAD'],
    partnerMethods: ['alipay', 'wechat_pay', 'klarna', 'afterpay_clearpay'],
  }),
  // European acquirer with the local European rails.
  profile({
    id: 'prov_borealis',
    name: 'Borealis Payments',
    methods: [
      'card', 'apple_pay', 'google_pay', 'paypal', 'ideal', 'bancontact', 'eps', 'p24', 'trustly', 'blik', 'mb_way', 'swish',
      'satispay', 'mobilepay', 'vipps', 'twint', 'multibanco', 'klarna', 'sepa_debit', 'bacs_debit', 'sepa_credit',
    ],
    currencies: ['EUR', 'GBP', 'SEK', 'NOK', 'DKK', 'PLN', 'CHF', 'CZK', 'HUF', 'RON', 'USD'],
    regions: ['EU', 'UK'],
    fees: {percent_bps: 150, fixed_minor: 25},
    latency: {p50_ms: 140, p99_ms: 700},
    timeout_ms: 3000,
    localCurrencies: ['EUR', 'GBP', 'SEK', 'NOK', 'DKK', 'PLN', 'CHF', 'CZK', 'HUF', 'RON'],
    partnerMethods: ['paypal'],
  }),
  // Latin American acquirer: local card acquiring in Brazil and Mexico, Pix, Boleto, OXXO, SPEI.
  profile({
    id: 'prov_cruzeiro',
    name: 'Cruzeiro Pagamentos',
    methods: ['card', 'apple_pay', 'google_pay', 'paypal', 'pix', 'boleto', 'oxxo', 'spei'],
    currencies: ['BRL', 'MXN', 'CLP', 'COP', 'USD'],
    regions: ['LATAM'],
    fees: {percent_bps: 320, fixed_minor: 40},
    latency: {p50_ms: 300, p99_ms: 1800},
    timeout_ms: 5000,
    localCurrencies: ['BRL', 'MXN', 'CLP', 'COP'],
    partnerMethods: ['paypal'],
  }),
  // Middle East, Africa and India: Gulf currencies, UPI, M-Pesa, USDC.
  profile({
    id: 'prov_dhow',
    name: 'Dhow Payment Services',
    methods: ['card', 'apple_pay', 'google_pay', 'upi', 'mpesa', 'usdc'],
    currencies: ['AED', 'SAR', 'KWD', 'BHD', 'ILS', 'TRY', 'ZAR', 'KES', 'INR', 'USD', 'EUR', 'GBP'],
    regions: ['MEA', 'IN'],
    fees: {percent_bps: 260, fixed_minor: 35},
    latency: {p50_ms: 260, p99_ms: 1500},
    timeout_ms: 4500,
    localCurrencies: ['AED', 'SAR', 'KWD', 'BHD', 'ILS', 'TRY', 'ZAR', 'KES', 'INR'],
  }),
  // Asia-Pacific acquirer: Japanese and Southeast Asian cards, wallets and real-time rails.
  profile({
    id: 'prov_equator',
    name: 'Equator Asia Pacific',
    methods: [
      'card', 'apple_pay', 'google_pay', 'paypal', 'alipay', 'wechat_pay', 'kakao_pay', 'grabpay', 'gopay', 'paynow', 'promptpay',
      'fpx', 'konbini', 'afterpay_clearpay', 'becs_debit',
    ],
    currencies: ['JPY', 'SGD', 'MYR', 'THB', 'IDR', 'PHP', 'KRW', 'CNY', 'HKD', 'AUD', 'NZD', 'USD'],
    regions: ['APAC'],
    fees: {percent_bps: 230, fixed_minor: 30},
    latency: {p50_ms: 200, p99_ms: 1100},
    timeout_ms: 4000,
    localCurrencies: ['JPY', 'SGD', 'MYR', 'THB', 'IDR', 'PHP', 'KRW', 'CNY', 'HKD', 'AUD', 'NZD'],
    partnerMethods: ['paypal', 'afterpay_clearpay'],
  }),
  // Low-cost secondary card processor (Nordics, EU, UK, US, Brazil, Japan): the usual failover.
  profile({
    id: 'prov_fjord',
    name: 'Fjord Processing',
    methods: ['card', 'apple_pay', 'google_pay', 'ideal', 'trustly', 'klarna', 'sepa_debit', 'bacs_debit', 'ach'],
    currencies: ['EUR', 'GBP', 'USD', 'SEK', 'NOK', 'DKK', 'CHF', 'PLN', 'BRL', 'JPY', 'CAD', 'AUD'],
    regions: ['EU', 'UK', 'NA'],
    fees: {percent_bps: 120, fixed_minor: 20},
    latency: {p50_ms: 350, p99_ms: 2200},
    timeout_ms: 5000,
    localCurrencies: ['SEK', 'NOK', 'DKK'],
    partnerMethods: ['klarna', 'trustly'],
  }),
])

const BY_ID: ReadonlyMap<string, ProviderProfile> = new Map(PROVIDERS.map((p) => [p.id, p]))

export function providerProfile(id: string): ProviderProfile | undefined {
  return BY_ID.get(id)
}

export function providerServes(p: ProviderProfile, payment_method: string, currency: string): boolean {
  return p.methods.some((m) => m === payment_method) && p.currencies.includes(currency)
}

/** The fixed part of the fee in the currency's minor unit (rounded half up). */
export function fixedFee(p: ProviderProfile, currency: string): number {
  return fromHundredths(p.fees.fixed_minor, currency)
}

/** `fees.fixed` of the wire Provider object: the fixed fee per supported currency, in minor units. */
export function fixedFeeTable(p: ProviderProfile): Record<string, number> {
  const table: Record<string, number> = {}
  for (const c of p.currencies) table[c] = fixedFee(p, c)
  return table
}

/**
 * Fee for a payment of `amount` minor units: amount x percent_bps / 10000 plus the fixed fee,
 * computed exactly and rounded half up once, to an integer in the same minor unit.
 * Unknown currencies count as exponent 2.
 */
export function feeFor(p: ProviderProfile, amount: number, currency: string): number {
  const exponent = currencyExponent(currency) ?? 2
  // fee x 10000 = amount x bps + fixed x 10^(exponent + 2)
  const scaled = amount * p.fees.percent_bps + p.fees.fixed_minor * 10 ** (exponent + 2)
  if (Number.isSafeInteger(scaled)) return Math.floor((scaled + 5000) / 10000)
  // beyond 2^53: the same in BigInt (floor division)
  const shifted =
    BigInt(Math.trunc(amount)) * BigInt(p.fees.percent_bps) + BigInt(p.fees.fixed_minor) * 10n ** BigInt(exponent + 2) + 5000n
  return Number(shifted >= 0n ? shifted / 10000n : -((-shifted + 9999n) / 10000n))
}
