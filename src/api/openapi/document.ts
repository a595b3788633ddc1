// The OpenAPI 3.1 contract of the gateway API, as the embedded engine serves it. One source:
// the engine serves it at GET /v1/openapi.json, the build writes it to dist/openapi.json (shipped
// in the package as `gw/openapi.json`), the engine's tests validate every response against it,
// and the request validator (engine/http/openapi-validate.ts) is compiled from it.
import {ERROR_CODES, ERROR_TYPE_OF_STATUS, ref, requestSchemas, responseSchemas, type Schema} from './schemas.js'
import {DELIVERY_STATUSES, DISPUTE_STATUSES, KYB_STATUSES, PAYOUT_STATUSES, REFUND_STATUSES} from './schemas.js'
import {PAYMENT_STATUSES} from '../types.js'
import {ENGINE_TIME_HEADER} from '../engine-time.js'

type Method = 'get' | 'post' | 'delete'
type ErrorStatus = keyof typeof ERROR_CODES

interface Param {
  name: string
  schema: Schema
  description: string
  required?: boolean
}

interface OpSpec {
  id: string
  method: Method
  path: string
  tag: string
  summary: string
  description?: string
  /** query parameters besides the pagination ones */
  query?: Param[]
  /** a list endpoint: limit, starting_after, ending_before */
  list?: boolean
  /** request body schema name (components/schemas) */
  body?: string
  bodyRequired?: boolean
  status?: number
  /** response schema name, or full media map */
  response: string | Record<string, {schema: Schema}>
  responseDescription: string
  /** statuses beyond the ones every operation can get */
  errors?: ErrorStatus[]
  /** no Authorization needed */
  public?: boolean
  /**
   * What a key needs for this operation (docs/api.md "Keys"): `resource:read|write` (a restricted
   * key must hold it; write includes read), `api_keys:*` (secret keys only), `accounts:*` (keys of
   * the engine's own account only), or `none` (any secret or restricted key); or several, all of
   * which the key must hold (issue 33). Written as `x-permission` on the operation, several joined
   * by commas (`webhooks:write,events:read`, as `gw keys create --permissions` takes them); every
   * operation but the public ones has one.
   */
  perm?: string | readonly string[]
  testHelper?: boolean
  headers?: Param[]
  /** served at the engine's root (https://HOST:PORT/healthz), not under /v1 */
  root?: boolean
  /** responses of its own (not the error envelope), by status */
  own?: Record<string, Schema>
}

