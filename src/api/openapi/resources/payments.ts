// Payments (docs/api.md#payment-lifecycle): the payment and what it carries (method details, provider attempts,
// risk, the customer's next step), the bodies that create and move it, and its operations.
import {body, createdRange, en, idOf, idQ, idRef, int, MAX_AMOUNT, MAX_SAFE, metadata, minor, nullable, obj, origin, q, ref, reqStr, required, str, useCase, bool, country, currency, dateTime, hint, livemode, type Family} from '../kit.js'
import {METHOD_CODES} from '../../catalog.js'
import {ATTEMPT_OUTCOMES, CANCELLATION_REASONS, PAYMENT_STATUSES} from '../../vocabulary.js'

export const cardDetailsProps = {
  brand: str({description: 'Card scheme, e.g. visa, mastercard, amex.'}),
  last4: str({pattern: '^[0-9]{4}$'}),
  exp_month: {type: 'integer', minimum: 1, maximum: 12},
  exp_year: {type: 'integer', minimum: 1000, maximum: 9999},
  funding: {type: 'string', enum: ['credit', 'debit', 'prepaid', 'unknown']},
  country,
}

const cardPaymentMethods = ['card', 'apple_pay', 'google_pay']

export const BILLING_DETAILS = body({
  name: str({maxLength: 200}),
  email: str({maxLength: 200}),
  phone: str({maxLength: 40}),
  address: body({
    line1: str({maxLength: 200}),
    line2: str({maxLength: 200}),
    city: str({maxLength: 100}),
    state: str({maxLength: 100}),
    postal_code: str({maxLength: 20}),
    country: useCase(str({maxLength: 2, pattern: '^[A-Z]{2}$'}), 'pattern'),
  }),
})

export const PAYMENT_METHOD_DATA = body(
  {
    type: reqStr({enum: ['card'], ...hint('Only card instruments can be created with raw details.')}),
    card: required(
      body({
        number: reqStr({maxLength: 30, description: 'Card number (test mode only); Luhn-checked by the use case.'}),
        exp_month: required(useCase(int(1, 12), 'minimum', 'maximum')),
        exp_year: required(useCase({...int(1000, 9999), description: 'Four digits; an expired card is 400 card_expiry_invalid.'}, 'minimum', 'maximum')),
        cvc: useCase(str({maxLength: 4, pattern: '^[0-9]{3,4}$'}), 'pattern'),
      }),
    ),
    customer: idRef('cus', 'Customer'),
    billing_details: BILLING_DETAILS,
  },
  'A card instrument, saved or one-time (docs/decisions.md#saved-and-one-time-instruments). Raw card numbers are accepted in test mode only.',
)

