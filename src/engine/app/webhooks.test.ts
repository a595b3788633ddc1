import {waitFor} from '../test-support/wait.js'
import {mkdtempSync, rmSync} from 'node:fs'
import {createServer as createHttpsServer, type Server} from 'node:https'
import type {IncomingHttpHeaders} from 'node:http'
import {createServer as createNetServer, type Socket} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {SignatureVerificationError, verifySignature as verifyAsReceiver} from '../../api/webhook-signature.js'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'
import {ensureCertificates, type TlsMaterial} from '../tls/certificates.js'
import {SqliteStore} from '../store/sqlite/sqlite-store.js'
import type {EngineOptions} from '../index.js'

// ---------------------------------------------------------------- a local HTTPS receiver

interface Received {
  headers: IncomingHttpHeaders
  body: string
  realTime: number
  /** when the connection closed with no answer sent (the sender gave up on a hang) */
  closedAt?: number
}

type Reply = {status: number; body?: string} | 'hang'

interface Receiver {
  url: string
  port: number
  received: Received[]
  /** what the receiver answers; default 200 */
  reply: (r: Received) => Reply
  close(): Promise<void>
}

let tls: TlsMaterial
let tlsDir: string
const cleanups: (() => Promise<unknown> | void)[] = []

async function receiver(port = 0, reply: Receiver['reply'] = () => ({status: 200, body: '{"received":true}'})): Promise<Receiver> {
  const r = {received: [] as Received[], reply} as Receiver
  const server: Server = createHttpsServer({key: tls.key, cert: tls.cert}, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const rec: Received = {headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), realTime: Date.now()}
      r.received.push(rec)
      const out = r.reply(rec)
      if (out === 'hang') return void res.on('close', () => (rec.closedAt = Date.now()))
      res.writeHead(out.status, {'content-type': 'application/json'})
      res.end(out.body ?? '')
    })
  })
  // every socket, for close(): closeAllConnections misses one whose request was never answered
  // (a hang the sender gave up on) and the server would wait for the sender to drop it
  const sockets = new Set<Socket>()
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  r.port = (server.address() as {port: number}).port
  r.url = `https://127.0.0.1:${r.port}/hooks`
  let closed = false
  r.close = async () => {
    if (closed) return
    closed = true
    server.closeAllConnections()
    for (const s of sockets) s.destroy()
    await new Promise((resolve) => server.close(resolve))
  }
  cleanups.push(r.close)
  return r
}

/** A port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const s = createNetServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const port = (s.address() as {port: number}).port
  await new Promise((resolve) => s.close(resolve))
  return port
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function boot(opts: Partial<EngineOptions> = {}): Promise<TestEngine> {
  const t = await bootEngine({rateLimit: 0, ...opts})
  cleanups.push(() => t.stop())
  return t
}

/** An engine on a SQLite store of its own that the test may instrument first (`wrap`). */
async function bootOnSqlite(name: string, wrap: (s: SqliteStore) => void): Promise<TestEngine> {
  const dataDir = mkdtempSync(join(tmpdir(), `gw-${name}-`))
  cleanups.push(() => rmSync(dataDir, {recursive: true, force: true}))
  const t = await bootEngine({
    rateLimit: 0,
    dataDir,
    store: async () => {
      const s = new SqliteStore({path: join(dataDir, `${name}.db`), durability: 'normal'})
      wrap(s)
      return s
    },
  })
  cleanups.push(() => t.stop())
  return t
}

/** Receivers check `t=` against their own (wall) clock, never the engine's test clock. */
const wallNowS = () => Math.floor(Date.now() / 1000)

/** The receiver's check (the package's verifySignature) as a result: {ok, t} or {ok: false, reason}. */
function verifySignature(header: string, body: string, secret: string, nowS: number) {
  try {
    return {ok: true as const, t: verifyAsReceiver({payload: body, header, secret, now: nowS * 1000}).timestamp}
  } catch (e) {
    if (e instanceof SignatureVerificationError) return {ok: false as const, reason: e.reason}
    throw e
  }
}

const pay = (t: TestEngine, amount = 2000) =>
  t.api('POST', '/payments', {amount, currency: 'EUR', payment_method: 'card', payment_method_data: card()})

async function endpoint(t: TestEngine, url: string, enabled_events: string[] = ['*']) {
  const r = await t.api('POST', '/webhook_endpoints', {url, enabled_events})
  expect(r.status).toBe(201)
  return r.body as {id: string; secret: string}
}

async function eventOf(t: TestEngine, paymentId: string, type: string) {
  const r = await t.api('GET', `/events?type=${type}&limit=100`)
  const e = r.body.data.find((x: any) => x.data.object.id === paymentId)
  expect(e, `${type} event of ${paymentId}`).toBeDefined()
  return e as {id: string; type: string; created_at: string}
}

async function deliveriesOf(t: TestEngine, eventId: string) {
  const r = await t.api('GET', `/events/${eventId}/deliveries`)
  expect(r.status).toBe(200)
  return r.body.data as any[]
}

beforeAll(async () => {
  tlsDir = mkdtempSync(join(tmpdir(), 'gw-webhook-rx-'))
  tls = await ensureCertificates(
    {caCert: join(tlsDir, 'ca.pem'), caKey: join(tlsDir, 'ca-key.pem'), serverCert: join(tlsDir, 'cert.pem'), serverKey: join(tlsDir, 'key.pem')},
    '127.0.0.1',
  )
})

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

afterAll(() => rmSync(tlsDir, {recursive: true, force: true}))

