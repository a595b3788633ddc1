// Three engine instances on one PostgreSQL database behave as one gateway (docs/decisions.md#several-instances-on-postgresql): one
// idempotency key, one delivery per endpoint and event, a job run once, one clock, one live
// event feed, one rate limit (and one budget of failed authentications per address). Black-box over HTTPS, one instance after the other.
import {waitFor} from '../../test-support/wait.js'
import {mkdtempSync, rmSync} from 'node:fs'
import {createServer as createHttpsServer, type Server} from 'node:https'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, fleetSecretsKeyFile, type Res, type TestEngine} from '../../test-support/harness.js'
import {freshDatabase} from '../../test-support/pg.js'
import {openEventStream} from '../../test-support/sse.js'
import {ensureCertificates, type TlsMaterial} from '../../tls/certificates.js'
import {postgresStore} from './postgres-store.js'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))


async function fleet(n: number, opts: {rateLimit?: number} = {}): Promise<TestEngine[]> {
  const url = await freshDatabase('fleet')
  const out: TestEngine[] = []
  // the same keys on every instance (API key, secrets key), as behind a load balancer; each has its own data dir (its TLS certificate)
  const secretsKeyFile = fleetSecretsKeyFile()
  for (let i = 0; i < n; i++) out.push(await bootEngine({store: postgresStore(url, {unitConnections: 8, readConnections: 4}), rateLimit: opts.rateLimit ?? 0, secretsKeyFile}))
  return out
}

const cardPayment = (extra: Record<string, unknown> = {}) => ({amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), ...extra})

/** Every page of a list, oldest first. */
async function listAll(t: TestEngine, path: string): Promise<any[]> {
  const out: any[] = []
  let after: string | undefined
  for (;;) {
    const r = await t.api('GET', `${path}${path.includes('?') ? '&' : '?'}limit=100${after ? `&starting_after=${after}` : ''}`)
    expect(r.status, r.text).toBe(200)
    out.push(...r.body.data)
    if (!r.body.has_more) return out.reverse()
    after = r.body.data[r.body.data.length - 1].id
  }
}

/** the ids of the events a stream has given so far */
const streamed = (s: {events: {id: string}[]}) => s.events.map((e) => e.id)

