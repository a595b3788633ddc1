// For tests of the SSE streams: a stream handler served once on a plain HTTP server, and a client
// of an engine's event stream.
import http from 'node:http'
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {request} from 'undici'
import {expect} from 'vitest'
import type {TestEngine} from './harness.js'

/**
 * Serves `start` on a plain HTTP server, connects one client and waits until `start` has run:
 * what the client receives (`got`, growing), the errors the response raised (with no listener, an
 * 'error' on a response is an uncaught exception that stops the process: here it is recorded), and
 * the server to close afterwards.
 */
export async function streamOnce(start: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): Promise<{got: string[]; errors: Error[]; server: http.Server}> {
  const errors: Error[] = []
  let opened!: () => void
  const ready = new Promise<void>((r) => (opened = r))
  const server = http.createServer(async (req, res) => {
    res.on('error', (e) => errors.push(e))
    await start(req, res)
    opened()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const got: string[] = []
  http.get({port: (server.address() as AddressInfo).port, host: '127.0.0.1', path: '/'}, (r) => r.on('data', (c) => got.push(String(c)))).on('error', () => {})
  await ready
  return {got, errors, server}
}

/** Once a stream was ended at shutdown: no error on its response (a write after its end), what came before the end sent, what came after not. */
export async function expectEndedCleanly(s: {got: string[]; errors: Error[]}, sent: string, notSent: string): Promise<void> {
  await new Promise((r) => setTimeout(r, 50))
  expect(s.errors.map((e) => (e as NodeJS.ErrnoException).code)).toEqual([])
  expect(s.got.join('')).toContain(sent)
  expect(s.got.join('')).not.toContain(notSent)
}

/**
 * Serves `start` on a plain HTTP server to one client that goes away 50 ms after it connected;
 * `whenGone` runs once the server has seen it go. Resolves 20 ms after `start` has returned,
 * with the server to close.
 */
export async function clientGoneEarly(start: (req: IncomingMessage, res: ServerResponse) => Promise<void>, whenGone: () => void = () => {}): Promise<http.Server> {
  let closed!: () => void
  const gone = new Promise<void>((r) => (closed = r))
  let returned!: () => void
  const ran = new Promise<void>((r) => (returned = r))
  const server = http.createServer(async (req, res) => {
    req.on('close', closed)
    await start(req, res)
    returned()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const client = http.get({port: (server.address() as AddressInfo).port, host: '127.0.0.1', path: '/'})
  client.on('error', () => {})
  await new Promise((r) => setTimeout(r, 50))
  client.destroy()
  await gone
  whenGone()
  await ran
  await new Promise((r) => setTimeout(r, 20))
  return server
}

/** An open SSE stream of GET /events/stream (after `lastEventId`, with `query`), collecting its events as they come. */
export async function openEventStream(t: TestEngine, lastEventId?: string, query = '') {
  const ac = new AbortController()
  const headers: Record<string, string> = {authorization: `Bearer ${t.key}`, accept: 'text/event-stream'}
  if (lastEventId) headers['last-event-id'] = lastEventId
  const res = await request(`${t.engine.baseUrl}/events/stream${query}`, {headers, dispatcher: t.agent, signal: ac.signal})
  const events: {id: string; event: string; data: any}[] = []
  let buf = ''
  const waiters: (() => void)[] = []
  const pump = (async () => {
    try {
      for await (const chunk of res.body) {
        buf += chunk.toString('utf8')
        let i: number
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i)
          buf = buf.slice(i + 2)
          const f: Record<string, string> = {}
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue
            const c = line.indexOf(':')
            if (c < 0) continue
            f[line.slice(0, c)] = (f[line.slice(0, c)] ? f[line.slice(0, c)] + '\n' : '') + line.slice(c + 1).replace(/^ /, '')
          }
          if (f.data !== undefined) events.push({id: f.id!, event: f.event!, data: JSON.parse(f.data)})
          for (const w of waiters.splice(0)) w()
        }
      }
    } catch {
      /* aborted */
    }
  })()
  return {
    status: res.statusCode,
    headers: res.headers,
    events,
    async waitFor(pred: (e: {id: string; event: string; data: any}) => boolean, ms = 5000) {
      const deadline = Date.now() + ms
      for (;;) {
        const hit = events.find(pred)
        if (hit) return hit
        if (Date.now() > deadline) throw new Error(`no matching SSE event; got ${events.map((e) => e.event).join(', ')}`)
        await new Promise<void>((r) => {
          waiters.push(r)
          setTimeout(r, 100)
        })
      }
    },
    async close() {
      ac.abort()
      await pump
    },
  }
}
