// The API contract's 43 payment-method codes (its catalog table), written out from it by hand: the
// oracle that the catalog (api/catalog.ts) and the engine's money conformance tests are checked
// against, so never derived from the catalog itself.
export const SPEC_CODES = [
  'card',
  'apple_pay', 'google_pay', 'paypal', 'satispay', 'mobilepay', 'vipps', 'twint', 'cashapp', 'alipay', 'wechat_pay', 'kakao_pay', 'grabpay', 'gopay',
  'usdc',
  'ideal', 'bancontact', 'p24', 'trustly', 'eps', 'fpx',
  'blik', 'mb_way', 'swish', 'pix', 'upi', 'paynow', 'promptpay',
  'multibanco', 'boleto', 'oxxo', 'konbini',
  'klarna', 'affirm', 'afterpay_clearpay',
  'sepa_debit', 'bacs_debit', 'ach', 'acss_debit', 'becs_debit',
  'sepa_credit', 'spei',
  'mpesa',
]
