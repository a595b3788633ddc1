// The request pipeline (docs/api.md#wire), as one request's story (createPipeline's handle): find the
// operation, authenticate the key, take a rate-limit token, authorize, the account's core, chaos,
// the body, then run the route — a read, a write in one unit of work, or an idempotent POST whose
// record commits with its effects — and answer. Each step is a plain function of the request
// (request.ts: what is read and checked of a request; access.ts: what its key may do; answer.ts:
// how it is answered; faults.ts: chaos's faults; idempotency.ts: the idempotent POST); the
// hot path allocates no closure per step and awaits only where the request must wait.
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {App} from '../app/index.js'
import type {Core} from '../core/core.js'
import {apiJson} from '../core/internal.js'
import {ApiError, apiError, toApiError} from './errors.js'
import {answerIdempotent, checkedIdempotencyKey, idempotentUnit, type Idempotent} from './idempotency.js'
import {OPENAPI_PATH, serveOpenApi} from './openapi-route.js'
import type {RequestLog, Tracked} from './request-log.js'
import type {HandlerResult, RequestCtx, Route, Router} from './router.js'
import {invalid} from '../domain/errors.js'
import type {Caller, KeyAuthority} from '../app/keys.js'
import {bucketOf, FailedAuthentications, tooManyRequests} from './rate-limits.js'
import type {MetricsScope} from './operations.js'
import {allows} from '../domain/keys.js'
import {PLATFORM_ACCOUNT} from '../ports/store.js'
import {ENGINE_TIME_HEADER, engineTimeValue} from '../../api/engine-time.js'
import type {Clock} from '../ports/clock.js'
import type {Unit} from '../core/unit.js'
import {canonical, checkInput, checkJsonBody, isClientAbort, jsonDepthExceeds, MAX_JSON_DEPTH, rawRequestHash, readBody, requestTarget, sha256Hex, tooLarge, type RequestTarget} from './request.js'
import {authorize, bearer, browserBody, preflight} from './access.js'
import {engineTimeOf, keepEngineTime, retryAdvice, send, sendError} from './answer.js'
import {injectedError, loseResponse} from './faults.js'

export interface PipelineDeps {
  app: App
  router: Router
  keys: KeyAuthority
  /**
   * requests per second per account and mode (the fleet's setting, read per request: it may
   * change); the bucket holds twice that (docs/decisions.md#rate-limits); publishable keys have a bucket of the
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
  /** GET /healthz, /readyz and /metrics: for load balancers and Prometheus, no key; /metrics shows more to a key (operations.ts) */
  operations?: (req: IncomingMessage, res: ServerResponse, pathname: string, requestId: string, scope?: MetricsScope) => Promise<void>
  /** the port's connections (connections.ts): one whose request authenticated is closed last to let another in */
  connections?: {authenticated(req: IncomingMessage): void}
}

/** One request in flight: what every step of its story reads, and the clock its answers are stamped with once its account is known. */
export interface Flight {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly requestId: string
  readonly url: RequestTarget | undefined
  readonly logged: Tracked | undefined
  /** the account's clock once the key is known: every answer from then on says its engine time */
  clock: Clock | undefined
}

/** Where a request goes before the API's own steps: elsewhere (hosted pages, health, the document, a preflight) or the API. */
const enum Aside {
  Api,
  Checkout,
  Operations,
  OpenApi,
  Preflight,
}

