// The engine's view of webhook endpoints and deliveries: the wire types of src/api plus the
// internal state each keeps under `_x`.
import type {WebhookDelivery, WebhookEndpoint as ApiEndpoint} from '../../api/types.js'

export {DELIVERY_STATUSES, type DeliveryStatus, type WebhookDeliveryAttempt as DeliveryAttempt} from '../../api/types.js'

export type Delivery = WebhookDelivery
export type DeliveryRecord = Delivery & {
  _x: {
    retry_until: string
    /** a chaos rule's fail_first: this many attempts fail on purpose before one is sent */
    fail_first?: number
  }
}

/** An endpoint as the engine serves it: every field of the wire type present, the secret only on create and rotate. */
export type WebhookEndpoint = Required<Omit<ApiEndpoint, 'secret'>>
export type EndpointRecord = WebhookEndpoint & {
  _x: {
    /** sealed with the engine's secrets key (adapters/secret-box.ts); in the clear only in data stored before sealing, sealed at the next start */
    secret: string
    streak_started_at: string | null
    last_failure_at: string | null
    /** the secret before the last rotation (sealed likewise), still signing until previous_secret_expires_at */
    previous_secret?: string | null
  }
}

export const isTerminal = (s: Delivery['status']) => s === 'succeeded' || s === 'undeliverable'

/**
 * The endpoint as served, with its secret (in the clear: the store keeps it sealed) only where
 * the caller is entitled to see it: the answers of create and rotate.
 */
export function endpointView(ep: EndpointRecord, secret?: string): WebhookEndpoint & {secret?: string} {
  const {_x, ...stored} = ep
  // endpoints made before rotations had an overlap have no such field
  const pub = {...stored, previous_secret_expires_at: stored.previous_secret_expires_at ?? null}
  if (secret === undefined) return pub
  const {id, object, url, ...rest} = pub
  return {id, object, url, secret, ...rest}
}
