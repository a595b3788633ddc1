// Webhook endpoints (create, list, update, delete, rotate the secret), their deliveries, and
// resending an event. The outbox is core/webhook-outbox.ts; attempts are core/delivery-worker.ts.
import {randomBytes} from 'node:crypto'
import {badState, DomainError, invalid, notFound} from '../domain/errors.js'
import {listPage, type PageQuery} from '../core/lists.js'
import {checkEndpointUrl, normaliseEnabledEvents, RETRY_WINDOW_MS, subscribes} from '../domain/webhooks.js'
import type {Filter, ListPage, LoggedEvent} from '../ports/store.js'
import type {Core} from '../core/core.js'
import type {DestinationPolicy} from '../domain/destinations.js'
import {EVENT_RETENTION_MS} from './events.js'
import {INTERNAL} from '../core/internal.js'
import type {Unit} from '../core/unit.js'
import {newDelivery} from '../core/webhook-outbox.js'
import {DELIVERY_STATUSES, endpointView, type DeliveryRecord, type EndpointRecord, type WebhookEndpoint} from '../core/webhook-types.js'
import type {Body} from '../../api/types.js'

export type {DeliveryRecord, EndpointRecord, WebhookEndpoint} from '../core/webhook-types.js'

/** Endpoints per mode; bounds the fan-out of every event. */
export const MAX_ENDPOINTS = 16


/** A new signing secret (shown once; stored sealed with the engine's secrets key). */
export const newEndpointSecret = () => `whsec_${randomBytes(32).toString('base64url')}`


function parseEvents(list: string[]): string[] {
  const r = normaliseEnabledEvents(list)
  if ('error' in r) throw invalid(r.index >= 0 ? `enabled_events[${r.index}]` : 'enabled_events', r.error)
  return r.events
}

function parseUrl(url: string, policy: DestinationPolicy): string {
  const err = checkEndpointUrl(url)
  if (err) throw invalid('url', err)
  // an address the engine never sends to (link-local, cloud metadata, outside --webhook-allow); a host name is checked when resolved
  const refused = policy.urlRefusal(new URL(url))
  if (refused) throw invalid('url', `url: ${refused}. Use an address your receiver listens on.`)
  return url
}

async function loadEndpoint(core: Core, u: Pick<Unit, 'get'>, id: string, param = 'id') {
  const got = id.startsWith('wh_') ? await u.get<EndpointRecord>('webhook_endpoint', id) : undefined
  if (!got || got.obj.livemode !== core.livemode) throw notFound('webhook endpoint', id, param)
  return got
}

/** POST /webhook_endpoints/{id}: the body as the document defines it (creation's is the same with url and enabled_events required). */
export type EndpointFields = Body<'updateWebhookEndpoint'>

/**
 * Called with an endpoint's events when it is created or pointed elsewhere (its URL or events
 * changed): throws when the caller may not receive those payloads (the route checks the key).
 */
export type MayReceive = (enabledEvents: readonly string[]) => void

export async function createEndpoint(u: Unit, b: EndpointFields & {url: string; enabled_events: string[]}, mayReceive?: MayReceive): Promise<WebhookEndpoint & {secret?: string}> {
  const url = parseUrl(b.url, u.core.destinations)
  const enabled_events = parseEvents(b.enabled_events)
  mayReceive?.(enabled_events)
  // one endpoint created at a time per mode, so the limit holds under concurrent creates
  await u.lock(`webhook_endpoints:${u.livemode ? 'live' : 'test'}`)
  const count = (await u.all<EndpointRecord, 'webhook_endpoint'>('webhook_endpoint')).filter((e) => e.livemode === u.livemode).length
  if (count >= MAX_ENDPOINTS) throw badState('webhook_endpoint_limit', `An account can have at most ${MAX_ENDPOINTS} webhook endpoints per mode; delete one first.`)
  const secret = newEndpointSecret()
  const ep: EndpointRecord = {
    id: u.core.ids.next('wh'),
    object: 'webhook_endpoint',
    url,
    enabled_events,
    description: b.description ?? null,
    metadata: b.metadata ?? {},
    status: 'enabled',
    disabled: false,
    disabled_reason: null,
    failing_since: null,
    previous_secret_expires_at: null,
    livemode: u.livemode,
    created_at: u.now.toISOString(),
    [INTERNAL]: {secret: u.core.secrets.seal(secret), streak_started_at: null, last_failure_at: null},
  }
  u.put('webhook_endpoint', ep)
  return endpointView(ep, secret)
}