describe('three instances on one database', () => {
  let ts: TestEngine[]
  let tls: TlsMaterial
  let tlsDir: string
  const servers: Server[] = []
  beforeAll(async () => {
    ts = await fleet(3)
    tlsDir = mkdtempSync(join(tmpdir(), 'gw-fleet-rx-'))
    tls = await ensureCertificates({caCert: join(tlsDir, 'ca.pem'), caKey: join(tlsDir, 'ca-key.pem'), serverCert: join(tlsDir, 'cert.pem'), serverKey: join(tlsDir, 'key.pem')}, '127.0.0.1')
  })
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections()
      await new Promise((r) => s.close(r))
    }
    await Promise.all(ts.map((t) => t.stop()))
    rmSync(tlsDir, {recursive: true, force: true})
  })

  it('200 concurrent requests with one Idempotency-Key, spread over the instances: one payment, the same response everywhere', async () => {
    const reference = `fleet-idem-${Date.now()}`
    const body = cardPayment({reference})
    const key = `fleet-key-${Date.now()}`
    const send = async (i: number): Promise<Res> => {
      // a request that meets the first one still running is told to retry (409 idempotency_key_in_use): it does, like a client
      for (let attempt = 0; ; attempt++) {
        const r = await ts[i % 3]!.api('POST', '/payments', body, {'idempotency-key': key})
        if (r.status !== 409) return r
        expect(r.body.error.code).toBe('idempotency_key_in_use')
        await sleep(5 + Math.random() * 20)
      }
    }
    const results = await Promise.all(Array.from({length: 200}, (_, i) => send(i)))
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([201]))
    expect(new Set(results.map((r) => r.text)).size).toBe(1)
    expect(results.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1)
    for (const t of ts) expect((await listAll(t, '/payments')).filter((p) => p.reference === reference)).toHaveLength(1)
  })

  it('one delivery per endpoint and event, whichever instance committed the event', async () => {
    const received = new Map<string, number>()
    const receivers = await Promise.all(
      [0, 1].map(async (n) => {
        const server = createHttpsServer({key: tls.key, cert: tls.cert}, (req, res) => {
          const chunks: Buffer[] = []
          req.on('data', (c: Buffer) => chunks.push(c))
          req.on('end', () => {
            const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as {id: string}).id
            received.set(`${n} ${id}`, (received.get(`${n} ${id}`) ?? 0) + 1)
            res.writeHead(200)
            res.end('ok')
          })
        })
        servers.push(server)
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
        return `https://127.0.0.1:${(server.address() as {port: number}).port}/hooks/${n}`
      }),
    )
    for (const url of receivers) expect((await ts[0]!.api('POST', '/webhook_endpoints', {url, enabled_events: ['payment.*']})).status).toBe(201)
    // every instance's endpoint cache follows the change feed
    for (const t of ts) await waitFor('the endpoints on every instance', async () => (await t.engine.app.core.endpoints.get()).length === 2)
    const payments = await Promise.all(Array.from({length: 30}, (_, i) => ts[i % 3]!.api('POST', '/payments', cardPayment())))
    for (const p of payments) expect(p.status).toBe(201)
    const ids = new Set(payments.map((p) => p.body.id))
    const events = (await listAll(ts[1]!, '/events?type=payment.*')).filter((e) => ids.has(e.data.object.id))
    expect(events.length).toBeGreaterThanOrEqual(30)
    // each event's deliveries: one per endpoint, each succeeded at its first attempt
    for (const e of events) {
      const ds = await waitFor(`the deliveries of ${e.id}`, async () => {
        const r = await ts[2]!.api('GET', `/events/${e.id}/deliveries`)
        return r.body.data.length === 2 && r.body.data.every((d: any) => d.status === 'succeeded') && r.body.data
      })
      for (const d of ds) expect(d.attempts).toHaveLength(1)
    }
    for (const e of events) for (const n of [0, 1]) expect(received.get(`${n} ${e.id}`), `${e.id} at receiver ${n}`).toBe(1)
  })

  it('a clock advance on one instance moves every clock and runs each due job once, before it answers', async () => {
    const held = await Promise.all(Array.from({length: 9}, (_, i) => ts[i % 3]!.api('POST', '/payments', cardPayment({capture_method: 'manual'}))))
    for (const p of held) expect(p.body.status).toBe('requires_capture')
    const before = (await ts[0]!.api('GET', '/test_helpers/clock')).body.offset_seconds as number
    // the authorizations expire after 7 days: one instance advances, the others have ticks of their own meanwhile
    const adv = await ts[1]!.api('POST', '/test_helpers/clock/advance', {seconds: 7 * 86_400 + 60})
    expect(adv.status, adv.text).toBe(200)
    for (const p of held) expect((await ts[(held.indexOf(p) + 1) % 3]!.api('GET', `/payments/${p.body.id}`)).body.status).toBe('canceled')
    const ids = new Set(held.map((p) => p.body.id))
    const canceled = (await listAll(ts[2]!, '/events?type=payment.canceled')).filter((e) => ids.has(e.data.object.id))
    expect(canceled).toHaveLength(9)
    for (const t of ts)
      await waitFor('the advanced clock on every instance', async () => (await t.api('GET', '/test_helpers/clock')).body.offset_seconds >= before + 7 * 86_400 + 60)
  })

  it('an SSE client on one instance sees what the others commit, in order and without gaps, and resumes with Last-Event-ID on a third', async () => {
    const stream = await openEventStream(ts[0]!)
    expect(stream.status).toBe(200)
    const made = [] as string[]
    for (let round = 0; round < 4; round++) {
      // concurrent commits on two other instances
      const rs = await Promise.all(Array.from({length: 6}, (_, i) => ts[1 + (i % 2)]!.api('POST', '/payments', cardPayment())))
      made.push(...rs.map((r) => r.body.id as string))
    }
    const madeSet = new Set(made)
    const all = await listAll(ts[2]!, '/events?limit=100')
    const first = all.findIndex((e) => madeSet.has(e.data.object.id))
    const expected = all.slice(first).map((e) => e.id as string)
    await waitFor('every event on the stream', () => expected.every((id) => streamed(stream).includes(id)))
    await stream.close()
    // in the log's order, with nothing missing in between
    const seen = streamed(stream).slice(streamed(stream).indexOf(expected[0]!))
    expect(seen.slice(0, expected.length)).toEqual(expected)

    const resumed = await openEventStream(ts[2]!, expected[4])
    expect(resumed.status).toBe(200)
    await waitFor('the replay after Last-Event-ID', () => resumed.events.length >= expected.length - 5)
    await resumed.close()
    expect(streamed(resumed).slice(0, expected.length - 5)).toEqual(expected.slice(5))
  })
})

