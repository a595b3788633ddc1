// What the pipeline (pipeline.ts) reads and checks of one request, each a plain function: the
// request target, the key (bearer, sameSecret, authorize: the operation's permission; what a
// browser's publishable key may do), the body (readBody, its nesting, its canonical form and
// hash for the Idempotency-Key), chaos's injected faults, and how an answer is sent.
import * as crypto from 'node:crypto'
import type {IncomingMessage, ServerResponse} from 'node:http'
import {ApiError} from './errors.js'
import {ENGINE_TIME_HEADER} from '../../api/engine-time.js'
import {requestValidator} from './openapi-validate.js'
import type {RequestCtx, Route} from './router.js'
import {forbidden} from '../domain/errors.js'
import {allows, type KeyType, type Permission} from '../domain/keys.js'
import type {Caller} from '../app/keys.js'
import {OPERATION_PERMISSIONS, permissionName} from '../../api/openapi/document.js'
import {PLATFORM_ACCOUNT} from '../ports/store.js'
import {jsonString} from '../domain/json.js'

/** The client went away before its request was read (connection reset, body cut short). */
export class ClientAborted extends Error {
  constructor() {
    super('aborted by the client')
  }
}

export const MAX_BODY_BYTES = 1024 * 1024

// one-shot hashing, no Hash object per call (crypto.hash: node >= 20.12; @types/node does not declare it yet)
const oneShotHash = (crypto as unknown as {hash(algorithm: string, data: string, encoding: 'buffer' | 'hex'): Buffer | string}).hash
export const sha256Hex = (s: string): string => oneShotHash('sha256', s, 'hex') as string

/** A request's path and query. */
export interface RequestTarget {
  pathname: string
  searchParams: URLSearchParams
}