export async function listEndpoints(core: Core, q: PageQuery<'listWebhookEndpoints'>): Promise<ListPage<WebhookEndpoint>> {
  const filters: Filter<'webhook_endpoint'>[] = q.disabled !== undefined ? [{field: 'disabled', op: 'eq', value: q.disabled}] : []
  const page = await listPage<EndpointRecord, 'webhook_endpoint'>(core, 'webhook_endpoint', q, filters, 'webhook endpoint')
  return {...page, data: page.data.map((e) => endpointView(e))}
}

export async function retrieveEndpoint(core: Core, id: string): Promise<WebhookEndpoint> {
  return endpointView((await loadEndpoint(core, core.store, id)).obj)
}

export async function updateEndpoint(u: Unit, id: string, b: EndpointFields, mayReceive?: MayReceive): Promise<WebhookEndpoint> {
  const url = b.url === undefined ? undefined : parseUrl(b.url, u.core.destinations)
  const events = b.enabled_events === undefined ? undefined : parseEvents(b.enabled_events)
  await u.lock(id)
  const {obj, version} = await loadEndpoint(u.core, u, id)
  // pointed elsewhere (another receiver, other payloads): the caller must be one who may read what it will receive
  if ((url !== undefined && url !== obj.url) || events !== undefined) mayReceive?.(events ?? obj.enabled_events)
  const ep: EndpointRecord = {...obj, _x: {...obj._x}}
  if (url !== undefined && url !== ep.url) {
    ep.url = url
    // a new URL is a new receiver: its health starts afresh
    if (!ep.disabled) Object.assign(ep, {status: 'enabled', failing_since: null})
    ep._x.streak_started_at = null
    ep._x.last_failure_at = null
  }
  if (events !== undefined) ep.enabled_events = events
  if (b.description !== undefined) ep.description = b.description
  if (b.metadata !== undefined) ep.metadata = {...ep.metadata, ...b.metadata}
  if (b.disabled === true && !ep.disabled) Object.assign(ep, {disabled: true, disabled_reason: 'requested', status: 'disabled'})
  else if (b.disabled === false && ep.disabled) {
    // re-enabling starts the endpoint's health afresh
    Object.assign(ep, {disabled: false, disabled_reason: null, status: 'enabled', failing_since: null})
    ep._x.streak_started_at = null
    ep._x.last_failure_at = null
  }
  u.put('webhook_endpoint', ep, version)
  return endpointView(ep)
}

export async function deleteEndpoint(u: Unit, id: string): Promise<{id: string; object: 'webhook_endpoint'; deleted: true}> {
  await u.lock(id)
  const {obj} = await loadEndpoint(u.core, u, id)
  u.delete('webhook_endpoint', obj.id)
  return {id: obj.id, object: 'webhook_endpoint', deleted: true}
}

export const MAX_ROTATION_OVERLAP_S = 7 * 86_400

/**
 * A new signing secret. Without `expires_in` (or 0) it replaces the old one at once: one v1 per
 * header, as docs/api.md#webhook-signatures shows it (a receiver that splits the header into a map keeps the
 * last v1, so a default overlap made the one redeployed with the new secret fail for a day). With
 * `expires_in` seconds (engine clock) every delivery carries a v1 for the new secret and one for
 * the previous, so a receiver still verifying with the old secret keeps working until it is
 * redeployed with the new one.
 */
export async function rotateSecret(u: Unit, id: string, b: {expires_in?: number} = {}): Promise<WebhookEndpoint & {secret?: string}> {
  const overlap = b.expires_in ?? 0
  if (!Number.isInteger(overlap) || overlap < 0 || overlap > MAX_ROTATION_OVERLAP_S)
    throw invalid('expires_in', `expires_in is whole seconds from 0 (switch at once) to ${MAX_ROTATION_OVERLAP_S} (7 days); got ${String(b.expires_in)}.`)
  await u.lock(id)
  const {obj, version} = await loadEndpoint(u.core, u, id)
  const expires = overlap > 0 ? new Date(u.now.getTime() + overlap * 1000).toISOString() : null
  const secret = newEndpointSecret()
  const ep: EndpointRecord = {...obj, previous_secret_expires_at: expires, _x: {...obj._x, secret: u.core.secrets.seal(secret), previous_secret: expires ? u.core.secrets.sealed(obj._x.secret) : null}}
  u.put('webhook_endpoint', ep, version)
  return endpointView(ep, secret)
}

