import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {MockAgent} from 'undici'
import {GwClient} from '../../../client/index.js'
import {EventFeed, type FeedEvent, type FeedStatus} from './feed.js'
import {ev, frame, list} from './test-support/events.js'

const BASE = 'https://api.test'
const json = {headers: {'content-type': 'application/json'}}
const sse = {headers: {'content-type': 'text/event-stream'}}


let mock: MockAgent
let client: GwClient
beforeEach(() => {
  mock = new MockAgent()
  mock.disableNetConnect()
  client = new GwClient({baseUrl: `${BASE}/v1`, apiKey: 'sk_test_x', dispatcher: mock, maxRetries: 0, sleep: async () => {}})
})
afterEach(async () => {
  await mock.close()
})

/** Runs a feed until `until` says stop (checked after every event and status). */
async function runFeed(opts: {types?: string; cursor?: string | null; until: (events: FeedEvent[], statuses: FeedStatus[]) => boolean; pollIntervalMs?: number}) {
  const events: FeedEvent[] = []
  const statuses: FeedStatus[] = []
  const ac = new AbortController()
  const check = () => {
    if (opts.until(events, statuses)) ac.abort()
  }
  const feed = new EventFeed({
    client,
    types: opts.types,
    cursor: opts.cursor,
    signal: ac.signal,
    // no real wait, but a turn of the event loop: a feed retrying in a loop cannot starve the timeout below
    sleep: () => new Promise((r) => setImmediate(r)),
    pollIntervalMs: opts.pollIntervalMs,
    onEvent: (e) => {
      events.push(e)
      check()
    },
    onStatus: (s) => {
      statuses.push(s)
      check()
    },
  })
  const timeout = setTimeout(() => ac.abort(), 5000)
  await feed.run()
  clearTimeout(timeout)
  return {events, statuses, feed}
}

