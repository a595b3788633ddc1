// HTTP core of the API client: one keep-alive undici Agent per client, a custom CA for a
// local engine, Idempotency-Key on every POST (reused across retries), and the retry policy
// of docs/api.md#errors and docs/api.md#limits: 429 waits Retry-After, 5xx and connection errors back off exponentially
// with jitter, a bounded number of times.
import {randomUUID} from 'node:crypto'
import {Writable} from 'node:stream'
import type {Dispatcher} from 'undici'
import {Agent, request, stream} from './undici.js'
import type {ListEnvelope} from '../api/types.js'
import {ApiError, isRetryableNetworkCode, NetworkError, toNetworkError} from './errors.js'
import {backoffDelay, retryAfterDelay} from './retry.js'
import {parseEngineTime} from '../api/engine-time.js'

export type QueryValue = string | number | boolean | null | undefined
export type Query = Record<string, QueryValue>

export interface ClientOptions {
  /** `https://host:port/v1` */
  baseUrl: string
  apiKey: string
  /** PEM of an extra CA to trust for this client only (a local engine's CA) */
  ca?: string | Buffer
  /** skip TLS verification for this client only (never globally) */
  insecure?: boolean
  /** inject a dispatcher (tests use undici's MockAgent); the client will not close it */
  dispatcher?: Dispatcher
  /** retries after the first attempt; default 3 */
  maxRetries?: number
  /** per-request timeout for headers and body; default 60 s */
  timeoutMs?: number
  /** a Retry-After longer than this is not waited for; default 60 s */
  maxRetryAfterSeconds?: number
  /**
   * how long 503 and 429 answers (a database restarting, a rate limit) are retried, honouring
   * Retry-After, from the first attempt: default 30 s. Other 5xx and connection errors are retried
   * `maxRetries` times; maxRetries 0 turns every retry off.
   */
  retryBudgetMs?: number
  userAgent?: string
  /** what a TLS verification failure's message tells to do (default: the SDK's `ca` option and NODE_EXTRA_CA_CERTS) */
  tlsAdvice?: string
  /** verbose log sink (stderr in the CLI) */
  log?: (line: string) => void
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

export interface RequestOptions {
  query?: Query
  body?: unknown
  /** POST only; generated when absent and reused on every retry */
  idempotencyKey?: string
  headers?: Record<string, string>
}

export interface ApiResponse<T> {
  status: number
  data: T
  requestId: string | null
  idempotencyKey?: string
  headers: Record<string, string | string[] | undefined>
}

export type Method = 'GET' | 'POST' | 'DELETE'

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export class HttpClient {
  readonly baseUrl: string
  readonly maxRetries: number
  protected readonly dispatcher: Dispatcher
  private readonly ownsDispatcher: boolean
  private readonly apiKey: string
  private readonly userAgent: string
  private readonly log?: (line: string) => void
  private readonly sleep: (ms: number) => Promise<void>
  private readonly random: () => number
  private readonly maxRetryAfterSeconds: number
  private readonly retryBudgetMs: number
  private readonly tlsAdvice: string | undefined
  /** the last Gw-Engine-Time an answer carried, and the wall clock when it came */
  private engineSeen?: {engineMs: number; wallMs: number}
  private engineUnsaid = false

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '')
    this.apiKey = opts.apiKey
    this.maxRetries = opts.maxRetries ?? 3
    this.userAgent = opts.userAgent ?? 'gw-cli'
    this.log = opts.log
    this.sleep = opts.sleep ?? defaultSleep
    this.random = opts.random ?? Math.random
    this.maxRetryAfterSeconds = opts.maxRetryAfterSeconds ?? 60
    this.retryBudgetMs = opts.retryBudgetMs ?? 30_000
    this.tlsAdvice = opts.tlsAdvice
    if (opts.dispatcher) {
      this.dispatcher = opts.dispatcher
      this.ownsDispatcher = false
    } else {
      const timeout = opts.timeoutMs ?? 60_000
      this.dispatcher = new Agent({
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        connections: 8,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        connect: {
          ...(opts.ca ? {ca: opts.ca} : {}),
          rejectUnauthorized: !opts.insecure,
          timeout: 10_000,
        },
      })
      this.ownsDispatcher = true
    }
  }

  /**
   * The account's engine time (a test clock may run ahead of real time), as the last answer said
   * it in Gw-Engine-Time, moved on by the wall time since; undefined before any answer said it.
   */
  engineTime(): Date | undefined {
    return this.engineSeen && new Date(this.engineSeen.engineMs + (Date.now() - this.engineSeen.wallMs))
  }

  /** Whether a successful answer came without Gw-Engine-Time (a server older than that header). */
  get engineTimeUnsaid(): boolean {
    return this.engineUnsaid && !this.engineSeen
  }

  private noteEngineTime(status: number, headers: Record<string, string | string[] | undefined>): void {
    const at = parseEngineTime(header(headers, 'gw-engine-time'))
    if (at !== undefined) this.engineSeen = {engineMs: at, wallMs: Date.now()}
    else if (status >= 200 && status < 300 && this.apiKey) this.engineUnsaid = true
  }

  /** Releases the keep-alive sockets so the process can exit. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close()
  }

  url(path: string, query?: Query): string {
    const p = path.startsWith('/') ? path : `/${path}`
    let url = this.baseUrl + p
    if (query) {
      const qs = new URLSearchParams()
      for (const [k, v] of Object.entries(query)) {
        if (v === undefined || v === null || v === '') continue
        qs.append(k, String(v))
      }
      const s = qs.toString()
      if (s) url += (url.includes('?') ? '&' : '?') + s
    }
    return url
  }

  async get<T>(path: string, query?: Query): Promise<T> {
    return (await this.request<T>('GET', path, {query})).data
  }

  async post<T>(path: string, body?: unknown, opts: {idempotencyKey?: string} = {}): Promise<T> {
    return (await this.request<T>('POST', path, {body, idempotencyKey: opts.idempotencyKey})).data
  }

  async delete<T>(path: string): Promise<T> {
    return (await this.request<T>('DELETE', path)).data
  }

  /** One API call with the retry policy applied. */
  async request<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = this.url(path, opts.query)
    const headers: Record<string, string> = {
      // no key (`gw api spec` without a login asks for the public document): no header at all
      ...(this.apiKey ? {authorization: `Bearer ${this.apiKey}`} : {}),
      accept: 'application/json',
      'user-agent': this.userAgent,
      'service-version': 'v1',
      ...opts.headers,
    }
    let idempotencyKey: string | undefined
    if (method === 'POST') {
      idempotencyKey = opts.idempotencyKey ?? randomUUID()
      headers['idempotency-key'] = idempotencyKey
    }
    let body: string | undefined
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body)
      headers['content-type'] = 'application/json'
    }
    const shownPath = new URL(url).pathname + new URL(url).search
    // the budget counts the time waited between attempts and the time the attempts took
    let spent = 0

    for (let attempt = 0; ; attempt++) {
      const started = performance.now()
      this.log?.(`> ${method} ${shownPath}${idempotencyKey ? ` (Idempotency-Key ${idempotencyKey})` : ''}${attempt ? ` [retry ${attempt}/${this.maxRetries}]` : ''}`)
      let res: Dispatcher.ResponseData
      let text: string
      try {
        res = await request(url, {method, headers, body, dispatcher: this.dispatcher})
        text = await res.body.text()
      } catch (error) {
        const netErr = toNetworkError(error, url, this.tlsAdvice)
        const ms = Math.round(performance.now() - started)
        this.log?.(`< ${netErr.code} after ${ms}ms: ${netErr.message}`)
        if (attempt < this.maxRetries && isRetryableNetworkCode(netErr.code)) {
          await this.wait(backoffDelay(attempt, this.random), attempt)
          continue
        }
        netErr.retries = attempt
        netErr.idempotencyKey = idempotencyKey
        throw netErr
      }
      const ms = Math.round(performance.now() - started)
      spent += ms
      const requestId = header(res.headers, 'request-id')
      this.noteEngineTime(res.statusCode, res.headers)
      const data = parseBody(text, header(res.headers, 'content-type'))
      this.log?.(`< ${res.statusCode} in ${ms}ms${requestId ? ` request_id=${requestId}` : ''}`)
      if (res.statusCode >= 200 && res.statusCode < 300) {
        return {status: res.statusCode, data: data as T, requestId, idempotencyKey, headers: res.headers}
      }
      const retryAfter = parseRetryAfter(header(res.headers, 'retry-after'))
      const err = ApiError.fromResponse(res.statusCode, data, {requestId, retryAfter})
      err.idempotencyKey = idempotencyKey
      if (isRetryableStatus(err)) {
        // a 503 or 429 with Retry-After says "come back then": retried for the budget (a database restart takes seconds)
        const comeBack = (err.status === 503 || err.status === 429) && retryAfter !== undefined
        const delay = retryAfter !== undefined && comeBack ? retryAfterDelay(retryAfter, this.random) : backoffDelay(attempt, this.random)
        const tooLong = err.status === 429 && retryAfter !== undefined && retryAfter > this.maxRetryAfterSeconds
        // (maxRetries 0 turns the client's retries off altogether: a caller that reconnects itself, e.g. the event feed)
        const within = comeBack && this.maxRetries > 0 ? spent + delay <= this.retryBudgetMs : attempt < this.maxRetries
        if (within && !tooLong) {
          spent += delay
          await this.wait(delay, attempt)
          continue
        }
      }
      err.retries = attempt
      throw err
    }
  }

  /**
   * GET one of the engine's operations endpoints (/healthz, /readyz, /metrics: they take no key)
   * at the base URL's origin, or at another instance's (`https://host:port`, a fleet's member):
   * once, no retries, within `timeoutMs`. The key is sent only to /metrics (the instances of one
   * fleet share keys): without one it shows no account's series, with it the key's account's.
   * Any status is an answer; a connection that fails throws NetworkError (ECONNREFUSED: nothing
   * listens there).
   */
  async operations(path: '/healthz' | '/readyz' | '/metrics', opts: {origin?: string; timeoutMs?: number} = {}): Promise<{status: number; text: string}> {
    const url = `${opts.origin ?? new URL(this.baseUrl).origin}${path}`
    const headers: Record<string, string> = {accept: '*/*', 'user-agent': this.userAgent}
    if (path === '/metrics' && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`
    try {
      const res = await request(url, {method: 'GET', headers, dispatcher: this.dispatcher, signal: AbortSignal.timeout(opts.timeoutMs ?? 2000)})
      return {status: res.statusCode, text: await res.body.text()}
    } catch (error) {
      if ((error as Error)?.name === 'TimeoutError') throw new NetworkError(`${new URL(url).origin} did not answer ${path} within ${opts.timeoutMs ?? 2000} ms.`, 'UND_ERR_HEADERS_TIMEOUT', url, {cause: error})
      throw toNetworkError(error, url, this.tlsAdvice)
    }
  }

  /**
   * A long-lived GET (Server-Sent Events): no retries (the caller reconnects), the body handed
   * to `onChunk` as it arrives. Resolves when the server ends the body; a non-2xx answer
   * throws ApiError, a failed connection NetworkError, `signal` aborts it.
   */
  async openStream(
    path: string,
    opts: {query?: Query; headers?: Record<string, string>; signal?: AbortSignal; onOpen?: (status: number) => void; onChunk: (chunk: Buffer) => void},
  ): Promise<void> {
    const url = this.url(path, opts.query)
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: 'text/event-stream',
      'user-agent': this.userAgent,
      'service-version': 'v1',
      'cache-control': 'no-cache',
      ...opts.headers,
    }
    this.log?.(`> GET ${new URL(url).pathname + new URL(url).search} (stream)`)
    let status = 0
    let requestId: string | null = null
    let contentType: string | null = null
    let errorText = ''
    try {
      await stream(url, {method: 'GET', headers, dispatcher: this.dispatcher, signal: opts.signal, opaque: null}, ({statusCode, headers: h}) => {
        status = statusCode
        requestId = header(h as Record<string, string | string[] | undefined>, 'request-id')
        contentType = header(h as Record<string, string | string[] | undefined>, 'content-type')
        this.noteEngineTime(statusCode, h as Record<string, string | string[] | undefined>)
        const ok = statusCode >= 200 && statusCode < 300
        this.log?.(`< ${statusCode}${requestId ? ` request_id=${requestId}` : ''}`)
        if (ok) opts.onOpen?.(statusCode)
        return new Writable({
          write(chunk: Buffer, _enc, cb) {
            if (ok) opts.onChunk(chunk)
            else if (errorText.length < 65_536) errorText += chunk.toString('utf8')
            cb()
          },
        })
      })
    } catch (error) {
      if ((error as Error)?.name === 'AbortError' || opts.signal?.aborted) throw error
      throw toNetworkError(error, url, this.tlsAdvice)
    }
    if (status < 200 || status >= 300) throw ApiError.fromResponse(status, parseBody(errorText, contentType), {requestId})
  }

  private async wait(ms: number, attempt: number) {
    this.log?.(`  retrying in ${(ms / 1000).toFixed(1)}s (retry ${attempt + 1} of ${this.maxRetries})`)
    await this.sleep(ms)
  }

  /** Every object of a list endpoint, page by page, following the cursor. */
  async *paginate<T extends {id: string}>(path: string, query: Query = {}, opts: {pageSize?: number; max?: number; onPage?: (page: ListEnvelope<T>) => void} = {}): AsyncGenerator<T, void, undefined> {
    const backwards = Boolean(query.ending_before)
    const q: Query = {...query, limit: opts.pageSize ?? (query.limit as number | undefined) ?? 100}
    let yielded = 0
    for (;;) {
      const page = await this.get<ListEnvelope<T>>(path, q)
      opts.onPage?.(page)
      for (const item of page.data) {
        if (opts.max !== undefined && yielded >= opts.max) return
        yielded++
        yield item
      }
      if (!page.has_more || page.data.length === 0) return
      if (opts.max !== undefined && yielded >= opts.max) return
      if (backwards) q.ending_before = page.data[0].id
      else q.starting_after = page.data[page.data.length - 1].id
    }
  }
}

/** 429, 5xx, and a concurrent request holding the same Idempotency-Key. */
export function isRetryableStatus(err: ApiError): boolean {
  if (err.status === 429 || err.status >= 500) return true
  return err.status === 409 && err.code === 'idempotency_key_in_use'
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const v = headers[name]
  if (Array.isArray(v)) return v[0] ?? null
  return v ?? null
}

function parseBody(text: string, contentType: string | null): unknown {
  if (!text) return null
  if (contentType && !contentType.includes('json')) return text
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const date = Date.parse(value)
  if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000))
  return undefined
}

export {ApiError, NetworkError}
