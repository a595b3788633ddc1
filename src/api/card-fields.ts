// What gw.js's card fields resolve with ({checkout_url}/gw.js, engine/checkout/fields.ts): the
// types a shop's TypeScript page code reads the results by. Types only; gw.js itself is plain
// JavaScript served by the gateway.

/** An error as the API's errors are: `message` is in the customer's words for card and validation errors (the frame shows it too). */
export interface CardFieldsError {
  type: 'card_error' | 'invalid_request_error' | 'authentication_error' | 'permission_error' | 'rate_limit_error' | 'api_error' | 'api_connection_error'
  code: string
  /** the issuer's decline code of a declined card (repeats `code`); null for every other error */
  decline_code: string | null
  message: string
  /** the field the error is about (card.number, card.exp_month, card.cvc) */
  param?: string
  /** the failed payment of a decline */
  payment?: string
}

/**
 * What `confirmCheckoutSession()` and `confirmPayment()` resolve with: the payment, or an error.
 * - `succeeded`: paid.
 * - `processing`: the customer's part is done and the outcome comes later (held for a risk
 *   review, e.g. amount 4991 in test mode): thank the customer, and fulfil on the webhook
 *   (`payment.succeeded`, or `payment.failed`).
 * - `requires_action`: a step of the customer's is still open (`next_action_url`). The 3-D Secure
 *   modal resolves only once that step has ended, so the fields answer it only for a step they
 *   cannot show; send the customer to `next_action_url`.
 * - `requires_capture`: authorized, for the shop's server to capture (a session or payment made
 *   with `capture_method: manual`).
 * - `error`: declined, refused, or not sent; `error.message` is for the customer.
 */
export type CardPaymentResult =
  | {payment: {id: string; status: 'succeeded' | 'processing' | 'requires_capture'; next_action_url?: null}; error?: undefined}
  | {payment: {id: string; status: 'requires_action'; next_action_url?: string | null}; error?: undefined}
  | {payment?: {id: string; status: 'failed'}; error: CardFieldsError}

/** What `save()` resolves with: the saved card (a pm_ for the shop's server to pay with), or an error. */
export type CardSaveResult =
  | {paymentMethod: {id: string; brand: string; last4: string; exp_month: number; exp_year: number}; error?: undefined}
  | {paymentMethod?: undefined; error: CardFieldsError}