/** Targets a URL parser leaves as they are: /-separated segments of letters, digits, _ and -, then a query of printable ASCII without a fragment. */
const PLAIN_TARGET = /^(?:\/[A-Za-z0-9_-]+)*\/?(?:\?[!-"$-~]*)?$/

/**
 * A request target split into path and query, without the cost of a URL parse for the plain ones
 * (`/v1/payments?limit=3`); undefined for one no URL can be made of (`//`, `//host:99999`).
 */
export function requestTarget(raw: string | undefined): RequestTarget | undefined {
  const target = raw ?? '/'
  // anything a URL parser would rewrite (dot segments, escapes, backslashes, an absolute form) goes through one
  if (!PLAIN_TARGET.test(target)) {
    // (not URL.canParse: on node 20 it sometimes answers false for a target the parser takes, e.g. //é)
    try {
      const url = new URL(target, 'https://localhost')
      return {pathname: url.pathname, searchParams: url.searchParams}
    } catch {
      return undefined
    }
  }
  const q = target.indexOf('?')
  // (URLSearchParams drops one leading '?': the query goes in with its own)
  return q < 0 ? {pathname: target, searchParams: new URLSearchParams()} : {pathname: target.slice(0, q), searchParams: new URLSearchParams(target.slice(q))}
}

/**
 * Whether a presented secret equals a known one, in a time that depends on the known one's length
 * only: every character is compared, whatever differs first. (Not a digest of each presented key
 * and crypto.timingSafeEqual: hashing cost more than the rest of authentication.)
 */
export function sameSecret(known: string, given: string): boolean {
  let diff = known.length ^ given.length
  for (let i = 0; i < known.length; i++) diff |= known.charCodeAt(i) ^ given.charCodeAt(i < given.length ? i : 0)
  return diff === 0
}

/** The key of an `Authorization: Bearer <key>` header. */
export function bearer(header: string | undefined): string {
  if (!header) throw new ApiError(401, 'authentication_error', 'api_key_missing', 'No API key provided. Send your secret key as `Authorization: Bearer sk_test_...`.')
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!m) throw new ApiError(401, 'authentication_error', 'api_key_invalid', 'The Authorization header must be `Bearer <secret key>`.')
  return m[1]!
}

const KEY_WORD: Record<KeyType, string> = {secret: 'secret key', restricted: 'restricted key', publishable: 'publishable key'}

/**
 * What a browser may call with a publishable key (issue 28): saving a card as a payment method
 * from the hosted card fields (gw.js), never attached to a customer (that needs a secret key), and
 * confirming a payment the shop's server created with that card (the payment's id, which only the
 * server and its customer know, is the capability; its routes check the rest), or paying a
 * checkout session the server created with it (issue 36: the session's id is the capability).
 */
type BrowserBody = Record<string, unknown> | undefined
const BROWSER_OPERATIONS: ReadonlyMap<string, {permission: Permission; refuses: (body: BrowserBody) => boolean; why: string}> = new Map([
  ['createPaymentMethod', {permission: 'payment_methods:write' as Permission, refuses: (b: BrowserBody) => b?.customer !== undefined, why: 'A publishable key saves a card without a customer; attach it on your server with a secret key (customer on POST /v1/payment_methods, or payment_method_id on a payment).'}],
  ['confirmPayment', {permission: 'payments:write' as Permission, refuses: (b: BrowserBody) => b?.payment_method_id === undefined || b?.return_url !== undefined, why: 'A publishable key confirms a payment with the card the hosted card fields saved: send payment_method_id (and no return_url); anything else needs a secret key.'}],
  // issue 36: a try at paying a checkout session (its id is the capability); its body is payment_method_id alone
  ['payCheckoutSession', {permission: 'payments:write' as Permission, refuses: () => false, why: ''}],
])

/** 403 when a publishable key asks a browser operation for more than a browser may (read once the body is). */
export function browserBody(caller: Caller, operationId: string, body: unknown): void {
  const rule = caller.key.type === 'publishable' ? BROWSER_OPERATIONS.get(operationId) : undefined
  if (rule?.refuses(body as BrowserBody)) throw forbidden(rule.permission, rule.why)
}

const NONE: readonly Permission[] = ['none']

/** 403 permission_error unless the caller's key may perform the operation: every permission it needs (docs/api.md "Keys"). */
export function authorize(caller: Caller, operationId: string, method: string, pathname: string): void {
  const needs = (OPERATION_PERMISSIONS.get(operationId) ?? NONE) as readonly Permission[]
  const {key} = caller
  const platform = caller.account === PLATFORM_ACCOUNT
  if (key.type === 'publishable' && BROWSER_OPERATIONS.has(operationId)) return
  // (a loop, not a filter: no array per request on the hot path)
  let holds = true
  for (const need of needs) if (!allows(key.type, key.permissions, need, platform)) holds = false
  if (holds) return
  const missing = needs.filter((need) => !allows(key.type, key.permissions, need, platform))
  // error.permission names all the operation needs (one, or several joined by commas)
  const need = permissionName(needs)
  const what = `${method} ${pathname}`
  if (key.type === 'publishable')
    throw forbidden(need, `Publishable keys (${key.redacted}) work only where a browser may call (the hosted card fields: saving a card, confirming a payment, paying a checkout session); ${what} needs a secret or restricted key${need === 'none' ? '' : ` with ${need}`}.`)
  if (need.startsWith('api_keys:')) throw forbidden(need, `Managing API keys needs a secret key; this ${KEY_WORD[key.type]} (${key.redacted}) cannot ${what}.`)
  if (need.startsWith('accounts:') && !platform)
    throw forbidden(need, `Accounts are managed with a key of the engine's own account (${PLATFORM_ACCOUNT}, the key gw login --local saves); this key belongs to ${caller.account}.`)
  const all = needs.length > 1 ? ` (it needs ${needs.join(' and ')})` : ''
  throw forbidden(
    need,
    `This restricted key (${key.redacted}) lacks ${missing.join(' and ')}, which ${what} needs${all}. It has ${key.permissions!.join(', ') || 'no permission'}; create a key that includes ${need} (gw keys create --permissions ${need}).`,
  )
}

/** A browser's preflight: any origin, the methods and headers the API reads; the key decides the rest. */
export function preflight(res: ServerResponse, requestId: string): void {
  res.writeHead(204, {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Service-Version, Gw-Parent-Origin',
    'Access-Control-Max-Age': '600',
    'Request-Id': requestId,
  })
  res.end()
}

/** How deeply arrays and objects may nest in a request body (docs/api.md). */
export const MAX_JSON_DEPTH = 32

/**
 * The deepest nesting of arrays and objects in a JSON text, stopping once it exceeds `limit`:
 * one linear pass over the raw bytes (brackets inside strings do not count), no recursion, so
 * a body of 20,000 `[` is rejected before anything walks it.
 */
export function jsonDepthExceeds(raw: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!
    if (inString) {
      if (c === 0x5c) i++ // backslash: skip the escaped byte
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}

type CanonicalFrame = {items: unknown[]; i: number} | {obj: Record<string, unknown>; keys: string[]; i: number}

/** JSON of a value that is not an object or array. */
function jsonScalar(v: unknown): string {
  if (typeof v === 'string') return jsonString(v)
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null'
  if (v === null) return 'null'
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  return JSON.stringify(v) ?? 'null'
}

/**
 * Canonical JSON (object keys sorted) of a parsed body, for the idempotency hash. Iterative with
 * an explicit stack: no recursion over client input.
 */
export function canonical(root: unknown): string {
  let out = ''
  const stack: CanonicalFrame[] = []
  let next: {v: unknown} | undefined = {v: root}
  for (;;) {
    if (next) {
      const v = next.v
      next = undefined
      if (v === null || typeof v !== 'object') out += jsonScalar(v)
      else if (Array.isArray(v)) {
        out += '['
        stack.push({items: v, i: 0})
      } else {
        out += '{'
        const obj = v as Record<string, unknown>
        stack.push({obj, keys: Object.keys(obj).sort(), i: 0})
      }
    }
    const top = stack[stack.length - 1]
    if (!top) return out
    if ('items' in top) {
      if (top.i < top.items.length) {
        if (top.i > 0) out += ','
        next = {v: top.items[top.i++]}
      } else {
        out += ']'
        stack.pop()
      }
    } else if (top.i < top.keys.length) {
      const k = top.keys[top.i++]!
      out += `${top.i > 1 ? ',' : ''}${jsonString(k)}:`
      next = {v: top.obj[k]}
    } else {
      out += '}'
      stack.pop()
    }
  }
}



/** Node reports a request aborted mid-body as `Error: aborted` (code ECONNRESET) on a request not yet complete. */
export const isClientAbort = (e: unknown, req: IncomingMessage): boolean =>
  e instanceof ClientAborted || (!req.complete && ((e as NodeJS.ErrnoException)?.code === 'ECONNRESET' || (e as Error)?.message === 'aborted'))

/** The Content-Type of every JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/**
 * An answer's Gw-Engine-Time, kept on the response until its head is written: a `setHeader` before
 * `writeHead` sends Node down its header-merging path on every answer (issue 34: about 4 % of a
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
    ...engineTimeOf(res),
    ...headers,
  })
  res.end(body)
}

export function sendError(res: ServerResponse, requestId: string, e: ApiError) {
  send(res, e.status, requestId, JSON.stringify(e.body(requestId)), e.extra.headers)
}

/**
 * A request's body, at most `max` bytes; undefined when it is larger (declared or sent: what was
 * sent is read and dropped, so the answer can still go out). A client gone mid-body rejects with
 * ClientAborted. The API's JSON bodies and the hosted pages' forms both come this way.
 */
export function readBody(req: IncomingMessage, max = MAX_BODY_BYTES): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0)
    if (declared > max) return resolve(undefined)
    const chunks: Buffer[] = []
    let size = 0
    // a large body of a declared length (a snapshot) is copied into place as it arrives: no copy of it all at the end
    const into = Number.isSafeInteger(declared) && declared > MAX_BODY_BYTES ? Buffer.allocUnsafe(declared) : undefined
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > max || (into && size > into.length)) {
        req.removeAllListeners('data')
        req.resume()
        resolve(undefined)
        return
      }
      if (into) c.copy(into, size - c.length)
      else chunks.push(c)
    })
    req.on('end', () => resolve(into ? into.subarray(0, size) : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)))
    req.on('error', (e) => reject(isClientAbort(e, req) ? new ClientAborted() : e))
    // a connection closed mid-body ends the request without 'end'
    req.on('close', () => {
      if (!req.complete) reject(new ClientAborted())
    })
  })
}