describe('EventFeed over SSE', () => {
  it('streams events, then after a drop backfills the gap through GET /events (marked) and resumes with Last-Event-ID', async () => {
    const pool = mock.get(BASE)
    const streamCalls: {lastEventId?: string; query: string}[] = []
    pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([ev(1)]), json)
    // first connection: two events, then the server drops it
    pool
      .intercept({path: (p) => p.startsWith('/v1/events/stream'), method: 'GET'})
      .reply((o) => {
        streamCalls.push({lastEventId: (o.headers as Record<string, string>)['last-event-id'], query: o.path})
        return {statusCode: 200, data: `retry: 1000\n: connected\n\n${frame(ev(2))}${frame(ev(3))}`, responseOptions: sse}
      })
    // the gap: two pages newer than evt_3 (ending_before pages come newest first)
    pool.intercept({path: '/v1/events?ending_before=evt_3&type=payment.*&limit=100', method: 'GET'}).reply(200, list([ev(5), ev(4)], true), json)
    pool.intercept({path: '/v1/events?ending_before=evt_5&type=payment.*&limit=100', method: 'GET'}).reply(200, list([ev(6)]), json)
    // second connection resumes after the newest backfilled event; it replays evt_6 (a duplicate) and sends evt_7
    pool
      .intercept({path: (p) => p.startsWith('/v1/events/stream'), method: 'GET'})
      .reply((o) => {
        streamCalls.push({lastEventId: (o.headers as Record<string, string>)['last-event-id'], query: o.path})
        return {statusCode: 200, data: `${frame(ev(6))}: heartbeat\n\n${frame(ev(7))}`, responseOptions: sse}
      })
    const {events, statuses} = await runFeed({types: 'payment.*', until: (e) => e.length >= 6})
    expect(events.map((e) => [e.event.id, e.backfilled])).toEqual([
      ['evt_2', false],
      ['evt_3', false],
      ['evt_4', true],
      ['evt_5', true],
      ['evt_6', true],
      ['evt_7', false],
    ])
    // the raw SSE data is kept byte for byte
    expect(events[0]!.raw).toBe(JSON.stringify(ev(2)))
    expect(streamCalls).toEqual([
      {lastEventId: 'evt_1', query: '/v1/events/stream?type=payment.*'},
      {lastEventId: 'evt_6', query: '/v1/events/stream?type=payment.*'},
    ])
    const kinds = statuses.map((s) => s.state)
    expect(kinds).toEqual(['connecting', 'live', 'disconnected', 'live'])
    expect(statuses[2]).toMatchObject({state: 'disconnected', reason: 'the server closed the stream', attempt: 1})
    expect(statuses[3]).toMatchObject({state: 'live', mode: 'stream', resumed: true, backfilled: 3})
  })

  it('starts from a cursor: backfills first, then streams', async () => {
    const pool = mock.get(BASE)
    pool.intercept({path: '/v1/events?ending_before=evt_10&limit=100', method: 'GET'}).reply(200, list([ev(12), ev(11)]), json)
    let header: string | undefined
    pool
      .intercept({path: '/v1/events/stream', method: 'GET'})
      .reply((o) => {
        header = (o.headers as Record<string, string>)['last-event-id']
        return {statusCode: 200, data: frame(ev(13)), responseOptions: sse}
      })
    const {events, statuses} = await runFeed({cursor: 'evt_10', until: (e) => e.length >= 3})
    expect(events.map((e) => [e.event.id, e.backfilled])).toEqual([
      ['evt_11', true],
      ['evt_12', true],
      ['evt_13', false],
    ])
    expect(header).toBe('evt_12')
    expect(statuses[1]).toMatchObject({state: 'live', resumed: false, backfilled: 2})
  })

  it('with an empty log at the start, the stream once open reads everything there is (nothing committed before it subscribed is lost), then resumes from it', async () => {
    const pool = mock.get(BASE)
    pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([]), json)
    let header: string | undefined = 'unset'
    pool
      .intercept({path: '/v1/events/stream', method: 'GET'})
      .reply((o) => {
        header = (o.headers as Record<string, string>)['last-event-id']
        return {statusCode: 200, data: ': connected\n\n', responseOptions: sse}
      })
    // evt_1 and evt_2 were committed between the empty read and the stream's subscription
    pool.intercept({path: '/v1/events?limit=100', method: 'GET'}).reply(200, list([ev(2), ev(1)]), json)
    pool.intercept({path: '/v1/events?ending_before=evt_2&limit=100', method: 'GET'}).reply(200, list([]), json)
    pool.intercept({path: '/v1/events/stream', method: 'GET', headers: {'last-event-id': 'evt_2'}}).reply(200, frame(ev(3)), sse)
    const {events} = await runFeed({until: (e) => e.length >= 3})
    expect(header).toBeUndefined()
    expect(events.map((e) => [e.event.id, e.backfilled])).toEqual([
      ['evt_1', true],
      ['evt_2', true],
      ['evt_3', false],
    ])
  })

  it('with an empty log at the start, an event streamed while the log is read stays the resume point; the older one read is emitted once', async () => {
    const pool = mock.get(BASE)
    pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([]), json)
    // evt_1 was committed before the stream subscribed (not streamed); evt_2 after (streamed and also read)
    pool.intercept({path: '/v1/events/stream', method: 'GET'}).reply(200, `: connected\n\n${frame(ev(2))}`, sse)
    pool.intercept({path: '/v1/events?limit=100', method: 'GET'}).reply(200, list([ev(2), ev(1)]), json)
    pool.intercept({path: '/v1/events?ending_before=evt_2&limit=100', method: 'GET'}).reply(200, list([]), json)
    let resumedFrom: string | undefined
    pool
      .intercept({path: '/v1/events/stream', method: 'GET'})
      .reply((o) => {
        resumedFrom = (o.headers as Record<string, string>)['last-event-id']
        return {statusCode: 200, data: frame(ev(3)), responseOptions: sse}
      })
    const {events} = await runFeed({until: (e) => e.length >= 3})
    const byId = new Map(events.map((e) => [e.event.id, e.backfilled]))
    expect(events.map((e) => e.event.id).sort()).toEqual(['evt_1', 'evt_2', 'evt_3'])
    expect(byId.get('evt_1')).toBe(true)
    expect(byId.get('evt_3')).toBe(false)
    expect(resumedFrom).toBe('evt_2')
  })

  it('resuming from an empty log (a cursor saved before any event existed) backfills every event', async () => {
    const pool = mock.get(BASE)
    pool.intercept({path: '/v1/events?type=payment.*&limit=100', method: 'GET'}).reply(200, list([ev(2), ev(1)]), json)
    pool.intercept({path: '/v1/events/stream?type=payment.*', method: 'GET', headers: {'last-event-id': 'evt_2'}}).reply(200, frame(ev(3)), sse)
    const events: FeedEvent[] = []
    const ac = new AbortController()
    const feed = new EventFeed({
      client,
      types: 'payment.*',
      fromEmptyLog: true,
      signal: ac.signal,
      sleep: async () => {},
      onEvent: (e) => {
        events.push(e)
        if (events.length >= 3) ac.abort()
      },
    })
    await feed.run()
    expect(events.map((e) => [e.event.id, e.backfilled])).toEqual([
      ['evt_1', true],
      ['evt_2', true],
      ['evt_3', false],
    ])
  })

  it('reconnects after network errors and 5xx with backoff, saying so each time', async () => {
    const pool = mock.get(BASE)
    pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([ev(1)]), json)
    pool.intercept({path: '/v1/events/stream', method: 'GET'}).replyWithError(Object.assign(new Error('refused'), {code: 'ECONNREFUSED'}))
    pool.intercept({path: '/v1/events?ending_before=evt_1&limit=100', method: 'GET'}).reply(503, {error: {type: 'api_error', code: 'unavailable', message: 'down'}}, json)
    pool.intercept({path: '/v1/events?ending_before=evt_1&limit=100', method: 'GET'}).reply(200, list([]), json)
    pool.intercept({path: '/v1/events/stream', method: 'GET'}).reply(200, frame(ev(2)), sse)
    const {events, statuses} = await runFeed({until: (e) => e.length >= 1})
    expect(events.map((e) => e.event.id)).toEqual(['evt_2'])
    const down = statuses.filter((s): s is Extract<FeedStatus, {state: 'disconnected'}> => s.state === 'disconnected')
    expect(down.map((d) => [d.attempt, d.retryInMs])).toEqual([
      [1, 250],
      [2, 1000],
    ])
    expect(down[1]!.reason).toContain('HTTP 503')
    expect(statuses[statuses.length - 1]).toMatchObject({state: 'live', resumed: true})
  })

  it('falls back to polling GET /events?ending_before=... when the server has no stream (404)', async () => {
    const pool = mock.get(BASE)
    pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([ev(1)]), json)
    pool.intercept({path: '/v1/events/stream?type=payment.succeeded', method: 'GET'}).reply(404, {error: {type: 'invalid_request_error', code: 'resource_missing', message: 'No such route'}}, json)
    pool.intercept({path: '/v1/events?ending_before=evt_1&type=payment.succeeded&limit=100', method: 'GET'}).reply(200, list([]), json)
    pool.intercept({path: '/v1/events?ending_before=evt_1&type=payment.succeeded&limit=100', method: 'GET'}).reply(200, list([ev(3), ev(2)]), json)
    pool.intercept({path: '/v1/events?ending_before=evt_3&type=payment.succeeded&limit=100', method: 'GET'}).reply(200, list([ev(4)]), json)
    const {events, statuses} = await runFeed({types: 'payment.succeeded', until: (e) => e.length >= 3})
    expect(events.map((e) => [e.event.id, e.backfilled])).toEqual([
      ['evt_2', false],
      ['evt_3', false],
      ['evt_4', false],
    ])
    expect(statuses.find((s) => s.state === 'notice')).toMatchObject({message: expect.stringContaining('polling GET /events')})
    expect(statuses.find((s) => s.state === 'live')).toMatchObject({mode: 'poll'})
  })

  it('an unknown resume point (400 on Last-Event-ID) is reported, and the feed continues from the newest event', async () => {
    const pool = mock.get(BASE)
    pool
      .intercept({path: '/v1/events?ending_before=evt_gone&limit=100', method: 'GET'})
      .reply(400, {error: {type: 'invalid_request_error', code: 'parameter_invalid', param: 'ending_before', message: 'ending_before: no such event.'}}, json)
    pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([ev(8)]), json)
    pool.intercept({path: '/v1/events/stream', method: 'GET', headers: {'last-event-id': 'evt_8'}}).reply(200, frame(ev(9)), sse)
    const {events, statuses} = await runFeed({cursor: 'evt_gone', until: (e) => e.length >= 1})
    expect(events.map((e) => e.event.id)).toEqual(['evt_9'])
    expect(statuses.find((s) => s.state === 'notice')).toMatchObject({message: expect.stringContaining('evt_gone is not known')})
  })

  it('stops with the error when the key is rejected (retrying cannot fix a 401)', async () => {
    const pool = mock.get(BASE)
    pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(401, {error: {type: 'authentication_error', code: 'api_key_invalid', message: 'Invalid API key.'}}, json)
    await expect(runFeed({until: () => false})).rejects.toMatchObject({status: 401})
  })

  it('treats a silent connection as dead after the idle timeout', async () => {
    // a real server: the first stream is accepted and then stays silent
    const {createServer} = await import('node:http')
    let streams = 0
    const server = createServer((req, res) => {
      const url = req.url ?? ''
      const send = (body: unknown) => res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(body))
      if (url === '/v1/events?limit=1') return send(list([ev(1)]))
      if (url === '/v1/events?ending_before=evt_1&limit=100') return send(list([ev(2)]))
      if (url.startsWith('/v1/events/stream')) {
        streams++
        res.writeHead(200, {'content-type': 'text/event-stream'})
        res.flushHeaders()
        if (streams > 1) res.write(frame(ev(3)))
        return
      }
      res.writeHead(404).end()
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as {port: number}).port
    const real = new GwClient({baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk_test_x', maxRetries: 0})
    const events: FeedEvent[] = []
    const statuses: FeedStatus[] = []
    const ac = new AbortController()
    const feed = new EventFeed({
      client: real,
      signal: ac.signal,
      sleep: async () => {},
      idleTimeoutMs: 150,
      onEvent: (e) => {
        events.push(e)
        if (events.length >= 2) ac.abort()
      },
      onStatus: (st) => statuses.push(st),
    })
    try {
      await feed.run()
    } finally {
      await real.close()
      server.closeAllConnections()
      server.close()
    }
    expect(events.map((e) => [e.event.id, e.backfilled])).toEqual([
      ['evt_2', true],
      ['evt_3', false],
    ])
    expect(streams).toBe(2)
    expect(statuses.find((st) => st.state === 'disconnected')).toMatchObject({reason: expect.stringContaining('no data for')})
  })
})