// ---------------------------------------------------------------- deliveries

async function listDeliveries(core: Core, q: PageQuery<'listWebhookEndpointDeliveries' | 'listEventDeliveries'>, filters: Filter<'delivery'>[]): Promise<ListPage<DeliveryRecord>> {
  if (q.status !== undefined) {
    if (!(DELIVERY_STATUSES as readonly string[]).includes(q.status)) throw invalid('status', `status must be one of ${DELIVERY_STATUSES.join(', ')}; got '${q.status}'.`)
    filters.push({field: 'status', op: 'eq', value: q.status})
  }
  return listPage<DeliveryRecord, 'delivery'>(core, 'delivery', q, filters, 'webhook delivery')
}

export async function listEndpointDeliveries(core: Core, id: string, q: PageQuery<'listWebhookEndpointDeliveries'>): Promise<ListPage<DeliveryRecord>> {
  const {obj} = await loadEndpoint(core, core.store, id)
  return listDeliveries(core, q, [{field: 'endpoint', op: 'eq', value: obj.id}])
}

/** An event still within the retention window, or 404. */
export async function loadEvent(core: Core, id: string): Promise<LoggedEvent> {
  const e = id.startsWith('evt_') ? await core.store.getEvent(id) : undefined
  const floor = new Date(core.clock.now().getTime() - EVENT_RETENTION_MS).toISOString()
  if (!e || e.created_at < floor) throw notFound('event', id)
  return e
}

export async function listEventDeliveries(core: Core, id: string, q: PageQuery<'listEventDeliveries'>): Promise<ListPage<DeliveryRecord>> {
  const e = await loadEvent(core, id)
  const filters: Filter<'delivery'>[] = [{field: 'event', op: 'eq', value: e.id}]
  if (q.endpoint !== undefined) filters.push({field: 'endpoint', op: 'eq', value: q.endpoint})
  return listDeliveries(core, q, filters)
}

export async function retrieveDelivery(core: Core, id: string): Promise<DeliveryRecord> {
  const got = id.startsWith('whd_') ? await core.store.get<DeliveryRecord>('delivery', id) : undefined
  if (!got || got.obj.livemode !== core.livemode) throw notFound('webhook delivery', id)
  return got.obj
}

/**
 * POST /events/{id}/resend {endpoint?}: new deliveries of the same event bytes, each with a
 * fresh 72-hour retry window. Without `endpoint`: every enabled endpoint subscribed to the
 * event's type. With it: that endpoint, subscribed or not (an explicit request), if enabled.
 */
export async function resendEvent(u: Unit, id: string, b: {endpoint?: string; all?: boolean}): Promise<DeliveryRecord[]> {
  const e = await loadEvent(u.core, id)
  let targets: EndpointRecord[]
  if (b.endpoint !== undefined) {
    const {obj} = await loadEndpoint(u.core, u, b.endpoint, 'endpoint')
    if (obj.disabled)
      throw new DomainError('invalid_request', 'webhook_endpoint_disabled', `Webhook endpoint ${obj.id} is disabled; enable it (update it with disabled: false) before resending.`, {param: 'endpoint'})
    targets = [obj]
  } else {
    targets = (await u.core.endpoints.get()).filter((ep) => !ep.disabled && ep.livemode === u.livemode && subscribes(ep.enabled_events, e.type))
    if (targets.length === 0) throw badState('no_webhook_endpoints', `No enabled webhook endpoint subscribes to ${e.type}; name one with endpoint to resend to it.`)
    if (b.all !== true) {
      // only where it has not arrived: an endpoint that answered 2xx to a delivery of this event has it
      const received = new Set((await u.all<DeliveryRecord, 'delivery'>('delivery', [{field: 'event', op: 'eq', value: e.id}, {field: 'status', op: 'eq', value: 'succeeded'}])).map((d) => d.endpoint))
      const missing = targets.filter((ep) => !received.has(ep.id))
      if (missing.length === 0)
        throw badState('event_already_delivered', `Every enabled endpoint subscribed to ${e.type} has received ${e.id} (${targets.map((t) => t.id).join(', ')}); send all: true to deliver it to them again, or name one with endpoint.`)
      targets = missing
    }
  }
  const deliveries = targets.map((ep) => newDelivery(u.core, e, ep, u.now, new Date(u.now.getTime() + RETRY_WINDOW_MS)))
  for (const d of deliveries) u.put('delivery', d)
  return deliveries
}

export {endpointView}
