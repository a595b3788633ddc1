import type {IncomingHttpHeaders, IncomingMessage, ServerResponse} from 'node:http'
import type {Core} from '../core/core.js'
import type {KeyRecord} from '../app/keys.js'
import type {Unit} from '../core/unit.js'
import type {OperationId, OperationMethods, PathParams} from '../../api/types.js'
import type {ApiError} from './errors.js'
import type {ValidatedRequest} from './openapi-validate.js'

/** The operations of one HTTP method: `r.get` takes only a GET operation's id. */
type OperationsOf<M extends string> = {[O in OperationId]: OperationMethods[O] extends M ? O : never}[OperationId]

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

export class Router {
  private routes = new Map<string, Entry[]>()

  private add(method: string, pattern: string, route: Route): this {
    const segments = pattern.split('/').filter(Boolean)
    const key = `${method} ${segments.length}`
    const list = this.routes.get(key) ?? []
    // literal segments win over parameters: sort routes with more literals first
    list.push({segments, route})
    list.sort((a, b) => b.segments.filter((s) => !s.startsWith(':')).length - a.segments.filter((s) => !s.startsWith(':')).length)
    this.routes.set(key, list)
    return this
  }

  /**
   * Routes are named by the operationId of the OpenAPI document, whose schemas check their
   * requests: a handler's ctx.input is typed by its operation (Body<'createPayment'>,
   * Query<'listPayments'>), and the id must be an operation of that method.
   */
  get = <O extends OperationsOf<'get'>>(p: string, operationId: O, h: ReadHandler<O>) => this.add('GET', p, {operationId, write: false, handler: erase(h)})
  post = <O extends OperationsOf<'post'>>(p: string, operationId: O, h: WriteHandler<O>, opts: BodyOptions = {}) => this.add('POST', p, {operationId, write: true, handler: erase(h), ...opts})
  delete = <O extends OperationsOf<'delete'>>(p: string, operationId: O, h: WriteHandler<O>) => this.add('DELETE', p, {operationId, write: true, handler: erase(h)})

  match(method: string, path: string): {route: Route; params: Record<string, string>} | undefined {
    const parts = path.split('/').filter(Boolean)
    const list = this.routes.get(`${method} ${parts.length}`)
    if (!list) return undefined
    outer: for (const r of list) {
      const params: Record<string, string> = {}
      for (let i = 0; i < parts.length; i++) {
        const seg = r.segments[i]!
        if (seg.startsWith(':')) params[seg.slice(1)] = safeDecode(parts[i]!)
        else if (seg !== parts[i]) continue outer
      }
      return {route: r.route, params}
    }
    return undefined
  }

  /** every route as `METHOD /pattern operationId` (the OpenAPI coverage check) */
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

/** A malformed %-escape is not an id of ours: keep it raw, so the lookup 404s instead of throwing. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