// ---------------------------------------------------------------- endpoints API

describe('webhook endpoints API', () => {
  it('creates an endpoint with its secret once; retrieve, list, update, rotate and delete', async () => {
    const t = await boot()
    const c = await t.api('POST', '/webhook_endpoints', {
      url: 'https://example.com/hooks',
      enabled_events: ['payment.succeeded', 'payment.failed'],
      description: 'orders',
      metadata: {team: 'payments'},
    })
    expect(c.status).toBe(201)
    expect(c.body).toMatchObject({
      object: 'webhook_endpoint',
      url: 'https://example.com/hooks',
      enabled_events: ['payment.succeeded', 'payment.failed'],
      description: 'orders',
      metadata: {team: 'payments'},
      status: 'enabled',
      disabled: false,
      disabled_reason: null,
      failing_since: null,
      livemode: false,
    })
    expect(c.body.id).toMatch(/^wh_/)
    expect(c.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{40,}$/)
    expect(c.body._x).toBeUndefined()

    const g = await t.api('GET', `/webhook_endpoints/${c.body.id}`)
    expect(g.status).toBe(200)
    expect(g.body.secret).toBeUndefined()
    expect(g.text).not.toContain('whsec_')
    expect(g.body.url).toBe('https://example.com/hooks')

    const second = await t.api('POST', '/webhook_endpoints', {url: 'https://example.org/h', enabled_events: ['*']})
    const l = await t.api('GET', '/webhook_endpoints?limit=1')
    expect(l.body).toMatchObject({object: 'list', url: '/v1/webhook_endpoints', has_more: true})
    expect(l.body.data.map((e: any) => e.id)).toEqual([second.body.id])
    expect(l.text).not.toContain('whsec_')
    const l2 = await t.api('GET', `/webhook_endpoints?starting_after=${second.body.id}`)
    expect(l2.body.data.map((e: any) => e.id)).toEqual([c.body.id])
    expect(l2.body.has_more).toBe(false)

    const u = await t.api('POST', `/webhook_endpoints/${c.body.id}`, {url: 'https://example.com/v2', enabled_events: ['refund.*'], disabled: true})
    expect(u.status).toBe(200)
    expect(u.body).toMatchObject({url: 'https://example.com/v2', enabled_events: ['refund.*'], disabled: true, disabled_reason: 'requested', status: 'disabled'})
    expect(u.body.secret).toBeUndefined()
    const disabledOnly = await t.api('GET', '/webhook_endpoints?disabled=true')
    expect(disabledOnly.body.data.map((e: any) => e.id)).toEqual([c.body.id])
    const re = await t.api('POST', `/webhook_endpoints/${c.body.id}`, {disabled: false})
    expect(re.body).toMatchObject({disabled: false, disabled_reason: null, status: 'enabled'})

    const rot = await t.api('POST', `/webhook_endpoints/${c.body.id}/rotate_secret`)
    expect(rot.status).toBe(200)
    expect(rot.body.secret).toMatch(/^whsec_/)
    expect(rot.body.secret).not.toBe(c.body.secret)

    const d = await t.api('DELETE', `/webhook_endpoints/${c.body.id}`)
    expect(d.status).toBe(200)
    expect(d.body).toEqual({id: c.body.id, object: 'webhook_endpoint', deleted: true})
    expect((await t.api('GET', `/webhook_endpoints/${c.body.id}`)).status).toBe(404)
    expect((await t.api('DELETE', `/webhook_endpoints/${c.body.id}`)).status).toBe(404)
  })

  it('serialises concurrent updates and rotations of one endpoint (no 500s, no lost writes)', async () => {
    const t = await boot()
    const ep = await endpoint(t, 'https://example.com/hooks', ['*'])
    const results = await Promise.all([
      ...Array.from({length: 6}, (_, i) => t.api('POST', `/webhook_endpoints/${ep.id}`, {metadata: {[`k${i}`]: 'v'}})),
      ...Array.from({length: 3}, () => t.api('POST', `/webhook_endpoints/${ep.id}/rotate_secret`)),
    ])
    expect(results.map((r) => r.status)).toEqual(Array(9).fill(200))
    const final = await t.api('GET', `/webhook_endpoints/${ep.id}`)
    expect(Object.keys(final.body.metadata).sort()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5'])
    const secrets = new Set(results.slice(6).map((r) => r.body.secret))
    expect(secrets.size).toBe(3)
  })

  it('rejects non-HTTPS URLs and unknown event types, naming the parameter', async () => {
    const t = await boot()
    const http = await t.api('POST', '/webhook_endpoints', {url: 'http://example.com/hooks', enabled_events: ['*']})
    expect(http.status).toBe(400)
    expect(http.body.error).toMatchObject({type: 'invalid_request_error', code: 'parameter_invalid', param: 'url'})
    expect(http.body.error.message).toContain('HTTPS')
    const rel = await t.api('POST', '/webhook_endpoints', {url: '/hooks', enabled_events: ['*']})
    expect(rel.body.error.param).toBe('url')
    const noUrl = await t.api('POST', '/webhook_endpoints', {enabled_events: ['*']})
    expect(noUrl.body.error).toMatchObject({code: 'parameter_missing', param: 'url'})
    const typo = await t.api('POST', '/webhook_endpoints', {url: 'https://example.com', enabled_events: ['payment.succeded']})
    expect(typo.status).toBe(400)
    expect(typo.body.error.param).toBe('enabled_events[0]')
    expect(typo.body.error.message).toContain('payment.succeeded')
    const none = await t.api('POST', '/webhook_endpoints', {url: 'https://example.com', enabled_events: []})
    expect(none.body.error.param).toBe('enabled_events')
    const star = await t.api('POST', '/webhook_endpoints', {url: 'https://example.com', enabled_events: ['payment.succeeded', '*']})
    expect(star.body.enabled_events).toEqual(['*'])
    const prefix = await t.api('POST', '/webhook_endpoints', {url: 'https://example.com', enabled_events: ['payment.*']})
    expect(prefix.status).toBe(201)
    const upd = await t.api('POST', `/webhook_endpoints/${prefix.body.id}`, {url: 'http://example.com'})
    expect(upd.body.error.param).toBe('url')
    const unknownParam = await t.api('POST', '/webhook_endpoints', {url: 'https://example.com', enabled_events: ['*'], secret: 'whsec_x'})
    expect(unknownParam.body.error).toMatchObject({code: 'parameter_unknown', param: 'secret'})
    expect((await t.api('GET', '/webhook_endpoints/wh_nope')).body.error.code).toBe('resource_missing')
  })
})

// ---------------------------------------------------------------- delivery

describe('webhook delivery', () => {
  // (how soon it arrives is a figure of the bench's soak, not a timed assertion on a loaded machine)
  it('delivers a correctly signed payment.succeeded, byte for byte as GET /events/{id}', async () => {
    const t = await boot()
    const rx = await receiver()
    const ep = await endpoint(t, rx.url, ['payment.succeeded'])
    const p = await pay(t)
    expect(p.body.status).toBe('succeeded')
    const got = await waitFor('delivery', () => rx.received[0], 10_000)
    const evt = JSON.parse(got.body)
    expect(evt).toMatchObject({object: 'event', type: 'payment.succeeded', data: {object: {id: p.body.id, status: 'succeeded'}}})
    const stored = await t.api('GET', `/events/${evt.id}`)
    expect(got.body).toBe(stored.text)
    expect(got.headers['content-type']).toBe('application/json')
    expect(got.headers['user-agent']).toMatch(/^gw-webhooks\//)
    const header = got.headers['service-signature'] as string
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(verifySignature(header, got.body, ep.secret, wallNowS())).toMatchObject({ok: true})
    expect(verifySignature(header, got.body, 'whsec_wrong', wallNowS())).toMatchObject({ok: false})

    // only the subscribed type arrived; the delivery log records the attempt
    await sleep(200)
    expect(rx.received.map((r) => JSON.parse(r.body).type)).toEqual(['payment.succeeded'])
    const ds = await waitFor('succeeded delivery', async () => {
      const list = await deliveriesOf(t, evt.id)
      return list[0]?.status === 'succeeded' ? list : undefined
    })
    expect(ds).toHaveLength(1)
    expect(ds[0]).toMatchObject({object: 'webhook_delivery', event: evt.id, event_type: 'payment.succeeded', endpoint: ep.id, next_attempt_at: null})
    expect(ds[0].id).toMatch(/^whd_/)
    expect(ds[0]._x).toBeUndefined()
    expect(ds[0].attempts).toHaveLength(1)
    expect(ds[0].attempts[0]).toMatchObject({status_code: 200, error: null, response_excerpt: '{"received":true}'})
    expect(ds[0].attempts[0].latency_ms).toBeGreaterThanOrEqual(0)
    const byEndpoint = await t.api('GET', `/webhook_endpoints/${ep.id}/deliveries`)
    expect(byEndpoint.body).toMatchObject({object: 'list', url: `/v1/webhook_endpoints/${ep.id}/deliveries`, has_more: false})
    expect(byEndpoint.body.data.map((d: any) => d.id)).toEqual([ds[0].id])
    const one = await t.api('GET', `/webhook_deliveries/${ds[0].id}`)
    expect(one.body.id).toBe(ds[0].id)
  })

  it('signs each attempt with the wall-clock time it is sent: after the test clock moved 5 days a receiver checking the time in the signature accepts it', async () => {
    const t = await boot()
    const rx = await receiver()
    const ep = await endpoint(t, rx.url, ['payment.succeeded'])
    await t.advance(5 * 86_400)
    const before = wallNowS()
    const p = await pay(t)
    const got = await waitFor('delivery', () => rx.received[0])
    const after = wallNowS()
    // the package's own verifySignature, default tolerance (300 s both ways), against the real clock
    expect(verifyAsReceiver({payload: got.body, header: got.headers['service-signature'] as string, secret: ep.secret})).toMatchObject({timestamp: expect.any(Number)})
    const ts = Number(/^t=(\d+),/.exec(got.headers['service-signature'] as string)![1])
    expect(ts).toBeGreaterThanOrEqual(before)
    expect(ts).toBeLessThanOrEqual(after)
    // the event itself stays on the engine clock
    const evt = JSON.parse(got.body)
    expect(evt.created_at).toBe(p.body.created_at)
    expect(Date.parse(evt.created_at) / 1000 - ts).toBeGreaterThan(5 * 86_400 - 60)
  })

  it('filters by enabled_events; `*` gets every event; disabled endpoints get nothing', async () => {
    const t = await boot()
    const all = await receiver()
    const onlyFailed = await receiver()
    const prefix = await receiver()
    const off = await receiver()
    await endpoint(t, all.url, ['*'])
    await endpoint(t, onlyFailed.url, ['payment.failed'])
    await endpoint(t, prefix.url, ['payment.*'])
    const offEp = await endpoint(t, off.url, ['*'])
    expect((await t.api('POST', `/webhook_endpoints/${offEp.id}`, {disabled: true})).status).toBe(200)

    const p = await pay(t)
    const events = (await t.api('GET', '/events?limit=100')).body.data.filter((e: any) => e.data.object.id === p.body.id)
    expect(events.length).toBeGreaterThanOrEqual(1)
    await waitFor('all events at *', () => all.received.length === events.length && prefix.received.length === events.length)
    expect(new Set(all.received.map((r) => JSON.parse(r.body).id))).toEqual(new Set(events.map((e: any) => e.id)))
    await sleep(300)
    expect(onlyFailed.received).toHaveLength(0)
    expect(off.received).toHaveLength(0)
    const offDeliveries = await t.api('GET', `/webhook_endpoints/${offEp.id}/deliveries`)
    expect(offDeliveries.body.data).toHaveLength(0)

    const declined = await t.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000000002')})
    expect(declined.status).toBe(402)
    await waitFor('payment.failed', () => onlyFailed.received.length === 1)
    expect(JSON.parse(onlyFailed.received[0]!.body)).toMatchObject({type: 'payment.failed', data: {object: {id: declined.body.error.payment}}})
    await sleep(200)
    expect(off.received).toHaveLength(0)
  })

  it('retries a 500 only after a minute on the engine clock, then succeeds', async () => {
    // the worker looks for due retries every 100 ms here (1 s by default), so a short real wait spans several looks
    const t = await boot({deliveries: {pollMs: 100}})
    let status = 500
    const rx = await receiver(0, () => ({status, body: status === 500 ? 'boom: database down' : 'ok'}))
    const ep = await endpoint(t, rx.url, ['payment.succeeded'])
    const p = await pay(t)
    const evt = await eventOf(t, p.body.id, 'payment.succeeded')
    const [first] = await waitFor('first failed attempt', async () => {
      const ds = await deliveriesOf(t, evt.id)
      return ds[0]?.status === 'failed_retrying' ? ds : undefined
    })
    expect(rx.received).toHaveLength(1)
    expect(first.attempts[0]).toMatchObject({status_code: 500, error: null, response_excerpt: 'boom: database down'})
    const lastAttempt = new Date(first.attempts[0].at).getTime()
    const due = new Date(first.next_attempt_at).getTime()
    expect(Math.round((due - lastAttempt) / 1000)).toBeGreaterThanOrEqual(59)
    expect(Math.round((due - lastAttempt) / 1000)).toBeLessThanOrEqual(61)

    // real time passing does not help (several of the worker's looks for due work); the engine clock does
    await sleep(500)
    expect(rx.received).toHaveLength(1)
    await t.advance(30)
    await sleep(300)
    expect(rx.received).toHaveLength(1)
    status = 200
    await t.advance(31)
    await waitFor('retry', () => rx.received.length === 2)
    expect(rx.received[1]!.body).toBe(rx.received[0]!.body)
    const second = rx.received[1]!.headers['service-signature'] as string
    expect(verifySignature(second, rx.received[1]!.body, ep.secret, wallNowS())).toMatchObject({ok: true})
    const done = await waitFor('succeeded', async () => {
      const ds = await deliveriesOf(t, evt.id)
      return ds[0]?.status === 'succeeded' ? ds[0] : undefined
    })
    expect(done.attempts.map((a: any) => a.status_code)).toEqual([500, 200])
    await t.advance(3600)
    await sleep(200)
    expect(rx.received).toHaveLength(2)
  })

  it('after 72 hours of failures the delivery is undeliverable and the event still retrievable', async () => {
    const t = await boot()
    const rx = await receiver(0, () => ({status: 503, body: 'maintenance'}))
    await endpoint(t, rx.url, ['payment.succeeded'])
    const p = await pay(t)
    const evt = await eventOf(t, p.body.id, 'payment.succeeded')
    const eventAt = new Date(evt.created_at).getTime()
    let seen = 0
    for (let step = 0; step < 20; step++) {
      const d = await waitFor('attempt recorded', async () => {
        const [x] = await deliveriesOf(t, evt.id)
        return x && x.attempts.length > seen ? x : undefined
      })
      seen = d.attempts.length
      if (d.status === 'undeliverable') break
      expect(d.status).toBe('failed_retrying')
      const now = Date.parse((await t.api('GET', '/test_helpers/clock')).body.now)
      await t.advance(Math.max(1, Math.ceil((new Date(d.next_attempt_at).getTime() - now) / 1000)))
    }
    const [final] = await deliveriesOf(t, evt.id)
    expect(final.status).toBe('undeliverable')
    expect(final.undeliverable_reason).toBe('retry_window_expired')
    expect(final.next_attempt_at).toBeNull()
    expect(final.attempts).toHaveLength(12)
    expect(rx.received).toHaveLength(12)
    const gapsMin = final.attempts.slice(1).map((a: any, i: number) => Math.round((new Date(a.at).getTime() - new Date(final.attempts[i].at).getTime()) / 60_000))
    expect(gapsMin.slice(0, 6)).toEqual([1, 5, 30, 120, 360, 720])
    const lastAt = new Date(final.attempts.at(-1).at).getTime()
    expect(lastAt - eventAt).toBeGreaterThanOrEqual(72 * 3_600_000)
    expect(lastAt - eventAt).toBeLessThan(73 * 3_600_000)
    const still = await t.api('GET', `/events/${evt.id}`)
    expect(still.status).toBe(200)
    expect(still.text).toBe(rx.received[0]!.body)
    await t.advance(86_400)
    await sleep(200)
    expect(rx.received).toHaveLength(12)
    const undeliverable = await t.api('GET', `/events/${evt.id}/deliveries?status=undeliverable`)
    expect(undeliverable.body.data).toHaveLength(1)
  })

  it('rotate_secret without expires_in switches at once: one v1, the new secret only', async () => {
    const t = await boot()
    const rx = await receiver()
    const ep = await endpoint(t, rx.url, ['payment.succeeded'])
    await pay(t)
    await waitFor('first', () => rx.received.length === 1)
    // a receiver that reads the header into a map keeps the last v1: it must be the new secret's, and the only one
    const rot = await t.api('POST', `/webhook_endpoints/${ep.id}/rotate_secret`, {})
    const newSecret = rot.body.secret as string
    expect(newSecret).not.toBe(ep.secret)
    expect(rot.body.previous_secret_expires_at).toBeNull()
    await pay(t)
    await waitFor('second', () => rx.received.length === 2)
    const now = wallNowS()
    const [a, b] = rx.received as [Received, Received]
    expect((b.headers['service-signature'] as string).match(/v1=/g)).toHaveLength(1)
    expect(verifySignature(a.headers['service-signature'] as string, a.body, ep.secret, now)).toMatchObject({ok: true})
    expect(verifySignature(b.headers['service-signature'] as string, b.body, newSecret, now)).toMatchObject({ok: true})
    expect(verifySignature(b.headers['service-signature'] as string, b.body, ep.secret, now)).toMatchObject({ok: false, reason: 'signature_mismatch'})
    expect((await t.api('GET', `/webhook_endpoints/${ep.id}`)).text).not.toContain(newSecret)
  })

  it('rotate_secret with an overlap keeps the live receiver working: both secrets sign until it ends (expires_in), then the new one only', async () => {
    const t = await boot()
    const rx = await receiver()
    const ep = await endpoint(t, rx.url, ['payment.succeeded'])
    const rot = await t.api('POST', `/webhook_endpoints/${ep.id}/rotate_secret`, {expires_in: 86_400})
    expect(rot.status).toBe(200)
    const newSecret = rot.body.secret as string
    const clock = Date.parse((await t.api('GET', '/test_helpers/clock')).body.now)
    const until = Date.parse(rot.body.previous_secret_expires_at)
    expect(Math.abs(until - clock - 86_400_000)).toBeLessThan(60_000)
    expect((await t.api('GET', `/webhook_endpoints/${ep.id}`)).body.previous_secret_expires_at).toBe(rot.body.previous_secret_expires_at)
    // during the overlap: a receiver deployed with the old secret and one with the new both verify
    await pay(t)
    await waitFor('during the overlap', () => rx.received.length === 1)
    const during = rx.received[0]!
    expect((during.headers['service-signature'] as string).match(/v1=/g)).toHaveLength(2)
    expect(verifySignature(during.headers['service-signature'] as string, during.body, ep.secret, wallNowS())).toMatchObject({ok: true})
    expect(verifySignature(during.headers['service-signature'] as string, during.body, newSecret, wallNowS())).toMatchObject({ok: true})
    // a day later on the engine clock: the new secret only
    await t.advance(86_400 + 60)
    await pay(t)
    await waitFor('after the overlap', () => rx.received.length === 2)
    const after = rx.received[1]!
    expect((after.headers['service-signature'] as string).match(/v1=/g)).toHaveLength(1)
    expect(verifySignature(after.headers['service-signature'] as string, after.body, newSecret, wallNowS())).toMatchObject({ok: true})
    expect(verifySignature(after.headers['service-signature'] as string, after.body, ep.secret, wallNowS())).toMatchObject({ok: false, reason: 'signature_mismatch'})
    // bad overlaps are refused naming the field
    const bad = await t.api('POST', `/webhook_endpoints/${ep.id}/rotate_secret`, {expires_in: 8 * 86_400})
    expect(bad.status).toBe(400)
    expect(bad.body.error.param).toBe('expires_in')
  })

  it('the outbox survives a restart: a failed delivery is retried by the next engine process', async () => {
    const t = await boot()
    const port = await freePort()
    const ep = await endpoint(t, `https://127.0.0.1:${port}/hooks`, ['payment.succeeded'])
    const p = await pay(t)
    const evt = await eventOf(t, p.body.id, 'payment.succeeded')
    const failed = await waitFor('connection refused', async () => {
      const [d] = await deliveriesOf(t, evt.id)
      return d?.status === 'failed_retrying' ? d : undefined
    })
    expect(failed.attempts[0]).toMatchObject({status_code: null, error: 'connection_refused'})

    await t.restart()
    const rx = await receiver(port)
    await sleep(300)
    expect(rx.received).toHaveLength(0)
    await t.advance(60)
    await waitFor('redelivery after restart', () => rx.received.length === 1)
    expect(rx.received[0]!.body).toBe((await t.api('GET', `/events/${evt.id}`)).text)
    expect(verifySignature(rx.received[0]!.headers['service-signature'] as string, rx.received[0]!.body, ep.secret, wallNowS())).toMatchObject({ok: true})
    const done = await waitFor('succeeded', async () => {
      const [d] = await deliveriesOf(t, evt.id)
      return d?.status === 'succeeded' ? d : undefined
    })
    expect(done.attempts.map((a: any) => a.error ?? a.status_code)).toEqual(['connection_refused', 200])
  })

  it('an attempt abandoned at shutdown is made again after the restart, without waiting for the clock', async () => {
    const t = await boot()
    // a receiver that never answers: the attempt is in flight when the engine stops
    const rx = await receiver(0, () => 'hang')
    await endpoint(t, rx.url, ['payment.succeeded'])
    const p = await pay(t)
    await waitFor('in flight', () => rx.received.length === 1)
    rx.reply = () => ({status: 204})
    await t.restart()
    const evt = await eventOf(t, p.body.id, 'payment.succeeded')
    const done = await waitFor('redelivered', async () => {
      const [x] = await deliveriesOf(t, evt.id)
      return x?.status === 'succeeded' ? x : undefined
    })
    expect(rx.received).toHaveLength(2)
    // the abandoned attempt left no record: only the one that was answered
    expect(done.attempts.map((a: any) => a.status_code)).toEqual([204])
  })

  it('a hanging receiver stalls nothing else and times out after the attempt timeout', async () => {
    // the attempt timeout is an engine option set short here; its default is the 10 s of
    // docs/api.md#webhook-delivery (core/delivery-timeout.test.ts)
    const TIMEOUT = 3000
    const t = await boot({deliveries: {timeoutMs: TIMEOUT}})
    const hang = await receiver(0, () => 'hang')
    const ok = await receiver()
    const slow = await endpoint(t, hang.url, ['payment.succeeded'])
    await endpoint(t, ok.url, ['payment.succeeded'])
    const started = Date.now()
    const p1 = await pay(t)
    await waitFor('hanging receiver got it', () => hang.received.length === 1)
    // (bounds with room for a loaded machine: stalled work would wait out the hang)
    await waitFor('healthy receiver got it', () => ok.received.length === 1, 4000)
    // more work flows while the first attempt hangs: payments, deliveries, clock advances
    const t0 = Date.now()
    await t.advance(5)
    expect(Date.now() - t0).toBeLessThan(4000)
    await pay(t)
    await waitFor('second delivery', () => ok.received.length === 2, 4000)
    // all of it while the first attempt still hangs: its connection is open
    expect(hang.received[0]!.closedAt).toBeUndefined()
    expect(Date.now() - started).toBeLessThan(TIMEOUT)

    const evt = await eventOf(t, p1.body.id, 'payment.succeeded')
    const timedOut = await waitFor(
      'timeout recorded',
      async () => {
        const ds = await t.api('GET', `/events/${evt.id}/deliveries?endpoint=${slow.id}`)
        const d = ds.body.data[0]
        return d?.status === 'failed_retrying' ? d : undefined
      },
      TIMEOUT + 4000,
    )
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT - 500)
    expect(timedOut.attempts[0]).toMatchObject({status_code: null, error: 'timeout', error_message: `no response within ${TIMEOUT / 1000} s`})
    expect(timedOut.attempts[0].latency_ms).toBeGreaterThanOrEqual(TIMEOUT - 500)
    expect(timedOut.attempts[0].latency_ms).toBeLessThan(TIMEOUT + 2000)
    // the engine hung up on the receiver when the attempt timed out
    expect(hang.received[0]!.closedAt).toBeDefined()
  }, 30_000)

  it('a backlog falling due at once is claimed in batches: each delivery made once, far fewer claim queries than attempts', async () => {
    let claims = 0
    const t = await bootOnSqlite('claims', (s) => {
      const claim = s.claimDeliveries.bind(s)
      s.claimDeliveries = (now, q) => {
        claims++
        return claim(now, q)
      }
    })
    let status = 500
    const rx = await receiver(0, () => ({status}))
    await endpoint(t, rx.url, ['payment.succeeded'])
    const N = 300
    for (let i = 0; i < N; i += 20) await Promise.all(Array.from({length: 20}, () => pay(t)))
    await waitFor('first attempts', () => rx.received.length >= N, 20_000)
    await sleep(300)
    // one attempt each: a delivery claimed as its creating commit's answer came back was once attempted twice
    expect(rx.received).toHaveLength(N)
    expect(new Set(rx.received.map((r) => JSON.parse(r.body).id)).size).toBe(N)
    status = 200
    claims = 0
    await t.advance(61)
    await waitFor('every retry', () => rx.received.length === 2 * N, 20_000)
    await sleep(300)
    expect(rx.received).toHaveLength(2 * N)
    expect(new Set(rx.received.slice(N).map((r) => JSON.parse(r.body).id)).size).toBe(N)
    expect(claims).toBeLessThan(N / 4)
    if (process.env.GW_TEST_LOG) process.stderr.write(`claim queries for ${N} due deliveries: ${claims}\n`)
  }, 60_000)

  it('resends an event: to the subscribed endpoints that have not received it (all: true, to every one), or to a named one even if not subscribed', async () => {
    const t = await boot()
    const a = await receiver()
    const b = await receiver()
    const down = await receiver(0, () => ({status: 500}))
    const epA = await endpoint(t, a.url, ['payment.succeeded'])
    const epB = await endpoint(t, b.url, ['refund.succeeded'])
    const epDown = await endpoint(t, down.url, ['payment.succeeded'])
    const p = await pay(t)
    await waitFor('first delivery', () => a.received.length === 1 && down.received.length === 1)
    const evt = await eventOf(t, p.body.id, 'payment.succeeded')
    await waitFor('outcomes recorded', async () => (await deliveriesOf(t, evt.id)).every((d) => d.attempts.length === 1))

    // A has it (a 2xx); the endpoint that answered 500 has not: only it gets the resend
    const r = await t.api('POST', `/events/${evt.id}/resend`)
    expect(r.status).toBe(200)
    expect(r.body.object).toBe('list')
    expect(r.body.data).toHaveLength(1)
    expect(r.body.data[0]).toMatchObject({event: evt.id, endpoint: epDown.id, status: 'pending', attempts: []})
    await waitFor('resent to the one that missed it', () => down.received.length === 2)
    expect(a.received).toHaveLength(1)
    // all: true sends to A again too
    await t.api('DELETE', `/webhook_endpoints/${epDown.id}`)
    const again = await t.api('POST', `/events/${evt.id}/resend`)
    expect(again.status).toBe(400)
    expect(again.body.error.code).toBe('event_already_delivered')
    const all = await t.api('POST', `/events/${evt.id}/resend`, {all: true})
    expect(all.body.data.map((d: {endpoint: string}) => d.endpoint)).toEqual([epA.id])
    await waitFor('resent', () => a.received.length === 2)
    expect(a.received[1]!.body).toBe(a.received[0]!.body)

    const named = await t.api('POST', `/events/${evt.id}/resend`, {endpoint: epB.id})
    expect(named.status).toBe(200)
    expect(named.body.data[0].endpoint).toBe(epB.id)
    await waitFor('named endpoint', () => b.received.length === 1)
    expect(b.received[0]!.body).toBe(a.received[0]!.body)
    const ds = await deliveriesOf(t, evt.id)
    expect(ds).toHaveLength(5)

    await t.api('POST', `/webhook_endpoints/${epA.id}`, {disabled: true})
    const disabled = await t.api('POST', `/events/${evt.id}/resend`, {endpoint: epA.id})
    expect(disabled.status).toBe(400)
    expect(disabled.body.error).toMatchObject({code: 'webhook_endpoint_disabled', param: 'endpoint'})
    const nobody = await t.api('POST', `/events/${evt.id}/resend`)
    expect(nobody.body.error.code).toBe('no_webhook_endpoints')
    expect((await t.api('POST', '/events/evt_missing/resend')).status).toBe(404)
    expect((await t.api('POST', `/events/${evt.id}/resend`, {endpoint: 'wh_missing'})).body.error).toMatchObject({
      code: 'resource_missing',
      param: 'endpoint',
    })
    expect((await t.api('GET', '/events/evt_missing/deliveries')).status).toBe(404)
  })

  it("records an account's outcomes on all its endpoints in one unit; an endpoint whose outcomes cannot be written holds back only its own", async () => {
    // the endpoints of each unit that wrote deliveries; a poisoned endpoint's delivery writes fail
    const units: Set<string>[] = []
    let poisoned: string | undefined
    const t = await bootOnSqlite('outcomes', (s) => {
      const transact = s.transact.bind(s)
      s.transact = (account, fn, order) =>
        transact(
          account,
          (tx) => {
            // the unit is a class instance (its methods on the prototype): its commit is wrapped in place
            const commit = tx.commit.bind(tx)
            tx.commit = (cs) => {
              const eps = new Set((cs.puts ?? []).filter((p) => p.kind === 'delivery' && p.expectVersion !== undefined).map((p) => (p.obj as unknown as {endpoint: string}).endpoint))
              if (eps.size) units.push(eps)
              if (poisoned && eps.has(poisoned)) throw new Error('this endpoint cannot be written')
              commit(cs)
            }
            return fn(tx)
          },
          order,
        )
    })
    // both receivers hold their answers until each has every attempt of a round: the outcomes end together
    let want = 0
    const held: (() => void)[] = []
    const gated = async () => {
      const server: Server = createHttpsServer({key: tls.key, cert: tls.cert}, (req, res) => {
        req.resume().on('end', () => {
          held.push(() => res.writeHead(200).end())
          if (held.length >= want) for (const f of held.splice(0)) f()
        })
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      cleanups.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))))
      return `https://127.0.0.1:${(server.address() as {port: number}).port}/hooks`
    }
    const a = await endpoint(t, await gated(), ['payment.succeeded'])
    const b = await endpoint(t, await gated(), ['payment.succeeded'])
    const round = async (n: number) => {
      want = 2 * n
      const ps = await Promise.all(Array.from({length: n}, () => pay(t)))
      return Promise.all(ps.map((p) => eventOf(t, p.body.id, 'payment.succeeded')))
    }
    const statuses = async (evts: {id: string}[]) => (await Promise.all(evts.map((e) => deliveriesOf(t, e.id)))).flat().map((d) => `${d.endpoint === a.id ? 'a' : 'b'}:${d.status}`)
    const first = await round(8)
    await waitFor('every outcome recorded', async () => ((await statuses(first)).every((x) => x.endsWith(':succeeded')) ? true : undefined), 20_000)
    expect((await statuses(first)).sort()).toEqual([...Array(8).fill('a:succeeded'), ...Array(8).fill('b:succeeded')])
    expect(units.some((eps) => eps.has(a.id) && eps.has(b.id))).toBe(true)

    poisoned = b.id
    const second = await round(8)
    await waitFor("a's outcomes recorded", async () => ((await statuses(second)).filter((x) => x === 'a:succeeded').length === 8 ? true : undefined), 20_000)
    // b's outcomes were not written (their claims run out and they are attempted again); a's were, alone
    expect((await statuses(second)).filter((x) => x.startsWith('b:'))).toEqual(Array(8).fill('b:pending'))
    expect(units.some((eps) => eps.size === 1 && eps.has(a.id))).toBe(true)
  }, 60_000)

  it("accounts' outcome units wait for a turn (two at once), never for an account whose unit hangs: another account's outcomes are written meanwhile", async () => {
    // the accounts whose outcome units (deliveries written over their version) hang until released
    const hung = new Set<string>()
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const t = await bootOnSqlite('turns', (s) => {
      const transact = s.transact.bind(s)
      s.transact = (account, fn, order) =>
        transact(
          account,
          async (tx) => {
            let outcomes = false
            const commit = tx.commit.bind(tx)
            tx.commit = (cs) => {
              outcomes ||= (cs.puts ?? []).some((p) => p.kind === 'delivery' && p.expectVersion !== undefined)
              commit(cs)
            }
            const out = await fn(tx)
            if (outcomes && hung.has(account)) await released
            return out
          },
          order,
        )
    })
    const rx = await receiver()
    cleanups.push(() => rx.close())
    const [a, b, c] = await Promise.all(['turns-a', 'turns-b', 'turns-c'].map((n) => t.account(n)))
    for (const x of [a, b, c]) expect((await x.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})).status).toBe(201)
    const payOf = async (x: typeof a) => {
      const p = await x.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
      const e = (await x.api('GET', '/events?type=payment.succeeded&limit=10')).body.data.find((v: any) => v.data.object.id === p.body.id)
      return async () => ((await x.api('GET', `/events/${e.id}/deliveries`)).body.data as {status: string}[]).map((d) => d.status)
    }
    // two accounts' outcome units hang: every turn is taken
    hung.add(a.id).add(c.id)
    const [ofA, ofC] = await Promise.all([payOf(a), payOf(c)])
    await waitFor('both attempts made', () => (rx.received.length >= 2 ? true : undefined), 20_000)
    // the third account's attempt is recorded all the same (after a short wait for a turn)
    const ofB = await payOf(b)
    await waitFor("b's delivery recorded while a's and c's units hang", async () => ((await ofB()).join() === 'succeeded' ? true : undefined), 20_000)
    expect([...(await ofA()), ...(await ofC())]).toEqual(['pending', 'pending'])
    release()
    await waitFor("a's and c's recorded once released", async () => ([...(await ofA()), ...(await ofC())].join() === 'succeeded,succeeded' ? true : undefined), 20_000)
  }, 60_000)

  it('flags an endpoint failing for 3 days and disables it after 5; pending deliveries stop', async () => {
    const t = await boot()
    const port = await freePort()
    const ep = await endpoint(t, `https://127.0.0.1:${port}/hooks`, ['payment.succeeded'])
    let firstFailure: string | undefined
    for (let half = 0; half < 10; half++) {
      const p = await pay(t)
      const evt = await eventOf(t, p.body.id, 'payment.succeeded')
      const [d] = await waitFor('attempt', async () => {
        const ds = await deliveriesOf(t, evt.id)
        return ds[0]?.attempts.length ? ds : undefined
      })
      firstFailure ??= d.attempts[0].at
      const e = (await t.api('GET', `/webhook_endpoints/${ep.id}`)).body
      const days = half / 2
      if (days < 3) expect(e, `day ${days}`).toMatchObject({status: 'enabled', failing_since: null})
      else expect(e, `day ${days}`).toMatchObject({status: 'failing', failing_since: firstFailure, disabled: false})
      await t.advance(12 * 3600)
    }
    // day 5: the retries due now fail once more and the endpoint is disabled
    const e = await waitFor('auto-disabled', async () => {
      const r = (await t.api('GET', `/webhook_endpoints/${ep.id}`)).body
      return r.disabled ? r : undefined
    })
    expect(e).toMatchObject({status: 'disabled', disabled_reason: 'failing', failing_since: firstFailure})
    // one event when it was flagged and one when it was disabled, each carrying the endpoint (no secret)
    const notices = async (type: string) => (await t.api('GET', `/events?type=${type}&limit=100`)).body.data as {data: {object: Record<string, unknown>}; request_id: string | null}[]
    const failing = await notices('webhook_endpoint.failing')
    const disabled = await waitFor('the disabled notice', async () => {
      const d = await notices('webhook_endpoint.disabled')
      return d.length ? d : undefined
    })
    expect(failing).toHaveLength(1)
    expect(disabled).toHaveLength(1)
    expect(failing[0]!.data.object).toMatchObject({id: ep.id, status: 'failing', failing_since: firstFailure})
    expect(disabled[0]!.data.object).toMatchObject({id: ep.id, status: 'disabled', disabled_reason: 'failing'})
    expect(disabled[0]!.data.object).not.toHaveProperty('secret')
    expect(disabled[0]!.request_id).toBeNull()
    // disabled: new events create no deliveries, and retries still pending stop
    const p = await pay(t)
    const evt = await eventOf(t, p.body.id, 'payment.succeeded')
    expect(await deliveriesOf(t, evt.id)).toHaveLength(0)
    await t.advance(12 * 3600)
    const list = await waitFor('pending deliveries closed', async () => {
      const r = await t.api('GET', `/webhook_endpoints/${ep.id}/deliveries?limit=100`)
      return r.body.data.every((d: any) => d.status === 'undeliverable') ? r.body.data : undefined
    })
    expect(list.some((d: any) => d.undeliverable_reason === 'endpoint_disabled')).toBe(true)
    // re-enabling starts afresh
    const re = await t.api('POST', `/webhook_endpoints/${ep.id}`, {disabled: false})
    expect(re.body).toMatchObject({status: 'enabled', failing_since: null, disabled_reason: null})
  }, 60_000)
})
