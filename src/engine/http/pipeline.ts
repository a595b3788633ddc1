import * as crypto from 'node:crypto'
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {App} from '../app/index.js'
import {apiJson} from '../core/internal.js'
import {VersionConflictError, type IdempotencyRecord} from '../ports/store.js'
import {ApiError, apiError, toApiError} from './errors.js'
import {OPENAPI_PATH, serveOpenApi} from './openapi-route.js'
import {requestValidator} from './openapi-validate.js'
import type {RequestLog} from './request-log.js'
import type {HandlerResult, RequestCtx, Router} from './router.js'
import {forbidden, invalid} from '../domain/errors.js'
import {allows, type KeyType, type Permission} from '../domain/keys.js'
import type {Caller, KeyAuthority} from '../app/keys.js'
import {OPERATION_PERMISSIONS, permissionName} from '../../api/openapi/document.js'
import {PLATFORM_ACCOUNT} from '../ports/store.js'
import {iso} from '../domain/time.js'
import {jsonString} from '../domain/json.js'
import {bucketOf, FailedAuthentications, tooManyRequests} from './rate-limits.js'
import {ENGINE_TIME_HEADER} from '../../api/engine-time.js'
import type {Clock} from '../ports/clock.js'

export const MAX_BODY_BYTES = 1024 * 1024
export const IDEMPOTENCY_KEY_MAX = 255
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000

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
function bearer(header: string | undefined): string {
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
function browserBody(caller: Caller, operationId: string, body: unknown): void {
  const rule = caller.key.type === 'publishable' ? BROWSER_OPERATIONS.get(operationId) : undefined
  if (rule?.refuses(body as BrowserBody)) throw forbidden(rule.permission, rule.why)
}

const NONE: readonly Permission[] = ['none']

/** 403 permission_error unless the caller's key may perform the operation: every permission it needs (docs/api.md "Keys"). */
function authorize(caller: Caller, operationId: string, method: string, pathname: string): void {
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
function preflight(res: ServerResponse, requestId: string): void {
  res.writeHead(204, {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'GET, POST',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Service-Version, Gw-Parent-Origin',
    'Access-Control-Max-Age': '600',
    'Request-Id': requestId,
  })
  res.end()
}

export const redact = (key: string) => (key.length > 12 ? `${key.slice(0, 8)}...${key.slice(-4)}` : '***')

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

export interface PipelineDeps {
  app: App
  router: Router
  keys: KeyAuthority
  /**
   * requests per second per account and mode (the fleet's setting, read per request: it may
   * change); the bucket holds twice that (decisions.md); publishable keys have a bucket of the
   * same size of their own. 0 turns every limit off, the failed-authentication one too.
   */
  rateLimit: {readonly rateLimit: number}
  /** proxies in front whose X-Forwarded-For entries are believed (the client address of the failed-authentication limit); default 0: the socket's peer */
  trustedProxies?: number
  checkout?: (req: IncomingMessage, res: ServerResponse, url: RequestTarget, requestId: string) => Promise<void>
  log?: (line: string) => void
  /** ordinary happenings worth a line only when asked for (gw serve --verbose): aborted requests */
  debug?: (line: string) => void
  /** the API request log behind GET /v1/request_logs (request-log.ts) */
  requestLog?: RequestLog
  /** GET /healthz, /readyz and /metrics: for load balancers and Prometheus, no key (operations.ts) */
  operations?: (req: IncomingMessage, res: ServerResponse, pathname: string, requestId: string) => Promise<void>
}

/** The client went away before its request was read (connection reset, body cut short). */
class ClientAborted extends Error {
  constructor() {
    super('aborted by the client')
  }
}

/** Node reports a request aborted mid-body as `Error: aborted` (code ECONNRESET) on a request not yet complete. */
const isClientAbort = (e: unknown, req: IncomingMessage): boolean =>
  e instanceof ClientAborted || (!req.complete && ((e as NodeJS.ErrnoException)?.code === 'ECONNRESET' || (e as Error)?.message === 'aborted'))

const JSON_TYPE = 'application/json; charset=utf-8'

function send(res: ServerResponse, status: number, requestId: string, body: string, headers?: Record<string, string>) {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, {
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(body),
    'Request-Id': requestId,
    ...headers,
  })
  res.end(body)
}

function sendError(res: ServerResponse, requestId: string, e: ApiError) {
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

const tooLarge = (max = MAX_BODY_BYTES, message?: (max: number) => string) =>
  new ApiError(413, 'invalid_request_error', 'request_too_large', message?.(max) ?? `Request bodies ${max === MAX_BODY_BYTES ? '' : 'of this operation '}are limited to ${max / 1048576} MiB (${max} bytes).`)

/** Bytes hashed between two turns given back to the event loop (a body of tens of megabytes). */
const HASH_SLICE = 1024 * 1024

/** The request hash of a body kept as bytes (RouteOptions.rawBody): of the bytes themselves, hashed a slice at a time. */
async function rawRequestHash(method: string, path: string, raw: Buffer): Promise<string> {
  const h = crypto.createHash('sha256').update(`${method} ${path}\n`)
  for (let i = 0; i < raw.length; i += HASH_SLICE) {
    if (i > 0) await new Promise((r) => setImmediate(r))
    h.update(raw.subarray(i, i + HASH_SLICE))
  }
  return h.digest('hex')
}

/** What an idempotent write came to: a response to send, or the reason it was not run. */
type Idempotent =
  | {kind: 'respond'; status: number; body: string; headers?: Record<string, string>}
  | {kind: 'replay'; record: IdempotencyRecord}
  | {kind: 'in_flight' | 'mismatch'}

/** The request pipeline of §4-§9: request id, version, auth, rate limit, body, idempotency, one unit of work, response. */
export function createPipeline(deps: PipelineDeps) {
  const engine = deps.app.core
  const engineStore = engine.engineStore
  const failures = new FailedAuthentications(engineStore, deps.trustedProxies ?? 0)

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = engine.ids.next('req')
    const url = requestTarget(req.url)
    const logged = deps.requestLog?.track(req, res, requestId, url?.pathname ?? '/')
    // the account's clock once the key is known: every answer from then on says its engine time
    let clock: Clock | undefined
    const stamp = () => {
      if (clock && !res.headersSent) res.setHeader(ENGINE_TIME_HEADER, clock.now().toISOString())
    }
    try {
      // `GET //` once threw here, outside any handler, and stopped the engine
      if (!url) throw new ApiError(400, 'invalid_request_error', 'request_malformed', `The request target ${JSON.stringify(req.url)} is not a path. Send a path such as /v1/payments.`)
      if (url.pathname === '/checkout' || url.pathname.startsWith('/checkout/')) {
        if (!deps.checkout) throw new ApiError(404, 'invalid_request_error', 'route_unknown', 'No hosted pages here.')
        await deps.checkout(req, res, url, requestId)
        return
      }
      if (deps.operations && (url.pathname === '/healthz' || url.pathname === '/readyz' || url.pathname === '/metrics')) return await deps.operations(req, res, url.pathname, requestId)
      if (!(url.pathname === '/v1' || url.pathname.startsWith('/v1/'))) {
        throw new ApiError(404, 'invalid_request_error', 'route_unknown', `Unrecognized request URL (${req.method} ${url.pathname}). The API lives under /v1, e.g. /v1/payments.`)
      }
      // browsers (issue 28): any origin may call with a publishable key, which is public by design;
      // a secret key's answers carry no CORS header, so a page cannot read them (never needed there)
      if (req.method === 'OPTIONS') return preflight(res, requestId)
      if (req.headers.origin !== undefined && /^Bearer\s+pk_/i.test(req.headers.authorization ?? '')) {
        res.setHeader('Access-Control-Allow-Origin', '*')
        res.setHeader('Access-Control-Expose-Headers', 'Request-Id')
      }
      const version = req.headers['service-version']
      if (version !== undefined && version !== 'v1') {
        throw new ApiError(400, 'invalid_request_error', 'version_invalid', `Service-Version '${String(version)}' is not a version of this API. Send 'v1' or omit the header.`)
      }
      if (url.pathname === OPENAPI_PATH && (req.method === 'GET' || req.method === 'HEAD')) return await serveOpenApi(res, requestId)
      const method = req.method ?? 'GET'
      const path = url.pathname.slice(3) || '/'
      // the operation is known before anything reads the store: a request answered 503 while it is down is logged and counted with it
      const match = deps.router.match(method, path)
      if (logged && match) logged.operation = match.route.operationId
      const rate = deps.rateLimit.rateLimit
      // an address whose failed authentications ran out is refused before its key is looked at
      const refused = rate > 0 ? failures.refusal(req) : undefined
      if (refused) throw refused
      let auth: Caller
      try {
        auth = await deps.keys.authenticate(bearer(req.headers.authorization))
      } catch (e) {
        // a failed authentication takes from its address's budget; once that is spent, 429 instead of 401
        if (rate > 0 && toApiError(e)?.status === 401) throw (await failures.failed(req)) ?? e
        throw e
      }
      if (logged) Object.assign(logged, {account: auth.account, livemode: auth.livemode, key: auth.key.id})
      // (an account not loaded yet on this instance gets its clock below, before anything is answered but a 429)
      clock = deps.app.loaded(auth.account)?.clock
      // idempotency records are the account's (its store view), by mode; the rate limit's bucket is the account's and mode's (the publishable key's its own)
      const scope = auth.livemode ? 'live' : 'test'
      const rl = await engineStore.takeToken(bucketOf(auth), rate, Math.max(1, rate * 2))
      if (rl.retryAfter > 0) {
        const whose = auth.key.type === 'publishable' ? ` for this account's publishable key (browsers; its secret and restricted keys have a budget of their own)` : ''
        throw tooManyRequests(`Too many requests: the limit is ${rate} requests per second${whose}. ${retryAdvice(req, rl.retryAfter)}`, rl.retryAfter, rate)
      }
      if (!match) throw new ApiError(404, 'invalid_request_error', 'route_unknown', `Unrecognized request URL (${method} ${url.pathname}).`)
      // the key must hold the operation's permission (x-permission in the OpenAPI document), checked before the body is read
      authorize(auth, match.route.operationId, method, url.pathname)
      const core = deps.app.loaded(auth.account) ?? (await deps.app.account(auth.account))
      clock = core.clock
      // the account's chaos rules (issue 29): test mode only, and never on /chaos itself
      if (!auth.livemode && !core.chaos.none && !path.startsWith('/chaos')) {
        const fault = await core.chaos.faultFor(method, path)
        if (fault) {
          if (logged) logged.chaos = `${fault.id} ${fault.fault}`
          res.setHeader('Gw-Chaos', fault.id)
          if (fault.fault === 'slow') await new Promise((r) => setTimeout(r, fault.latency_ms ?? 0))
          else if (fault.fault === 'response_lost') loseResponse(res)
          else throw injectedError(fault.fault, req)
        }
      }
      let body: unknown = undefined
      let rawBody: Buffer | undefined
      if (method === 'POST' || method === 'DELETE') {
        const raw = await readBody(req, match.route.maxBody)
        if (!raw) throw tooLarge(match.route.maxBody, match.route.tooLarge)
        // a body the handler reads in parts (a snapshot): neither parsed nor walked here
        if (match.route.rawBody) rawBody = raw
        else if (raw.length > 0) {
          if (jsonDepthExceeds(raw))
            throw invalid('body', `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; flatten it (no request needs more than a few levels).`)
          try {
            body = JSON.parse(raw.toString('utf8'))
          } catch (e) {
            throw invalid('body', `The request body is not valid JSON (${(e as Error).message}). Send Content-Type: application/json.`)
          }
        }
      }
      browserBody(auth, match.route.operationId, body)
      const keyHeader = req.headers['idempotency-key']
      const idemKey = typeof keyHeader === 'string' ? keyHeader : undefined
      const ctx: RequestCtx = {requestId, method, path, params: match.params, query: url.searchParams, body, headers: req.headers, account: auth.account, livemode: auth.livemode, core, key: auth.key, idempotencyKey: idemKey, input: {body: {}, query: {}}, raw: rawBody}
      const route = match.route
      // the request against the operation's schemas in the OpenAPI document (inside the unit of a write, so a 400 is recorded for replay)
      const check = () => void (ctx.input = requestValidator(route.operationId)({body, query: url.searchParams}))
      if (!route.write) {
        check()
        const result = await route.handler(ctx)
        stamp()
        return respond(res, requestId, result, apiJson)
      }
      if (method !== 'POST' || idemKey === undefined) {
        const [result, text] = await core.run({requestId}, async (u) => {
          check()
          const r = await route.handler(ctx, u)
          return [r, r.body === undefined ? '{}' : u.publicJson(r.body as object)] as const
        })
        stamp()
        return respond(res, requestId, result, () => text)
      }

      // ---- idempotent POST (§4 Idempotency, decisions.md): the key is claimed in the unit of work
      // that runs the request, and its record is committed with the request's effects
      if (idemKey.length === 0 || idemKey.length > IDEMPOTENCY_KEY_MAX)
        throw invalid('Idempotency-Key', `The Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX} characters; got ${idemKey.length}.`)
      const hash = rawBody ? await rawRequestHash(method, path, rawBody) : sha256Hex(`${method} ${path}\n${canonical(body ?? {})}`)
      const out = await core.run<Idempotent>({requestId}, async (u) => {
        // deferred where the store can: it checks for a live record when this unit commits (a
        // found one fails the commit and core.run runs the unit again, with a claim that looks)
        // (not deferred for a body read in parts: a snapshot's commit replaces the rows its lookup would be made in)
        const claim = await u.claimIdempotency(scope, idemKey, {defer: !route.rawBody})
        if (claim.state === 'in_flight') return {kind: 'in_flight'}
        const recorded = (record: IdempotencyRecord): Idempotent => (record.request_hash === hash ? {kind: 'replay', record} : {kind: 'mismatch'})
        if (claim.state === 'recorded') return recorded(claim.record)
        let status: number
        let text: string
        let headers: Record<string, string> | undefined
        // what the record keeps, when it is not the answer (a secret shown once, redacted)
        let kept: string | undefined
        try {
          check()
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
            return recorded(record)
          }
          // a 4xx is recorded and replayed identically (§7 rule 3); the request's own changes are dropped
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
      })
      stamp()
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
          // error.request_id agree (decisions.md wire details)
          const r = out.record
          if (logged) logged.replayed = true
          return send(res, r.status, r.status >= 400 ? (storedRequestId(r.body) ?? requestId) : requestId, r.body, {'Idempotent-Replayed': 'true'})
        }
        case 'respond':
          return send(res, out.status, requestId, out.body, out.headers)
      }
    } catch (e) {
      if (isClientAbort(e, req)) {
        // ordinary: nobody is left to answer; one debug line, no stack
        deps.debug?.(`${requestId} ${req.method} ${url?.pathname ?? req.url}: aborted by the client before its request was read`)
        res.destroy()
        return
      }
      stamp()
      const ae = toApiError(e)
      if (ae) return sendError(res, requestId, ae)
      deps.log?.(`internal error ${requestId}: ${(e as Error).stack ?? String(e)}`)
      sendError(res, requestId, apiError())
    }
  }

  function respond(res: ServerResponse, requestId: string, result: HandlerResult, serialize: (body: unknown) => string) {
    if (result.error) return sendError(res, requestId, result.error)
    if (result.stream) {
      res.setHeader('Request-Id', requestId)
      return result.stream(res.req, res)
    }
    if (result.text) {
      if (res.headersSent) return
      res.writeHead(result.status, {'Content-Type': result.text.contentType, 'Content-Length': Buffer.byteLength(result.text.body), 'Request-Id': requestId, ...result.headers})
      res.end(result.text.body)
      return
    }
    send(res, result.status, requestId, result.body === undefined ? '{}' : serialize(result.body), result.headers)
  }
}

export const JSON_CONTENT_TYPE = JSON_TYPE

/** An injected 500, 503 or 429: what a real gateway answers now and then (Retry-After on 503 and 429). */
function injectedError(fault: '500' | '503' | '429' | string, req: IncomingMessage): ApiError {
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
function loseResponse(res: ServerResponse): void {
  const cut = () => {
    res.socket?.destroy()
    return res
  }
  res.writeHead = cut as unknown as ServerResponse['writeHead']
  res.end = cut as unknown as ServerResponse['end']
  res.write = (() => (cut(), false)) as unknown as ServerResponse['write']
}

/** error.request_id of a stored error body, if it has one. */
function storedRequestId(body: string): string | undefined {
  try {
    const id = (JSON.parse(body) as {error?: {request_id?: unknown}}).error?.request_id
    return typeof id === 'string' && id.startsWith('req_') ? id : undefined
  } catch {
    return undefined
  }
}
