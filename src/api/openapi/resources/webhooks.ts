// Events (the immutable log, its stream) and webhook endpoints with their deliveries.
import {body, createdRange, deleted, en, idOf, idQ, idRef, livemode, metadata, nullable, obj, q, ref, reqStr, required, str, useCase, bool, dateTime, type Family, type Schema} from '../kit.js'
import {EVENT_TYPES, MAX_ENABLED_EVENTS} from '../../event-types.js'
import {DELIVERY_STATUSES} from '../../vocabulary.js'

const eventObjects = ['Payment', 'Refund', 'Dispute', 'Merchant', 'SettlementReport', 'Provider', 'WebhookEndpoint', 'CheckoutSession']

const webhookEndpointProps = (withSecret: boolean): Record<string, Schema> => ({
  id: idOf('wh'),
  object: {type: 'string', const: 'webhook_endpoint'},
  url: str({format: 'uri', pattern: '^https://', description: 'HTTPS URL the events are POSTed to.'}),
  ...(withSecret ? {secret: str({pattern: '^whsec_', description: 'Signing secret; returned only here (create, rotate_secret; an idempotent replay shows it redacted, `whsec_…wXyZ`).'})} : {}),
  enabled_events: {type: 'array', items: str({description: 'An event type, a prefix ending in `.*`, or `*`.'})},
  description: nullable(str()),
  metadata,
  status: {type: 'string', enum: ['enabled', 'failing', 'disabled']},
  disabled: bool,
  disabled_reason: nullable({type: 'string', enum: ['requested', 'failing']}),
  failing_since: nullable(dateTime()),
  previous_secret_expires_at: nullable(dateTime('After rotate_secret with an overlap: until this time (engine clock) every delivery is signed with the previous secret too (a second v1 in the signature header); null when only one secret signs.')),
  livemode,
  created_at: dateTime(),
})

const typeFilter = q(
  'type',
  {type: 'string', examples: ['payment.succeeded', 'payment.*', 'dispute.*,refund.failed']},
  'An event type, a prefix ending in `.*`, or several separated by commas.',
)

