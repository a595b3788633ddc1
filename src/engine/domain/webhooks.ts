// Webhook rules that do not need I/O: which event types exist, which endpoint subscribes to
// what, when the next delivery attempt is due, and how an endpoint's health evolves.

import {EVENT_TYPES} from '../../api/event-types.js'
import type {Permission} from './keys.js'

/** Event types of docs/api.md#event-types plus the engine's additive ones. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = EVENT_TYPES

/**
 * Validates and normalises `enabled_events`: each entry is `*`, a known event type, or a
 * prefix ending in `.*` that covers at least one known type (`payment.*`, `provider.health.*`).
 * `*` absorbs everything else. Returns an error message naming the bad entry instead of throwing.
 */
export function normaliseEnabledEvents(input: readonly string[]): {events: string[]} | {error: string; index: number} {
  if (input.length === 0) return {error: 'enabled_events must list at least one event type, or `*` for all of them.', index: -1}
  const out: string[] = []
  for (const [i, raw] of input.entries()) {
    const t = raw.trim()
    if (t === '*') return {events: ['*']}
    if (t.endsWith('.*')) {
      const prefix = t.slice(0, -1)
      if (!/^[a-z_]+(\.[a-z_]+)*\.$/.test(prefix) || !WEBHOOK_EVENT_TYPES.some((k) => k.startsWith(prefix)))
        return {error: `enabled_events[${i}]: '${raw}' matches no event type. Use \`*\`, an event type such as payment.succeeded, or a prefix such as payment.*.`, index: i}
    } else if (!WEBHOOK_EVENT_TYPES.includes(t)) {
      const family = t.split('.')[0]
      const near = WEBHOOK_EVENT_TYPES.filter((k) => k.startsWith(`${family}.`))
      return {
        error: `enabled_events[${i}]: unknown event type '${raw}'.${near.length ? ` Types of ${family}: ${near.join(', ')}.` : ` Known types: ${WEBHOOK_EVENT_TYPES.join(', ')}.`} Use \`*\` for every type.`,
        index: i,
      }
    }
    if (!out.includes(t)) out.push(t)
  }
  return {events: out}
}

/**
 * What reading an event's payload needs, by the family of its type (the part before the first
 * dot): the read permission of the object it carries — what `GET` of that object needs.
 */
const EVENT_OBJECT_READ: Readonly<Record<string, Permission>> = {
  payment: 'payments:read',
  checkout: 'payments:read',
  refund: 'refunds:read',
  dispute: 'disputes:read',
  merchant: 'merchants:read',
  settlement: 'settlement:read',
  provider: 'routing:read',
  webhook_endpoint: 'webhooks:read',
}

/**
 * The permissions a key needs to subscribe an endpoint to `enabled_events` (normalised): the read
 * permission of each subscribed type's object, or `events:read` for `*` (every payload, types
 * added later too) and for a family without its own; in the order first needed, each once. A key
 * with `events:read` reads every payload already (GET /events) and so may subscribe to anything
 * (docs/api.md#what-a-key-reaches).
 */
export function eventReadPermissions(enabled: readonly string[]): Permission[] {
  const out: Permission[] = []
  for (const e of enabled) {
    const need = e === '*' ? 'events:read' : (EVENT_OBJECT_READ[e.split('.')[0]!] ?? 'events:read')
    if (!out.includes(need)) out.push(need)
  }
  return out
}

/** Whether an endpoint with these `enabled_events` receives an event of `type`. `*` includes types added later. */
export function subscribes(enabled: readonly string[], type: string): boolean {
  for (const e of enabled) {
    if (e === '*' || e === type) return true
    if (e.endsWith('.*') && type.startsWith(e.slice(0, -1))) return true
  }
  return false
}

// ---------------------------------------------------------------- retries

/** Delay before retry n (n = number of attempts made so far, from 1): ~1 min, 5 min, 30 min, 2 h, 6 h, 12 h, then every 12 h. */
export const RETRY_DELAYS_S: readonly number[] = [60, 300, 1800, 7200, 21_600, 43_200]
export const RETRY_WINDOW_MS = 72 * 3_600_000
/** A receiver must answer with a 2xx within this time (docs/api.md#limits). */
export const DELIVERY_TIMEOUT_MS = 10_000

export function retryDelayS(attemptsMade: number): number {
  return RETRY_DELAYS_S[Math.min(Math.max(attemptsMade, 1), RETRY_DELAYS_S.length) - 1]!
}

/**
 * When the next attempt is due after a failed one at `lastAt`, or null when the retry window
 * (ending at `retryUntil`) is over. The last retry is pulled in to the window's end, so a
 * delivery gets a final attempt at 72 h before it becomes undeliverable.
 */
