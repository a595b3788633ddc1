// Payment method codes of spec §4, with the currencies the spec shows for them.

export const PAYMENT_METHODS: Record<string, readonly string[] | null> = {
  card: null,
  apple_pay: null, google_pay: null, paypal: null, satispay: ['EUR'], mobilepay: ['DKK', 'EUR'], vipps: ['NOK'],
  twint: ['CHF'], cashapp: ['USD'], alipay: null, wechat_pay: null, kakao_pay: ['KRW'], grabpay: ['SGD', 'MYR'], gopay: ['IDR'],
  usdc: null,
  ideal: null, bancontact: ['EUR'], p24: ['PLN'], trustly: null, eps: ['EUR'], fpx: ['MYR'],
  blik: ['PLN'], mb_way: ['EUR'], swish: ['SEK'], pix: ['BRL'], upi: ['INR'], paynow: ['SGD'], promptpay: ['THB'],
  multibanco: ['EUR'], boleto: ['BRL'], oxxo: ['MXN'], konbini: ['JPY'],
  klarna: null, affirm: null, afterpay_clearpay: null,
  sepa_debit: null, bacs_debit: ['GBP'], ach: ['USD'], acss_debit: ['CAD'], becs_debit: ['AUD', 'NZD'],
  sepa_credit: ['EUR'], spei: ['MXN'],
  mpesa: ['KES'],
}

export const METHOD_CODES = Object.keys(PAYMENT_METHODS)

/** The closest candidates to a misspelt word (edit distance), best first. */
export function closest(word: string, candidates: readonly string[], max = 3): string[] {
  const w = word.toLowerCase()
  return candidates
    .map((c) => ({c, d: distance(w, c.toLowerCase())}))
    .filter(({c, d}) => d <= Math.max(2, Math.floor(c.length / 3)) || c.startsWith(w))
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map(({c}) => c)
}

function distance(a: string, b: string): number {
  const dp = Array.from({length: b.length + 1}, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = dp[0]
    dp[0] = i
    for (let j = 1; j <= b.length; j++) {
      const tmp = dp[j]
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = tmp
    }
  }
  return dp[b.length]
}
