// Payment method codes of spec §4 with the currencies each accepts, for the CLI's checks and
// hints. The engine's own catalog (src/engine/domain/catalog.ts) is the authority; this table
// agrees with it (src/output/output.test.ts compares them), including the markets beyond the
// ones spec §4 names ("grabpay (SGD, MYR and more)"). null: many currencies.

export const PAYMENT_METHODS: Readonly<Record<string, readonly string[] | null>> = {
  card: null,
  apple_pay: null, google_pay: null, paypal: null, satispay: ['EUR'], mobilepay: ['DKK', 'EUR'], vipps: ['NOK'],
  twint: ['CHF'], cashapp: ['USD'], alipay: null, wechat_pay: null, kakao_pay: ['KRW'], grabpay: ['SGD', 'MYR', 'PHP', 'THB'], gopay: ['IDR'],
  usdc: null,
  ideal: null, bancontact: ['EUR'], p24: ['PLN'], trustly: null, eps: ['EUR'], fpx: ['MYR'],
  blik: ['PLN'], mb_way: ['EUR'], swish: ['SEK'], pix: ['BRL'], upi: ['INR'], paynow: ['SGD'], promptpay: ['THB'],
  multibanco: ['EUR'], boleto: ['BRL'], oxxo: ['MXN'], konbini: ['JPY'],
  klarna: null, affirm: null, afterpay_clearpay: null,
  sepa_debit: null, bacs_debit: ['GBP'], ach: ['USD'], acss_debit: ['CAD'], becs_debit: ['AUD', 'NZD'],
  sepa_credit: ['EUR'], spei: ['MXN'],
  mpesa: ['KES'],
}

export const METHOD_CODES: readonly string[] = Object.keys(PAYMENT_METHODS)
