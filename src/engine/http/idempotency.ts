// An idempotent POST (docs/api.md#idempotency, docs/decisions.md#idempotency), the pipeline's last step: the key is claimed
// in the unit of work that runs the request, and its record (the answer, or the 4xx) commits with
// the request's effects; a retry with the key gets the recorded answer byte for byte, a key in
// flight or reused for another request a 409.
import {VersionConflictError, type IdempotencyRecord} from '../ports/store.js'
import type {Unit} from '../core/unit.js'
import {iso} from '../domain/time.js'
import {invalid} from '../domain/errors.js'
import {ApiError, toApiError} from './errors.js'
import type {Flight} from './pipeline.js'
import type {RequestCtx, Route} from './router.js'
import {checkInput} from './request.js'
import {send, storedRequestId} from './answer.js'

export const IDEMPOTENCY_KEY_MAX = 255
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000

/** What an idempotent write came to: a response to send, or the reason it was not run. */
export type Idempotent =
  | {kind: 'respond'; status: number; body: string; headers?: Record<string, string>}
  | {kind: 'replay'; record: IdempotencyRecord}
  | {kind: 'in_flight' | 'mismatch'}

/** The request's Idempotency-Key, 1 to 255 characters. */
export function checkedIdempotencyKey(ctx: RequestCtx): string {
  const idemKey = ctx.idempotencyKey!
  if (idemKey.length === 0 || idemKey.length > IDEMPOTENCY_KEY_MAX)
    throw invalid('Idempotency-Key', `The Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX} characters; got ${idemKey.length}.`)
  return idemKey
}

/** The unit of work of an idempotent POST: claim the key, run the route (unless the key has a record or is in flight), record its answer. */
export async function idempotentUnit(ctx: RequestCtx, route: Route, u: Unit, scope: 'live' | 'test', idemKey: string, hash: string): Promise<Idempotent> {
  const {requestId} = ctx
  // deferred where the store can: it checks for a live record when this unit commits (a
  // found one fails the commit and core.run runs the unit again, with a claim that looks)
  // (not deferred for a body read in parts: a snapshot's commit replaces the rows its lookup would be made in)
  const claim = await u.claimIdempotency(scope, idemKey, {defer: !route.rawBody})
  if (claim.state === 'in_flight') return {kind: 'in_flight'}
  if (claim.state === 'recorded') return recorded(claim.record, hash)
  let status: number
  let text: string
  let headers: Record<string, string> | undefined
  // what the record keeps, when it is not the answer (a secret shown once, redacted)
  let kept: string | undefined
  try {
    checkInput(ctx, route)
    const result = await route.handler(ctx, u)
    if (result.error) [status, text, headers] = [result.error.status, JSON.stringify(result.error.body(requestId)), result.error.extra.headers]
    else [status, text, headers] = [result.status, result.text?.body ?? (result.body === undefined ? '{}' : u.publicJson(result.body as object)), result.headers]
    if (!result.error && result.recorded !== undefined) kept = u.publicJson(result.recorded as object)
  } catch (e) {
    const ae = toApiError(e)
    // 5xx, 409 and 429 are not recorded: a retry with the key runs again (unless the key
    // has a live record the claim did not look for: then that is the answer)
    if (!ae || ae.status >= 500 || ae.status === 409 || ae.status === 429) {
      const record = e instanceof VersionConflictError ? undefined : await claim.deferred?.lookup()
      if (!record) throw e
      u.discard()
      return recorded(record, hash)
    }
    // a 4xx is recorded and replayed identically (a 4xx is the same on every retry: docs/api.md#errors); the request's own changes are dropped
    u.discard()
    ;[status, text, headers] = [ae.status, JSON.stringify(ae.body(requestId)), ae.extra.headers]
  }
  const now = u.now
  // a created object's response is usually the data.object of the last event the request emitted: the store may keep a reference
  const bodyOfEvent = status < 300 ? u.eventsEmitted.at(-1)?.id : undefined
  const record: IdempotencyRecord = {scope, key: idemKey, request_hash: hash, status, body: kept ?? text, created_at: iso(now), expires_at: iso(new Date(now.getTime() + IDEMPOTENCY_WINDOW_MS))}
  if (bodyOfEvent) record.body_of_event = bodyOfEvent
  u.idempotency(record)
  return {kind: 'respond', status, body: text, headers}
}

/** A record found for the key: its answer if the request is the same, else a mismatch. */
function recorded(record: IdempotencyRecord, hash: string): Idempotent {
  return record.request_hash === hash ? {kind: 'replay', record} : {kind: 'mismatch'}
}

/** What the unit came to, answered: the response, the recorded one replayed, or a 409. */
export function answerIdempotent(f: Flight, out: Idempotent): void {
  const {res, requestId} = f
  switch (out.kind) {
    case 'in_flight':
      throw new ApiError(409, 'idempotency_error', 'idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed. Retry once it has finished.')
    case 'mismatch':
      throw new ApiError(
        409,
        'idempotency_error',
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request (method, path or body). Use a new key for a new request.',
      )
    case 'replay': {
      // the original response, byte for byte (but a secret it showed once, which the record
      // keeps redacted); a replayed error keeps the Request-Id its body names, so header and
      // error.request_id agree (docs/decisions.md#wire-details)
      const r = out.record
      if (f.logged) f.logged.replayed = true
      return send(res, r.status, r.status >= 400 ? (storedRequestId(r.body) ?? requestId) : requestId, r.body, {'Idempotent-Replayed': 'true'})
    }
    case 'respond':
      return send(res, out.status, requestId, out.body, out.headers)
  }
}
