// The payment method catalog, one for the CLI, the engine and the OpenAPI document: the 43
// `payment_method` codes (docs/api.md#payment-methods), with the currencies each one is
// bound to (a method accepts only its currencies) and how it behaves in the engine. Where the API contract names
// currencies they are used exactly; elsewhere the set is the method's real-world market.

import type {MethodCode} from './contract.gen.js'

export type {MethodCode}

export type MethodFamily =
  | 'card'
  | 'wallet'
  | 'crypto'
  | 'bank_redirect'
  | 'real_time'
  | 'voucher'
  | 'bnpl'
  | 'direct_debit'
  | 'bank_transfer'
  | 'mobile_money'

/** What the customer does on the hosted page (`next_action.url`) before the payment proceeds. */
export type CustomerFlow =
  | 'card' // card form; a 3-D Secure challenge only when the issuer demands one
  | 'wallet_sheet' // Apple Pay / Google Pay payment sheet
  | 'app_approval' // approve a push / redirect in the provider's app
  | 'bank_login' // log in to the bank and approve (replaces 3-D Secure)
  | 'qr' // scan a QR code / pay to a payment address
  | 'voucher' // pay a voucher in cash or in online banking
  | 'bnpl_approval' // instalment-provider sign-up and approval
  | 'transfer_instructions' // push a bank transfer to the shown account details
  | 'none' // no customer step (direct debit: mandate given, the payment clears later)

export interface MethodInfo {
  code: MethodCode
  /** human name, e.g. 'iDEAL' */
  name: string
  family: MethodFamily
  /** uppercase ISO 4217 codes the method accepts */
  currencies: readonly string[]
  /** card, apple_pay, google_pay (card-backed): risk-screened */
  cardFamily: boolean
  /** same as cardFamily */
  riskScored: boolean
  /** capture_method: manual allowed (cards only) */
  manualCapture: boolean
  flow: CustomerFlow
  chargebackFree: boolean
  partialRefund: boolean
  /** direct debit: seconds a payment stays `processing` before it clears */
  clearingSeconds?: number
  /** vouchers and bank transfers: seconds before an unpaid payment expires */
  unpaidExpirySeconds?: number
  /** seconds between the customer paying and the rail confirming (Multibanco) */
  confirmDelaySeconds?: number
  /** method-level; the card brand decides further */
  incrementalAuth: boolean
  /** method-level; the card brand decides further */
  multiCapture: boolean
}

const DAY = 86_400

/** Broad set of major currencies for global methods (card, card-backed wallets, PayPal, USDC). */
export const GLOBAL_CURRENCIES: readonly string[] = Object.freeze([
  'EUR', 'USD', 'GBP', 'JPY', 'BRL', 'KWD', 'PLN', 'SEK', 'NOK', 'DKK', 'CHF', 'CZK', 'HUF', 'RON',
  'CAD', 'AUD', 'NZD', 'MXN', 'CLP', 'COP', 'SGD', 'HKD', 'MYR', 'THB', 'IDR', 'PHP', 'KRW', 'INR',
  'AED', 'SAR', 'BHD', 'ILS', 'TRY', 'ZAR', 'KES',
])

type Spec = Pick<MethodInfo, 'code' | 'name' | 'family' | 'currencies' | 'flow'> & Partial<MethodInfo>

function method(spec: Spec): MethodInfo {
  const cardFamily = spec.cardFamily ?? false
  const isCard = spec.code === 'card'
  return Object.freeze({
    cardFamily,
    riskScored: cardFamily,
    manualCapture: isCard,
    chargebackFree: spec.family === 'bnpl',
    partialRefund: spec.family !== 'voucher',
    incrementalAuth: isCard,
    multiCapture: isCard,
    ...spec,
    currencies: Object.freeze([...spec.currencies]),
  })
}