export const tooLarge = (max = MAX_BODY_BYTES, message?: (max: number) => string) =>
  new ApiError(413, 'invalid_request_error', 'request_too_large', message?.(max) ?? `Request bodies ${max === MAX_BODY_BYTES ? '' : 'of this operation '}are limited to ${max / 1048576} MiB (${max} bytes).`)

/** Bytes hashed between two turns given back to the event loop (a body of tens of megabytes). */
const HASH_SLICE = 1024 * 1024

/** The request hash of a body kept as bytes (RouteOptions.rawBody): of the bytes themselves, hashed a slice at a time. */
export async function rawRequestHash(method: string, path: string, raw: Buffer): Promise<string> {
  const h = crypto.createHash('sha256').update(`${method} ${path}\n`)
  for (let i = 0; i < raw.length; i += HASH_SLICE) {
    if (i > 0) await new Promise((r) => setImmediate(r))
    h.update(raw.subarray(i, i + HASH_SLICE))
  }
  return h.digest('hex')
}

/** An injected 500, 503 or 429: what a real gateway answers now and then (Retry-After on 503 and 429). */
export function injectedError(fault: '500' | '503' | '429' | string, req: IncomingMessage): ApiError {
  if (fault === '503') return new ApiError(503, 'api_error', 'service_unavailable', `The service is briefly unavailable. ${retryAdvice(req, 1)}`, {headers: {'Retry-After': '1'}})
  if (fault === '429') return new ApiError(429, 'rate_limit_error', 'rate_limit_exceeded', `Too many requests. ${retryAdvice(req, 1)}`, {headers: {'Retry-After': '1'}})
  return new ApiError(500, 'api_error', 'internal_error', `An internal error occurred. ${retryAdvice(req)}`)
}

/**
 * How to retry a request refused before it ran (issue 36), fitted to it: a POST with an
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

/**
 * The request's work goes on and commits, but its answer never leaves: whatever the pipeline
 * writes destroys the connection instead, as a proxy timing out or a network cut would.
 */
export function loseResponse(res: ServerResponse): void {
  const cut = () => {
    res.socket?.destroy()
    return res
  }
  res.writeHead = cut as unknown as ServerResponse['writeHead']
  res.end = cut as unknown as ServerResponse['end']
  res.write = (() => (cut(), false)) as unknown as ServerResponse['write']
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

/** The request against the operation's schemas in the OpenAPI document (inside the unit of a write, so a 400 is recorded for replay). */
export function checkInput(ctx: RequestCtx, route: Route): void {
  ctx.input = requestValidator(route.operationId)({body: ctx.body, query: ctx.query})
}
