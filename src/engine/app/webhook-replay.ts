// Recovery after an outage (docs/decisions.md#recovery-after-an-outage): every event an endpoint missed since a time, sent to it
// again in one unit of work — deliveries still retrying are made due now, deliveries that gave
// up get a new delivery with a fresh retry window; events the endpoint has received are skipped.
import {badState, DomainError, invalid, notFound} from '../domain/errors.js'
import {RETRY_WINDOW_MS} from '../domain/webhooks.js'
import {iso} from '../domain/time.js'
import type {WebhookReplay} from '../../api/types.js'
import type {Unit} from '../core/unit.js'
import {newDelivery} from '../core/webhook-outbox.js'
import type {DeliveryRecord, EndpointRecord} from '../core/webhook-types.js'

/** A replay touches at most this many deliveries (one transaction): more is a narrower `since` or a second call. */
export const MAX_REPLAY = 10_000
const REPLAYABLE = ['pending', 'failed_retrying', 'undeliverable'] as const

export async function replayEndpoint(u: Unit, id: string, b: {since?: string; within?: number; status?: string[]}): Promise<WebhookReplay> {
  const since = sinceOf(u.now, b)
  const statuses = b.status ?? ['failed_retrying', 'undeliverable']
  for (const [i, s] of statuses.entries())
    if (!(REPLAYABLE as readonly string[]).includes(s)) throw invalid(`status[${i}]`, `status takes ${REPLAYABLE.join(', ')} (the deliveries to send again); got '${s}'.`)
  await u.lock(id)
  const got = id.startsWith('wh_') ? await u.get<EndpointRecord>('webhook_endpoint', id) : undefined
  if (!got || got.obj.livemode !== u.livemode) throw notFound('webhook endpoint', id)
  const ep = got.obj
  if (ep.disabled)
    throw new DomainError('invalid_request', 'webhook_endpoint_disabled', `Webhook endpoint ${ep.id} is disabled; enable it (update it with disabled: false) before replaying to it.`, {param: 'id'})

  const sinceIso = iso(since)
  const matching = await u.all<DeliveryRecord, 'delivery'>('delivery', [
    {field: 'endpoint', op: 'eq', value: ep.id},
    {field: 'created_at', op: 'gte', value: sinceIso},
    {field: 'status', op: 'in', value: statuses},
  ])
  if (matching.length > MAX_REPLAY) throw badState('replay_too_large', `${matching.length} deliveries of ${ep.id} match; a replay sends at most ${MAX_REPLAY}. Give a later since, or replay in parts.`)
  const received = new Set(
    (await u.all<DeliveryRecord, 'delivery'>('delivery', [
      {field: 'endpoint', op: 'eq', value: ep.id},
      {field: 'created_at', op: 'gte', value: sinceIso},
      {field: 'status', op: 'eq', value: 'succeeded'},
    ])).map((d) => d.event),
  )
  // the newest delivery of each event (a resend makes several), in the order the events came
  const latest = new Map<string, DeliveryRecord>()
  for (const d of matching) {
    const prev = latest.get(d.event)
    if (!prev || d.created_at >= prev.created_at) latest.set(d.event, d)
  }
  const out: WebhookReplay = {object: 'webhook_replay', endpoint: ep.id, since: sinceIso, queued: 0, rescheduled: 0, skipped: {already_received: 0, event_expired: 0}}
  const retryUntil = new Date(u.now.getTime() + RETRY_WINDOW_MS)
  for (const d of latest.values()) {
    if (received.has(d.event)) {
      out.skipped.already_received++
      continue
    }
    if (d.status === 'pending' || d.status === 'failed_retrying') {
      const cur = await u.get<DeliveryRecord>('delivery', d.id)
      if (!cur || (cur.obj.status !== 'pending' && cur.obj.status !== 'failed_retrying')) continue
      u.put('delivery', {...cur.obj, next_attempt_at: iso(u.now)}, cur.version)
      out.rescheduled++
      continue
    }
    const e = await u.core.store.getEvent(d.event)
    if (!e) {
      out.skipped.event_expired++
      continue
    }
    u.put('delivery', newDelivery(u.core, {id: e.id, type: e.type}, ep, u.now, retryUntil))
    out.queued++
  }
  return out
}

function sinceOf(now: Date, b: {since?: string; within?: number}): Date {
  if ((b.since === undefined) === (b.within === undefined)) throw invalid('since', 'Give since (a date-time) or within (seconds back from now on the engine clock), one of them: e.g. {"within": 172800} for the last two days.')
  if (b.within !== undefined) {
    if (!Number.isInteger(b.within) || b.within < 1) throw invalid('within', `within is whole seconds, at least 1; got ${String(b.within)}.`)
    return new Date(now.getTime() - b.within * 1000)
  }
  const t = Date.parse(b.since!)
  if (!Number.isFinite(t)) throw invalid('since', `since must be a date-time such as 2026-11-20T00:00:00Z; got '${b.since}'.`)
  return new Date(t)
}
