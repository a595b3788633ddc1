// The webhook outbox: one delivery per enabled endpoint subscribed to an event's type, written
// in the same transaction as the event. A delivery references the event (its bytes are the
// event's, read when the attempt is made); it is due at once.
import {shapeDeliveries} from './chaos-rules.js'
import {RETRY_WINDOW_MS, subscribes} from '../domain/webhooks.js'
import type {StoredEvent} from '../ports/store.js'
import type {Core} from './core.js'
import type {DeliveryRecord, EndpointRecord} from './webhook-types.js'
import {iso} from '../domain/time.js'

export function newDelivery(core: Core, e: {id: string; type: string}, ep: EndpointRecord, now: Date, retryUntil: Date): DeliveryRecord {
  return {
    id: core.ids.next('whd'),
    object: 'webhook_delivery',
    event: e.id,
    event_type: e.type,
    endpoint: ep.id,
    status: 'pending',
    attempts: [],
    next_attempt_at: iso(now),
    undeliverable_reason: null,
    livemode: ep.livemode,
    created_at: iso(now),
    _x: {retry_until: iso(retryUntil)},
  }
}

export async function outboxFor(core: Core, events: readonly StoredEvent[], now: Date): Promise<DeliveryRecord[]> {
  const endpoints = await core.endpoints.get()
  if (endpoints.length === 0) return []
  const out: DeliveryRecord[] = []
  for (const e of events) {
    for (const ep of endpoints) {
      if (ep.disabled || ep.livemode !== core.livemode || !subscribes(ep.enabled_events, e.type)) continue
      // an endpoint's health notice goes to the other endpoints, not to the one that is failing
      if (e.object_id === ep.id) continue
      out.push(newDelivery(core, e, ep, now, new Date(Date.parse(e.created_at) + RETRY_WINDOW_MS)))
    }
  }
  // the account's webhook faults (docs/decisions.md#failure-on-purpose), if any: duplicates, holds, failed first attempts
  return core.chaos.none ? out : shapeDeliveries(core, out, now)
}
