// One tenant cannot starve the others (docs/decisions.md#one-tenant-cannot-starve-the-others), black box over HTTPS with
// several accounts on one engine: a far clock jump is refused and a long catch-up lets other
// accounts' requests through; a publishable key and failed authentications have budgets of their
// own; one account's receivers that never answer leave webhook slots for the others.
import {createServer as createTcpServer, type Socket} from 'node:net'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type Res, type TestEngine} from '../test-support/harness.js'
import {testReceiver, type TestReceiver} from '../test-support/tls-receiver.js'
import {waitFor} from '../test-support/wait.js'
import {card, cardPayment, expectError} from './helpers.js'

const DAY_S = 86_400

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => t?.stop())

describe("a clock moved far (item 3)", () => {
  it('now more than 400 days after the engine clock is 400 naming now, the limit and the fix; the clock does not move', async () => {
    const a = await t.account('far')
    const frozen = (await a.api('POST', '/test_helpers/clock', {frozen: true})).body
    const e = expectError(await a.api('POST', '/test_helpers/clock', {now: '9999-12-31T00:00:00Z'}), 400, 'invalid_request_error', 'parameter_invalid')
    expect(e.param).toBe('now')
    expect(e.message).toMatch(/at most 400 days after the engine clock/)
    const limit = new Date(Date.parse(frozen.now) + 400 * DAY_S * 1000).toISOString()
    expect(e.message).toContain(`Give ${limit} or earlier and set it again from there`)
    expect((await a.api('GET', '/test_helpers/clock')).body.now).toBe(frozen.now)
    // up to 400 days is taken (a step of an hour here: the 400-day catch-up is the next test's); a second more is not
    const hour = new Date(Date.parse(frozen.now) + 3_600_000).toISOString()
    expect((await a.api('POST', '/test_helpers/clock', {now: hour})).body).toMatchObject({now: hour, frozen: true})
    expectError(await a.api('POST', '/test_helpers/clock', {now: new Date(Date.parse(hour) + 400 * DAY_S * 1000 + 1000).toISOString()}), 400, 'invalid_request_error', 'parameter_invalid')
  })

  it("while one account advances 400 days over its history, another account's requests are answered before that advance answers", async () => {
    const a = await t.account('catching-up')
    const b = await t.account('meanwhile')
    // a history that falls due over the stretch: disputes (the test card), uncaptured authorizations, refunds, daily settlement
    for (let i = 0; i < 12; i++) {
      const p = await a.api('POST', '/payments', {...cardPayment(), payment_method_data: card(i % 3 === 0 ? '4000000000000259' : '4242424242424242'), capture_method: i % 4 === 1 ? 'manual' : 'automatic'})
      expect(p.status, p.text).toBe(201)
      if (i % 4 === 2) expect((await a.api('POST', '/refunds', {payment: p.body.id, amount: 500})).status).toBe(201)
    }
    const order: string[] = []
    const advance = a.api('POST', '/test_helpers/clock/advance', {seconds: 400 * DAY_S}).then((r) => {
      order.push('a')
      return r
    })
    let answered = 0
    while (!order.includes('a')) {
      const r = await b.api('GET', '/payments?limit=1')
      expect(r.status).toBe(200)
      order.push('b')
      answered++
      if (answered > 10_000) break
    }
    const done = await advance
    expect(done.status, done.text).toBe(200)
    expect(done.body.fired['settlement.report.ready']).toBeGreaterThan(0)
    // B's requests were answered while A's catch-up ran, not after it
    expect(order.indexOf('a')).toBeGreaterThanOrEqual(3)
    expect(order.slice(0, 3)).toEqual(['b', 'b', 'b'])
    // (400 settlement days and the jobs between them: about 1 s on SQLite, 10 s or more on PostgreSQL under load)
  }, 120_000)
})

