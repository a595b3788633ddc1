// Hostile input (GUIDE: "Bad input gets a clear 4xx or a usage error, never a stack trace or a
// 5xx"): deeply nested JSON, requests aborted mid-body, and a few thousand mixed hostile
// requests at a running engine whose log is captured.
import net from 'node:net'
import tls from 'node:tls'
import {Agent, request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {MAX_JSON_DEPTH} from '../http/request.js'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {cardPayment, createPayment, expectError} from './helpers.js'

let t: TestEngine
const log: string[] = []
const debug: string[] = []
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0, log: (l) => log.push(l), debug: (l) => debug.push(l)})
})
afterAll(async () => t.stop())

/** A line of the engine's log that is a stack trace or an unexpected error. */
const stackLike = (l: string) => /\n\s+at |^\s+at |Error: |internal error|Maximum call stack/.test(l)

// ids of real objects, so hostile bodies reach the handlers behind the lookups
const ids = {payment: '', customer: '', dispute: '', endpoint: '', merchant: '', rule: '', pm: '', event: ''}

async function seed() {
  ids.payment = (await createPayment(t, cardPayment({capture_method: 'manual'}))).id
  ids.customer = (await t.api('POST', '/customers', {email: 'h@example.com'})).body.id
  const paid = await createPayment(t, cardPayment())
  ids.dispute = (await t.api('POST', '/test_helpers/disputes', {payment: paid.id})).body.id
  ids.endpoint = (await t.api('POST', '/webhook_endpoints', {url: 'https://127.0.0.1:9/hooks', enabled_events: ['payment.failed']})).body.id
  ids.merchant = (await t.api('POST', '/merchants', {business_name: 'Hostile Shop', country: 'NL', email: 'm@example.com'})).body.id
  ids.pm = (await t.api('POST', '/payment_methods', {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}})).body.id
  ids.event = (await t.api('GET', '/events?limit=1')).body.data[0].id
}

const postRoutes = () => [
  '/payments',
  `/payments/${ids.payment}/confirm`,
  `/payments/${ids.payment}/capture`,
  `/payments/${ids.payment}/increment_authorization`,
  `/payments/${ids.payment}/cancel`,
  '/customers',
  `/customers/${ids.customer}`,
  '/payment_methods',
  `/payment_methods/${ids.pm}/detach`,
  '/refunds',
  `/disputes/${ids.dispute}/evidence`,
  `/disputes/${ids.dispute}/accept`,
  '/webhook_endpoints',
  `/webhook_endpoints/${ids.endpoint}`,
  `/webhook_endpoints/${ids.endpoint}/rotate_secret`,
  `/events/${ids.event}/resend`,
  '/merchants',
  `/merchants/${ids.merchant}`,
  '/routing_rules',
  '/test_helpers/disputes',
  `/test_helpers/disputes/${ids.dispute}/resolve`,
  `/test_helpers/payments/${ids.payment}/action`,
  `/test_helpers/payments/${ids.payment}/review`,
  '/test_helpers/providers/prov_x/health',
  '/test_helpers/clock/advance',
]

const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n)
const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)

describe('deeply nested JSON', () => {
  beforeAll(seed)

  it(`20,000 levels on every POST route, with an Idempotency-Key → 400 parameter_invalid naming the body and the ${MAX_JSON_DEPTH}-level limit`, async () => {
    for (const path of postRoutes()) {
      for (const body of [deepArray(20_000), deepObject(20_000), '['.repeat(20_000), '{"a":'.repeat(20_000)]) {
        const r = await t.api('POST', path, body, {'idempotency-key': `deep-${Math.random()}`})
        const e = expectError(r, 400, 'invalid_request_error', 'parameter_invalid')
        expect(e.param, path).toBe('body')
        expect(e.message).toContain(String(MAX_JSON_DEPTH))
      }
    }
    expect(log.filter(stackLike)).toEqual([])
  })

  it(`${MAX_JSON_DEPTH} levels are parsed and judged on their merits; ${MAX_JSON_DEPTH + 1} are refused before parsing`, async () => {
    // metadata is a map of strings: the nesting inside it is a validation error, not a depth error
    const nested = (n: number) => JSON.stringify({amount: 100, currency: 'EUR', payment_method: 'ideal', metadata: JSON.parse(deepObject(n - 1))})
    const ok = await t.api('POST', '/payments', nested(MAX_JSON_DEPTH))
    expect(ok.status).toBe(400)
    expect(ok.body.error.param).toMatch(/^metadata/)
    const deep = await t.api('POST', '/payments', nested(MAX_JSON_DEPTH + 1))
    expect(deep.body.error.param).toBe('body')
    // brackets inside strings are text
    const text = await t.api('POST', '/payments', {amount: 100, currency: 'EUR', payment_method: 'ideal', description: '['.repeat(500), return_url: 'https://shop.example/r'})
    expect(text.status, text.text).toBe(201)
  })
})

