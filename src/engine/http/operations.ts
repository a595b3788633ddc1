// What a load balancer and Prometheus ask an instance, without a key (issue 25):
//   GET /healthz  liveness: the process answers (200 while it runs, even with its database down)
//   GET /readyz   readiness: the store answers a read within 2 s, and the instance is not stopping
//                 (503 otherwise: a balancer takes the instance out until it is ready again)
//   GET /metrics  Prometheus metrics of this instance (metrics.ts); with `gw serve --metrics-listen
//                 HOST:PORT` (issue 33) on that address alone, over plain HTTP as exporters serve them,
//                 and 404 on the API port: the metrics name every account and endpoint id
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

/**
 * What a load balancer and Prometheus ask, answered by the API port's pipeline. `metricsElsewhere`:
 * the metrics are served on their own address (serveMetrics), so /metrics is 404 here.
 */
export function createOperations(app: App, metrics: Metrics, state: {stopping: boolean}, opts: {metricsElsewhere?: boolean} = {}) {
  const send = (res: ServerResponse, status: number, requestId: string, contentType: string, body: string, head: boolean) => {
    if (res.headersSent) return
    res.writeHead(status, {'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Request-Id': requestId, 'Cache-Control': 'no-store'})
    res.end(head ? undefined : body)
  }
  const ready = async (): Promise<string | undefined> => {
    if (state.stopping) return 'the instance is stopping'
    return (await storeAnswers(app.core.engineStore)) ? undefined : `the store does not answer a read within ${READY_TIMEOUT_MS / 1000} s`
  }
  const scrape = async (res: ServerResponse, requestId: string, head: boolean): Promise<void> => {
    let text: string
    try {
      text = await metrics.text()
    } catch (e) {
      // a gauge read from the store failed (database down): say so rather than hide the instance
      return send(res, 503, requestId, 'text/plain; charset=utf-8', `# metrics unavailable: ${(e as Error).message}\n`, head)
    }
    send(res, 200, requestId, METRICS_CONTENT_TYPE, text, head)
  }
  const operations = async function operations(req: IncomingMessage, res: ServerResponse, pathname: string, requestId: string, own = false): Promise<void> {
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
    return scrape(res, requestId, head)
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
    if (path === '/metrics') return void operations(req, res, '/metrics', requestId, true).catch(() => res.destroy())
    res.writeHead(404, {'Content-Type': 'text/plain; charset=utf-8', 'Request-Id': requestId})
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