describe('rate limits of a shared gateway (item 5)', () => {
  let limited: TestEngine
  beforeAll(async () => {
    // 5 requests per second per account and mode (bursts of 10); one proxy in front is trusted
    limited = await bootEngine({rateLimit: 5, trustedProxies: 1})
  })
  afterAll(async () => limited?.stop())

  const from = (address: string) => ({'x-forwarded-for': address})

  it("a publishable key's requests (403s included) take from a budget of their own: the secret key's stays whole", async () => {
    const a = await limited.account('browser-heavy')
    const pk = limited.as(a.publishableKey)
    const browser: Res[] = []
    // 25 of them, and on until one is refused (a slow machine refills the bucket meanwhile)
    for (let i = 0; i < 200 && (i < 25 || !browser.some((r) => r.status === 429)); i++) browser.push(await pk.api('GET', '/payments', undefined, from('198.51.100.20')))
    // a publishable key may not list payments (403) — and its budget runs out (bursts of 10)
    expect(browser.filter((r) => r.status === 403).length).toBeGreaterThan(0)
    const refused = browser.filter((r) => r.status === 429)
    expect(refused.length).toBeGreaterThan(0)
    const e = expectError(refused[0]!, 429, 'rate_limit_error', 'rate_limit_exceeded')
    expect(e.message).toMatch(/publishable key/)
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    // the server's secret key: every one of its next 5 answered
    const server: Res[] = []
    for (let i = 0; i < 5; i++) server.push(await a.api('GET', '/payments', undefined, from('198.51.100.21')))
    expect(server.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
  })

  it('failed authentications from one client address: 401s, then 429 with Retry-After; a right key from it is served; other addresses go on', async () => {
    const a = await limited.account('guessed')
    const guesser = '203.0.113.7'
    const statuses: number[] = []
    let refused: Res | undefined
    for (let i = 0; i < 200 && !refused; i++) {
      const r = await limited.as(`sk_test_guess${String(i).padStart(24, '0')}`).api('GET', '/payments', undefined, from(guesser))
      statuses.push(r.status)
      if (r.status === 429) refused = r
      else expectError(r, 401, 'authentication_error', 'api_key_invalid')
    }
    // a burst of 20 (more only as the bucket refills: 5 per second)
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(20)
    expect(refused).toBeDefined()
    const e = expectError(refused!, 429, 'rate_limit_error', 'rate_limit_exceeded')
    expect(e.message).toMatch(new RegExp(`failed authentications from ${guesser.replaceAll('.', '\\.')}`))
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    const refusedAt = performance.now()
    // only failures are refused: a right key from the same address is served, whenever it comes
    expect((await a.api('GET', '/payments', undefined, from(guesser))).status).toBe(200)
    // a client naming another address left of the proxy's entry does not get out of it
    const spoofed = await limited.as('sk_test_guess_again_000000000000').api('GET', '/payments', undefined, from(`192.0.2.1, ${guesser}`))
    // (within the refusal's Retry-After; a machine that stalled past its end would lawfully have let it through)
    if (performance.now() - refusedAt < Number(refused!.headers['retry-after']) * 1000 - 200) expect(spoofed.status).toBe(429)
    else expect([401, 429]).toContain(spoofed.status)
    // another address, and the proxy's own view of a different client, are untouched
    expect((await a.api('GET', '/payments', undefined, from('203.0.113.8'))).status).toBe(200)
    expect((await a.api('GET', '/payments', undefined, from(`${guesser}, 203.0.113.9`))).status).toBe(200)
    // once the bucket has refilled, the address is served again
    const wait = Number(refused!.headers['retry-after'])
    await waitFor('the address served again', async () => (await a.api('GET', '/payments', undefined, from(guesser))).status === 200, wait * 1000 + 10_000, 200)
  })
})

/** A TCP server that accepts connections and never answers (not even the TLS handshake): a receiver that hangs. */
async function blackHole() {
  const sockets = new Set<Socket>()
  const server = createTcpServer((s) => {
    sockets.add(s)
    s.on('error', () => {})
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as {port: number}).port
  return {
    url: (path: string) => `https://127.0.0.1:${port}/${path}`,
    get open() {
      return sockets.size
    },
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

describe('webhook slots shared by account, then endpoint (item 6)', () => {
  let hole: Awaited<ReturnType<typeof blackHole>>
  let rx: TestReceiver
  afterAll(async () => {
    await hole?.close()
    await rx?.close()
  })

  it("one account's 16 endpoints at a receiver that never answers hold every slot; another account's delivery arrives while all those attempts still hang", async () => {
    hole = await blackHole()
    rx = await testReceiver()
    const a: AsKey = await t.account('black-holed')
    const b: AsKey = await t.account('healthy')
    const endpoints: string[] = []
    for (let i = 0; i < 16; i++) {
      const ep = await a.api('POST', '/webhook_endpoints', {url: hole.url(`a${i}`), enabled_events: ['payment.succeeded']})
      expect(ep.status).toBe(201)
      endpoints.push(ep.body.id)
    }
    /** attempts of the black-holed account that have ended (each is recorded once it ends: at its 10 s timeout) */
    const ended = async () => {
      let n = 0
      for (const id of endpoints) for (const d of (await a.api('GET', `/webhook_endpoints/${id}/deliveries?limit=100`)).body.data) n += d.attempts.length
      return n
    }
    // a backlog: 20 payments x 16 endpoints = 320 deliveries for the 256 slots
    await Promise.all(Array.from({length: 20}, async () => expect((await a.api('POST', '/payments', cardPayment())).status).toBe(201)))
    // alone, it takes every slot (256 attempts hanging)
    await waitFor('every slot held by the black-holed account', () => hole.open >= 256)
    expect((await b.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})).status).toBe(201)
    const paid = await b.api('POST', '/payments', cardPayment())
    expect(paid.status).toBe(201)
    const got = await waitFor('the healthy account\'s delivery', () => rx.received.find((r) => r.body.includes(paid.body.id)))
    expect(got.status).toBe(200)
    // it came while every one of the other account's attempts was still hanging: none has ended yet
    expect(await ended()).toBe(0)
  })
})