export function nextAttemptAt(attemptsMade: number, lastAt: Date, retryUntil: Date): Date | null {
  if (lastAt.getTime() >= retryUntil.getTime()) return null
  const due = lastAt.getTime() + retryDelayS(attemptsMade) * 1000
  return new Date(Math.min(due, retryUntil.getTime()))
}

// ---------------------------------------------------------------- endpoint health

/** No successful delivery for this long (while attempts keep failing): `status: failing`. */
export const FAILING_AFTER_MS = 3 * 86_400_000
/** ... and for this long: the endpoint is disabled (`disabled_reason: failing`). */
export const DISABLE_AFTER_MS = 5 * 86_400_000
/** A pause without any attempt longer than this ends a failure streak (it was not "consistent"). */
export const STREAK_GAP_MS = 24 * 3_600_000
/** last_failure_at is persisted at this resolution, so a failing endpoint is not rewritten on every attempt. */
const LAST_FAILURE_RESOLUTION_MS = 3_600_000

export interface EndpointHealth {
  status: 'enabled' | 'failing' | 'disabled'
  disabled: boolean
  disabled_reason: 'requested' | 'failing' | null
  failing_since: string | null
  /** first failed attempt since the last success (internal) */
  streak_started_at: string | null
  /** latest failed attempt, at hour resolution (internal) */
  last_failure_at: string | null
}

const same = (a: EndpointHealth, b: EndpointHealth) =>
  a.status === b.status &&
  a.disabled === b.disabled &&
  a.disabled_reason === b.disabled_reason &&
  a.failing_since === b.failing_since &&
  a.streak_started_at === b.streak_started_at &&
  a.last_failure_at === b.last_failure_at

/** True when a failure at `at` comes after a pause long enough to end the endpoint's failure streak (if nothing was due meanwhile). */
export function looksLikePause(h: Pick<EndpointHealth, 'streak_started_at' | 'last_failure_at'>, at: Date): boolean {
  return h.streak_started_at !== null && h.last_failure_at !== null && at.getTime() - Date.parse(h.last_failure_at) > STREAK_GAP_MS
}

/**
 * The endpoint's health after an attempt at `at`. Returns undefined when nothing needs
 * writing. A disabled endpoint stays as it is (only the merchant re-enables it).
 * `attemptsDueBetween`: another delivery of the endpoint had an attempt due within the apparent
 * pause that is not recorded yet, so the pause was not real.
 */
export function nextHealth(h: EndpointHealth, ok: boolean, at: Date, opts: {attemptsDueBetween?: boolean} = {}): EndpointHealth | undefined {
  if (h.disabled) return undefined
  let n: EndpointHealth
  if (ok) {
    n = {status: 'enabled', disabled: false, disabled_reason: null, failing_since: null, streak_started_at: null, last_failure_at: null}
  } else {
    const t = at.getTime()
    // a pause longer than STREAK_GAP_MS ends the streak, unless it only looks like one: after a
    // clock jump, attempts of other deliveries due inside it may be recorded after this one
    const continues = h.streak_started_at !== null && h.last_failure_at !== null && (!looksLikePause(h, at) || opts.attemptsDueBetween === true)
    // attempts caught up after a clock advance are recorded in batches, not always in due order:
    // the streak starts at its earliest failure and its last failure is the latest
    const start = continues && Date.parse(h.streak_started_at!) <= t ? h.streak_started_at! : at.toISOString()
    const lastT = continues ? Date.parse(h.last_failure_at!) : -Infinity
    const last = continues && (t <= lastT || t - lastT < LAST_FAILURE_RESOLUTION_MS) ? h.last_failure_at! : at.toISOString()
    const elapsed = Math.max(t, lastT) - Date.parse(start)
    n = {status: 'enabled', disabled: false, disabled_reason: null, failing_since: null, streak_started_at: start, last_failure_at: last}
    if (elapsed >= DISABLE_AFTER_MS) n = {...n, status: 'disabled', disabled: true, disabled_reason: 'failing', failing_since: start}
    else if (elapsed >= FAILING_AFTER_MS) n = {...n, status: 'failing', failing_since: start}
  }
  return same(h, n) ? undefined : n
}

// ---------------------------------------------------------------- URLs

/** Hosts a test-mode engine delivers to without verifying the certificate (docs/decisions.md#webhook-endpoints). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4)
  return !!m && Number(m[1]) === 127 && m.slice(2).every((o) => Number(o) <= 255)
}

/** An error message when `url` cannot be a webhook endpoint, else undefined. */
export function checkEndpointUrl(url: string): string | undefined {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return `url must be an absolute HTTPS URL such as https://example.com/webhooks; got '${url}'.`
  }
  if (u.protocol !== 'https:')
    return `url must use HTTPS: webhooks are delivered over TLS only; got a ${u.protocol.replace(':', '')} URL. Use https://${u.host}${u.pathname}${u.search}.`
  if (!u.hostname) return `url must name a host; got '${url}'.`
  return undefined
}