/** The request pipeline: request id, version, auth, rate limit, body, idempotency, one unit of work, response. */
export function createPipeline(deps: PipelineDeps) {
  const engine = deps.app.core
  const engineStore = engine.engineStore
  const failures = new FailedAuthentications(engineStore, deps.trustedProxies ?? 0)

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = engine.ids.next('req')
    const url = requestTarget(req.url)
    const f: Flight = {req, res, requestId, url, logged: deps.requestLog?.track(req, res, requestId, url?.pathname ?? '/'), clock: undefined}
    try {
      const aside = asideOf(f)
      if (aside !== Aside.Api) return await serveAside(f, aside)
      const method = req.method ?? 'GET'
      const path = f.url!.pathname.slice(3) || '/'
      // the operation is known before anything reads the store: a request answered 503 while it is down is logged and counted with it
      const match = deps.router.match(method, path)
      if (f.logged && match) f.logged.operation = match.route.operationId
      const rate = deps.rateLimit.rateLimit
      // a key that authenticates is never refused by its address's failures (docs/api.md#one-tenant-cannot-starve-the-others)
      let auth: Caller
      try {
        auth = await deps.keys.authenticate(bearer(req.headers.authorization))
      } catch (e) {
        throw await authenticationFailed(f, rate, e)
      }
      knownCaller(f, auth)
      deps.connections?.authenticated(req)
      const rl = await engineStore.takeToken(bucketOf(auth), rate, Math.max(1, rate * 2))
      if (rl.retryAfter > 0) throw rateLimited(f, auth, rate, rl.retryAfter)
      if (!match) throw new ApiError(404, 'invalid_request_error', 'route_unknown', `Unrecognized request URL (${method} ${f.url!.pathname}).`)
      // the key must hold the operation's permission (x-permission in the OpenAPI document), checked before the body is read
      authorize(auth, match.route.operationId, method, f.url!.pathname)
      const core = deps.app.loaded(auth.account) ?? (await deps.app.account(auth.account))
      f.clock = core.clock
      // the account's chaos rules (docs/decisions.md#failure-on-purpose): test mode only, and never on /chaos itself
      if (!auth.livemode && !core.chaos.none && !path.startsWith('/chaos')) await injectChaos(f, core, method, path)
      const route = match.route
      const ctx = contextOf(f, auth, core, method, path, match.params)
      if (method === 'POST' || method === 'DELETE') {
        checkJsonBody(req)
        parseBody(ctx, route, await readBody(req, route.maxBody))
      }
      browserBody(auth, route.operationId, ctx.body)
      if (!route.write) {
        checkInput(ctx, route)
        const result = await route.handler(ctx)
        stamp(f)
        return respond(f, result, apiJson)
      }
      if (method !== 'POST' || ctx.idempotencyKey === undefined) {
        const [result, text] = await core.run({requestId}, (u) => writeUnit(ctx, route, u))
        stamp(f)
        return respond(f, result, () => text)
      }
      // ---- idempotent POST (docs/api.md#idempotency, docs/decisions.md#idempotency): the key is claimed in the unit of work
      // that runs the request, and its record is committed with the request's effects (idempotency.ts)
      const idemKey = checkedIdempotencyKey(ctx)
      const hash = ctx.raw ? await rawRequestHash(method, path, ctx.raw) : sha256Hex(`${method} ${path}\n${canonical(ctx.body ?? {})}`)
      const scope = auth.livemode ? 'live' : 'test'
      const out = await core.run<Idempotent>({requestId}, (u) => idempotentUnit(ctx, route, u, scope, idemKey, hash))
      stamp(f)
      return answerIdempotent(f, out)
    } catch (e) {
      failed(f, e)
    }
  }

  /** The paths that are not the API's operations, each answered by its own handler (undefined: the API's). */
  function asideOf(f: Flight): Aside {
    const {req, res, url} = f
    // `GET //` once threw here, outside any handler, and stopped the engine
    if (!url) throw new ApiError(400, 'invalid_request_error', 'request_malformed', `The request target ${JSON.stringify(req.url)} is not a path. Send a path such as /v1/payments.`)
    const p = url.pathname
    if (p === '/checkout' || p.startsWith('/checkout/')) return Aside.Checkout
    if (deps.operations && (p === '/healthz' || p === '/readyz' || p === '/metrics')) return Aside.Operations
    if (!(p === '/v1' || p.startsWith('/v1/'))) throw new ApiError(404, 'invalid_request_error', 'route_unknown', `Unrecognized request URL (${req.method} ${p}). The API lives under /v1, e.g. /v1/payments.`)
    // browsers (docs/decisions.md#browsers-and-hosted-pages): any origin may call with a publishable key, which is public by design;
    // a secret key's answers carry no CORS header, so a page cannot read them (never needed there)
    if (req.method === 'OPTIONS') return Aside.Preflight
    if (req.headers.origin !== undefined && /^Bearer\s+pk_/i.test(req.headers.authorization ?? '')) {
      res.setHeader('Access-Control-Allow-Origin', '*')
      res.setHeader('Access-Control-Expose-Headers', 'Request-Id')
    }
    const version = req.headers['service-version']
    if (version !== undefined && version !== 'v1') {
      throw new ApiError(400, 'invalid_request_error', 'version_invalid', `Service-Version '${String(version)}' is not a version of this API. Send 'v1' or omit the header.`)
    }
    if (p === OPENAPI_PATH && (req.method === 'GET' || req.method === 'HEAD')) return Aside.OpenApi
    return Aside.Api
  }

  async function serveAside(f: Flight, aside: Aside): Promise<void> {
    const {req, res, url, requestId} = f
    switch (aside) {
      case Aside.Checkout:
        if (!deps.checkout) throw new ApiError(404, 'invalid_request_error', 'route_unknown', 'No hosted pages here.')
        return deps.checkout(req, res, url!, requestId)
      case Aside.Operations:
        return deps.operations!(req, res, url!.pathname, requestId, url!.pathname === '/metrics' ? await metricsScope(f) : undefined)
      case Aside.OpenApi:
        return serveOpenApi(res, requestId)
      case Aside.Preflight:
        return preflight(res, requestId)
    }
  }

  /**
   * Which series of /metrics the caller reads: without a key (or with a publishable key) the
   * aggregate ones; the platform account's key every account's; another account's key its own
   * (a restricted key needs webhooks:read: the series are its endpoints' backlog). A key that
   * does not authenticate is answered as on the API.
   */
  async function metricsScope(f: Flight): Promise<MetricsScope> {
    if (f.req.headers.authorization === undefined) return 'aggregate'
    let auth: Caller
    try {
      auth = await deps.keys.authenticate(bearer(f.req.headers.authorization))
    } catch (e) {
      throw await authenticationFailed(f, deps.rateLimit.rateLimit, e)
    }
    const platform = auth.account === PLATFORM_ACCOUNT
    if (!allows(auth.key.type, auth.key.permissions, 'webhooks:read', platform)) return 'aggregate'
    return platform ? 'all' : {account: auth.account}
  }

  /**
   * A failed authentication takes from its address's budget; once that is spent, 429 instead of
   * 401 (an address already known to be refused costs no store round trip). Only failures count
   * and only failures are refused: a right key from the same address (a NAT, a CI runner) is served.
   */
  async function authenticationFailed(f: Flight, rate: number, e: unknown): Promise<unknown> {
    if (rate > 0 && toApiError(e)?.status === 401) return failures.refusal(f.req) ?? (await failures.failed(f.req)) ?? e
    return e
  }

  /** The key is known: the log line names its account and key, and answers carry the account's engine time. */
  function knownCaller(f: Flight, auth: Caller): void {
    if (f.logged) {
      f.logged.account = auth.account
      f.logged.livemode = auth.livemode
      f.logged.key = auth.key.id
    }
    // (an account not loaded yet on this instance gets its clock once its core is, before anything is answered but a 429)
    f.clock = deps.app.loaded(auth.account)?.clock
  }

  function respond(f: Flight, result: HandlerResult, serialize: (body: unknown) => string) {
    const {res, requestId} = f
    if (result.error) return sendError(res, requestId, result.error)
    if (result.stream) {
      res.setHeader('Request-Id', requestId)
      const t = engineTimeOf(res)
      if (t) res.setHeader(ENGINE_TIME_HEADER, t[ENGINE_TIME_HEADER]!)
      return result.stream(res.req, res)
    }
    if (result.text) {
      if (res.headersSent) return
      res.writeHead(result.status, {'Content-Type': result.text.contentType, 'Content-Length': Buffer.byteLength(result.text.body), 'Request-Id': requestId, 'X-Content-Type-Options': 'nosniff', ...engineTimeOf(res), ...result.headers})
      res.end(result.text.body)
      return
    }
    send(res, result.status, requestId, result.body === undefined ? '{}' : serialize(result.body), result.headers)
  }

  /** What went wrong, answered: a client gone gets nothing, an ApiError its answer, anything else a 500 (and a log line with its stack). */
  function failed(f: Flight, e: unknown): void {
    const {req, res, requestId} = f
    if (isClientAbort(e, req)) {
      // ordinary: nobody is left to answer; one debug line, no stack
      deps.debug?.(`${requestId} ${req.method} ${f.url?.pathname ?? req.url}: aborted by the client before its request was read`)
      res.destroy()
      return
    }
    stamp(f)
    const ae = toApiError(e)
    if (ae) return sendError(res, requestId, ae)
    deps.log?.(`internal error ${requestId}: ${(e as Error).stack ?? String(e)}`)
    sendError(res, requestId, apiError())
  }
}

