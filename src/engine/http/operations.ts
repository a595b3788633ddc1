// What a load balancer and Prometheus ask an instance, without a key (issue 25):
//   GET /healthz  liveness: the process answers (200 while it runs, even with its database down)
//   GET /readyz   readiness: the store answers a read within 2 s, and the instance is not stopping
//                 (503 otherwise: a balancer takes the instance out until it is ready again)
//   GET /metrics  Prometheus metrics of this instance (metrics.ts)
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {App} from '../app/index.js'
import {PLATFORM_ACCOUNT} from '../ports/store.js'
import {METRICS_CONTENT_TYPE, type Metrics} from './metrics.js'

const READY_TIMEOUT_MS = 2000
const JSON_TYPE = 'application/json; charset=utf-8'

export function createOperations(app: App, metrics: Metrics, state: {stopping: boolean}) {
  const send = (res: ServerResponse, status: number, requestId: string, contentType: string, body: string, head: boolean) => {
    if (res.headersSent) return
    res.writeHead(status, {'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Request-Id': requestId, 'Cache-Control': 'no-store'})
    res.end(head ? undefined : body)
  }
  const ready = async (): Promise<string | undefined> => {
    if (state.stopping) return 'the instance is stopping'
    let timer: NodeJS.Timeout | undefined
    try {
      await Promise.race([
        app.core.engineStore.account(PLATFORM_ACCOUNT).getSetting('readiness_probe'),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS))),
      ])
      return undefined
    } catch (e) {
      return `the store does not answer: ${(e as Error).message}`
    } finally {
      clearTimeout(timer)
    }
  }
  return async function operations(req: IncomingMessage, res: ServerResponse, pathname: string, requestId: string): Promise<void> {
    const head = req.method === 'HEAD'
    if (req.method !== 'GET' && !head) {
      const body = JSON.stringify({error: {type: 'invalid_request_error', code: 'route_unknown', message: `${pathname} answers GET (and HEAD) only.`, doc_url: 'https://docs.gw.dev/errors#route_unknown', request_id: requestId}})
      return send(res, 404, requestId, JSON_TYPE, body, false)
    }
    if (pathname === '/healthz') return send(res, 200, requestId, JSON_TYPE, '{"status":"ok"}', head)
    if (pathname === '/readyz') {
      const why = await ready()
      return why === undefined ? send(res, 200, requestId, JSON_TYPE, '{"status":"ready"}', head) : send(res, 503, requestId, JSON_TYPE, JSON.stringify({status: 'not_ready', reason: why}), head)
    }
    let text: string
    try {
      text = await metrics.text()
    } catch (e) {
      // a gauge read from the store failed (database down): say so rather than hide the instance
      return send(res, 503, requestId, 'text/plain; charset=utf-8', `# metrics unavailable: ${(e as Error).message}\n`, head)
    }
    send(res, 200, requestId, METRICS_CONTENT_TYPE, text, head)
  }
}
