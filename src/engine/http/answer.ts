// How the engine answers a request: JSON with its Request-Id and the account's engine time
// (send, sendError), the advice of an answer that asks for a retry (retryAdvice), and the request
// id an idempotency record's stored error names (storedRequestId).
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {ApiError} from './errors.js'
import {ENGINE_TIME_HEADER} from '../../api/engine-time.js'

/** The Content-Type of every JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * An answer's Gw-Engine-Time, kept on the response until its head is written: a `setHeader` before
 * `writeHead` sends Node down its header-merging path on every answer (docs/decisions.md#background-work-under-load: about 4 % of a
 * payment's CPU with the stamp itself). Answers that write their head themselves (streams) set it.
 */
const ENGINE_TIME = Symbol('Gw-Engine-Time')

type Stamped = ServerResponse & {[ENGINE_TIME]?: string}

/** Keeps the answer's engine time for its head (see ENGINE_TIME). */
export function keepEngineTime(res: ServerResponse, at: string): void {
  ;(res as Stamped)[ENGINE_TIME] = at
}

/** The engine time kept for this answer, as the header to write with its head (undefined before the key is known). */
export const engineTimeOf = (res: ServerResponse): Record<string, string> | undefined => {
  const t = (res as Stamped)[ENGINE_TIME]
  return t === undefined ? undefined : {[ENGINE_TIME_HEADER]: t}
}

export function send(res: ServerResponse, status: number, requestId: string, body: string, headers?: Record<string, string>) {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, {
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'Request-Id': requestId,
    'X-Content-Type-Options': 'nosniff',
    ...engineTimeOf(res),
    ...headers,
  })
  res.end(body)
}

export function sendError(res: ServerResponse, requestId: string, e: ApiError) {
  send(res, e.status, requestId, JSON.stringify(e.body(requestId)), e.extra.headers)
}

/**
 * How to retry a request refused before it ran, fitted to it: a POST with an
 * Idempotency-Key retries with the same key; a POST without one is told to send one (the same on
 * each retry), since "the same Idempotency-Key" means nothing to it and a retry of a POST without
 * a key could run it twice; GET and DELETE are safe to repeat as they are.
 */
export function retryAdvice(req: Pick<IncomingMessage, 'method' | 'headers'>, afterSeconds?: number): string {
  const retry = afterSeconds === undefined ? 'Retry' : `Retry after ${afterSeconds}s`
  if (req.method !== 'POST') return `${retry}.`
  const key = req.headers['idempotency-key']
  if (typeof key === 'string' && key !== '') return `${retry} with the same Idempotency-Key.`
  return `${retry}, and send an Idempotency-Key header with this POST (the same one on every retry): without one a retry may run the request twice.`
}

/** error.request_id of a stored error body, if it has one. */
export function storedRequestId(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as {error?: {request_id?: unknown}}).error?.request_id
    return typeof id === 'string' && id.startsWith('req_') ? id : undefined
  } catch {
    return undefined
  }
}