const LIST: readonly MethodInfo[] = [
  // Card
  method({code: 'card', name: 'Card', family: 'card', currencies: GLOBAL_CURRENCIES, flow: 'card', cardFamily: true}),

  // Wallets
  method({code: 'apple_pay', name: 'Apple Pay', family: 'wallet', currencies: GLOBAL_CURRENCIES, flow: 'wallet_sheet', cardFamily: true}),
  method({code: 'google_pay', name: 'Google Pay', family: 'wallet', currencies: GLOBAL_CURRENCIES, flow: 'wallet_sheet', cardFamily: true}),
  method({code: 'paypal', name: 'PayPal', family: 'wallet', currencies: GLOBAL_CURRENCIES, flow: 'app_approval'}),
  method({code: 'satispay', name: 'Satispay', family: 'wallet', currencies: ['EUR'], flow: 'app_approval'}),
  method({code: 'mobilepay', name: 'MobilePay', family: 'wallet', currencies: ['DKK', 'EUR'], flow: 'app_approval'}),
  method({code: 'vipps', name: 'Vipps', family: 'wallet', currencies: ['NOK'], flow: 'app_approval'}),
  method({code: 'twint', name: 'TWINT', family: 'wallet', currencies: ['CHF'], flow: 'app_approval'}),
  method({code: 'cashapp', name: 'Cash App Pay', family: 'wallet', currencies: ['USD'], flow: 'app_approval'}),
  method({code: 'alipay', name: 'Alipay', family: 'wallet', currencies: ['CNY', 'HKD', 'USD', 'EUR', 'GBP', 'SGD', 'AUD', 'CAD', 'JPY', 'CHF'], flow: 'app_approval'}),
  method({code: 'wechat_pay', name: 'WeChat Pay', family: 'wallet', currencies: ['CNY', 'HKD', 'USD', 'EUR', 'GBP', 'SGD', 'AUD', 'CAD', 'JPY'], flow: 'app_approval'}),
  method({code: 'kakao_pay', name: 'KakaoPay', family: 'wallet', currencies: ['KRW'], flow: 'app_approval'}),
  method({code: 'grabpay', name: 'GrabPay', family: 'wallet', currencies: ['SGD', 'MYR', 'PHP', 'THB'], flow: 'app_approval'}),
  method({code: 'gopay', name: 'GoPay', family: 'wallet', currencies: ['IDR'], flow: 'app_approval'}),

  // Crypto: priced in fiat, paid in USDC to a payment address shown as a QR code
  method({code: 'usdc', name: 'USDC', family: 'crypto', currencies: GLOBAL_CURRENCIES, flow: 'qr'}),

  // Bank redirects
  method({code: 'ideal', name: 'iDEAL', family: 'bank_redirect', currencies: ['EUR'], flow: 'bank_login'}),
  method({code: 'bancontact', name: 'Bancontact', family: 'bank_redirect', currencies: ['EUR'], flow: 'bank_login'}),
  method({code: 'p24', name: 'Przelewy24', family: 'bank_redirect', currencies: ['PLN'], flow: 'bank_login'}),
  method({code: 'trustly', name: 'Trustly', family: 'bank_redirect', currencies: ['EUR', 'SEK', 'NOK', 'DKK', 'PLN', 'GBP'], flow: 'bank_login'}),
  method({code: 'eps', name: 'EPS', family: 'bank_redirect', currencies: ['EUR'], flow: 'bank_login'}),
  method({code: 'fpx', name: 'FPX', family: 'bank_redirect', currencies: ['MYR'], flow: 'bank_login'}),

  // Real-time rails
  method({code: 'blik', name: 'BLIK', family: 'real_time', currencies: ['PLN'], flow: 'app_approval'}),
  method({code: 'mb_way', name: 'MB WAY', family: 'real_time', currencies: ['EUR'], flow: 'app_approval'}),
  method({code: 'swish', name: 'Swish', family: 'real_time', currencies: ['SEK'], flow: 'app_approval'}),
  method({code: 'pix', name: 'Pix', family: 'real_time', currencies: ['BRL'], flow: 'qr'}),
  method({code: 'upi', name: 'UPI', family: 'real_time', currencies: ['INR'], flow: 'qr'}),
  method({code: 'paynow', name: 'PayNow', family: 'real_time', currencies: ['SGD'], flow: 'qr'}),
  method({code: 'promptpay', name: 'PromptPay', family: 'real_time', currencies: ['THB'], flow: 'qr'}),

  // Vouchers: expire when unpaid; no partial refunds.
  method({code: 'multibanco', name: 'Multibanco', family: 'voucher', currencies: ['EUR'], flow: 'voucher',
    unpaidExpirySeconds: 7 * DAY,
    // the contract: "Multibanco confirms when paid, up to 2 days"; the simulation confirms after 1 day
    confirmDelaySeconds: 1 * DAY}),
  method({code: 'boleto', name: 'Boleto', family: 'voucher', currencies: ['BRL'], flow: 'voucher', unpaidExpirySeconds: 3 * DAY}),
  method({code: 'oxxo', name: 'OXXO', family: 'voucher', currencies: ['MXN'], flow: 'voucher', unpaidExpirySeconds: 3 * DAY}),
  method({code: 'konbini', name: 'Konbini', family: 'voucher', currencies: ['JPY'], flow: 'voucher', unpaidExpirySeconds: 4 * DAY}),

  // Buy now pay later: chargeback-free
  method({code: 'klarna', name: 'Klarna', family: 'bnpl', currencies: ['EUR', 'USD', 'GBP', 'SEK', 'NOK', 'DKK'], flow: 'bnpl_approval'}),
  method({code: 'affirm', name: 'Affirm', family: 'bnpl', currencies: ['USD', 'CAD'], flow: 'bnpl_approval'}),
  method({code: 'afterpay_clearpay', name: 'Afterpay / Clearpay', family: 'bnpl', currencies: ['AUD', 'NZD', 'USD', 'CAD', 'GBP'], flow: 'bnpl_approval'}),

  // Direct debit: no customer step; the payment stays `processing` for clearingSeconds, then
  // clears (direct debit takes "minutes to days"). Timings follow the schemes' usual settlement cycles:
  // SEPA Core D+2 business days, Bacs 3-day cycle, ACH standard 2 days, ACSS/PAD 3 days,
  // BECS 2 days.
  method({code: 'sepa_debit', name: 'SEPA Direct Debit', family: 'direct_debit', currencies: ['EUR'], flow: 'none', clearingSeconds: 2 * DAY}),
  method({code: 'bacs_debit', name: 'Bacs Direct Debit', family: 'direct_debit', currencies: ['GBP'], flow: 'none', clearingSeconds: 3 * DAY}),
  method({code: 'ach', name: 'ACH Direct Debit', family: 'direct_debit', currencies: ['USD'], flow: 'none', clearingSeconds: 2 * DAY}),
  method({code: 'acss_debit', name: 'ACSS Pre-authorized Debit', family: 'direct_debit', currencies: ['CAD'], flow: 'none', clearingSeconds: 3 * DAY}),
  method({code: 'becs_debit', name: 'BECS Direct Debit', family: 'direct_debit', currencies: ['AUD', 'NZD'], flow: 'none', clearingSeconds: 2 * DAY}),

  // Bank transfers: the customer pushes money to shown account details; expire when unpaid.
  method({code: 'sepa_credit', name: 'SEPA Credit Transfer', family: 'bank_transfer', currencies: ['EUR'], flow: 'transfer_instructions', unpaidExpirySeconds: 7 * DAY}),
  method({code: 'spei', name: 'SPEI', family: 'bank_transfer', currencies: ['MXN'], flow: 'transfer_instructions', unpaidExpirySeconds: 3 * DAY}),

  // Mobile money: STK push to the customer's phone
  method({code: 'mpesa', name: 'M-Pesa', family: 'mobile_money', currencies: ['KES'], flow: 'app_approval'}),
]

/** All method codes, in the spec's order. */
export const METHOD_CODES: readonly MethodCode[] = Object.freeze(LIST.map((m) => m.code))

export const METHODS: ReadonlyMap<string, MethodInfo> = new Map(LIST.map((m) => [m.code, m]))

export function methodInfo(code: string): MethodInfo | undefined {
  return METHODS.get(code)
}

/** True when the method accepts the currency (docs/api.md#payment-methods). */
export function methodAcceptsCurrency(code: string, currency: string): boolean {
  return METHODS.get(code)?.currencies.includes(currency) ?? false
}

/**
 * Each code with the currencies it accepts, for the CLI's checks and hints; null for the
 * global methods (card, card-backed wallets, PayPal, USDC), which take most currencies.
 */
export const PAYMENT_METHODS: Readonly<Record<string, readonly string[] | null>> = Object.freeze(
  Object.fromEntries(LIST.map((m) => [m.code, m.currencies.length === GLOBAL_CURRENCIES.length && m.currencies.every((c) => GLOBAL_CURRENCIES.includes(c)) ? null : m.currencies])),
)
