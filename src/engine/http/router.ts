import type {IncomingHttpHeaders, IncomingMessage, ServerResponse} from 'node:http'
import type {ChangeSet} from '../ports/store.js'

export interface RequestCtx {
  requestId: string
  method: string
  /** path below /v1, e.g. /payments/pay_123 */
  path: string
  params: Record<string, string>
  query: URLSearchParams
  body: unknown
  headers: IncomingHttpHeaders
  account: string
  livemode: boolean
  idempotencyKey: string | undefined
}

export interface HandlerResult {
  status: number
  body?: unknown
  /** written atomically with the idempotency record before the response is sent */
  changes?: ChangeSet
  /** alternative non-JSON payload (CSV) */
  text?: {contentType: string; body: string}
  /** takes over the response (SSE) */
  stream?: (req: IncomingMessage, res: ServerResponse) => void
  headers?: Record<string, string>
}

export type Handler = (ctx: RequestCtx) => Promise<HandlerResult>

interface Route {
  method: string
  segments: string[]
  handler: Handler
}

export class Router {
  private routes = new Map<string, Route[]>()

  add(method: string, pattern: string, handler: Handler): this {
    const segments = pattern.split('/').filter(Boolean)
    const key = `${method} ${segments.length}`
    const list = this.routes.get(key) ?? []
    // literal segments win over parameters: sort routes with more literals first
    list.push({method, segments, handler})
    list.sort((a, b) => b.segments.filter((s) => !s.startsWith(':')).length - a.segments.filter((s) => !s.startsWith(':')).length)
    this.routes.set(key, list)
    return this
  }

  get = (p: string, h: Handler) => this.add('GET', p, h)
  post = (p: string, h: Handler) => this.add('POST', p, h)
  delete = (p: string, h: Handler) => this.add('DELETE', p, h)

  match(method: string, path: string): {handler: Handler; params: Record<string, string>} | undefined {
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
      return {handler: r.handler, params}
    }
    return undefined
  }
}

/** A malformed %-escape is not an id of ours: keep it raw, so the lookup 404s instead of throwing. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
