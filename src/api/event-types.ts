/** Event types the gateway emits: the contract's (docs/api.md#event-types) plus the additive `payment.canceled` and endpoint health notices (docs/api.md). Unknown types may appear within v1. */
export const KNOWN_EVENT_TYPES = [
  'payment.processing',
  'payment.requires_action',
  'payment.succeeded',
  'payment.failed',
  'payment.risk_review',
  'payment.canceled',
  'refund.succeeded',
  'refund.failed',
  'dispute.created',
  'dispute.updated',
  'dispute.closed',
  'merchant.updated',
  'settlement.report.ready',
  'provider.health.changed',
  'webhook_endpoint.failing',
  'webhook_endpoint.disabled',
  'checkout.session.completed',
  'checkout.session.expired',
] as const
/** A type of event the gateway emits today (more may appear within v1). */
export type EventType = (typeof KNOWN_EVENT_TYPES)[number]
export const EVENT_TYPES: readonly string[] = KNOWN_EVENT_TYPES

/** The most entries an endpoint's `enabled_events` may list: the OpenAPI document's WebhookEndpointCreate and WebhookEndpointUpdate are written with it. */
export const MAX_ENABLED_EVENTS = 100
