import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import {afterEach, describe, expect, it} from 'vitest'
import {verifySignature} from '../../../api/webhook-signature.js'
import type {FeedEvent} from './feed.js'
import {ev} from './test-support/events.js'
import {Forwarder, parseForwardTo, parseHeaders, type DeliveryResult} from './forwarder.js'

const SECRET = 'whsec_listen_test_secret_0123456789'

interface Hit {
  body: string
  headers: IncomingMessage['headers']
  url: string
}

let servers: Server[] = []
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
  servers = []
})

async function receiver(handle: (hit: Hit, res: ServerResponse) => void, port = 0): Promise<{port: number; hits: Hit[]; server: Server}> {
  const hits: Hit[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const hit = {body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, url: req.url ?? ''}
      hits.push(hit)
      handle(hit, res)
    })
  })
  servers.push(server)
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r))
  return {port: (server.address() as {port: number}).port, hits, server}
}

const fe = (n: number, backfilled = false): FeedEvent => ({event: ev(n), raw: JSON.stringify(ev(n)), backfilled})

function forwarder(url: string, extra: Partial<ConstructorParameters<typeof Forwarder>[0]> = {}) {
  const results: DeliveryResult[] = []
  const cursors: string[] = []
  const notes: string[] = []
  const ac = new AbortController()
  const f = new Forwarder({
    url: new URL(url),
    secret: SECRET,
    signal: ac.signal,
    backoffMs: [5, 10, 20],
    onResult: (r) => results.push(r),
    onCursor: (id) => cursors.push(id),
    onDown: (reason, held) => notes.push(`down ${reason} ${held}`),
    onUp: (held) => notes.push(`up ${held}`),
    ...extra,
  })
  return {f, results, cursors, notes, ac}
}