export const family: Family = {
  responses: () => ({
    MethodCode: {type: 'string', enum: [...METHOD_CODES], description: 'The 43 payment method codes (docs/api.md#payment-methods).'},
    Currency: currency,
    PaymentStatus: {type: 'string', enum: [...PAYMENT_STATUSES]},
    Metadata: metadata,
    ProviderAttempt: obj({
      provider: idOf('prov'),
      outcome: {type: 'string', enum: [...ATTEMPT_OUTCOMES]},
      decline_code: nullable(str()),
      latency_ms: nullable({type: 'integer', minimum: 0}),
      attempted_at: dateTime(),
    }),
    Risk: obj({
      score: {type: 'integer', minimum: 0, maximum: 99},
      decision: {type: 'string', enum: ['approved', 'review', 'blocked']},
      checks: obj({
        avs_result: {type: 'string', enum: ['pass', 'fail', 'unavailable']},
        cvv_result: {type: 'string', enum: ['pass', 'fail', 'unavailable']},
      }),
    }),
    NextAction: obj({type: {type: 'string', const: 'redirect'}, url: str({format: 'uri', description: 'A `{checkout_url}` page.'})}),
    CardDetails: obj(
      {
        ...cardDetailsProps,
        three_d_secure: obj({result: {type: 'string', enum: ['authenticated'], description: 'The cardholder passed a 3-D Secure challenge.'}}, {description: 'Present once the cardholder passed a 3-D Secure challenge on this payment (attached to dispute evidence); absent when no challenge was passed.'}),
      },
      {optional: ['three_d_secure']},
    ),
    MethodDetails: obj(
      {bank: str(), iban_last4: str({pattern: '^[0-9]{4}$'}), account_last4: str({pattern: '^[0-9]{4}$'})},
      {optional: ['bank', 'iban_last4', 'account_last4'], description: 'Details of a non-card method once the customer completed it.'},
    ),
    PaymentMethodDetails: {
      type: 'object',
      description: 'Keyed by method: card (and card-backed wallets) carry card details; other methods their bank or account.',
      maxProperties: 1,
      propertyNames: ref('MethodCode'),
      properties: Object.fromEntries(cardPaymentMethods.map((m) => [m, ref('CardDetails')])),
      additionalProperties: ref('MethodDetails'),
    },
    Payment: obj(
      {
        id: idOf('pay'),
        object: {type: 'string', const: 'payment'},
        amount: minor('The total authorized amount, raised by increment_authorization.', {minimum: 1, maximum: MAX_AMOUNT}),
        amount_captured: minor('Captured so far.', {minimum: 0}),
        amount_refunded: minor('Refunded across all refunds (pending and succeeded).', {minimum: 0}),
        currency: ref('Currency'),
        status: ref('PaymentStatus'),
        payment_method: ref('MethodCode'),
        payment_method_id: nullable(idOf('pm')),
        payment_method_details: nullable(ref('PaymentMethodDetails')),
        capture_method: {type: 'string', enum: ['automatic', 'manual']},
        customer: nullable(idOf('cus')),
        description: nullable(str()),
        reference: str({description: 'Merchant order id; defaults to the payment id.'}),
        metadata: ref('Metadata'),
        provider: nullable(idOf('prov')),
        provider_attempts: {type: 'array', items: ref('ProviderAttempt')},
        risk: nullable(ref('Risk')),
        next_action: nullable(ref('NextAction')),
        return_url: nullable(str()),
        refunded: bool,
        partially_refunded: bool,
        failure_code: nullable(str()),
        failure_message: nullable(str()),
        livemode,
        created_at: dateTime(),
        merchant: nullable(idOf('mer')),
      },
      {title: 'Payment'},
    ),
  }),
  requests: () => ({
    PaymentCreate: body({
      amount: required({...int(1, MAX_AMOUNT, "in the currency's minor unit (2000 = €20.00)"), description: 'Integer minor units, 1 to 99,999,999.'}),
      currency: required(useCase({type: 'string', minLength: 1, pattern: '^[A-Z]{3}$', description: 'Uppercase ISO 4217 code the method accepts.'}, 'pattern')),
      payment_method: useCase(
        {type: 'string', enum: [...METHOD_CODES], description: 'Method code; may be omitted with payment_method_id or payment_method_data (then card).'},
        'enum',
      ),
      payment_method_id: idRef('pm', 'Saved payment method'),
      payment_method_data: PAYMENT_METHOD_DATA,
      reference: str({maxLength: 255, description: 'Merchant order id; defaults to the payment id.'}),
      customer: {
        description: 'A customer id, `{id}`, or `{email, name}` to create one; the response returns the id string.',
        anyOf: [
          idRef('cus', 'Customer'),
          body({id: idRef('cus', 'Customer'), email: str({maxLength: 200}), name: str({maxLength: 200})}),
        ],
      },
      return_url: useCase(str({maxLength: 2048, format: 'uri'}), 'format'),
      capture_method: str({enum: ['automatic', 'manual'], description: '`manual` for cards only.'}),
      confirm: {type: 'boolean', description: 'Default true; false leaves the payment in requires_confirmation.'},
      description: nullable(str({maxLength: 1000})),
      metadata,
      merchant: idRef('mer', 'Active sub-merchant'),
    }),
    PaymentConfirm: body({payment_method_id: idRef('pm', 'Saved payment method'), return_url: useCase(str({maxLength: 2048, format: 'uri'}), 'format')}),
    PaymentCapture: body({
      amount: {...int(1, MAX_SAFE, "in the currency's minor unit"), description: 'Omit to capture the rest of the authorization.'},
      final_capture: {type: 'boolean', description: 'Close the authorization after this capture (release the rest).'},
    }),
    PaymentIncrement: body({amount: required({...int(1, MAX_AMOUNT, 'as the new total authorization in minor units'), description: 'The new total; greater than the current amount.'})}),
    PaymentCancel: body({cancellation_reason: str({enum: [...CANCELLATION_REASONS]})}),
    TestPaymentAction: body({outcome: reqStr({enum: ['approve', 'fail', 'abandon']})}),
    TestPaymentReview: body({decision: reqStr({enum: ['approve', 'block']})}),
  }),
  lists: ['Payment'],
  operations: [
    {id: 'listPayments', perm: 'payments:read', method: 'get', path: '/payments', tag: 'Payments', summary: 'List payments', list: true,
      query: [q('status', en(PAYMENT_STATUSES), 'Only payments in this status.'), q('customer', idQ('cus'), 'Only payments of this customer (a `cus_` id; an email is refused naming `customer_email`).'),
        q('customer_email', {type: 'string', minLength: 1}, 'Only payments of customers with this email, compared case-insensitively (every customer that has it).'),
q('email_domain', {type: 'string', minLength: 1, examples: ['lovelace-shop.example']}, 'Only payments of customers whose email is at this domain (case-insensitive; a leading `@` is allowed).'),
q('customer_name', {type: 'string', minLength: 2, examples: ['zoe love']}, 'Only payments of customers whose name, or its last word, starts with this (ignoring case, accents and repeated spaces).'),
q('card_last4', {type: 'string', pattern: '^[0-9]{4}$', examples: ['4242']}, 'Only card payments whose card ends in these four digits.'),
        q('reference', {type: 'string'}, 'Only payments with this merchant reference.'),
        q('reference_prefix', {type: 'string', minLength: 1}, 'Only payments whose merchant reference starts with this.'),
        q('metadata', {type: 'string', pattern: '^[^:]+:', 'x-hint': 'key:value such as order_id:1008', examples: ['order_id:1008']}, 'Only payments whose metadata holds this value under this key, given as `key:value`.'),
        ...createdRange],
      response: 'PaymentList', responseDescription: 'A page of payments, newest first.'},
    {id: 'createPayment', perm: 'payments:write', method: 'post', path: '/payments', tag: 'Payments', summary: 'Create a payment', body: 'PaymentCreate', bodyRequired: true, status: 201,
      description: 'Creates and (unless `confirm: false`) routes the payment in one call. Risk blocks, exhausted failover, no eligible provider and rule blocks answer 201 with `status: failed`; only an issuer\'s final decline is 402 card_error, with `error.payment` naming the stored failed payment.',
      response: 'Payment', responseDescription: 'The payment, in whatever state routing left it.', errors: [402, 404]},
    {id: 'retrievePayment', perm: 'payments:read', method: 'get', path: '/payments/{id}', tag: 'Payments', summary: 'Retrieve a payment', response: 'Payment', responseDescription: 'The payment, with every provider attempt.', errors: [404]},
    {id: 'retrievePaymentRouting', perm: 'payments:read', method: 'get', path: '/payments/{id}/routing', tag: 'Payments', summary: 'Explain how a payment was routed',
      description: 'Every routing pass as the router decided it then (providers considered and why some were excluded, the rule that matched or smart routing, each candidate\'s score with its parts, the order), and every provider attempt with its decline class (soft: the next provider was tried; final: routing stopped). Passes are recorded from the version that added this operation on.',
      response: 'PaymentRouting', responseDescription: 'The routing of the payment.', errors: [404]},
    {id: 'confirmPayment', perm: 'payments:write', method: 'post', path: '/payments/{id}/confirm', tag: 'Payments', summary: 'Confirm a payment', body: 'PaymentConfirm',
      description: 'Routes a payment in `requires_confirmation`; any other state is 400 payment_unexpected_state. Also callable from a browser with a publishable key (the hosted card fields\' `confirmPayment`) with `payment_method_id` only; answers to a publishable key carry `Access-Control-Allow-Origin: *`.',
      headers: [{name: 'Gw-Parent-Origin', schema: origin('An http(s) origin as a browser serializes it: scheme, lowercase host, a port only when not the default.'), description: 'Sent by the hosted card fields: the origin of the shop\'s page that mounted them. A customer step the payment needs (3-D Secure) may then be framed by that origin alone, and its last page tells that origin the outcome (docs/api.md#permissions-pages-destinations-metrics-and-the-terminal). Anything but an origin is 400 parameter_invalid.'}],
      response: 'Payment', responseDescription: 'The payment, now routed.', errors: [402, 404]},
    {id: 'capturePayment', perm: 'payments:write', method: 'post', path: '/payments/{id}/capture', tag: 'Payments', summary: 'Capture a payment', body: 'PaymentCapture',
      description: 'Captures all or part of a `requires_capture` authorization; otherwise 400 payment_not_capturable. 502 provider_error when the provider does not confirm (retry with the same Idempotency-Key).',
      response: 'Payment', responseDescription: 'The payment.', errors: [404, 502]},
    {id: 'incrementAuthorization', perm: 'payments:write', method: 'post', path: '/payments/{id}/increment_authorization', tag: 'Payments', summary: 'Increment an authorization', body: 'PaymentIncrement', bodyRequired: true,
      description: 'Raises the authorized total of a `requires_capture` card payment on a network that supports it; otherwise 400 payment_not_incrementable. An issuer decline of the increment is 402 and leaves the authorization unchanged.',
      response: 'Payment', responseDescription: 'The payment with the new amount.', errors: [402, 404]},
    {id: 'cancelPayment', perm: 'payments:write', method: 'post', path: '/payments/{id}/cancel', tag: 'Payments', summary: 'Cancel a payment', body: 'PaymentCancel',
      description: 'Voids a payment in requires_confirmation, requires_action or requires_capture; otherwise 400 payment_not_cancelable. After partial captures the authorization closes as succeeded with what was captured (payment.succeeded) and only the remainder is released.',
      response: 'Payment', responseDescription: 'The canceled payment, or the succeeded one when funds were already captured.', errors: [404]},
    {id: 'testPaymentAction', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/payments/{id}/action', tag: 'Test helpers', summary: 'Act as the customer on the hosted page', body: 'TestPaymentAction', bodyRequired: true, testHelper: true,
      description: 'approve, fail or abandon the current customer step (3-D Secure, redirect, QR, voucher paid); a payment without one is 400 payment_unexpected_state.', response: 'Payment', responseDescription: 'The payment after the step.', errors: [404]},
    {id: 'testPaymentReview', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/payments/{id}/review', tag: 'Test helpers', summary: 'Decide a risk review as the operator', body: 'TestPaymentReview', bodyRequired: true, testHelper: true,
      response: 'Payment', responseDescription: 'The payment after the decision.', errors: [404]},
  ],
}
