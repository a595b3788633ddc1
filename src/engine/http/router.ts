// The routes of the API, each an operation of the OpenAPI document named by its operationId: the
// document says its method and path, and whether it is a test helper (x-test-helper, refused to a
// live-mode key before its handler runs); the route says what its handler does. A handler of a GET
// reads; one of a POST or DELETE writes, in the unit of work the pipeline gives it.
import type {IncomingHttpHeaders, IncomingMessage, ServerResponse} from 'node:http'
import type {Core} from '../core/core.js'
import type {KeyRecord} from '../app/keys.js'
import type {Unit} from '../core/unit.js'
import type {OperationId, OperationMethods, PathParams} from '../../api/types.js'
import {OPERATIONS} from '../../api/openapi/document.js'
import {testModeOnly} from '../domain/errors.js'
import type {ApiError} from './errors.js'
import type {ValidatedRequest} from './openapi-validate.js'

/** The handler of operation O: a read for a GET operation, a write for a POST or DELETE one. */
export type HandlerOf<O extends OperationId> = OperationMethods[O] extends 'get' ? ReadHandler<O> : WriteHandler<O>

/** What the pipeline hands a route of operation O: its body and query, checked against O's schemas in the OpenAPI document. */
export type OperationInput<O extends OperationId> = ValidatedRequest<O>

export interface RequestCtx<O extends OperationId = OperationId> {
  requestId: string
  method: string
  /** path below /v1, e.g. /payments/pay_123 */
  path: string
  /** the path's parameters, typed by the operation's path in the document (`/payments/{id}` gives {id: string}) */
  params: PathParams<O> & Record<string, string>
  query: URLSearchParams
  body: unknown
  headers: IncomingHttpHeaders
  account: string
  livemode: boolean
  /** the engine of the account the key belongs to */
  core: Core
  /** the key that made the request */
  key: KeyRecord
  /** the body's bytes, for a route that reads them itself (rawBody): `body` is then undefined */
  raw?: Buffer
  idempotencyKey: string | undefined
  /** the body and query, checked against the operation's schemas in the OpenAPI document (query values typed) */
  input: OperationInput<O>
}

export interface HandlerResult {
  status: number
  body?: unknown
  /** alternative non-JSON (or pre-serialised) payload */
  text?: {contentType: string; body: string}
  /** takes over the response (SSE) */
  stream?: (req: IncomingMessage, res: ServerResponse) => void
  headers?: Record<string, string>
  /** answer with this error while keeping the unit's changes (a declined card: the failed payment is stored) */
  error?: ApiError
  /**
   * what the idempotency record keeps instead of `body`, which an idempotent replay answers: an
   * answer that shows a secret once keeps it redacted (docs/api.md "Secrets at rest")
   */
  recorded?: unknown
}

/** A read: no unit of work. */
export type ReadHandler<O extends OperationId = OperationId> = (ctx: RequestCtx<O>) => Promise<HandlerResult>
/** A write: runs in one unit of work, committed (with the idempotency record) before the response. */
export type WriteHandler<O extends OperationId = OperationId> = (ctx: RequestCtx<O>, u: Unit) => Promise<HandlerResult>

/** What a route may say of its body. */
export interface BodyOptions {
  /** a larger request body than MAX_BODY_BYTES (a snapshot loaded) */
  maxBody?: number
  /**
   * the body is handed to the handler as bytes (RequestCtx.raw), unparsed: the handler reads it in
   * parts (a snapshot of tens of megabytes); an Idempotency-Key's request hash is of the bytes
   */
  rawBody?: boolean
  /** the 413's message for a body over maxBody (what the limit is and who may change it) */
  tooLarge?: (max: number) => string
}

export type Route = {operationId: OperationId} & BodyOptions & ({write: false; handler: ReadHandler} | {write: true; handler: WriteHandler})

interface Entry {
  segments: string[]
  route: Route
}

const isParam = (segment: string) => segment.startsWith('{')