export const family: Family = {
  responses: () => ({
    Event: obj({
      id: idOf('evt'),
      object: {type: 'string', const: 'event'},
      type: str({
        description: `Event type. Known: ${EVENT_TYPES.join(', ')}. Unknown types can appear within v1; acknowledge them.`,
        examples: [...EVENT_TYPES],
      }),
      created_at: dateTime(),
      livemode,
      request_id: nullable(str({pattern: '^req_[0-9A-Za-z]+$'})),
      data: obj({object: {oneOf: eventObjects.map(ref)}}),
    }),
    WebhookEndpoint: obj(webhookEndpointProps(false)),
    WebhookEndpointWithSecret: obj(webhookEndpointProps(true)),
    DeletedWebhookEndpoint: deleted('wh', 'webhook_endpoint'),
    WebhookReplay: obj({
      object: {type: 'string', const: 'webhook_replay'},
      endpoint: idOf('wh'),
      since: dateTime('Deliveries created at or after this engine time were considered.'),
      queued: {type: 'integer', minimum: 0, description: 'New deliveries, for events whose deliveries had given up.'},
      rescheduled: {type: 'integer', minimum: 0, description: 'Deliveries still retrying, made due now.'},
      skipped: obj({already_received: {type: 'integer', minimum: 0}, event_expired: {type: 'integer', minimum: 0}}),
    }),
    WebhookDeliveryAttempt: obj({
      at: dateTime(),
      status_code: nullable({type: 'integer', minimum: 100, maximum: 599}),
      error: nullable({type: 'string', enum: ['timeout', 'connection_refused', 'dns_error', 'tls_error', 'connection_error', 'destination_blocked', 'chaos_fail_first'], description: '`chaos_fail_first`: failed on purpose by a chaos rule of the account (fail_first); nothing was sent.'}),
      error_message: nullable(str()),
      latency_ms: {type: 'integer', minimum: 0},
      response_excerpt: nullable(str({maxLength: 500})),
    }),
    WebhookDelivery: obj({
      id: idOf('whd'),
      object: {type: 'string', const: 'webhook_delivery'},
      event: idOf('evt'),
      event_type: str(),
      endpoint: idOf('wh'),
      status: {type: 'string', enum: [...DELIVERY_STATUSES]},
      attempts: {type: 'array', items: ref('WebhookDeliveryAttempt')},
      next_attempt_at: nullable(dateTime()),
      undeliverable_reason: nullable({type: 'string', enum: ['retry_window_expired', 'endpoint_disabled', 'endpoint_deleted', 'event_expired']}),
      livemode,
      created_at: dateTime(),
      chaos: idOf('chaos', 'The chaos rule that shaped this delivery: a duplicate, held and shuffled, delayed, or its first attempts failed on purpose. Absent otherwise.'),
    }, {optional: ['chaos']}),
  }),
  requests: () => ({
    WebhookReplayCreate: body({
      since: {type: 'string', format: 'date-time', description: 'Deliveries created at or after this time (engine clock). Give this or within.'},
      within: {type: 'integer', minimum: 1, description: 'Deliveries created in the last this many seconds of engine time. Give this or since.'},
      status: {type: 'array', minItems: 1, items: {type: 'string', enum: ['pending', 'failed_retrying', 'undeliverable']}, description: 'Which deliveries to send again; default failed_retrying and undeliverable.'},
    }),
    WebhookSecretRotate: body({
      expires_in: {type: 'integer', minimum: 0, maximum: 604_800, description: 'Seconds (engine clock) the previous secret keeps signing alongside the new one (a second v1); default 0: the new secret alone, at once.'},
    }),
    WebhookEndpointCreate: body({
      url: reqStr({maxLength: 2048, format: 'uri', pattern: '^https://', 'x-checked-by-use-case': ['format', 'pattern']}),
      enabled_events: required(
        useCase(
          {type: 'array', minItems: 1, maxItems: MAX_ENABLED_EVENTS, items: {type: 'string'}, description: 'Event types, prefixes ending in `.*`, or `*`; unknown types are rejected.'},
          'minItems',
        ),
      ),
      description: nullable(str({maxLength: 1000})),
      metadata,
    }),
    WebhookEndpointUpdate: body({
      url: useCase(str({maxLength: 2048, format: 'uri', pattern: '^https://'}), 'format', 'pattern'),
      enabled_events: useCase({type: 'array', minItems: 1, maxItems: MAX_ENABLED_EVENTS, items: {type: 'string'}}, 'minItems'),
      description: nullable(str({maxLength: 1000})),
      metadata,
      disabled: {type: 'boolean'},
    }),
    EventResend: body({
      endpoint: idRef('wh', 'Webhook endpoint'),
      all: {type: 'boolean', description: 'Without endpoint: also to the endpoints that already received the event (default false: only those that have not).'},
    }),
  }),
  lists: ['Event', 'WebhookEndpoint', 'WebhookDelivery'],
  operations: [
    {id: 'listEvents', perm: 'events:read', method: 'get', path: '/events', tag: 'Events', summary: 'List events', list: true,
      query: [typeFilter, q('object', {type: 'string', minLength: 1, maxLength: 255}, "Only one object's story: for a payment, its own events and its refunds' and disputes'; for a refund or dispute, its own; for anything else, the events about it."), ...createdRange],
      description: 'The immutable event log of the last 30 days (engine clock); events are served as the exact bytes webhooks deliver.', response: 'EventList', responseDescription: 'A page of events, newest first.'},
    {id: 'streamEvents', perm: 'events:read', method: 'get', path: '/events/stream', tag: 'Events', summary: 'Stream events (Server-Sent Events)',
      description: 'New events as Server-Sent Events (`id:`, `event:` = the type, `data:` = the event JSON), a heartbeat comment every 15 s. With `Last-Event-ID` (header or query) it first replays what followed that event; an unknown one is 400 so the client backfills with GET /events instead. An account holds at most 20 streams open on an instance (this one and GET /request_logs/stream together; gw serve --max-event-streams): 429 beyond, with Retry-After.',
      query: [typeFilter, q('last_event_id', {type: 'string', pattern: '^evt_[0-9A-Za-z]+$', 'x-checked-by-use-case': ['pattern']}, 'Resume after this event (same as the Last-Event-ID header); an unknown event is 400 so the client backfills with GET /events.')],
      headers: [{name: 'Last-Event-ID', schema: {type: 'string', pattern: '^evt_[0-9A-Za-z]+$'}, description: 'Resume after this event.'}],
      response: {'text/event-stream': {schema: {type: 'string', description: 'An SSE stream: `id: evt_...`, `event: <type>`, `data: <event JSON>`.'}}}, responseDescription: 'The event stream; stays open.'},
    {id: 'retrieveEvent', perm: 'events:read', method: 'get', path: '/events/{id}', tag: 'Events', summary: 'Retrieve an event', response: 'Event', responseDescription: 'The event, as delivered to webhooks.', errors: [404]},
    {id: 'listEventDeliveries', perm: 'webhooks:read', method: 'get', path: '/events/{id}/deliveries', tag: 'Webhooks', summary: "List an event's webhook deliveries", list: true,
      query: [q('status', en(DELIVERY_STATUSES), 'Only deliveries in this status.'), q('endpoint', idQ('wh'), 'Only deliveries to this endpoint.')], response: 'WebhookDeliveryList', responseDescription: 'A page of deliveries.', errors: [404]},
    {id: 'resendEvent', perm: ['webhooks:write', 'events:read'], method: 'post', path: '/events/{id}/resend', tag: 'Webhooks', summary: 'Resend an event to webhook endpoints', body: 'EventResend',
      description: 'New deliveries of the same event bytes with a fresh 72 h retry window: to `endpoint`; else to every enabled subscribed endpoint that has not received it (a 2xx to an earlier delivery), or to all of them with `all: true` (none subscribed → 400 no_webhook_endpoints; all received it → 400 event_already_delivered). A disabled endpoint is 400 webhook_endpoint_disabled.',
      response: 'WebhookDeliveryList', responseDescription: 'The new deliveries (has_more is false).', errors: [404]},
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
  ],
}