describe('the rate limit of a fleet', () => {
  let ts: TestEngine[]
  beforeAll(async () => {
    // 1 request per second, bursts of 2: small enough that the machine's speed does not matter
    ts = await fleet(3, {rateLimit: 1})
  })
  afterAll(async () => Promise.all(ts.map((t) => t.stop())))

  it('is one bucket for the account and mode, not one per instance', async () => {
    let drained: number | undefined
    for (let i = 0; i < 10 && drained === undefined; i++) {
      const r = await ts[0]!.api('GET', '/balance')
      if (r.status === 429) {
        drained = performance.now()
        expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      } else expect(r.status).toBe(200)
    }
    expect(drained).toBeDefined()
    // the other instances find the same bucket empty: only what refilled since can pass (one bucket each would pass all four)
    const rs = await Promise.all([1, 2, 1, 2].map((i) => ts[i]!.api('GET', '/balance')))
    const refilled = Math.floor((performance.now() - drained!) / 1000)
    const ok = rs.filter((r) => r.status === 200).length
    expect(ok).toBeLessThanOrEqual(refilled)
    for (const r of rs) expect([200, 429]).toContain(r.status)
  })

  it('failed authentications from one address are one budget for the fleet, not one per instance', async () => {
    // 5 per second, bursts of 20 (docs/decisions.md#rate-limits): three buckets of their own would let 60 through at once
    const started = performance.now()
    const statuses: number[] = []
    // 30 of them, and on until one is refused (a slow machine refills the bucket meanwhile)
    for (let i = 0; i < 300 && (i < 30 || !statuses.includes(429)); i++) statuses.push((await ts[i % 3]!.as(`sk_test_wrong${String(i).padStart(20, '0')}`).api('GET', '/balance')).status)
    const refilled = Math.floor(((performance.now() - started) / 1000) * 5)
    for (const s of statuses) expect([401, 429]).toContain(s)
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(20 + refilled)
    expect(statuses).toContain(429)
    // only failures are refused: a right key from the same address is served on every instance at once
    // (the account's own budget here is 1 a second, bursts of 2: its 429 may come, never the failures')
    // (the test before drained the account's bucket: a fast machine gets here before it refilled)
    const right = []
    for (const t of ts) right.push(await t.api('GET', '/balance'))
    const until = Date.now() + 10_000
    while (!right.some((r) => r.status === 200) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250))
      right.push(await ts[right.length % 3]!.api('GET', '/balance'))
    }
    expect(right.map((r) => r.status)).toContain(200)
    for (const r of right) expect(r.status === 200 || !/failed authentications/.test(r.body.error.message), r.text).toBe(true)
    // (the address's failures are answered 401 again once its bucket has refilled: the other tests here are done)
  })
})

describe("an instance beside another's load", () => {
  let ts: TestEngine[]
  beforeAll(async () => {
    ts = await fleet(2)
  })
  afterAll(async () => Promise.all(ts.map((t) => t.stop())))

  /** the change notices an instance has heard of the others' commits (its /metrics) */
  const notices = async (t: TestEngine) => Number(/^gw_store_notices_total(?:\{[^}]*\})? (\d+)$/m.exec((await t.raw('GET', `https://127.0.0.1:${t.engine.port}/metrics`)).body)?.[1] ?? NaN)

  it("is not woken by the other's payments while nothing here follows them; an event stream here hears them, and once it ends they wake it no more", async () => {
    const [busy, idle] = ts as [TestEngine, TestEngine]
    // its account's engine is loaded here (key, clock, caches), as behind a load balancer
    expect((await idle.api('POST', '/payments', cardPayment())).status).toBe(201)
    const before = await notices(idle)
    for (let i = 0; i < 4; i++) await Promise.all(Array.from({length: 5}, () => busy.api('POST', '/payments', cardPayment())))
    await sleep(300)
    expect(await notices(idle)).toBe(before)

    const stream = await openEventStream(idle)
    expect(stream.status).toBe(200)
    const r = await busy.api('POST', '/payments', cardPayment())
    await waitFor("the other's payment on the stream", () => stream.events.some((e) => e.data?.data?.object?.id === r.body.id))
    expect(await notices(idle)).toBeGreaterThan(before)
    await stream.close()
    await sleep(200)
    const after = await notices(idle)
    for (let i = 0; i < 5; i++) await busy.api('POST', '/payments', cardPayment())
    await sleep(300)
    expect(await notices(idle)).toBe(after)
  })
})
