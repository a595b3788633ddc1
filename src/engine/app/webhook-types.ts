import type {EndpointHealth} from '../domain/webhooks.js'

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed_retrying' | 'undeliverable'
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed_retrying', 'undeliverable']

export interface DeliveryAttempt {
  at: string
  status_code: number | null
  /** null when a response arrived (status_code says how it went); otherwise timeout, connection_refused, dns_error, tls_error, connection_error */
  error: string | null
  error_message: string | null
  latency_ms: number
  response_excerpt: string | null
}

export interface Delivery {
  id: string
  object: 'webhook_delivery'
  event: string
  event_type: string
  endpoint: string
  status: DeliveryStatus
  attempts: DeliveryAttempt[]
  /** when the next attempt is due (the delivery queue's order); null once it succeeded or stopped */
  next_attempt_at: string | null
  /** why a delivery stopped without success: retry_window_expired, endpoint_disabled, endpoint_deleted, event_expired */
  undeliverable_reason: string | null
  livemode: boolean
  created_at: string
}

export type DeliveryRecord = Delivery & {_x: {retry_until: string}}

export interface WebhookEndpoint {
  id: string
  object: 'webhook_endpoint'
  url: string
  enabled_events: string[]
  description: string | null
  metadata: Record<string, string>
  status: EndpointHealth['status']
  disabled: boolean
  disabled_reason: EndpointHealth['disabled_reason']
  failing_since: string | null
  livemode: boolean
  created_at: string
}

export type EndpointRecord = WebhookEndpoint & {
  _x: {secret: string; streak_started_at: string | null; last_failure_at: string | null}
}

export const isTerminal = (s: DeliveryStatus) => s === 'succeeded' || s === 'undeliverable'
