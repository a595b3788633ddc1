// What a load balancer and Prometheus ask an instance, without a key (docs/decisions.md#the-fleet):
//   GET /healthz  liveness: the process answers (200 while it runs, even with its database down)
//   GET /readyz   readiness: the store answers a read within 2 s, and the instance is not stopping
//                 (503 otherwise: a balancer takes the instance out until it is ready again)
//   GET /metrics  Prometheus metrics of this instance (metrics.ts); with `gw serve --metrics-listen
//                 HOST:PORT` on that address alone, over plain HTTP as exporters serve them,
//                 and 404 on the API port. On the API port a caller without a key gets the aggregate
//                 series only: those naming an account or endpoint id need the platform account's key
//                 (every account's) or an account's own key (its own) (docs/api.md#what-a-key-reaches)
import http, {type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import type {App} from '../app/index.js'
import {METRICS_CONTENT_TYPE, storeAnswers, type Metrics} from './metrics.js'
import {JSON_CONTENT_TYPE} from './answer.js'

const READY_TIMEOUT_MS = 2000

/** `--metrics-listen`: HOST:PORT, [IPv6]:PORT; undefined when it is not one. */
export function parseListen(raw: string): {host: string; port: number} | undefined {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(raw.trim())
  const port = Number(m?.[3])
  if (!m || port > 65535) return undefined
  return {host: m[1] ?? m[2]!, port}
}

/** Which series of /metrics a caller reads: every one, those of no account (a caller without a key), or one account's and the aggregate ones. */
export type MetricsScope = 'all' | 'aggregate' | {account: string}

/** A label naming an account or an endpoint (whose id belongs to one account). */
const ACCOUNT_LABEL = /[{,]account="([^"]*)"/
const ENDPOINT_LABEL = /[{,]endpoint="/

/** The exposition text with only the series `scope` may read (comments stay: a family may then have no series). */
export function scopedMetrics(text: string, scope: MetricsScope): string {
  if (scope === 'all') return text
  const own = typeof scope === 'object' ? scope.account : undefined
  let out = ''
  for (const line of text.split('\n')) {
    if (line.charCodeAt(0) !== 0x23 /* # */) {
      const brace = line.indexOf('{')
      if (brace >= 0) {
        const labels = line.slice(brace, line.indexOf('}', brace) + 1)
        const account = ACCOUNT_LABEL.exec(labels)?.[1]
        if (account !== undefined ? account !== own : ENDPOINT_LABEL.test(labels)) continue
      }
    }
    out += `${line}\n`
  }
  return out.slice(0, -1)
}

/**
 * What a load balancer and Prometheus ask, answered by the API port's pipeline. `metricsElsewhere`:
 * the metrics are served on their own address (serveMetrics), so /metrics is 404 here.
 */
export function createOperations(app: App, metrics: Metrics, state: {stopping: boolean}, opts: {metricsElsewhere?: boolean} = {}) {
  const send = (res: ServerResponse, status: number, requestId: string, contentType: string, body: string, head: boolean) => {
    if (res.headersSent) return
    res.writeHead(status, {'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Request-Id': requestId, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff'})
    res.end(head ? undefined : body)
  }
  const ready = async (): Promise<string | undefined> => {
    if (state.stopping) return 'the instance is stopping'
    return (await storeAnswers(app.core.engineStore)) ? undefined : `the store does not answer a read within ${READY_TIMEOUT_MS / 1000} s`
  }
  const scrape = async (res: ServerResponse, requestId: string, head: boolean, scope: MetricsScope): Promise<void> => {
    let text: string
    try {
      text = scopedMetrics(await metrics.text(), scope)
    } catch (e) {
      // a gauge read from the store failed (database down): say so rather than hide the instance
      return send(res, 503, requestId, 'text/plain; charset=utf-8', `# metrics unavailable: ${(e as Error).message}\n`, head)
    }
    send(res, 200, requestId, METRICS_CONTENT_TYPE, text, head)
  }
  /** `scope`: which series /metrics shows (its own address: all; the API port: what the caller's key may read). */
  const operations = async function operations(req: IncomingMessage, res: ServerResponse, pathname: string, requestId: string, scope: MetricsScope = 'aggregate', own = false): Promise<void> {
    const head = req.method === 'HEAD'
    if (req.method !== 'GET' && !head) {
      const body = JSON.stringify({error: {type: 'invalid_request_error', code: 'route_unknown', message: `${pathname} answers GET (and HEAD) only.`, doc_url: 'https://docs.gw.dev/errors#route_unknown', request_id: requestId}})
      return send(res, 404, requestId, JSON_CONTENT_TYPE, body, false)
    }
    if (pathname === '/healthz') return send(res, 200, requestId, JSON_CONTENT_TYPE, '{"status":"ok"}', head)
    if (pathname === '/readyz') {
      const why = await ready()
      return why === undefined ? send(res, 200, requestId, JSON_CONTENT_TYPE, '{"status":"ready"}', head) : send(res, 503, requestId, JSON_CONTENT_TYPE, JSON.stringify({status: 'not_ready', reason: why}), head)
    }
    if (opts.metricsElsewhere && !own) {
      const body = JSON.stringify({error: {type: 'invalid_request_error', code: 'route_unknown', message: 'Metrics are not served on the API port of this instance: it serves them on its own address (gw serve --metrics-listen).', doc_url: 'https://docs.gw.dev/errors#route_unknown', request_id: requestId}})
      return send(res, 404, requestId, JSON_CONTENT_TYPE, body, false)
    }
    return scrape(res, requestId, head, scope)
  }
  return operations
}

/**
 * GET /metrics on an address of its own (`gw serve --metrics-listen`), plain HTTP as Prometheus
 * exporters serve (a scraper on the private network needs no CA); anything else is 404.
 */
export async function serveMetrics(at: {host: string; port: number}, operations: ReturnType<typeof createOperations>, newRequestId: () => string): Promise<{url: string; close(): Promise<void>}> {
  const server = http.createServer((req, res) => {
    const requestId = newRequestId()
    const path = (req.url ?? '/').split('?')[0]
    if (path === '/metrics') return void operations(req, res, '/metrics', requestId, 'all', true).catch(() => res.destroy())
    res.writeHead(404, {'Content-Type': 'text/plain; charset=utf-8', 'Request-Id': requestId, 'X-Content-Type-Options': 'nosniff'})
    res.end('Only /metrics is served here.\n')
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(at.port, at.host, () => resolve())
  })
  const {port} = server.address() as AddressInfo
  const host = at.host.includes(':') ? `[${at.host}]` : at.host
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
