// The API request log's SSE stream (GET /v1/request_logs/stream), on a plain HTTP server.
import {EventEmitter} from 'node:events'
import type http from 'node:http'
import type {IncomingMessage, ServerResponse} from 'node:http'
import {afterEach, describe, expect, it} from 'vitest'
import type {Clock} from '../ports/clock.js'
import type {RequestLogStore} from '../ports/store.js'
import {waitFor} from '../test-support/wait.js'
import {clientGoneEarly, expectEndedCleanly, streamOnce} from '../test-support/sse.js'
import {RequestLog} from './request-log.js'
import type {RequestCtx} from './router.js'

let server: http.Server | undefined
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
})

/** A request the pipeline tracks, and a way to finish it. */
function tracked(log: RequestLog, id: string) {
  const res = Object.assign(new EventEmitter(), {statusCode: 200}) as unknown as ServerResponse
  const who = log.track({method: 'GET'} as IncomingMessage, res, id, '/v1/payments')!
  Object.assign(who, {account: 'acct_1', livemode: false})
  return () => res.emit('finish')
}

describe('RequestLog stream', () => {
  it('a request finishing after closeStreams() (shutdown lets requests in flight finish) is not written to the ended stream: no write-after-end error, which would stop the engine', async () => {
    const log = new RequestLog(() => ({now: () => new Date()}) as unknown as Clock)
    const ctx = {requestId: 'req_stream', query: new URLSearchParams(), headers: {}, account: 'acct_1', livemode: false} as unknown as RequestCtx
    const stream = await streamOnce(async (req, res) => (await log.stream(ctx)).stream!(req, res))
    server = stream.server
    const first = tracked(log, 'req_first')
    const late = tracked(log, 'req_late')
    first()
    log.closeStreams()
    late()
    await expectEndedCleanly(stream, 'id: req_first', 'req_late')
  })
})

describe('a client gone before its request-log stream starts', () => {
  it('leaves no subscription or heartbeat behind (the stream once subscribed to a response already closed, for good)', async () => {
    const log = new RequestLog(() => ({now: () => new Date()}) as unknown as Clock)
    const ctx = {requestId: 'req_stream', query: new URLSearchParams(), headers: {}, account: 'acct_1', livemode: false} as unknown as RequestCtx
    server = await clientGoneEarly(async (req, res) => {
      // the pipeline awaits the rate limit before the handler: the client goes meanwhile
      await new Promise<void>((r) => req.on('close', r))
      ;(await log.stream(ctx)).stream!(req, res)
    })
    expect((log as unknown as {backend: {subscribers: Set<unknown>}}).backend.subscribers.size).toBe(0)
  })
})

describe('a request whose record cannot be made', () => {
  it('is contained: the failure goes to contain() with the account, once, and nothing is thrown from the response\'s event', () => {
    const contained: {e: unknown; account: string | null}[] = []
    const log = new RequestLog(
      () => ({now: () => new Date(NaN)}) as unknown as Clock,
      1000,
      undefined,
      {contain: (e, account) => void contained.push({e, account})},
    )
    const finish = tracked(log, 'req_poisoned')
    expect(finish).not.toThrow()
    expect(contained).toHaveLength(1)
    expect(contained[0]!.account).toBe('acct_1')
    expect(String(contained[0]!.e)).toMatch(/Invalid time value/)
  })
})

describe('the fleet\'s request log while the store is down', () => {
  it('keeps the entries in memory (the newest, up to its bound, counting those dropped), says so once, and writes them in order when the store is back', async () => {
    let up = false
    let attempts = 0
    const written: string[] = []
    const store = {
      async append(entries: readonly {entry: string}[]) {
        attempts++
        if (!up) throw new Error('connection refused')
        for (const e of entries) written.push((JSON.parse(e.entry) as {id: string}).id)
      },
      async trim() {},
      onAppend: () => () => {},
    } as unknown as RequestLogStore
    const lines: string[] = []
    const log = new RequestLog(() => ({now: () => new Date()}) as unknown as Clock, 1000, undefined, {store, log: (l) => void lines.push(l), outageBuffer: 3})
    for (const id of ['req_1', 'req_2']) tracked(log, id)()
    await waitFor('a first write tried', async () => attempts >= 1)
    for (const id of ['req_3', 'req_4', 'req_5']) tracked(log, id)()
    await waitFor('a second write tried', async () => attempts >= 2)
    expect(log.outage).toEqual({buffered: 3, dropped: 2})
    expect(lines.filter((l) => l.includes('not written'))).toHaveLength(1)
    up = true
    await waitFor('the kept entries written', async () => written.length === 3)
    expect(written).toEqual(['req_3', 'req_4', 'req_5'])
    expect(log.outage).toEqual({buffered: 0, dropped: 2})
    expect(lines.at(-1)).toMatch(/store is back; 3 entries .* \(2 older ones were dropped/)
    await log.close()
  })
})