/** The account's engine time on the answer (once the key is known). */
export function stamp(f: Flight): void {
  if (f.clock && !f.res.headersSent) keepEngineTime(f.res, engineTimeValue(f.clock.now()))
}

/** 429: the account's (or its publishable key's) bucket is empty. */
function rateLimited(f: Flight, auth: Caller, rate: number, retryAfter: number): ApiError {
  const whose = auth.key.type === 'publishable' ? ` for this account's publishable key (browsers; its secret and restricted keys have a budget of their own)` : ''
  return tooManyRequests(`Too many requests: the limit is ${rate} requests per second${whose}. ${retryAdvice(f.req, retryAfter)}`, retryAfter, rate)
}

/** The fault an active chaos rule injects into this request, if one does: a slow answer, a lost one, or an error. */
async function injectChaos(f: Flight, core: Core, method: string, path: string): Promise<void> {
  const fault = await core.chaos.faultFor(method, path)
  if (!fault) return
  if (f.logged) f.logged.chaos = `${fault.id} ${fault.fault}`
  f.res.setHeader('Gw-Chaos', fault.id)
  if (fault.fault === 'slow') await new Promise((r) => setTimeout(r, fault.latency_ms ?? 0))
  else if (fault.fault === 'response_lost') loseResponse(f.res)
  else throw injectedError(fault.fault, f.req)
}

