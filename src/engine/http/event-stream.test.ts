// The SSE stream of GET /v1/events/stream against a live feed, on a plain HTTP server.
import type http from 'node:http'
import {afterEach, describe, expect, it} from 'vitest'
import type {App} from '../app/index.js'
import type {LoggedEvent} from '../ports/store.js'
import {clientGoneEarly, expectEndedCleanly, streamOnce} from '../test-support/sse.js'
import {EventStreams} from './event-stream.js'
import type {RequestCtx} from './router.js'

/** An app with an empty store and a feed the test publishes to. */
function fakeApp(getEvent: (id: string) => Promise<LoggedEvent | undefined> = async () => undefined) {
  const subscribers = new Set<(e: LoggedEvent) => void>()
  /** streams that follow the feed (EventFeed.follow) and have not released it */
  const follows = {held: 0}
  const feed = {
    position: 0,
    async follow() {
      follows.held++
      let released = false
      return () => void (!released && ((released = true), follows.held--))
    },
    subscribe(fn: (e: LoggedEvent) => void) {
      subscribers.add(fn)
      return () => subscribers.delete(fn)
    },
  }
  const core = {store: {getEvent, eventsAfter: async () => []}}
  const app = {core, feed: async () => feed}
  let seq = 0
  const publish = () => {
    seq++
    for (const s of subscribers) s({id: `evt_${seq}`, type: 'payment.succeeded', created_at: new Date().toISOString(), json: '{}', seq})
  }
  return {app: app as unknown as App, core, publish, subscribers, follows}
}

let server: http.Server | undefined
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
})

describe('EventStreams', () => {
  it('an event published after closeAll() (shutdown, requests still finishing) is not written to the ended stream: no write-after-end error, which would stop the engine', async () => {
    const {app, core, publish, follows} = fakeApp()
    const streams = new EventStreams(app)
    const ctx = {requestId: 'req_1', query: new URLSearchParams(), headers: {}, core} as unknown as RequestCtx
    const stream = await streamOnce(async (req, res) => (await streams.handle(ctx)).stream!(req, res))
    server = stream.server
    publish()
    streams.closeAll()
    publish()
    await expectEndedCleanly(stream, 'id: evt_1', 'evt_2')
    expect(follows.held).toBe(0)
  })
})

describe('a client gone before its stream starts', () => {
  it('a client that disconnects while Last-Event-ID is looked up leaves no subscription or heartbeat behind (the stream once subscribed to a response already closed, for good)', async () => {
    let found!: (e: LoggedEvent) => void
    const lookup = new Promise<LoggedEvent>((r) => (found = r))
    const {app, core, subscribers, follows} = fakeApp(() => lookup)
    const streams = new EventStreams(app)
    const ctx = {requestId: 'req_1', query: new URLSearchParams(), headers: {'last-event-id': 'evt_1'}, core} as unknown as RequestCtx
    // the request is in the handler, waiting on the lookup, when the client goes
    server = await clientGoneEarly(
      async (req, res) => (await streams.handle(ctx)).stream!(req, res),
      () => found({id: 'evt_1', type: 'payment.succeeded', created_at: new Date().toISOString(), json: '{}', seq: 1}),
    )
    expect(subscribers.size).toBe(0)
    // nor a hold on the feed: the instance does not go on hearing every commit of the fleet for it
    expect(follows.held).toBe(0)
  })
})