// ---------------------------------------------------------------- raw sockets

interface RawResult {
  status: number | null
  text: string
}

/** Sends raw bytes over TLS (or plain TCP); resolves with the status line's code, or null if none came. */
function raw(payload: Buffer | string, opts: {secure?: boolean; abortAfterWrite?: boolean; timeoutMs?: number; untilHead?: boolean} = {}): Promise<RawResult> {
  return new Promise((resolve) => {
    let text = ''
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      s.destroy()
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text)
      resolve({status: m ? Number(m[1]) : null, text})
    }
    const onConnect = () => {
      s.write(payload)
      if (opts.abortAfterWrite) setTimeout(finish, 5)
    }
    const s: net.Socket =
      opts.secure === false
        ? net.connect({host: '127.0.0.1', port: t.engine.port}, onConnect)
        : tls.connect({host: '127.0.0.1', port: t.engine.port, ca: t.engine.caCertPem, servername: 'localhost'}, onConnect)
    s.on('data', (c) => {
      text += c.toString('latin1')
      // (a status is all some cases want: a connection kept alive after it would wait out the timeout)
      if (opts.untilHead && /^HTTP\/1\.1 \d{3}[^]*?\r\n\r\n/.test(text)) finish()
    })
    s.on('close', finish)
    s.on('error', finish)
    const timer = setTimeout(finish, opts.timeoutMs ?? 3000)
  })
}

