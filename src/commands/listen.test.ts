import {readFileSync} from 'node:fs'
import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {at, cliEnv, json, type CliEnv} from '../base/test-support/cli.js'
import {ev, frame, list} from './events/shared/test-support/events.js'
import {verifySignature} from '../api/webhook-signature.js'
import Listen from './listen.js'

let cli: CliEnv
let server: Server | undefined
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((r) => (server ? server.close(r) : r(undefined)))
  server = undefined
  await cli.cleanup()
})

const sse = {headers: {'content-type': 'text/event-stream'}}

interface Hit {
  body: string
  headers: IncomingHttpHeaders
}

/** A local receiver; calls `onHit` after answering. */
async function receiver(onHit: (hits: Hit[]) => void, status = 200): Promise<{port: number; hits: Hit[]}> {
  const hits: Hit[] = []
  server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      hits.push({body: Buffer.concat(chunks).toString('utf8'), headers: req.headers})
      res.writeHead(status).end()
      onHit(hits)
    })
  })
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r))
  return {port: (server.address() as {port: number}).port, hits}
}

const stopSoon = () => setTimeout(() => process.emit('SIGTERM'), 80)
const profileArgs = ['--profile', 'dev']

describe('gw listen', () => {
  it('--print-secret creates the secret once and keeps it in the profile', async () => {
    const a = await cli.run(Listen, [...profileArgs, '--print-secret'])
    const b = await cli.run(Listen, [...profileArgs, '--print-secret'])
    const secret = a.stdout.trim()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    expect(b.stdout.trim()).toBe(secret)
    const cfg = JSON.parse(readFileSync(join(cli.dir, 'config', 'gw', 'config.json'), 'utf8'))
    expect(cfg.profiles.dev.listen_secret).toBe(secret)
    const other = await cli.run(Listen, ['--profile', 'other', '--print-secret'])
    expect(other.stdout.trim()).not.toBe(secret)
    const j = await cli.run(Listen, [...profileArgs, '--print-secret', '--json'])
    expect(JSON.parse(j.stdout)).toEqual({secret})
  })

  it('forwards signed events, keeps its cursor, and after a restart backfills what it missed', async () => {
    const secret = (await cli.run(Listen, [...profileArgs, '--print-secret'])).stdout.trim()
    let stopAt = 2
    const r = await receiver((hits) => {
      if (hits.length === stopAt) stopSoon()
    })

    // first run: no cursor yet, so it starts at the newest event and streams two
    let phase = 1
    cli.pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([ev(1)]), json)
    cli.pool.intercept({path: '/v1/events/stream', method: 'GET', headers: {'last-event-id': 'evt_1'}}).reply(200, frame(ev(2)) + frame(ev(3)), sse)
    // reconnects until it is stopped
    cli.pool.intercept({path: (p) => phase === 1 && p.startsWith('/v1/events'), method: 'GET'}).reply(200, list([]), json).persist()
    const first = await cli.run(Listen, [...at(), ...profileArgs, '--forward-to', `127.0.0.1:${r.port}/hooks`, '--headers', 'X-Env: test', '--json'])
    expect(first.exitCode).toBe(0)
    const lines = first.stdout.trim().split('\n').map((l) => JSON.parse(l))
    // first the ready line a harness waits for, then one result per delivery
    expect(lines[0]).toMatchObject({object: 'listen_ready', secret})
    const results = lines.slice(1)
    expect(results.map((x) => [x.event, x.status_code, x.ok, x.backfilled])).toEqual([
      ['evt_2', 200, true, false],
      ['evt_3', 200, true, false],
    ])
    expect(results[0]).toMatchObject({object: 'listen_delivery', type: 'payment.succeeded', url: `http://127.0.0.1:${r.port}/hooks`, attempt: 1})
    expect(first.stderr).toContain(secret)
    expect(first.stderr).toContain(`Forwarding all events to http://127.0.0.1:${r.port}/hooks`)
    for (const hit of r.hits) {
      expect(verifySignature({payload: hit.body, header: hit.headers['service-signature'], secret}).timestamp).toBeGreaterThan(0)
      expect(hit.headers['x-env']).toBe('test')
    }
    expect(r.hits.map((h) => h.body)).toEqual([JSON.stringify(ev(2)), JSON.stringify(ev(3))])
    const cursor = JSON.parse(readFileSync(join(cli.dir, 'config', 'gw', 'listen', 'dev.json'), 'utf8'))
    expect(cursor.last_event_id).toBe('evt_3')

    // second run: evt_4 was created while it was stopped
    phase = 2
    const pool = cli.pool
    pool.intercept({path: '/v1/events?ending_before=evt_3&limit=100', method: 'GET'}).reply(200, list([ev(4)]), json)
    pool.intercept({path: '/v1/events/stream', method: 'GET', headers: {'last-event-id': 'evt_4'}}).reply(200, frame(ev(5)), sse)
    pool.intercept({path: (p) => phase === 2 && p.startsWith('/v1/events'), method: 'GET'}).reply(200, list([]), json).persist()
    stopAt = 4
    const second = await cli.run(Listen, [...at(), ...profileArgs, '--forward-to', `127.0.0.1:${r.port}/hooks`])
    expect(second.exitCode).toBe(0)
    expect(second.stderr).toContain('Backfilled 1 event missed since the last run')
    expect(second.stdout).toMatch(/payment\.succeeded\s+evt_4 {2}\[200\] \d+ms \(backfilled\)/)
    expect(second.stdout).toMatch(/payment\.succeeded\s+evt_5 {2}\[200\] \d+ms$/m)
    expect(new Set(r.hits.map((h) => JSON.parse(h.body).id))).toEqual(new Set(['evt_2', 'evt_3', 'evt_4', 'evt_5']))
    expect(JSON.parse(readFileSync(join(cli.dir, 'config', 'gw', 'listen', 'dev.json'), 'utf8')).last_event_id).toBe('evt_5')
  })

  it('filters with --events, reports failed forwards and retries them', async () => {
    const r = await receiver((hits) => {
      if (hits.length === 2) stopSoon()
    }, 500)
    let streamPath = ''
    cli.pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([ev(1)]), json)
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/events/stream'), method: 'GET'})
      .reply((o) => {
        streamPath = o.path
        return {statusCode: 200, data: frame(ev(2, 'refund.failed')), responseOptions: sse}
      })
    cli.pool.intercept({path: (p) => p.startsWith('/v1/events'), method: 'GET'}).reply(200, list([]), json).persist()
    const out = await cli.run(Listen, [...at(), ...profileArgs, '--forward-to', `http://127.0.0.1:${r.port}/`, '--events', 'payment.*,refund.failed'])
    expect(streamPath).toBe('/v1/events/stream?type=payment.*%2Crefund.failed')
    expect(out.stdout).toMatch(/refund\.failed\s+evt_2 {2}\[500\] \d+ms retry 2 in 1s/)
    expect(out.stdout).toMatch(/evt_2 {2}\[500\] \d+ms attempt 2 retry 3 in 2s/)
  })

  it("shows times on the gateway's clock and says so once", async () => {
    const r = await receiver((hits) => {
      if (hits.length === 1) stopSoon()
    })
    // the gateway's clock: 6 days and 20 hours ahead of this machine
    const ahead = (6 * 24 + 20) * 3600_000 + 1_800_000
    const engineSaid = {headers: {...json.headers, 'gw-engine-time': new Date(Date.now() + ahead).toISOString()}}
    cli.pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([ev(1)]), engineSaid)
    cli.pool.intercept({path: (p) => p.startsWith('/v1/events/stream'), method: 'GET'}).reply(200, frame(ev(2)), {headers: {...sse.headers, 'gw-engine-time': new Date(Date.now() + ahead).toISOString()}})
    cli.pool.intercept({path: (p) => p.startsWith('/v1/events'), method: 'GET'}).reply(200, list([]), engineSaid).persist()
    const out = await cli.run(Listen, [...at(), ...profileArgs, '--forward-to', `http://127.0.0.1:${r.port}/`])
    expect(out.stderr).toContain("Times are UTC on the gateway's clock (6d 20h ahead of this machine's)")
    const shown = /^(\d\d:\d\d:\d\d) {2}\S+\s+evt_2/m.exec(out.stdout)?.[1]
    // the forward's time on the engine clock (within a minute: the run took some time), not this machine's
    const secs = (hms: string) => hms.split(':').reduce((a, x) => a * 60 + Number(x), 0)
    const engineNow = secs(new Date(Date.now() + ahead).toISOString().slice(11, 19))
    const diff = Math.abs(engineNow - secs(shown!))
    expect(Math.min(diff, 86_400 - diff)).toBeLessThan(60)
  })

  it('needs --forward-to and rejects a bad one', async () => {
    expect((await cli.run(Listen, [...at(), ...profileArgs])).exitCode).toBe(2)
    const bad = await cli.run(Listen, [...at(), ...profileArgs, '--forward-to', 'ftp://x'])
    expect(bad.exitCode).toBe(2)
  })
})