export class Router {
  private routes = new Map<string, Entry[]>()

  /**
   * The route of operation `operationId` of the OpenAPI document, whose schemas check its requests:
   * its method and path are the document's, its handler's ctx.input is typed by it
   * (Body<'createPayment'>, Query<'listPayments'>), a GET's handler reads and a POST's or DELETE's
   * writes; an operation the document marks as a test helper answers a live-mode key 400
   * test_mode_only before its handler runs.
   */
  on<O extends OperationId>(operationId: O, handler: HandlerOf<O>, opts: BodyOptions = {}): this {
    const op = OPERATIONS.get(operationId)
    if (!op || op.root || op.public) throw new Error(`Router: ${operationId} is not an operation of the API that the router serves (the OpenAPI document's, authenticated, under /v1)`)
    const method = op.method.toUpperCase()
    const h = erase(handler as ReadHandler<O>)
    const route = {operationId, write: method !== 'GET', handler: op.testHelper ? testHelperOnly(h) : h, ...opts} as Route
    const segments = op.path.split('/').filter(Boolean)
    const key = `${method} ${segments.length}`
    const list = this.routes.get(key) ?? []
    if (list.some((e) => e.route.operationId === operationId)) throw new Error(`Router: ${operationId} has a route already`)
    // literal segments win over parameters: sort routes with more literals first
    list.push({segments, route})
    list.sort((a, b) => b.segments.filter((s) => !isParam(s)).length - a.segments.filter((s) => !isParam(s)).length)
    this.routes.set(key, list)
    return this
  }

  match(method: string, path: string): {route: Route; params: Record<string, string>} | undefined {
    const parts = path.split('/').filter(Boolean)
    const list = this.routes.get(`${method} ${parts.length}`)
    if (!list) return undefined
    outer: for (const r of list) {
      const params: Record<string, string> = {}
      for (let i = 0; i < parts.length; i++) {
        const seg = r.segments[i]!
        if (isParam(seg)) params[seg.slice(1, -1)] = safeDecode(parts[i]!)
        else if (seg !== parts[i]) continue outer
      }
      return {route: r.route, params}
    }
    return undefined
  }

  /** every route as `METHOD /path operationId`, its path as the document writes it (the OpenAPI coverage check) */
  list(): string[] {
    const out: string[] = []
    for (const [key, entries] of this.routes) for (const e of entries) out.push(`${key.split(' ')[0]} /${e.segments.join('/')} ${e.route.operationId}`)
    return out.sort()
  }
}

/**
 * A handler of one operation, kept among all the others. The one place the operation's input type
 * is taken on trust: the pipeline runs a route's handler only with the input that operation's
 * request validator returned (pipeline.ts `check`), which is what OperationInput<O> says.
 */
function erase<O extends OperationId>(h: ReadHandler<O>): ReadHandler
function erase<O extends OperationId>(h: WriteHandler<O>): WriteHandler
function erase(h: ReadHandler<never> | WriteHandler<never>): ReadHandler | WriteHandler {
  return h as ReadHandler | WriteHandler
}

/** A test helper's handler: a live-mode key is refused before it runs (the document marks the operation x-test-helper). */
function testHelperOnly(h: ReadHandler | WriteHandler): ReadHandler | WriteHandler {
  return (ctx: RequestCtx, u?: Unit) => {
    if (ctx.livemode) throw testModeOnly()
    return (h as WriteHandler)(ctx, u!)
  }
}

/**
 * The path of the API a request named, below /v1 and with /v1 before it, as its route's path with
 * the request's parameters in it (`/v1/events/evt_1/deliveries`): the `url` of a list's answer.
 */
export function listUrl(ctx: Pick<RequestCtx, 'path'>): string {
  return `/v1/${ctx.path.split('/').filter(Boolean).map(safeDecode).join('/')}`
}

/** A malformed %-escape is not an id of ours: keep it raw, so the lookup 404s instead of throwing. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