/** What a route's handler gets of the request (its input is checked against the document later, inside the unit of a write). */
function contextOf(f: Flight, auth: Caller, core: Core, method: string, path: string, params: Record<string, string>): RequestCtx {
  const {req, requestId} = f
  const keyHeader = req.headers['idempotency-key']
  return {
    requestId,
    method,
    path,
    // the router matched the operation's path template: its parameters are the operation's (router.ts)
    params: params as RequestCtx['params'],
    query: f.url!.searchParams,
    body: undefined,
    headers: req.headers,
    account: auth.account,
    livemode: auth.livemode,
    core,
    key: auth.key,
    idempotencyKey: typeof keyHeader === 'string' ? keyHeader : undefined,
    input: {body: {}, query: {}},
    raw: undefined,
  }
}

/** The body of a POST or DELETE: bytes for a route that reads them in parts (a snapshot), else JSON of bounded nesting. */
function parseBody(ctx: RequestCtx, route: Route, raw: Buffer | undefined): void {
  if (!raw) throw tooLarge(route.maxBody, route.tooLarge)
  // a body the handler reads in parts (a snapshot): neither parsed nor walked here
  if (route.rawBody) ctx.raw = raw
  else if (raw.length > 0) {
    if (jsonDepthExceeds(raw))
      throw invalid('body', `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; flatten it (no request needs more than a few levels).`)
    try {
      ctx.body = JSON.parse(raw.toString('utf8'))
    } catch (e) {
      throw invalid('body', `The request body is not valid JSON (${(e as Error).message}). Send Content-Type: application/json.`)
    }
  }
}


/** A write without an Idempotency-Key (or a DELETE): the route in one unit of work, its answer serialised before the commit. */
async function writeUnit(ctx: RequestCtx, route: Route, u: Unit): Promise<readonly [HandlerResult, string]> {
  checkInput(ctx, route)
  const r = await route.handler(ctx, u)
  return [r, r.body === undefined ? '{}' : u.publicJson(r.body as object)] as const
}