const head = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`

describe('a request aborted by its client mid-body', () => {
  it('is ordinary: no stack trace, at most one debug line', async () => {
    const before = {log: log.length, debug: debug.length}
    const r = await raw(
      head('POST', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json', 'Content-Length': 5000, 'Idempotency-Key': `abort-${Math.random()}`}) +
        '{"amount": 2000, "currency": "EU',
      {abortAfterWrite: true},
    )
    expect(r.status).toBeNull()
    // the engine notices the abort asynchronously: wait for its debug line (it has no other output)
    const deadline = Date.now() + 3000
    while (debug.length === before.debug && Date.now() < deadline) await new Promise((res) => setTimeout(res, 10))
    const newLog = log.slice(before.log)
    expect(newLog).toEqual([])
    const lines = debug.slice(before.debug)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^req_\w+ POST \/v1\/payments: aborted by the client/)
    expect(lines[0]).not.toMatch(/\n|\s+at /)
    // the engine still answers
    expect((await t.api('GET', '/payments?limit=1')).status).toBe(200)
  })
})

// ---------------------------------------------------------------- the barrage

/** mulberry32: a seeded generator, so a failing barrage is reproducible. */
function rng(seed: number) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

describe('a few thousand mixed hostile requests', () => {
  it('never get a 5xx or print a stack trace, keep memory bounded, and a valid payment still succeeds afterwards', async () => {
    const seed = Number(process.env.GW_HOSTILE_SEED ?? 20_260_109)
    const rand = rng(seed)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
    const bytes = (n: number) => Buffer.from(Array.from({length: n}, () => Math.floor(rand() * 256)))
    const agent = new Agent({connect: {ca: t.engine.caCertPem}, connections: 12, pipelining: 1})
    const auth = {authorization: `Bearer ${t.key}`}
    const heapBefore = process.memoryUsage().heapUsed

    const malformed = [
      '{', '{"amount":', '{"amount": 2000,}', '{"a":1 "b":2}', 'NaN', 'undefined', "{'amount': 1}", '{"amount": 1e309}', '{"amount": -0}',
      '{"amount": 99999999999999999999999999}', '{"__proto__": {"polluted": true}}', '{"constructor": {"prototype": {"x": 1}}}',
      '{"amount": 2000, "amount": "x"}', '\u0000\u0001', '\ufeff{"amount": 1}', '{"amount": "\ud800"}', 'null', 'true', '[]', '""', '0',
      '{"metadata": {"k": {"nested": []}}}', '{"customer": {"id": {"$ne": null}}}', '{"payment_method_data": {"card": []}}',
      JSON.stringify({amount: 1000, currency: 'EUR', payment_method: 'card', metadata: Object.fromEntries(Array.from({length: 5000}, (_, i) => [`k${i}`, 'v']))}),
      '[' + '1,'.repeat(100_000) + '1]',
      JSON.stringify({description: 'x'.repeat(900_000)}),
    ]
    const invalidUtf8 = () => Buffer.concat([Buffer.from('{"description": "'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]), Buffer.from('"}')])
    const traversal = [
      '/v1/payments/..%2F..%2Fetc%2Fpasswd', '/v1/payments/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/v1/payments/pay_%00', '/v1/payments/%ZZ',
      '/v1/payments/..%5c..%5cwindows%5cwin.ini', '/v1/settlement_reports/../../../../etc/passwd', '/v1/events/%252e%252e%252f',
      '/v1/customers/%ff%fe', '/v1/payments/' + 'a'.repeat(4000), '/v1//payments', '/v1/payments/pay_1/../../customers', '/checkout/3ds/..%2F..%2Fv1%2Fpayments',
      '/checkout/../v1/payments', '/v1/disputes/dp_%2e%2e', '/v1/payouts/po_%0d%0aSet-Cookie:%20x=1', '/v1/refunds/%u002e%u002e',
      '/v1/payments?limit=-1', '/v1/payments?limit=1e3', '/v1/payments?limit=100&limit=0', '/v1/payments?starting_after=%00',
      '/v1/events?type=*.*.*&created_gte=yesterday', '/v1/payments?created_gte=9999999-99-99', '/v1/payments?status[]=x', '/v1/balance?%=%',
    ]
    const contentTypes = ['text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/xml', '*/*', '']
    const statuses = new Map<number, number>()
    const problems: string[] = []
    const note = (what: string, status: number | null) => {
      if (status === null) return
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (status >= 500) problems.push(`${status} from ${what}`)
    }

    // each case sends one request (or one raw exchange); about 3,000 in all
    const httpCase = async (method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}) => {
      try {
        const r = await request(`https://127.0.0.1:${t.engine.port}${path}`, {
          method: method as 'POST',
          headers: {...auth, ...headers},
          body,
          dispatcher: agent,
          // the engine answers everything; a request left hanging is a finding
          signal: AbortSignal.timeout(5000),
        })
        await r.body.dump({limit: 1 << 20}).catch(() => {})
        note(`${method} ${path.slice(0, 80)}`, r.statusCode)
      } catch (e) {
        // the client refusing to send something (an invalid header) is not the engine's answer
        if (!/invalid|Invalid|header/i.test(String((e as Error).message))) problems.push(`${method} ${path.slice(0, 60)}: ${(e as Error).message}`)
      }
    }
    const cases: (() => Promise<void>)[] = []
    const routes = postRoutes()
    for (let i = 0; i < 900; i++) cases.push(() => httpCase('POST', `/v1${pick(routes)}`, pick(malformed), {'content-type': 'application/json', 'idempotency-key': `m-${i}`}))
    for (let i = 0; i < 100; i++) cases.push(() => httpCase('POST', `/v1${pick(routes)}`, invalidUtf8(), {'content-type': 'application/json'}))
    for (let i = 0; i < 250; i++) {
      const n = pick([33, 100, 5_000, 20_000, 60_000])
      const body = pick([deepArray(n), deepObject(n), '['.repeat(n), '{"a":'.repeat(n), `{"metadata": ${deepObject(n)}}`])
      cases.push(() => httpCase(pick(['POST', 'DELETE']), `/v1${pick(routes)}`, body, {'content-type': 'application/json', 'idempotency-key': `d-${i}`}))
    }
    for (let i = 0; i < 30; i++) cases.push(() => httpCase('POST', `/v1${pick(routes)}`, Buffer.alloc(1024 * 1024 + 1 + i, 0x5b), {'content-type': 'application/json'}))
    for (let i = 0; i < 300; i++) cases.push(() => httpCase('POST', `/v1${pick(routes)}`, bytes(1 + Math.floor(rand() * 2000)), {'content-type': pick(contentTypes)}))
    for (let i = 0; i < 400; i++) {
      const [method, body] = pick([['GET', undefined], ['POST', '{}'], ['DELETE', undefined], ['PUT', '{}'], ['PATCH', '{}'], ['OPTIONS', undefined], ['HEAD', undefined]] as const)
      cases.push(() => httpCase(method, pick(traversal), body, body ? {'content-type': 'application/json'} : {}))
    }
    const badHeaders: Record<string, string>[] = [
      {authorization: 'Bearer'}, {authorization: 'Bearer  '}, {authorization: 'Basic dXNlcjpwYXNz'}, {authorization: `Bearer ${'k'.repeat(8000)}`},
      {authorization: 'Bearer sk_live_xxxxxxxxxxxxxxxx'}, {authorization: 'Bearer pk_test_123'}, {authorization: `bearer ${t.key}`},
      {'idempotency-key': 'k'.repeat(256)}, {'idempotency-key': ''}, {'service-version': 'v2'}, {'service-version': ''}, {'service-version': 'v1, v1'},
      {accept: 'text/csv'}, {'content-encoding': 'gzip'}, {'x-forwarded-for': '1.1.1.1'.repeat(500)},
    ]
    for (let i = 0; i < 400; i++) {
      const h = pick(badHeaders)
      const headers = {'content-type': 'application/json', ...h}
      if (h.authorization !== undefined) Object.assign(headers, {authorization: h.authorization})
      cases.push(() =>
        pick([
          () => httpCase('POST', '/v1/payments', JSON.stringify({amount: 100, currency: 'EUR', payment_method: 'ideal', return_url: 'https://x.example'}), headers),
          () => httpCase('GET', '/v1/payments', undefined, headers),
          () => httpCase('POST', `/v1/payments/${ids.payment}/capture`, '{"amount": 1}', headers),
        ])(),
      )
    }
    // raw sockets: TLS garbage, plain garbage, half-open handshakes, broken HTTP, aborted bodies
    // A raw case ends at its answer's head, at the connection's close, or after 1.5 s of nothing;
    // it holds its lane at most 100 ms: the ones that send an incomplete request on purpose (a TLS
    // record cut short, a body shorter than its Content-Length) wait out their 1.5 s beside the
    // lanes, and every one is awaited before the checks
    const rawCases: Promise<void>[] = []
    const rawCase = (what: string, payload: Buffer | string, opts: Parameters<typeof raw>[1] = {}) => {
      const done = raw(payload, {timeoutMs: 1500, untilHead: true, ...opts}).then((r) => note(what, r.status))
      rawCases.push(done)
      return Promise.race([done, new Promise<void>((r) => setTimeout(r, 100))])
    }
    for (let i = 0; i < 80; i++) cases.push(() => rawCase('tls garbage', bytes(10 + Math.floor(rand() * 3000)), {abortAfterWrite: rand() < 0.5}))
    for (let i = 0; i < 60; i++) cases.push(() => rawCase('plain garbage', bytes(1 + Math.floor(rand() * 3000)), {secure: false}))
    for (let i = 0; i < 60; i++) cases.push(() => rawCase('fake handshake', Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x40, 0x00]), bytes(200)]), {secure: false, abortAfterWrite: rand() < 0.5}))
    const brokenHttp = [
      head('POST', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'Content-Length': 10, 'Transfer-Encoding': 'chunked'}) + '0\r\n\r\n',
      head('POST', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'Content-Length': -1}),
      head('POST', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'Content-Length': '1, 2'}),
      head('POST', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'Content-Length': 1e15}),
      head('POST', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'Transfer-Encoding': 'chunked'}) + 'zz\r\nxx\r\n',
      head('GET', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'X-Bad\u0001Name': 'v'}),
      head('GET', '/v1/payments', {Authorization: `Bearer ${t.key}\u0000`}),
      head('GET', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'X-Big': 'a'.repeat(20_000)}),
      `GET /v1/payments HTTP/9.9\r\nHost: x\r\n\r\n`,
      `GET ${'/'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      `\r\n\r\n\r\n`,
      head('GET', '/v1/../../etc/passwd', {Authorization: `Bearer ${t.key}`, Connection: 'close'}),
      head('GET', '*', {Connection: 'close'}),
      head('CONNECT', 'localhost:443', {Connection: 'close'}),
      // framing headers the HTTP client library refuses to send
      head('POST', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json', Expect: '100-continue', 'Content-Length': 2, Connection: 'close'}) + '{}',
      head('POST', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'Transfer-Encoding': 'gzip, chunked', Connection: 'close'}) + '2\r\n{}\r\n0\r\n\r\n',
      head('POST', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json', 'Content-Length': 5, Connection: 'close'}) + '{}',
    ]
    for (let i = 0; i < 150; i++) cases.push(() => rawCase('broken http', pick(brokenHttp)))
    for (let i = 0; i < 150; i++) {
      const path = `/v1${pick(routes)}`
      const partial = pick(['{"amount": 20', '['.repeat(3000), '{"fields": {"a": "', bytes(100).toString('latin1')])
      cases.push(() =>
        rawCase('aborted body', head('POST', path, {Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json', 'Content-Length': 100_000, 'Idempotency-Key': `ab-${i}`}) + partial, {abortAfterWrite: true}),
      )
    }
    for (let i = 0; i < 40; i++) {
      const path = pick([`/checkout/card/${ids.payment}?session=x`, `/checkout/3ds/${ids.payment}?session=x`, `/checkout/method/${ids.payment}`])
      cases.push(() => rawCase('aborted form', head('POST', path, {'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': 5000}) + 'outcome=appr', {abortAfterWrite: true}))
    }
    for (let i = 0; i < 60; i++) {
      cases.push(() =>
        rawCase('aborted chunked body', head('POST', '/v1/payments', {Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked'}) + '10\r\n{"amount": 2000,\r\n', {abortAfterWrite: true}),
      )
    }
    // shuffle and run with a dozen in flight (plus the raw cases waiting for an answer that cannot come)
    for (let i = cases.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      ;[cases[i], cases[j]] = [cases[j]!, cases[i]!]
    }
    expect(cases.length).toBeGreaterThanOrEqual(2_900)
    let next = 0
    await Promise.all(
      Array.from({length: 12}, async () => {
        while (next < cases.length) await cases[next++]!()
      }),
    )
    await Promise.all(rawCases)
    await agent.close()

    expect(problems, `seed ${seed}`).toEqual([])
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true)
    expect(statuses.get(400)).toBeGreaterThan(1_000)
    expect(log.filter(stackLike), 'stack traces in the engine log').toEqual([])
    expect(log, 'the engine log').toEqual([])
    // memory stays bounded: a few thousand requests, some of a megabyte, leave little behind
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(256 * 1024 * 1024)

    // and the engine still works
    const p = await createPayment(t, cardPayment({reference: 'after-the-barrage'}))
    expect(p.status).toBe('succeeded')
    expect((await t.api('GET', `/payments/${p.id}`)).body.status).toBe('succeeded')
  }, 60_000)
})

// ---------------------------------------------------------------- odd values that once reached a handler

describe('odd query values', () => {
  it('a created_gte / created_lte that looks like a date but is none (2026-99-99) → 400 naming the filter, not a 500', async () => {
    for (const path of ['/payments', '/events']) {
      for (const [name, value] of [['created_gte', '2026-99-99'], ['created_lte', '0000-00-00'], ['created_gte', '9999-12-31T99:99:99Z']]) {
        const e = expectError(await t.api('GET', `${path}?${name}=${encodeURIComponent(value!)}`), 400, 'invalid_request_error', 'parameter_invalid')
        expect(e.param).toBe(name)
        expect(e.message).toContain('2026-01-31T00:00:00Z')
        expect(e.message).toContain(value)
      }
    }
    expect(log.filter(stackLike)).toEqual([])
    expect((await t.api('GET', '/payments?created_gte=2026-01-31T00:00:00Z')).status).toBe(200)
  })
})
