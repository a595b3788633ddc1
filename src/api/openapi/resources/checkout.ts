// Hosted checkout sessions (docs/api.md#hosted-checkout-sessions): a page of {checkout_url} where the customer pays, tries
// again after a decline, and returns to the shop.
import {body, en, idOf, idQ, idRef, int, livemode, MAX_AMOUNT, metadata, minor, nullable, obj, origin, q, ref, required, str, useCase, dateTime, type Family} from '../kit.js'
import {METHOD_CODES} from '../../catalog.js'
import {CHECKOUT_SESSION_STATUSES} from '../../vocabulary.js'

export const family: Family = {
  responses: () => ({
    CheckoutSession: obj({
      id: idOf('cs'),
      object: {type: 'string', const: 'checkout_session'},
      status: {type: 'string', enum: [...CHECKOUT_SESSION_STATUSES], description: 'open: the customer may pay, and try again after a decline; complete: a payment succeeded or is processing; expired.'},
      url: str({format: 'uri', description: 'The page on {checkout_url} to send the customer to.'}),
      amount: minor('What the customer pays.', {minimum: 1, maximum: MAX_AMOUNT}),
      currency: ref('Currency'),
      payment_methods: {type: 'array', items: ref('MethodCode'), description: 'The methods the page offers.'},
      reference: str({description: 'Merchant order id, given to each payment; defaults to the session id.'}),
      customer: nullable(idOf('cus')),
      success_url: str(),
      cancel_url: str(),
      payment: nullable(idOf('pay', 'The payment that completed the session; while open, the latest try (null before the first).')),
      metadata: ref('Metadata'),
      expires_at: dateTime(),
      completed_at: nullable(dateTime()),
      livemode,
      created_at: dateTime(),
    }, {description: 'A hosted checkout session (test mode): what the customer pays on a page of {checkout_url}, and what came of it.'}),
  }),
  requests: () => ({
    CheckoutSessionCreate: body({
      amount: required({...int(1, MAX_AMOUNT, "in the currency's minor unit (2000 = €20.00)"), description: 'Integer minor units, 1 to 99,999,999.'}),
      currency: required(useCase({type: 'string', minLength: 1, pattern: '^[A-Z]{3}$', description: 'Uppercase ISO 4217 code.'}, 'pattern')),
      success_url: useCase(str({maxLength: 2048, format: 'uri', description: 'Where the customer returns after paying, with `session` and `payment` added; default a stand-in page of the gateway ({checkout_url}/returned/success) that shows them.'}), 'format'),
      cancel_url: useCase(str({maxLength: 2048, format: 'uri', description: 'Where "Back to the shop" leads, with `session` added (the session stays open); default {checkout_url}/returned/cancel.'}), 'format'),
      payment_methods: {
        type: 'array',
        minItems: 1,
        maxItems: 50,
        items: useCase({type: 'string', enum: [...METHOD_CODES]}, 'enum'),
        description: 'The methods to offer, each taking the currency; default every method that takes it and has a customer page.',
      },
      reference: str({maxLength: 255, description: 'Merchant order id for every payment of the session; defaults to the session id.'}),
      customer: idRef('cus', 'Customer'),
      metadata,
      expires_in: {...int(1800, 86_400, 'in seconds, 1800 to 86400'), description: 'Seconds until the session expires (engine clock); default 86400.'},
    }),
    // the body of payCheckoutSession
    CheckoutSessionPay: body({payment_method_id: required(idRef('pm', 'Saved card (the hosted card fields save it with the publishable key)'))}),
  }),
  lists: ['CheckoutSession'],
  operations: [
    {id: 'listCheckoutSessions', perm: 'payments:read', method: 'get', path: '/checkout_sessions', tag: 'Checkout sessions', summary: 'List checkout sessions', list: true,
      query: [q('status', en(CHECKOUT_SESSION_STATUSES), 'Only sessions in this status.'), q('payment', idQ('pay'), 'Only the session this payment belongs to (its completing payment, or while open its latest try).')],
      response: 'CheckoutSessionList', responseDescription: 'A page of checkout sessions, newest first.'},
    {id: 'createCheckoutSession', perm: 'payments:write', method: 'post', path: '/checkout_sessions', tag: 'Checkout sessions', summary: 'Create a hosted checkout session', body: 'CheckoutSessionCreate', bodyRequired: true, status: 201,
      description: "A page on {checkout_url} (`url`) where the customer pays `amount` with one of `payment_methods` (default: every method that takes the currency and has a customer page; direct debits need mandate data the page does not collect). A declined card or a failed step lets the customer try again; each try is a payment linked to the session. The session completes when a payment succeeds or is processing (`checkout.session.completed`), and expires at `expires_at` (`checkout.session.expired`; default a day, 30 minutes at the least). The customer returns to `success_url` with `session` and `payment` added, or to `cancel_url` with `session`; the return only signals that the customer came back: the webhook tells the outcome.",
      response: 'CheckoutSession', responseDescription: 'The session, with the url to send the customer to.', errors: [404]},
    {id: 'retrieveCheckoutSession', perm: 'payments:read', method: 'get', path: '/checkout_sessions/{id}', tag: 'Checkout sessions', summary: 'Retrieve a checkout session', response: 'CheckoutSession', responseDescription: 'The session: its status and its payment.', errors: [404]},
    {id: 'expireCheckoutSession', perm: 'payments:write', method: 'post', path: '/checkout_sessions/{id}/expire', tag: 'Checkout sessions', summary: 'Expire an open checkout session', body: 'Empty',
      description: 'Ends an open session now (`checkout.session.expired`); its page then says it has expired. A complete or expired session is 400 checkout_session_not_open.',
      response: 'CheckoutSession', responseDescription: 'The session, expired.', errors: [404]},
    // card fields pay a checkout session, each try a payment of it (docs/api.md#the-shops-developer)
    {id: 'payCheckoutSession', perm: 'payments:write', method: 'post', path: '/checkout_sessions/{id}/pay', tag: 'Checkout sessions', summary: 'Pay an open checkout session with a saved card', body: 'CheckoutSessionPay', bodyRequired: true, status: 201,
      description: "One try at paying the session: a payment of it (its amount, currency, reference, customer and metadata) with the card `payment_method_id` holds, as a try on its hosted page is. The hosted card fields' `confirmCheckoutSession` calls it with the publishable key (the session id is the capability, as a payment's id is for `confirmPayment`); a secret key may too. A decline is 402 card_error with `error.payment`, and the session stays open for another card; a payment that succeeds completes the session (`checkout.session.completed`). A try that needs 3-D Secure answers `requires_action`; an earlier try still waiting for its customer step is canceled, so two tries never both succeed. A complete or expired session is 400 checkout_session_not_open.",
      headers: [{name: 'Gw-Parent-Origin', schema: origin('An http(s) origin as a browser serializes it: scheme, lowercase host, a port only when not the default.'), description: 'Sent by the hosted card fields: the origin of the shop\'s page that mounted them, bound to the payment as for confirmPayment. Anything but an origin is 400 parameter_invalid.'}],
      response: 'Payment', responseDescription: 'The payment this try made.', errors: [402, 404]},
  ],
}