describe('parseForwardTo', () => {
  it('takes host:port/path, a bare port, or a full URL; http for loopback, https otherwise', () => {
    expect(parseForwardTo('localhost:3000/webhooks').toString()).toBe('http://localhost:3000/webhooks')
    expect(parseForwardTo('127.0.0.1:8080').toString()).toBe('http://127.0.0.1:8080/')
    expect(parseForwardTo('3000/hooks').toString()).toBe('http://localhost:3000/hooks')
    expect(parseForwardTo(':4000/x').toString()).toBe('http://localhost:4000/x')
    expect(parseForwardTo('https://localhost:8443/hook').toString()).toBe('https://localhost:8443/hook')
    expect(parseForwardTo('http://dev.example:3000/h').toString()).toBe('http://dev.example:3000/h')
    expect(parseForwardTo('dev.example/h').toString()).toBe('https://dev.example/h')
    expect(() => parseForwardTo('ftp://x/y')).toThrow(/http:\/\/ or https:\/\//)
    expect(() => parseForwardTo('http://')).toThrow()
  })

  it('parses --headers', () => {
    expect(parseHeaders(['X-Env: dev', 'Authorization: Bearer abc, X-Two:2'])).toEqual({'x-env': 'dev', authorization: 'Bearer abc', 'x-two': '2'})
    expect(() => parseHeaders(['no colon'])).toThrow(/Key:Value/)
  })
})

describe('Forwarder', () => {
  it('POSTs the exact event bytes with a valid Service-Signature and the extra headers', async () => {
    const r = await receiver((_h, res) => res.writeHead(200).end('ok'))
    const {f, results, cursors} = forwarder(`http://127.0.0.1:${r.port}/hook`, {headers: {'x-env': 'dev'}})
    const e = {...fe(1), raw: '{"id":"evt_1", "spacing":"kept as sent"}'}
    f.push(e)
    await f.idle()
    await f.close()
    expect(r.hits).toHaveLength(1)
    const hit = r.hits[0]!
    expect(hit.url).toBe('/hook')
    expect(hit.body).toBe(e.raw)
    expect(hit.headers['content-type']).toBe('application/json')
    expect(hit.headers['x-env']).toBe('dev')
    expect(verifySignature({payload: hit.body, header: hit.headers['service-signature'], secret: SECRET}).timestamp).toBeGreaterThan(1_700_000_000)
    expect(results).toMatchObject([{event: 'evt_1', ok: true, status_code: 200, attempt: 1, retry_in_ms: null, backfilled: false}])
    expect(results[0]!.latency_ms).toBeGreaterThanOrEqual(0)
    expect(cursors).toEqual(['evt_1'])
  })

  it('retries an error answer with backoff, a bounded number of times', async () => {
    let n = 0
    const r = await receiver((_h, res) => res.writeHead(++n < 3 ? 500 : 204).end())
    const {f, results} = forwarder(`http://127.0.0.1:${r.port}/`)
    f.push(fe(1))
    await f.idle()
    await f.close()
    expect(results.map((x) => [x.attempt, x.status_code, x.retry_in_ms])).toEqual([
      [1, 500, 5],
      [2, 500, 10],
      [3, 204, null],
    ])
    // every attempt is freshly signed
    expect(new Set(r.hits.map((h) => h.body)).size).toBe(1)

    const always = await receiver((_h, res) => res.writeHead(400).end('bad'))
    const g = forwarder(`http://127.0.0.1:${always.port}/`, {maxAttempts: 3})
    g.f.push(fe(2))
    await g.f.idle()
    await g.f.close()
    expect(g.results.map((x) => [x.attempt, x.ok, x.retry_in_ms])).toEqual([
      [1, false, 5],
      [2, false, 10],
      [3, false, null],
    ])
    // a given-up event still moves the cursor
    expect(g.cursors).toEqual(['evt_2'])
  })

  it('holds events while the local server is down, says so once, and delivers them when it is back', async () => {
    // find a free port, then start nothing there
    const probe = await receiver(() => {})
    const port = probe.port
    await new Promise((r) => probe.server.close(r))
    servers = servers.filter((s) => s !== probe.server)
    const {f, results, notes, cursors} = forwarder(`http://127.0.0.1:${port}/hook`, {backoffMs: [20, 40]})
    f.push(fe(1))
    f.push(fe(2, true))
    await new Promise((r) => setTimeout(r, 150))
    expect(notes).toEqual(['down connection refused 2'])
    expect(results.filter((x) => x.error === 'connection_refused')).toHaveLength(1)
    expect(cursors).toEqual([])
    const back = await receiver((_h, res) => res.writeHead(200).end(), port)
    await f.idle()
    await f.close()
    expect(notes[1]).toMatch(/^up /)
    expect(back.hits.map((h) => JSON.parse(h.body).id).sort()).toEqual(['evt_1', 'evt_2'])
    expect(results.filter((x) => x.ok).map((x) => [x.event, x.backfilled])).toEqual(expect.arrayContaining([['evt_1', false], ['evt_2', true]]))
    expect(cursors[cursors.length - 1]).toBe('evt_2')
  })

  it('moves the cursor only over a finished prefix', async () => {
    const release: (() => void)[] = []
    const r = await receiver((hit, res) => {
      const id = JSON.parse(hit.body).id
      if (id === 'evt_1') release.push(() => res.writeHead(200).end())
      else res.writeHead(200).end()
    })
    const {f, cursors} = forwarder(`http://127.0.0.1:${r.port}/`)
    f.push(fe(1))
    f.push(fe(2))
    f.push(fe(3))
    for (let i = 0; i < 50 && r.hits.length < 3; i++) await new Promise((res) => setTimeout(res, 10))
    expect(cursors).toEqual([]) // evt_2 and evt_3 are done, evt_1 is not
    release[0]!()
    await f.idle()
    await f.close()
    expect(cursors).toEqual(['evt_3'])
  })

  it('stops at once when aborted, without moving the cursor', async () => {
    const r = await receiver(() => {}) // never answers
    const {f, ac, cursors} = forwarder(`http://127.0.0.1:${r.port}/`)
    f.push(fe(1))
    await new Promise((res) => setTimeout(res, 50))
    ac.abort()
    await f.close()
    expect(cursors).toEqual([])
  })

  it('lists and counts every held event, and sends them at once, oldest first, when the receiver is back', async () => {
    const probe = await receiver(() => {})
    const port = probe.port
    await new Promise((r) => probe.server.close(r))
    servers = servers.filter((s) => s !== probe.server)
    const held: [string, number][] = []
    const {f, notes, results} = forwarder(`http://127.0.0.1:${port}/hook`, {concurrency: 1, onHeld: (x, n) => held.push([x.event.id, n])})
    f.push(fe(1))
    f.push(fe(2))
    f.push(fe(3))
    for (let i = 0; i < 200 && held.length < 3; i++) await new Promise((r) => setTimeout(r, 10))
    // every held event is shown, with the running count; the first refusal is the one result
    expect(held).toEqual([['evt_1', 1], ['evt_2', 2], ['evt_3', 3]])
    expect(notes[0]).toBe('down connection refused 3')
    f.push(fe(4))
    for (let i = 0; i < 200 && held.length < 4; i++) await new Promise((r) => setTimeout(r, 10))
    expect(held[3]).toEqual(['evt_4', 4])
    const backAt = Date.now()
    const back = await receiver((_h, res) => res.writeHead(200).end(), port)
    await f.idle()
    const tookMs = Date.now() - backAt
    await f.close()
    expect(back.hits.map((h) => JSON.parse(h.body).id)).toEqual(['evt_1', 'evt_2', 'evt_3', 'evt_4'])
    expect(notes[1]).toBe('up 4')
    // probed at least every second: held events go out within about a second, not 8-22 s later
    expect(tookMs).toBeLessThan(2500)
    expect(results.filter((x) => x.ok)).toHaveLength(4)
  })
})

