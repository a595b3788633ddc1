// The outcomes of webhook attempts as a unit of work writes them (delivery-worker.ts batches
// them per account): each delivery's attempt and next status, and its endpoint's health
// (docs/api.md#webhook-delivery), with the endpoint's event when it is flagged failing or disabled.
import {type DeliveryAttempt, type DeliveryRecord, type EndpointRecord, endpointView, isTerminal} from './webhook-types.js'
import {looksLikePause, nextAttemptAt, nextHealth, STREAK_GAP_MS, type EndpointHealth} from '../domain/webhooks.js'
import type {ClaimedDelivery} from '../ports/store.js'
import type {Core} from './core.js'
import type {Unit} from './unit.js'

/** What an attempt came to (or why none was made); `done` is called once it is recorded. */
export type Outcome = ({claim: ClaimedDelivery; attempt: DeliveryAttempt; ok: boolean} | {claim: ClaimedDelivery; stop: string}) & {done?: () => void}

/** An endpoint's outcomes in a unit: each delivery's attempt and status, then the endpoint's health once (and its event). */
export async function recordForEndpoint(u: Unit, core: Core, endpoint: string, batch: readonly Outcome[]): Promise<void> {
  const epGot = await u.get<EndpointRecord>('webhook_endpoint', endpoint)
  let ep = epGot?.obj
  for (const o of batch) {
    const got = await u.get<DeliveryRecord>('delivery', o.claim.id)
    if (!got || isTerminal(got.obj.status)) continue
    const d: DeliveryRecord = {...got.obj, attempts: got.obj.attempts.slice()}
    if ('stop' in o) {
      Object.assign(d, {status: 'undeliverable', undeliverable_reason: o.stop, next_attempt_at: null})
    } else {
      d.attempts.push(o.attempt)
      if (o.ok) Object.assign(d, {status: 'succeeded', next_attempt_at: null})
      else {
        // from the attempt's due time: the schedule does not drift with how soon the worker got to it
        const next = nextAttemptAt(d.attempts.length, new Date(o.attempt.at), new Date(d._x.retry_until))
        if (next) Object.assign(d, {status: 'failed_retrying', next_attempt_at: next.toISOString()})
        else Object.assign(d, {status: 'undeliverable', undeliverable_reason: 'retry_window_expired', next_attempt_at: null})
      }
      if (ep) {
        const at = new Date(o.attempt.at)
        // after a clock jump, a long pause may only look like one: attempts due inside it are recorded later
        const h = {streak_started_at: ep._x.streak_started_at, last_failure_at: ep._x.last_failure_at}
        const attemptsDueBetween = !o.ok && looksLikePause(h, at) && (await dueBetween(u, endpoint, new Date(Date.parse(h.last_failure_at!) + STREAK_GAP_MS)))
        ep = withHealth(ep, o.ok, at, core, attemptsDueBetween)
      }
    }
    u.put('delivery', d, got.version)
  }
  if (ep && epGot && ep !== epGot.obj) {
    u.put('webhook_endpoint', ep, epGot.version)
    // the merchant hears of it: an event of its own when the endpoint is flagged, and when it is disabled
    if (ep.status !== epGot.obj.status && (ep.status === 'failing' || ep.status === 'disabled')) u.emit(`webhook_endpoint.${ep.status}`, endpointView(ep))
  }
}

/** Whether a delivery of the endpoint still waits for an attempt that was due by `until` (one not recorded yet). */
async function dueBetween(u: Unit, endpoint: string, until: Date): Promise<boolean> {
  const waiting = await u.all<DeliveryRecord, 'delivery'>('delivery', [
    {field: 'endpoint', op: 'eq', value: endpoint},
    {field: 'status', op: 'in', value: ['pending', 'failed_retrying']},
    {field: 'next_attempt_at', op: 'lte', value: until.toISOString()},
  ])
  return waiting.length > 0
}

/** The endpoint after an attempt's outcome (docs/api.md#webhook-delivery); the same object when nothing changes. */
function withHealth(ep: EndpointRecord, ok: boolean, at: Date, core: Core, attemptsDueBetween = false): EndpointRecord {
  const cur: EndpointHealth = {
    status: ep.status,
    disabled: ep.disabled,
    disabled_reason: ep.disabled_reason,
    failing_since: ep.failing_since,
    streak_started_at: ep._x.streak_started_at,
    last_failure_at: ep._x.last_failure_at,
  }
  const n = nextHealth(cur, ok, at, {attemptsDueBetween})
  if (!n) return ep
  if (n.disabled) core.log(`webhooks: endpoint ${ep.id} disabled: no successful delivery since ${n.failing_since}`)
  const {streak_started_at, last_failure_at, ...pub} = n
  return {...ep, ...pub, _x: {...ep._x, streak_started_at, last_failure_at}}
}