const q = (name: string, schema: Schema, description: string): Param => ({name, schema, description})
const en = (values: readonly string[]): Schema => ({type: 'string', enum: [...values]})
const idQ = (prefix: string): Schema => ({type: 'string', description: `A \`${prefix}_\` id.`})
const createdRange = [
  q('created_gte', {type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}', 'x-hint': 'an ISO 8601 date-time such as 2026-01-31T00:00:00Z', examples: ['2026-01-31T00:00:00Z']}, 'Created at or after this ISO 8601 date-time (inclusive).'),
  q('created_lte', {type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}', 'x-hint': 'an ISO 8601 date-time such as 2026-01-31T00:00:00Z', examples: ['2026-01-31T23:59:59Z']}, 'Created at or before this ISO 8601 date-time (inclusive).'),
]
const typeFilter = q(
  'type',
  {type: 'string', examples: ['payment.succeeded', 'payment.*', 'dispute.*,refund.failed']},
  'An event type, a prefix ending in `.*`, or several separated by commas.',
)

const requestLogFilters = [
  q('status', {type: 'string', pattern: '^([1-5](xx|[0-9]{2}))(,[1-5](xx|[0-9]{2}))*$', 'x-hint': 'an HTTP status or class such as 404, 4xx, or 4xx,5xx', examples: ['4xx', '404', '4xx,5xx']}, 'Only these statuses: a status, a class (4xx), or a comma list.'),
  q('method', {type: 'string', pattern: '^(GET|POST|DELETE)(,(GET|POST|DELETE))*$', 'x-hint': 'GET, POST or DELETE (comma list allowed)', examples: ['POST']}, 'Only these methods.'),
  q('path', {type: 'string', pattern: '^/', 'x-hint': 'a path prefix such as /payments', examples: ['/payments']}, 'Only paths starting with this prefix (with or without /v1).'),
]

const idPath = (prefix: string, what: string): Param => ({
  name: 'id',
  schema: {type: 'string', pattern: `^${prefix}_[0-9A-Za-z]+$`},
  description: `The ${what} id (\`${prefix}_...\`). Any other id is 404 resource_missing.`,
  required: true,
})

const PREFIX_OF_PATH: Record<string, [string, string]> = {
  payments: ['pay', 'payment'],
  customers: ['cus', 'customer'],
  payment_methods: ['pm', 'payment method'],
  refunds: ['rf', 'refund'],
  disputes: ['dp', 'dispute'],
  events: ['evt', 'event'],
  webhook_endpoints: ['wh', 'webhook endpoint'],
  webhook_deliveries: ['whd', 'webhook delivery'],
  providers: ['prov', 'provider'],
  merchants: ['mer', 'merchant'],
  routing_rules: ['rr', 'routing rule'],
  settlement_reports: ['stl', 'settlement report'],
  payouts: ['po', 'payout'],
  accounts: ['acct', 'account'],
  api_keys: ['key', 'API key'],
  chaos: ['chaos', 'chaos rule'],
  checkout_sessions: ['cs', 'checkout session'],
}

const OPS: OpSpec[] = [
  // ---- payments
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
  {id: 'createCheckoutSession', perm: 'payments:write', method: 'post', path: '/checkout_sessions', tag: 'Checkout sessions', summary: 'Create a hosted checkout session', body: 'CheckoutSessionCreate', bodyRequired: true, status: 201,
    description: "A page on {checkout_url} (`url`) where the customer pays `amount` with one of `payment_methods` (default: every method that takes the currency and has a customer page; direct debits need mandate data the page does not collect). A declined card or a failed step lets the customer try again; each try is a payment linked to the session. The session completes when a payment succeeds or is processing (`checkout.session.completed`), and expires at `expires_at` (`checkout.session.expired`; default a day, 30 minutes at the least). The customer returns to `success_url` with `session` and `payment` added, or to `cancel_url` with `session`; the return only signals that the customer came back: the webhook tells the outcome.",
    response: 'CheckoutSession', responseDescription: 'The session, with the url to send the customer to.', errors: [404]},
  {id: 'retrieveCheckoutSession', perm: 'payments:read', method: 'get', path: '/checkout_sessions/{id}', tag: 'Checkout sessions', summary: 'Retrieve a checkout session', response: 'CheckoutSession', responseDescription: 'The session: its status and its payment.', errors: [404]},
  {id: 'expireCheckoutSession', perm: 'payments:write', method: 'post', path: '/checkout_sessions/{id}/expire', tag: 'Checkout sessions', summary: 'Expire an open checkout session', body: 'Empty',
    description: 'Ends an open session now (`checkout.session.expired`); its page then says it has expired. A complete or expired session is 400 checkout_session_not_open.',
    response: 'CheckoutSession', responseDescription: 'The session, expired.', errors: [404]},
  // issue 36: card fields pay a checkout session, each try a payment of it (docs/api.md "The shop's developer")
  {id: 'payCheckoutSession', perm: 'payments:write', method: 'post', path: '/checkout_sessions/{id}/pay', tag: 'Checkout sessions', summary: 'Pay an open checkout session with a saved card', body: 'CheckoutSessionPay', bodyRequired: true, status: 201,
    description: "One try at paying the session: a payment of it (its amount, currency, reference, customer and metadata) with the card `payment_method_id` holds, as a try on its hosted page is. The hosted card fields' `confirmCheckoutSession` calls it with the publishable key (the session id is the capability, as a payment's id is for `confirmPayment`); a secret key may too. A decline is 402 card_error with `error.payment`, and the session stays open for another card; a payment that succeeds completes the session (`checkout.session.completed`). A try that needs 3-D Secure answers `requires_action`; an earlier try still waiting for its customer step is canceled, so two tries never both succeed. A complete or expired session is 400 checkout_session_not_open.",
    headers: [{name: 'Gw-Parent-Origin', schema: {type: 'string', pattern: '^https?://[^/?#]+$', examples: ['https://shop.example']}, description: 'Sent by the hosted card fields: the origin of the shop\'s page that mounted them, bound to the payment as for confirmPayment.'}],
    response: 'Payment', responseDescription: 'The payment this try made.', errors: [402, 404]},
  {id: 'retrievePayment', perm: 'payments:read', method: 'get', path: '/payments/{id}', tag: 'Payments', summary: 'Retrieve a payment', response: 'Payment', responseDescription: 'The payment, with every provider attempt.', errors: [404]},
  {id: 'retrievePaymentRouting', perm: 'payments:read', method: 'get', path: '/payments/{id}/routing', tag: 'Payments', summary: 'Explain how a payment was routed',
    description: 'Every routing pass as the router decided it then (providers considered and why some were excluded, the rule that matched or smart routing, each candidate\'s score with its parts, the order), and every provider attempt with its decline class (soft: the next provider was tried; final: routing stopped). Passes are recorded from the version that added this operation on.',
    response: 'PaymentRouting', responseDescription: 'The routing of the payment.', errors: [404]},
  {id: 'confirmPayment', perm: 'payments:write', method: 'post', path: '/payments/{id}/confirm', tag: 'Payments', summary: 'Confirm a payment', body: 'PaymentConfirm',
    description: 'Routes a payment in `requires_confirmation`; any other state is 400 payment_unexpected_state. Also callable from a browser with a publishable key (the hosted card fields\' `confirmPayment`) with `payment_method_id` only; answers to a publishable key carry `Access-Control-Allow-Origin: *`.',
    headers: [{name: 'Gw-Parent-Origin', schema: {type: 'string', pattern: '^https?://[^/?#]+$', examples: ['https://shop.example']}, description: 'Sent by the hosted card fields: the origin of the shop\'s page that mounted them. A customer step the payment needs (3-D Secure) may then be framed by that origin alone, and its last page tells that origin the outcome (docs/api.md, issue 33).'}],
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
  // ---- customers
  {id: 'listCustomers', perm: 'customers:read', method: 'get', path: '/customers', tag: 'Customers', summary: 'List customers', list: true, query: [q('email', {type: 'string'}, 'Only customers with this email.')], response: 'CustomerList', responseDescription: 'A page of customers.'},
  {id: 'createCustomer', perm: 'customers:write', method: 'post', path: '/customers', tag: 'Customers', summary: 'Create a customer', body: 'CustomerFields', status: 201, response: 'Customer', responseDescription: 'The new customer.'},
  {id: 'retrieveCustomer', perm: 'customers:read', method: 'get', path: '/customers/{id}', tag: 'Customers', summary: 'Retrieve a customer', response: 'Customer', responseDescription: 'The customer.', errors: [404]},
  {id: 'updateCustomer', perm: 'customers:write', method: 'post', path: '/customers/{id}', tag: 'Customers', summary: 'Update a customer', body: 'CustomerFields', description: 'Sets the given fields; metadata is merged.', response: 'Customer', responseDescription: 'The updated customer.', errors: [404]},
  {id: 'deleteCustomer', perm: 'customers:write', method: 'delete', path: '/customers/{id}', tag: 'Customers', summary: 'Delete a customer', response: 'DeletedCustomer', responseDescription: 'The deleted customer id.', errors: [404]},
  // ---- payment methods
  {id: 'listPaymentMethods', perm: 'payment_methods:read', method: 'get', path: '/payment_methods', tag: 'Payment methods', summary: 'List payment methods', list: true,
    query: [q('customer', idQ('cus'), 'Only payment methods attached to this customer.'), q('type', en(['card']), 'Only this instrument type.')], response: 'PaymentMethodList', responseDescription: 'A page of payment methods.'},
  {id: 'createPaymentMethod', perm: 'payment_methods:write', method: 'post', path: '/payment_methods', tag: 'Payment methods', summary: 'Save a card as a payment method', body: 'PaymentMethodCreate', bodyRequired: true, status: 201,
    description: 'Also callable from a browser with a publishable key (the hosted card fields of {checkout_url}/gw.js do so; answers carry `Access-Control-Allow-Origin: *` for any origin), without `customer` (403: attaching needs a secret key).',
    response: 'PaymentMethod', responseDescription: 'The saved card (the number is never returned).', errors: [404]},
  {id: 'retrievePaymentMethod', perm: 'payment_methods:read', method: 'get', path: '/payment_methods/{id}', tag: 'Payment methods', summary: 'Retrieve a payment method', response: 'PaymentMethod', responseDescription: 'The payment method.', errors: [404]},
  {id: 'detachPaymentMethod', perm: 'payment_methods:write', method: 'post', path: '/payment_methods/{id}/detach', tag: 'Payment methods', summary: 'Detach a payment method from its customer', body: 'Empty',
    description: 'A payment method attached to no customer is 400 payment_method_not_attached.', response: 'PaymentMethod', responseDescription: 'The detached payment method.', errors: [404]},
  // ---- refunds
  {id: 'listRefunds', perm: 'refunds:read', method: 'get', path: '/refunds', tag: 'Refunds', summary: 'List refunds', list: true,
    query: [q('payment', idQ('pay'), 'Only refunds of this payment.'), q('status', en(REFUND_STATUSES), 'Only refunds in this status.')], response: 'RefundList', responseDescription: 'A page of refunds.'},
  {id: 'createRefund', perm: 'refunds:write', method: 'post', path: '/refunds', tag: 'Refunds', summary: 'Refund a payment', body: 'RefundCreate', bodyRequired: true, status: 201,
    description: 'Full or partial refund of a succeeded payment, routed to the provider that processed it; pending until the rail answers (refund.succeeded / refund.failed). Codes: payment_not_refundable, payment_disputed, partial_refund_unsupported, amount_too_large.',
    response: 'Refund', responseDescription: 'The pending refund.', errors: [404]},
  {id: 'retrieveRefund', perm: 'refunds:read', method: 'get', path: '/refunds/{id}', tag: 'Refunds', summary: 'Retrieve a refund', response: 'Refund', responseDescription: 'The refund.', errors: [404]},
  // ---- disputes
  {id: 'listDisputes', perm: 'disputes:read', method: 'get', path: '/disputes', tag: 'Disputes', summary: 'List disputes', list: true,
    query: [q('status', en(DISPUTE_STATUSES), 'Only disputes in this status.'), q('payment', idQ('pay'), 'Only disputes of this payment.')], response: 'DisputeList', responseDescription: 'A page of disputes, newest first.'},
  {id: 'retrieveDispute', perm: 'disputes:read', method: 'get', path: '/disputes/{id}', tag: 'Disputes', summary: 'Retrieve a dispute', response: 'Dispute', responseDescription: 'The dispute.', errors: [404]},
  {id: 'submitDisputeEvidence', perm: 'disputes:write', method: 'post', path: '/disputes/{id}/evidence', tag: 'Disputes', summary: 'Submit evidence', body: 'DisputeEvidenceSubmit', bodyRequired: true,
    description: 'Only on a dispute in needs_response (else 400 dispute_not_actionable); moves it to under_review.', response: 'Dispute', responseDescription: 'The dispute, under_review.', errors: [404]},
  {id: 'acceptDispute', perm: 'disputes:write', method: 'post', path: '/disputes/{id}/accept', tag: 'Disputes', summary: 'Accept a dispute', body: 'Empty',
    description: 'Only on a dispute in needs_response (else 400 dispute_not_actionable); final.', response: 'Dispute', responseDescription: 'The accepted dispute.', errors: [404]},
  // ---- events
  {id: 'listEvents', perm: 'events:read', method: 'get', path: '/events', tag: 'Events', summary: 'List events', list: true,
    query: [typeFilter, q('object', {type: 'string', minLength: 1, maxLength: 255}, "Only one object's story: for a payment, its own events and its refunds' and disputes'; for a refund or dispute, its own; for anything else, the events about it."), ...createdRange],
    description: 'The immutable event log of the last 30 days (engine clock); events are served as the exact bytes webhooks deliver.', response: 'EventList', responseDescription: 'A page of events, newest first.'},
  {id: 'streamEvents', perm: 'events:read', method: 'get', path: '/events/stream', tag: 'Events', summary: 'Stream events (Server-Sent Events)',
    description: 'New events as Server-Sent Events (`id:`, `event:` = the type, `data:` = the event JSON), a heartbeat comment every 15 s. With `Last-Event-ID` (header or query) it first replays what followed that event; an unknown one is 400 so the client backfills with GET /events instead.',
    query: [typeFilter, q('last_event_id', {type: 'string', pattern: '^evt_[0-9A-Za-z]+$', 'x-checked-by-use-case': ['pattern']}, 'Resume after this event (same as the Last-Event-ID header); an unknown event is 400 so the client backfills with GET /events.')],
    headers: [{name: 'Last-Event-ID', schema: {type: 'string', pattern: '^evt_[0-9A-Za-z]+$'}, description: 'Resume after this event.'}],
    response: {'text/event-stream': {schema: {type: 'string', description: 'An SSE stream: `id: evt_...`, `event: <type>`, `data: <event JSON>`.'}}}, responseDescription: 'The event stream; stays open.'},
  {id: 'retrieveEvent', perm: 'events:read', method: 'get', path: '/events/{id}', tag: 'Events', summary: 'Retrieve an event', response: 'Event', responseDescription: 'The event, as delivered to webhooks.', errors: [404]},
  {id: 'listEventDeliveries', perm: 'webhooks:read', method: 'get', path: '/events/{id}/deliveries', tag: 'Webhooks', summary: "List an event's webhook deliveries", list: true,
    query: [q('status', en(DELIVERY_STATUSES), 'Only deliveries in this status.'), q('endpoint', idQ('wh'), 'Only deliveries to this endpoint.')], response: 'WebhookDeliveryList', responseDescription: 'A page of deliveries.', errors: [404]},
  {id: 'resendEvent', perm: ['webhooks:write', 'events:read'], method: 'post', path: '/events/{id}/resend', tag: 'Webhooks', summary: 'Resend an event to webhook endpoints', body: 'EventResend',
    description: 'New deliveries of the same event bytes with a fresh 72 h retry window: to `endpoint`; else to every enabled subscribed endpoint that has not received it (a 2xx to an earlier delivery), or to all of them with `all: true` (none subscribed → 400 no_webhook_endpoints; all received it → 400 event_already_delivered). A disabled endpoint is 400 webhook_endpoint_disabled.',
    response: 'WebhookDeliveryList', responseDescription: 'The new deliveries (has_more is false).', errors: [404]},
  // ---- webhook endpoints
  {id: 'listWebhookEndpoints', perm: 'webhooks:read', method: 'get', path: '/webhook_endpoints', tag: 'Webhooks', summary: 'List webhook endpoints', list: true,
    query: [q('disabled', {type: 'boolean'}, 'true or false.')], response: 'WebhookEndpointList', responseDescription: 'A page of endpoints (without secrets).'},
  {id: 'createWebhookEndpoint', perm: 'webhooks:write', method: 'post', path: '/webhook_endpoints', tag: 'Webhooks', summary: 'Create a webhook endpoint', body: 'WebhookEndpointCreate', bodyRequired: true, status: 201,
    description: 'At most 16 per mode (400 webhook_endpoint_limit). The signing secret is returned here only.', response: 'WebhookEndpointWithSecret', responseDescription: 'The endpoint, including its secret.'},
  {id: 'retrieveWebhookEndpoint', perm: 'webhooks:read', method: 'get', path: '/webhook_endpoints/{id}', tag: 'Webhooks', summary: 'Retrieve a webhook endpoint', response: 'WebhookEndpoint', responseDescription: 'The endpoint.', errors: [404]},
  {id: 'updateWebhookEndpoint', perm: 'webhooks:write', method: 'post', path: '/webhook_endpoints/{id}', tag: 'Webhooks', summary: 'Update a webhook endpoint', body: 'WebhookEndpointUpdate', response: 'WebhookEndpoint', responseDescription: 'The updated endpoint.', errors: [404]},
  {id: 'deleteWebhookEndpoint', perm: 'webhooks:write', method: 'delete', path: '/webhook_endpoints/{id}', tag: 'Webhooks', summary: 'Delete a webhook endpoint', response: 'DeletedWebhookEndpoint', responseDescription: 'The deleted endpoint id.', errors: [404]},
  {id: 'rotateWebhookEndpointSecret', perm: 'webhooks:write', method: 'post', path: '/webhook_endpoints/{id}/rotate_secret', tag: 'Webhooks', summary: "Rotate an endpoint's signing secret", body: 'WebhookSecretRotate',
    description: 'A new secret, which alone signs from now on (one v1 in the signature header). With `expires_in` the previous one keeps signing alongside it for that long (a second v1), so a deployed receiver keeps verifying until it has the new one.',
    response: 'WebhookEndpointWithSecret', responseDescription: 'The endpoint with its new secret (returned once).', errors: [404]},
  {id: 'replayWebhookEndpoint', perm: ['webhooks:write', 'events:read'], method: 'post', path: '/webhook_endpoints/{id}/replay', tag: 'Webhooks', summary: 'Send an endpoint every event it missed since a time', body: 'WebhookReplayCreate', bodyRequired: true,
    description: 'Recovery after an outage, in one transaction: of the endpoint\'s deliveries created since `since` (or within the last `within` seconds of engine time) in `status` (default failed_retrying and undeliverable), those still retrying are made due now and those that gave up get a new delivery with a fresh 72 h window — one per event; events the endpoint received (a 2xx) are skipped, and so are events past retention. At most 10,000 deliveries (400 replay_too_large). A disabled endpoint is 400 webhook_endpoint_disabled.',
    response: 'WebhookReplay', responseDescription: 'What was sent again.', errors: [404]},
  {id: 'listWebhookEndpointDeliveries', perm: 'webhooks:read', method: 'get', path: '/webhook_endpoints/{id}/deliveries', tag: 'Webhooks', summary: "List an endpoint's deliveries", list: true,
    query: [q('status', en(DELIVERY_STATUSES), 'Only deliveries in this status.')], response: 'WebhookDeliveryList', responseDescription: 'A page of deliveries.', errors: [404]},
  {id: 'retrieveWebhookDelivery', perm: 'webhooks:read', method: 'get', path: '/webhook_deliveries/{id}', tag: 'Webhooks', summary: 'Retrieve a webhook delivery', response: 'WebhookDelivery', responseDescription: 'The delivery with every attempt.', errors: [404]},
  // ---- providers, merchants, routing rules
  {id: 'listProviders', perm: 'routing:read', method: 'get', path: '/providers', tag: 'Providers', summary: 'List providers', list: true,
    query: [q('payment_method', {type: 'string'}, 'Only providers supporting this method code.'), q('currency', {type: 'string'}, 'Only providers processing this currency.')], response: 'ProviderList', responseDescription: 'A page of providers.'},
  {id: 'retrieveProvider', perm: 'routing:read', method: 'get', path: '/providers/{id}', tag: 'Providers', summary: 'Retrieve a provider', response: 'Provider', responseDescription: 'The provider with health, 7-day auth rate, fees and latency.', errors: [404]},
  {id: 'simulateRouting', perm: 'routing:read', method: 'get', path: '/routing/simulate', tag: 'Providers', summary: 'Simulate a routing decision',
    description: 'The decision routing would make now for a payment like this, with the current provider health, 7-day authorization rates and routing rules; creates nothing. A split rule draws as a payment would.',
    query: [
      {...q('amount', {type: 'integer', minimum: 1, maximum: 99_999_999}, "In the currency's minor unit."), required: true},
      {...q('currency', {type: 'string', pattern: '^[A-Z]{3}$', 'x-checked-by-use-case': ['pattern']}, 'Uppercase ISO 4217 code.'), required: true},
      {...q('payment_method', {type: 'string'}, 'A method code.'), required: true},
      q('card_brand', {type: 'string'}, 'For card rules: visa, mastercard, amex, ...'),
      q('country', {type: 'string', pattern: '^[A-Z]{2}$'}, 'For country rules: the card\'s issuing country.'),
      q('merchant', idQ('mer'), 'Route as this sub-merchant (its rules apply).'),
    ],
    response: 'RoutingDecision', responseDescription: 'The decision, explained.', errors: [404]},
  {id: 'listMerchants', perm: 'merchants:read', method: 'get', path: '/merchants', tag: 'Merchants', summary: 'List sub-merchants', list: true, query: [q('kyb_status', en(KYB_STATUSES), 'Only merchants in this KYB status.')], response: 'MerchantList', responseDescription: 'A page of merchants.'},
  {id: 'createMerchant', perm: 'merchants:write', method: 'post', path: '/merchants', tag: 'Merchants', summary: 'Onboard a sub-merchant', body: 'MerchantCreate', bodyRequired: true, status: 201,
    description: 'KYB review completes 60 s (engine clock) after the merchant has a legal name and country.', response: 'Merchant', responseDescription: 'The merchant, kyb_status pending.'},
  {id: 'retrieveMerchant', perm: 'merchants:read', method: 'get', path: '/merchants/{id}', tag: 'Merchants', summary: 'Retrieve a sub-merchant', response: 'Merchant', responseDescription: 'The merchant.', errors: [404]},
  {id: 'updateMerchant', perm: 'merchants:write', method: 'post', path: '/merchants/{id}', tag: 'Merchants', summary: 'Update a sub-merchant', body: 'MerchantUpdate', response: 'Merchant', responseDescription: 'The updated merchant.', errors: [404]},
  {id: 'listRoutingRules', perm: 'routing:read', method: 'get', path: '/routing_rules', tag: 'Routing rules', summary: 'List routing rules', list: true, query: [q('merchant', idQ('mer'), 'Only rules of this merchant.')], response: 'RoutingRuleList', responseDescription: 'A page of rules.'},
  {id: 'createRoutingRule', perm: 'routing:write', method: 'post', path: '/routing_rules', tag: 'Routing rules', summary: 'Create a routing rule', body: 'RoutingRuleCreate', bodyRequired: true, status: 201, response: 'RoutingRule', responseDescription: 'The new rule.', errors: [404]},
  {id: 'retrieveRoutingRule', perm: 'routing:read', method: 'get', path: '/routing_rules/{id}', tag: 'Routing rules', summary: 'Retrieve a routing rule', response: 'RoutingRule', responseDescription: 'The rule.', errors: [404]},
  {id: 'updateRoutingRule', perm: 'routing:write', method: 'post', path: '/routing_rules/{id}', tag: 'Routing rules', summary: 'Update a routing rule', body: 'RoutingRuleUpdate', response: 'RoutingRule', responseDescription: 'The updated rule.', errors: [404]},
  {id: 'deleteRoutingRule', perm: 'routing:write', method: 'delete', path: '/routing_rules/{id}', tag: 'Routing rules', summary: 'Delete a routing rule', response: 'DeletedRoutingRule', responseDescription: 'The deleted rule id.', errors: [404]},
  // ---- money
  {id: 'retrieveBalance', perm: 'settlement:read', method: 'get', path: '/balance', tag: 'Balance', summary: 'Retrieve the balance', response: 'Balance', responseDescription: 'Available and pending amounts per currency. Captured funds are pending until their day\'s settlement run, which pays them out: paid-out money is in the payouts, not the balance.'},
  {id: 'listSettlementReports', perm: 'settlement:read', method: 'get', path: '/settlement_reports', tag: 'Settlement', summary: 'List settlement reports', list: true,
    query: [q('provider', idQ('prov'), 'Only reports of this provider.'), q('currency', {type: 'string'}, 'Only reports in this currency.'), q('date', {type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', 'x-hint': 'YYYY-MM-DD'}, 'Only reports of this day (YYYY-MM-DD).')],
    response: 'SettlementReportList', responseDescription: 'A page of reports.'},
  {id: 'retrieveSettlementReport', perm: 'settlement:read', method: 'get', path: '/settlement_reports/{id}', tag: 'Settlement', summary: 'Retrieve a settlement report (JSON or CSV)',
    description: 'JSON by default; `Accept: text/csv` returns one CSV row per line: report, date, provider, type, payment, reference, amount (minor units), currency, rate, converted_amount, converted_currency, created_at.',
    headers: [{name: 'Accept', schema: {type: 'string', examples: ['application/json', 'text/csv']}, description: '`text/csv` for CSV; otherwise JSON.'}],
    response: {
      'application/json': {schema: ref('SettlementReport')},
      'text/csv': {schema: {type: 'string', description: 'CSV with a header row; every row carries the payment reference.'}},
    },
    responseDescription: 'The report.', errors: [404]},
  {id: 'listPayouts', perm: 'settlement:read', method: 'get', path: '/payouts', tag: 'Settlement', summary: 'List payouts', list: true,
    query: [q('currency', {type: 'string'}, 'Only payouts in this currency.'), q('status', en(PAYOUT_STATUSES), 'Only payouts in this status.')], response: 'PayoutList', responseDescription: 'A page of payouts.'},
  {id: 'retrievePayout', perm: 'settlement:read', method: 'get', path: '/payouts/{id}', tag: 'Settlement', summary: 'Retrieve a payout', response: 'Payout', responseDescription: 'The payout.', errors: [404]},
  // ---- test helpers (test keys only: 400 test_mode_only otherwise)
  {id: 'testPaymentAction', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/payments/{id}/action', tag: 'Test helpers', summary: 'Act as the customer on the hosted page', body: 'TestPaymentAction', bodyRequired: true, testHelper: true,
    description: 'approve, fail or abandon the current customer step (3-D Secure, redirect, QR, voucher paid); a payment without one is 400 payment_unexpected_state.', response: 'Payment', responseDescription: 'The payment after the step.', errors: [404]},
  {id: 'testPaymentReview', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/payments/{id}/review', tag: 'Test helpers', summary: 'Decide a risk review as the operator', body: 'TestPaymentReview', bodyRequired: true, testHelper: true,
    response: 'Payment', responseDescription: 'The payment after the decision.', errors: [404]},
  {id: 'testCreateDispute', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/disputes', tag: 'Test helpers', summary: 'Open a dispute as the card network', body: 'TestDisputeCreate', bodyRequired: true, status: 201, testHelper: true,
    description: 'Only succeeded card-family payments (else 400 payment_not_disputable), once per payment (payment_already_disputed).', response: 'Dispute', responseDescription: 'The new dispute, needs_response.', errors: [404]},
  {id: 'testResolveDispute', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/disputes/{id}/resolve', tag: 'Test helpers', summary: 'Rule on a dispute as the issuer or network', body: 'TestDisputeResolve', bodyRequired: true, testHelper: true,
    response: 'Dispute', responseDescription: 'The dispute after the ruling.', errors: [404]},
  {id: 'testSetProviderHealth', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/providers/{id}/health', tag: 'Test helpers', summary: "Force a provider's health", body: 'TestProviderHealth', bodyRequired: true, testHelper: true,
    response: 'Provider', responseDescription: 'The provider with its new status.', errors: [404]},
  {id: 'testGetClock', perm: 'test_helpers:read', method: 'get', path: '/test_helpers/clock', tag: 'Test helpers', summary: 'Read the engine clock', testHelper: true, response: 'TestClock', responseDescription: 'The engine clock.'},
  {id: 'testSetClock', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/clock', tag: 'Test helpers', summary: 'Freeze, unfreeze or set the engine clock', body: 'TestClockSet', bodyRequired: true, testHelper: true,
    description: 'Frozen, the clock moves only when advanced or set, so a test run that starts from a fixed instant gets the same timestamps every time; unfrozen, it ticks on from where it stood. `now` sets it to that instant or later (earlier is 400: the clock never moves back). Jobs that fell due run before the answer.', response: 'TestClock', responseDescription: 'The engine clock.'},
  {id: 'testAdvanceClock', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/clock/advance', tag: 'Test helpers', summary: 'Advance the engine clock', body: 'TestClockAdvance', bodyRequired: true, testHelper: true,
    description: 'Moves the engine clock forward and runs every job that became due, in due order.', response: 'TestClock', responseDescription: 'The engine clock after the advance.'},
  {id: 'createChaosApiFault', perm: 'test_helpers:write', method: 'post', path: '/chaos/api', tag: 'Chaos', summary: 'Switch on an API fault to rehearse', body: 'ChaosApiFaultCreate', bodyRequired: true, status: 201, testHelper: true,
    description: "A share (`rate`) of this account's requests matching `method` and `path` is answered 500, 503 or 429 (with Retry-After) instead, answered after `latency_ms` (slow), or done and committed and then left without a response, the connection dropped (response_lost: a retry with the same Idempotency-Key replays it; one without makes a second payment). Every fault ends: after `count` faults, and at the latest after `for_seconds` on the engine clock (600 s by default without a count). Injected faults carry `Gw-Chaos: <rule id>` and are marked in the request log. Test keys only; /v1/chaos itself is never faulted.",
    response: 'ChaosRule', responseDescription: 'The rule, with when it ends.'},
  {id: 'createChaosProviderFault', perm: 'test_helpers:write', method: 'post', path: '/chaos/providers', tag: 'Chaos', summary: 'Switch on a provider fault to rehearse', body: 'ChaosProviderFaultCreate', bodyRequired: true, status: 201, testHelper: true,
    description: "For this account, a provider goes down (every authorization and refund call fails with a provider error; the provider is marked `degraded`, with `provider.health.changed`, at the first failure and `active` again when the rule ends), or a share (`rate`) of its calls time out, soft-decline (`try_again_later`) or answer `latency_ms` later (really waited; past the provider's timeout the call times out). Routing fails over to the next provider inside the same call as after a real failure (§1): `provider_attempts`, the routing explanation and the 7-day authorization rate show it. Every fault ends: after `count` faults (not for down), and at the latest after `for_seconds` on the engine clock. Test keys only.",
    response: 'ChaosRule', responseDescription: 'The rule, with when it ends.', errors: [404]},
  {id: 'createChaosWebhookFault', perm: 'test_helpers:write', method: 'post', path: '/chaos/webhooks', tag: 'Chaos', summary: 'Switch on a webhook fault to rehearse', body: 'ChaosWebhookFaultCreate', bodyRequired: true, status: 201, testHelper: true,
    description: "Shapes the deliveries created while it is active (of one endpoint, or every one): a share (`rate`) of events delivered twice, deliveries held a random time within `delay_seconds` so they arrive out of order (shuffle), every delivery held `delay_seconds` (delay), or the first `attempts` attempts of each delivery failed on purpose (logged with error `chaos_fail_first`, nothing sent) so the retry schedule takes over. Every delivery is still signed when sent and recorded in the delivery log, marked with the rule (`chaos`). Every fault ends: after `count` deliveries, and at the latest after `for_seconds` on the engine clock. Test keys only.",
    response: 'ChaosRule', responseDescription: 'The rule, with when it ends.', errors: [404]},
  {id: 'listChaos', perm: 'test_helpers:read', method: 'get', path: '/chaos', tag: 'Chaos', summary: 'List the active faults', testHelper: true, response: 'ChaosRuleList', responseDescription: 'Every active rule of the account, with the faults each injected.'},
  {id: 'clearChaos', perm: 'test_helpers:write', method: 'delete', path: '/chaos', tag: 'Chaos', summary: 'Clear every fault', testHelper: true, response: 'ChaosRuleList', responseDescription: 'The rules that were active and are now ended.'},
  {id: 'deleteChaosRule', perm: 'test_helpers:write', method: 'delete', path: '/chaos/{id}', tag: 'Chaos', summary: 'End one fault', testHelper: true, response: 'ChaosRule', responseDescription: 'The rule, now ended.', errors: [404]},
  {id: 'testSaveSnapshot', perm: 'test_helpers:read', method: 'get', path: '/test_helpers/snapshot', tag: 'Test helpers', summary: "Save the account's whole state as a snapshot", testHelper: true,
    query: [q('include_secrets', {type: 'boolean'}, "true: the webhook endpoints' signing secrets and full card numbers too (sensitive; a secret key only, else 403). Without it endpoints have no secret (a load gives each a new one) and card numbers are masked but for the published test cards.")],
    description: 'Objects, events, timeline jobs, idempotency records, provider statistics and settings (the test clock among them), read at one moment; not its keys, and without signing secrets and card numbers unless include_secrets=true. Load it with POST /test_helpers/snapshot into this account or another.', response: 'Snapshot', responseDescription: 'The snapshot.'},
  {id: 'testLoadSnapshot', perm: 'test_helpers:write', method: 'post', path: '/test_helpers/snapshot', tag: 'Test helpers', summary: "Replace the account's state with a snapshot", body: 'SnapshotBody', bodyRequired: true, testHelper: true,
    description: "Replaces every object, event, job, idempotency record, statistic and setting of the account (not its keys) with the snapshot's, in one transaction, and sets its clock to the snapshot's. Every row is checked as the API would check it: the first bad one → 400 naming its path (rows.objects[3].obj.amount), nothing changed. Bodies up to the engine's snapshot limit (64 MiB unless gw serve --snapshot-max-bytes says otherwise; over it → 413 naming the limit). An unknown format or version → 400 naming it.", response: 'SnapshotLoad', responseDescription: 'What was loaded.'},
  // ---- the request log
  {id: 'listRequestLogs', perm: 'request_logs:read', method: 'get', path: '/request_logs', tag: 'Request log', summary: "List the engine's recent API requests", list: true, query: requestLogFilters,
    description: 'The last 1,000 API requests the engine answered (in memory), newest first; requests to the request log itself are not logged.', response: 'RequestLogList', responseDescription: 'A page of requests, newest first.'},
  {id: 'streamRequestLogs', perm: 'request_logs:read', method: 'get', path: '/request_logs/stream', tag: 'Request log', summary: 'Stream API requests (Server-Sent Events)', query: requestLogFilters,
    description: 'New entries of the request log as Server-Sent Events (`id:` = the request id, `event: request_log`, `data:` = the entry JSON), a heartbeat comment every 15 s.',
    response: {'text/event-stream': {schema: {type: 'string', description: 'An SSE stream: `id: req_...`, `event: request_log`, `data: <RequestLog JSON>`.'}}}, responseDescription: 'The request stream; stays open.'},
  // ---- accounts and keys (issue 24)
  {id: 'retrieveCurrentAccount', method: 'get', path: '/account', tag: 'Accounts', summary: 'Retrieve the account of the key in use', perm: 'none', response: 'Account', responseDescription: 'The account.'},
  {id: 'listAccounts', method: 'get', path: '/accounts', tag: 'Accounts', summary: 'List accounts', list: true, perm: 'accounts:read',
    description: "Every account of the engine, the engine's own (acct_default) included. Keys of the engine's own account only.", response: 'AccountList', responseDescription: 'A page of accounts, newest first.'},
  {id: 'createAccount', method: 'post', path: '/accounts', tag: 'Accounts', summary: 'Create an account', body: 'AccountFields', status: 201, perm: 'accounts:write',
    description: 'A complete, independent gateway: its own objects, events, webhook endpoints, keys, rate limit and test clock. Returns its secret and publishable keys, once.',
    response: 'AccountWithKeys', responseDescription: 'The account with its keys.'},
  {id: 'retrieveAccount', method: 'get', path: '/accounts/{id}', tag: 'Accounts', summary: 'Retrieve an account', perm: 'accounts:read', response: 'Account', responseDescription: 'The account.', errors: [404]},
  {id: 'updateAccount', method: 'post', path: '/accounts/{id}', tag: 'Accounts', summary: 'Update an account', body: 'AccountFields', perm: 'accounts:write', description: 'Sets the name; metadata is merged.', response: 'Account', responseDescription: 'The updated account.', errors: [404]},
  {id: 'deleteAccount', method: 'delete', path: '/accounts/{id}', tag: 'Accounts', summary: 'Delete an account and all of its data', perm: 'accounts:write',
    description: "Deletes the account and every object, event, delivery, key and job of it, in one commit; its keys stop working at once. The engine's own account cannot be deleted (400 account_not_deletable).",
    response: 'DeletedAccount', responseDescription: 'The deleted account id.', errors: [404]},
  {id: 'listApiKeys', method: 'get', path: '/api_keys', tag: 'API keys', summary: "List the account's API keys", list: true, perm: 'api_keys:read',
    query: [q('type', en(['secret', 'restricted', 'publishable']), 'Only keys of this type.')], description: 'Keys are shown redacted (prefix and last four characters), with their last use.', response: 'ApiKeyList', responseDescription: 'A page of keys, newest first.'},
  {id: 'createApiKey', method: 'post', path: '/api_keys', tag: 'API keys', summary: 'Create an API key', body: 'ApiKeyCreate', bodyRequired: true, status: 201, perm: 'api_keys:write',
    description: 'A restricted key (the default: permissions required), a secret key or a publishable key. The key itself is returned here only.', response: 'ApiKeyWithSecret', responseDescription: 'The key with its secret.'},
  {id: 'retrieveCurrentApiKey', method: 'get', path: '/api_keys/self', tag: 'API keys', summary: 'Retrieve the key in use', perm: 'none', response: 'ApiKey', responseDescription: 'The key that made this request.'},
  {id: 'retrieveApiKey', method: 'get', path: '/api_keys/{id}', tag: 'API keys', summary: 'Retrieve an API key', perm: 'api_keys:read', response: 'ApiKey', responseDescription: 'The key (redacted).', errors: [404]},
  {id: 'rollApiKey', method: 'post', path: '/api_keys/{id}/roll', tag: 'API keys', summary: 'Roll an API key', body: 'ApiKeyRoll', perm: 'api_keys:write',
    description: 'A new key with the same type, name and permissions; the old one keeps working until `expires_in` seconds from now (wall clock; default 24 h).', response: 'ApiKeyWithSecret', responseDescription: 'The new key with its secret.', errors: [404]},
  {id: 'revokeApiKey', method: 'post', path: '/api_keys/{id}/revoke', tag: 'API keys', summary: 'Revoke an API key', body: 'Empty', perm: 'api_keys:write',
    description: 'The key stops working at once, on every instance (401 api_key_revoked).', response: 'ApiKey', responseDescription: 'The revoked key.', errors: [404]},
  // ---- operations (issue 25): at the root, without a key
  {id: 'getLiveness', method: 'get', path: '/healthz', tag: 'Operations', summary: 'Liveness: the instance answers', public: true, root: true,
    description: 'Without a key, not rate limited, at the root (not under /v1). 200 while the process runs, its database reachable or not: a balancer restarts an instance that stops answering this.',
    response: {'application/json': {schema: {type: 'object', properties: {status: {type: 'string', const: 'ok'}}, required: ['status'], additionalProperties: false}}}, responseDescription: 'The instance is alive.'},
  {id: 'getReadiness', method: 'get', path: '/readyz', tag: 'Operations', summary: 'Readiness: the instance can serve', public: true, root: true,
    own: {
      '503': {
        description: 'Not ready: the store does not answer, or the instance is stopping.',
        headers: {'Request-Id': {$ref: '#/components/headers/Request-Id'}},
        content: {'application/json': {schema: {type: 'object', properties: {status: {type: 'string', const: 'not_ready'}, reason: {type: 'string'}}, required: ['status', 'reason'], additionalProperties: false}}},
      },
    },
    description: 'Without a key, not rate limited, at the root. 200 when the store answers a read within 2 s and the instance is not stopping; 503 otherwise, with the reason: a balancer sends no traffic to an instance until it is ready.',
    response: {'application/json': {schema: {type: 'object', properties: {status: {type: 'string', const: 'ready'}}, required: ['status'], additionalProperties: false}}}, responseDescription: 'The instance can serve.'},
  {id: 'getMetrics', method: 'get', path: '/metrics', tag: 'Operations', summary: 'Prometheus metrics of the instance', public: true, root: true, errors: [404],
    description: 'Without a key, at the root: the Prometheus text format (requests by operation and status with latency, unit-of-work latency, webhook attempts, backlog per endpoint and its oldest due, due jobs and the oldest lag — the fleet-wide ones from one instance of a fleet at a time —, `gw_store_up`, process metrics under the standard `process_*` and `nodejs_*` names), with no `instance` label (the scraper adds it; `gw_instance_info{instance_id}` names the instance). Serve the port on a private network, or start the instance with `gw serve --metrics-listen HOST:PORT`: the metrics are then served there alone (plain HTTP) and this path is 404.',
    response: {'text/plain': {schema: {type: 'string', description: 'Prometheus exposition format 0.0.4.'}}}, responseDescription: 'The metrics.'},
  // ---- the contract itself
  {id: 'getOpenApiDocument', method: 'get', path: '/openapi.json', tag: 'Meta', summary: 'This OpenAPI document', public: true,
    description: 'Served without authentication (and not rate limited): the contract is public, and tools fetch it before they hold a key.',
    response: {'application/json': {schema: {type: 'object', description: 'An OpenAPI 3.1 document.', required: ['openapi', 'info', 'paths'], properties: {openapi: {type: 'string', pattern: '^3\\.1\\.'}, info: {type: 'object'}, paths: {type: 'object'}}}}},
    responseDescription: 'The OpenAPI 3.1 document.'},
]

const TAGS: Record<string, string> = {
  Payments: 'Payments across 43 methods, routed over several providers (spec §3, §4).',
  Customers: 'Customers group payments and saved payment methods.',
  'Payment methods': 'Saved card instruments.',
  'Checkout sessions': 'Hosted checkout: a page of {checkout_url} where the customer pays, tries again after a decline, and returns to the shop.',
  Refunds: 'Refunds of succeeded payments.',
  Disputes: 'Chargebacks opened by the card network.',
  Events: 'The immutable event log.',
  Webhooks: 'Webhook endpoints and their deliveries.',
  Providers: 'The providers payments are routed to (opaque ids).',
  Merchants: 'Sub-merchants with KYB status and capabilities.',
  'Routing rules': 'Rules that prefer, split or block providers.',
  Balance: 'Available and pending balance per currency.',
  Settlement: 'Settlement reports and payouts.',
  'Test helpers': 'Stand-ins for the customer, the operator and the card network (test keys only).',
  Chaos: 'Failures a merchant switches on to rehearse: API, provider and webhook faults that end by themselves (test keys only).',
  'Request log': "The engine's recent API requests, for operators (gw logs tail).",
  Accounts: "Accounts that share one engine without seeing each other, managed with the engine's own account's keys.",
  'API keys': 'Secret, restricted and publishable keys of an account.',
  Meta: 'The contract itself.',
  Operations: 'What a load balancer and Prometheus ask an instance (at the root, without a key).',
}

const header = (description: string, schema: Schema = {type: 'string'}) => ({description, schema})

function errorResponse(status: ErrorStatus): Schema {
  const codes = ERROR_CODES[status]
  const text: Record<ErrorStatus, string> = {
    400: 'Invalid request: a parameter (error.param names it), the state of the object, the Service-Version or the Idempotency-Key.',
    401: 'Missing, invalid, expired or revoked API key (authentication_error).',
    403: 'The key may not do this (permission_error): a restricted key without the permission error.permission names (several joined by commas: the key needs them all), a publishable key, or key and account management with a key that cannot.',
    402: "The issuer declined (card_error); error.payment names the stored failed payment, failure_code repeats the code.",
    404: 'Unknown id (resource_missing, error.param names it) or unknown route (route_unknown).',
    408: 'The request was not received in time (its headers or body stopped arriving); the connection closes. Retry it with the same Idempotency-Key.',
    409: 'Idempotency-Key reused with a different request, or a request with it is still running (idempotency_error).',
    413: 'The request body is over 1 MiB.',
    429: "Over the rate limit (100 requests/s per account and mode, bursts to 200; the account's publishable key has a budget of the same size of its own), or too many failed authentications from this client address (5/s, bursts of 20: refused before the key is looked at): wait Retry-After seconds, reuse the Idempotency-Key.",
    431: 'The request header block is too large.',
    500: 'Internal error (api_error): retry with the same Idempotency-Key.',
    502: 'The provider did not confirm (api_error): retry with the same Idempotency-Key.',
    503: "The engine's database cannot be reached right now (PostgreSQL restarting): wait Retry-After seconds and retry with the same Idempotency-Key.",
  }
  const headers: Record<string, unknown> = {'Request-Id': {$ref: '#/components/headers/Request-Id'}}
  // the key was authenticated (not 401), and the request was read (not 408, 431): the account's engine time
  if (status !== 401 && status !== 408 && status !== 431) headers[ENGINE_TIME_HEADER] = {$ref: `#/components/headers/${ENGINE_TIME_HEADER}`}
  // 4xx outcomes of an idempotent POST are stored and replayed (docs/api.md Idempotency)
  if (status === 400 || status === 402 || status === 404) headers['Idempotent-Replayed'] = {$ref: '#/components/headers/Idempotent-Replayed'}
  if (status === 503) headers['Retry-After'] = {$ref: '#/components/headers/Retry-After'}
  if (status === 429) {
    headers['Retry-After'] = {$ref: '#/components/headers/Retry-After'}
    headers['RateLimit-Limit'] = header('Requests per second allowed (absent when failed authentications ran out).', {type: 'integer'})
    headers['RateLimit-Remaining'] = header('Always 0 on a 429 (absent when failed authentications ran out).', {type: 'integer'})
  }
  return {
    description: text[status],
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [ref('Error')],
          properties: {
            error: {properties: {type: {const: ERROR_TYPE_OF_STATUS[status]}, code: {enum: [...codes]}}},
          },
        },
      },
    },
  }
}

const RESPONSE_NAME: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  402: 'CardError',
  403: 'Forbidden',
  404: 'NotFound',
  408: 'RequestTimeout',
  409: 'IdempotencyConflict',
  413: 'PayloadTooLarge',
  429: 'TooManyRequests',
  431: 'HeadersTooLarge',
  500: 'InternalError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
}

function operation(o: OpSpec): Schema {
  const parameters: unknown[] = []
  const m = /^\/(?:test_helpers\/)?([a-z_]+)\/\{id\}/.exec(o.path)
  if (m) {
    const [prefix, what] = PREFIX_OF_PATH[m[1]!]!
    parameters.push({in: 'path', ...idPath(prefix, what)})
  }
  if (o.list) parameters.push({$ref: '#/components/parameters/limit'}, {$ref: '#/components/parameters/starting_after'}, {$ref: '#/components/parameters/ending_before'})
  for (const p of o.query ?? []) parameters.push({in: 'query', name: p.name, description: p.description, schema: p.schema, ...(p.required ? {required: true} : {})})
  for (const h of o.headers ?? []) parameters.push({in: 'header', name: h.name, description: h.description, schema: h.schema})
  if (o.method === 'post') parameters.push({$ref: '#/components/parameters/Idempotency-Key'})
  parameters.push({$ref: '#/components/parameters/Service-Version'})

  // every authenticated operation reaches the store (the rate limit is the first), which may be unreachable
  const statuses: ErrorStatus[] = o.public ? [400, 408, 431, 500] : [400, 401, 403, 408, 429, 431, 500, 503]
  if (o.method !== 'get') statuses.push(413)
  if (o.method === 'post') statuses.push(409)
  for (const s of o.errors ?? []) if (!statuses.includes(s)) statuses.push(s)
  statuses.sort((a, b) => a - b)

  const successHeaders: Record<string, unknown> = {'Request-Id': {$ref: '#/components/headers/Request-Id'}}
  if (!o.public) successHeaders[ENGINE_TIME_HEADER] = {$ref: `#/components/headers/${ENGINE_TIME_HEADER}`}
  if (o.method === 'post') successHeaders['Idempotent-Replayed'] = {$ref: '#/components/headers/Idempotent-Replayed'}
  const content = typeof o.response === 'string' ? {'application/json': {schema: ref(o.response)}} : o.response
  const responses: Record<string, unknown> = {[String(o.status ?? 200)]: {description: o.responseDescription, headers: successHeaders, content}}
  for (const s of statuses) responses[String(s)] = {$ref: `#/components/responses/${RESPONSE_NAME[s]}`}
  Object.assign(responses, o.own)

  const op: Schema = {
    operationId: o.id,
    tags: [o.tag],
    summary: o.summary,
    ...(o.description ? {description: o.description} : {}),
    ...(o.public ? {security: []} : {}),
    ...(o.testHelper ? {'x-test-helper': true} : {}),
    ...(o.perm ? {'x-permission': permissionName(permsOf(o.perm))} : {}),
    parameters,
  }
  if (o.body) {
    op.requestBody = {
      required: o.bodyRequired ?? false,
      content: {'application/json': {schema: ref(o.body)}},
    }
  }
  op.responses = responses
  return op
}

let cached: Schema | undefined

/** The whole document (built once; treat it as read-only). */
export function openapiDocument(): Schema {
  if (cached) return cached
  const paths: Record<string, Record<string, Schema>> = {}
  for (const o of OPS) {
    const item = (paths[o.path] ??= {})
    item[o.method] = operation(o)
    // operations at the root: another server than the API's /v1
    if (o.root) item.servers = [{url: 'https://{host}:{port}', description: "An engine instance's root.", variables: {host: {default: '127.0.0.1'}, port: {default: '8443'}}}] as unknown as Schema
  }
  const responses: Record<string, Schema> = {}
  for (const [s, name] of Object.entries(RESPONSE_NAME)) responses[name] = errorResponse(Number(s) as ErrorStatus)
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'gw payment gateway API',
      version: 'v1',
      summary: 'A REST payment gateway: 43 payment methods routed across several providers.',
      description:
        'The gateway API as the embedded engine (`gw serve`) serves it: spec payment-gateway-api.md, decisions.md and docs/api.md. ' +
        'JSON over TLS only; money is integer minor units everywhere; every response carries `Request-Id`, and every answer to an authenticated request the account\'s engine time (`Gw-Engine-Time`). ' +
        'POST requests take an `Idempotency-Key` (replayed for 24 h). Lists are cursor-paginated, newest first.',
      license: {name: 'MIT', identifier: 'MIT'},
    },
    servers: [
      {
        url: 'https://{host}:{port}/v1',
        description: 'A gateway; `gw serve` listens on 127.0.0.1:8443 by default.',
        variables: {host: {default: '127.0.0.1'}, port: {default: '8443'}},
      },
    ],
    security: [{bearerAuth: []}],
    tags: Object.entries(TAGS).map(([name, description]) => ({name, description})),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A secret or restricted key of an account: `Authorization: Bearer sk_test_...` (or `rk_test_...`, which may do what its permissions allow: each operation\'s `x-permission`). Publishable keys (`pk_test_...`) are for browsers and hosted checkout only. sk_live_ keys get 401 live_mode_unavailable on the local engine.',
        },
      },
      parameters: {
        limit: {in: 'query', name: 'limit', description: 'Page size, 1 to 100.', schema: {type: 'integer', minimum: 1, maximum: 100, default: 20}},
        starting_after: {in: 'query', name: 'starting_after', description: 'Objects older than this id (the last id of the current page). Not with ending_before.', schema: {type: 'string', minLength: 1, 'x-hint': 'an object id'}},
        ending_before: {in: 'query', name: 'ending_before', description: 'Objects newer than this id (the first id of the current page). Not with starting_after.', schema: {type: 'string', minLength: 1, 'x-hint': 'an object id'}},
        'Idempotency-Key': {in: 'header', name: 'Idempotency-Key', description: 'Send on every POST: a replay within 24 h returns the original response; the same key with another request is 409.', schema: {type: 'string', minLength: 1, maxLength: 255}},
        'Service-Version': {in: 'header', name: 'Service-Version', description: 'Pins the version; anything but v1 is 400 version_invalid.', schema: {type: 'string', const: 'v1'}},
      },
      headers: {
        'Request-Id': {description: 'Unique per response; error bodies repeat it in error.request_id.', schema: {type: 'string', pattern: '^req_[0-9A-Za-z]+$'}},
        'Idempotent-Replayed': {description: '`true` when this is a replay of an earlier request with the same Idempotency-Key.', schema: {type: 'string', const: 'true'}},
        'Retry-After': {description: 'Whole seconds to wait, at least 1.', schema: {type: 'integer', minimum: 1}},
        [ENGINE_TIME_HEADER]: {
          description:
            "The account's engine time when the answer was made (ISO 8601, UTC, milliseconds): on every answer to a request whose key was authenticated, whatever the key may do. A test clock (`POST /test_helpers/clock/advance`) runs ahead of real time and deadlines (`evidence_due_by`) follow it: a client shows time left against this, not its own clock (docs/api.md, issue 36).",
          schema: {type: 'string', format: 'date-time', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$', examples: ['2026-03-14T09:26:53.589Z']},
        },
      },
      responses,
      schemas: {...responseSchemas(), ...requestSchemas()},
    },
  }
  return cached
}

const permsOf = (perm: string | readonly string[]): readonly string[] => (typeof perm === 'string' ? [perm] : perm)

/** How an operation's permissions are written (x-permission, a 403's error.permission): one, or several joined by commas. */
export const permissionName = (perms: readonly string[]): string => perms.join(',')

/** The permissions of each operation (x-permission), all of which a key must hold, by operationId; public operations have none. */
export const OPERATION_PERMISSIONS: ReadonlyMap<string, readonly string[]> = new Map(OPS.filter((o) => o.perm).map((o) => [o.id, permsOf(o.perm!)]))

/** Operation ids in document order. */
export const OPERATION_IDS: readonly string[] = OPS.map((o) => o.id)
