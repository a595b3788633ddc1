// Errors (docs/api.md#errors) and the wire details (docs/decisions.md#wire-details): envelope, Request-Id, auth, card errors,
// validation, 404s, idempotency, versioning, body size, TLS only.
import http from 'node:http'
import net from 'node:net'
import {Readable} from 'node:stream'
import tls from 'node:tls'
import {request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type Res, type TestEngine} from '../test-support/harness.js'
import {card, cardPayment, createPayment, expectError, getPayment, RETURN_URL} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

/** Counts payments of a customer through the list endpoint. */
async function countFor(customer: string): Promise<number> {
  const r = await t.api('GET', `/payments?customer=${customer}&limit=100`)
  expect(r.status, r.text).toBe(200)
  return r.body.data.length
}

async function newCustomer(): Promise<string> {
  const r = await t.api('POST', '/customers', {email: 'idem@example.com'})
  expect(r.status, r.text).toBe(201)
  return r.body.id
}

describe('Request-Id and the error envelope', () => {
  it('every response carries Request-Id: req_..., unique per request', async () => {
    const rs: Res[] = [
      await t.api('GET', '/payments'),
      await t.api('POST', '/payments', cardPayment()),
      await t.api('GET', '/payments/pay_doesnotexist'),
      await t.api('GET', '/nothing_here'),
      await t.api('GET', '/payments', undefined, {authorization: ''}),
      await t.raw('GET', t.engine.baseUrl.replace('/v1', '/elsewhere')),
      await t.api('POST', '/payments', {amount: 1.5, currency: 'EUR', payment_method: 'card'}),
    ]
    const ids = rs.map((r) => r.headers['request-id'])
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9]+$/)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('error bodies carry type, code, message, doc_url and request_id equal to the header', async () => {
    const e = expectError(await t.api('GET', '/payments/pay_missing'), 404, 'invalid_request_error', 'resource_missing')
    expect(Object.keys(e)).toEqual(expect.arrayContaining(['type', 'code', 'message', 'doc_url', 'request_id']))
  })

  it('errors are JSON', async () => {
    const r = await t.api('GET', '/payments/pay_missing')
    expect(r.headers['content-type']).toMatch(/^application\/json/)
  })
})

describe('401 authentication_error', () => {
  it('missing key', async () => {
    expectError(await t.api('GET', '/payments', undefined, {authorization: ''}), 401, 'authentication_error')
  })

  it('invalid key, malformed header, publishable key', async () => {
    expectError(await t.api('GET', '/payments', undefined, {authorization: 'Bearer sk_test_wrongwrongwrong'}), 401, 'authentication_error')
    expectError(await t.api('GET', '/payments', undefined, {authorization: `Basic ${t.key}`}), 401, 'authentication_error')
    expectError(await t.api('GET', '/payments', undefined, {authorization: 'Bearer pk_test_abcdefghijkl'}), 401, 'authentication_error')
  })

  it('an sk_live_ key → 401 saying live mode needs real provider connections', async () => {
    const e = expectError(
      await t.api('GET', '/payments', undefined, {authorization: 'Bearer sk_live_abcdefghijklmnop'}),
      401,
      'authentication_error',
    )
    expect(e.message.toLowerCase()).toContain('live mode')
  })

  it('unauthenticated POSTs create nothing', async () => {
    const before = (await t.api('GET', '/payments?limit=100')).body.data.length
    await t.api('POST', '/payments', cardPayment(), {authorization: 'Bearer sk_test_wrongwrongwrong'})
    expect((await t.api('GET', '/payments?limit=100')).body.data.length).toBe(before)
  })
})

describe('402 card_error', () => {
  it.each([
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
    ['4000000000000069', 'expired_card'],
    ['4000000000000127', 'incorrect_cvc'],
  ])('card %s → 402 %s with error.payment; the failed payment is stored', async (number, code) => {
    const r = await t.api('POST', '/payments', cardPayment({}, number))
    const e = expectError(r, 402, 'card_error', code)
    expect(e.payment).toMatch(/^pay_/)
    const p = await getPayment(t, e.payment)
    expect(p.status).toBe('failed')
    expect(p.failure_code).toBe(code)
    expect(p.failure_message).toEqual(expect.any(String))
    expect(p.provider_attempts).toHaveLength(1)
    expect(p.provider_attempts[0].outcome).not.toBe('approved')
    expect(p.provider_attempts[0].decline_code).toBe(code)
  })

  it('amount 4002 → 402 card_declined, a final decline that is never retried', async () => {
    const r = await t.api('POST', '/payments', cardPayment({amount: 4002}))
    const e = expectError(r, 402, 'card_error', 'card_declined')
    const p = await getPayment(t, e.payment)
    expect(p.status).toBe('failed')
    expect(p.failure_code).toBe('card_declined')
    expect(p.provider_attempts).toHaveLength(1)
  })

  it('a declined payment shows in the list as failed', async () => {
    const r = await t.api('POST', '/payments', cardPayment({reference: 'declined-listed'}, '4000000000000002'))
    const l = await t.api('GET', '/payments?reference=declined-listed')
    expect(l.body.data.map((p: any) => [p.id, p.status])).toEqual([[r.body.error.payment, 'failed']])
  })
})

describe('400 invalid_request_error', () => {
  it('float amount → parameter_invalid naming amount', async () => {
    const e = expectError(await t.api('POST', '/payments', cardPayment({amount: 20.5})), 400, 'invalid_request_error', 'parameter_invalid')
    expect(e.param).toBe('amount')
  })

  it('amount as a string, zero or negative → 400', async () => {
    for (const amount of ['2000', 0, -5, null, true]) {
      expectError(await t.api('POST', '/payments', cardPayment({amount})), 400, 'invalid_request_error')
    }
  })

  it('unknown field → parameter_unknown naming the field', async () => {
    const e = expectError(
      await t.api('POST', '/payments', cardPayment({colour: 'blue'})),
      400,
      'invalid_request_error',
      'parameter_unknown',
    )
    expect(e.param).toBe('colour')
    expect(e.message).toContain('colour')
  })

  it('unknown nested field → parameter_unknown naming the dotted path', async () => {
    const body = cardPayment()
    ;(body.payment_method_data as any).card.pin = '1234'
    const e = expectError(await t.api('POST', '/payments', body), 400, 'invalid_request_error', 'parameter_unknown')
    expect(e.message).toContain('pin')
  })

  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__'])('a field named %s is an unknown parameter too', async (field) => {
    const body = JSON.stringify(cardPayment()).replace(/^\{/, `{"${field}":1,`)
    const e = expectError(await t.api('POST', '/payments', body), 400, 'invalid_request_error', 'parameter_unknown')
    expect(e.param).toBe(field)
  })

  it('unknown query parameter on a list → parameter_unknown', async () => {
    expectError(await t.api('GET', '/payments?sort=asc'), 400, 'invalid_request_error', 'parameter_unknown')
  })

  it.each(['amount', 'currency', 'payment_method'])('missing %s → parameter_missing', async (field) => {
    const body: Record<string, unknown> = {amount: 1000, currency: 'EUR', payment_method: 'ideal', return_url: RETURN_URL}
    delete body[field]
    const e = expectError(await t.api('POST', '/payments', body), 400, 'invalid_request_error', 'parameter_missing')
    expect(e.param).toBe(field)
  })

  it('malformed JSON → 400', async () => {
    expectError(await t.api('POST', '/payments', '{"amount": 2000,'), 400, 'invalid_request_error')
  })

  it('a JSON body that is not an object → 400', async () => {
    expectError(await t.api('POST', '/payments', '[1,2]'), 400, 'invalid_request_error')
    expectError(await t.api('POST', '/payments', '"x"'), 400, 'invalid_request_error')
  })

  it('lowercase currency → 400 naming currency', async () => {
    const e = expectError(await t.api('POST', '/payments', cardPayment({currency: 'eur'})), 400, 'invalid_request_error')
    expect(e.param).toBe('currency')
  })

  it('unknown currency and unknown method code → 400', async () => {
    expectError(await t.api('POST', '/payments', cardPayment({currency: 'ABC'})), 400, 'invalid_request_error')
    expectError(await t.api('POST', '/payments', {amount: 100, currency: 'EUR', payment_method: 'cheque'}), 400, 'invalid_request_error')
  })

  it('method/currency mismatch (pix with EUR) → 400', async () => {
    const e = expectError(
      await t.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'pix', return_url: RETURN_URL}),
      400,
      'invalid_request_error',
    )
    expect(e.message).toContain('BRL')
  })

  it('manual capture on a non-card method → 400', async () => {
    expectError(
      await t.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'ideal', capture_method: 'manual', return_url: RETURN_URL}),
      400,
      'invalid_request_error',
    )
  })

  it('invalid card number (Luhn) → 400', async () => {
    expectError(await t.api('POST', '/payments', cardPayment({}, '4242424242424241')), 400, 'invalid_request_error')
  })

  it('validation failures create nothing', async () => {
    const before = (await t.api('GET', '/payments?limit=100')).body.data.length
    await t.api('POST', '/payments', cardPayment({amount: 1.5}))
    await t.api('POST', '/payments', cardPayment({currency: 'eur'}))
    expect((await t.api('GET', '/payments?limit=100')).body.data.length).toBe(before)
  })
})

describe('404 invalid_request_error', () => {
  it.each([
    ['GET', '/payments/pay_doesnotexist'],
    ['GET', '/payments/not_even_a_prefix'],
    ['POST', '/payments/pay_doesnotexist/capture'],
    ['POST', '/payments/pay_doesnotexist/confirm'],
    ['POST', '/payments/pay_doesnotexist/cancel'],
    ['GET', '/customers/cus_doesnotexist'],
    ['GET', '/payment_methods/pm_doesnotexist'],
    ['GET', '/events/evt_doesnotexist'],
    ['GET', '/providers/prov_doesnotexist'],
  ])('%s %s → 404 resource_missing', async (method, path) => {
    expectError(await t.api(method, path, method === 'POST' ? {} : undefined), 404, 'invalid_request_error', 'resource_missing')
  })

  it('a malformed %-escape in an id → 404, not a server error', async () => {
    expectError(await t.api('GET', '/payments/%E0%A4%A'), 404, 'invalid_request_error', 'resource_missing')
    expectError(await t.api('POST', '/payments/pay_%ZZ/capture', {}), 404, 'invalid_request_error', 'resource_missing')
  })

  it('unknown routes → 404 route_unknown', async () => {
    expectError(await t.api('GET', '/nothing_here'), 404, 'invalid_request_error', 'route_unknown')
    expectError(await t.api('DELETE', '/payments'), 404, 'invalid_request_error', 'route_unknown')
    expectError(await t.api('GET', '/payments/pay_x/extra/segments'), 404, 'invalid_request_error', 'route_unknown')
    const outside = await t.raw('GET', t.engine.baseUrl.replace('/v1', '/v2/payments'), {headers: {authorization: `Bearer ${t.key}`}})
    expectError({...outside, body: JSON.parse(outside.text)}, 404, 'invalid_request_error', 'route_unknown')
  })

  it('404s fail identically on every retry', async () => {
    const a = await t.api('GET', '/payments/pay_doesnotexist')
    const b = await t.api('GET', '/payments/pay_doesnotexist')
    expect(b.status).toBe(a.status)
    expect({...b.body.error, request_id: ''}).toEqual({...a.body.error, request_id: ''})
  })
})

describe('409 idempotency_error and replays', () => {
  it('replay with the same key returns the original status and body byte-for-byte, and does not double-create', async () => {
    const cus = await newCustomer()
    const body = cardPayment({customer: {id: cus}})
    const key = `k-${Math.random()}`
    const a = await t.api('POST', '/payments', body, {'idempotency-key': key})
    const b = await t.api('POST', '/payments', body, {'idempotency-key': key})
    expect(a.status).toBe(201)
    expect(b.status).toBe(201)
    expect(b.text).toBe(a.text)
    expect(b.headers['request-id']).toMatch(/^req_/)
    expect(await countFor(cus)).toBe(1)
  })

  it('the replay ignores key order in the body (same payload)', async () => {
    const key = `k-${Math.random()}`
    const a = await t.api('POST', '/customers', {email: 'a@example.com', name: 'A'}, {'idempotency-key': key})
    const b = await t.api('POST', '/customers', '{"name":"A","email":"a@example.com"}', {'idempotency-key': key})
    expect(b.status).toBe(201)
    expect(b.text).toBe(a.text)
  })

  it('a retry whose run would now fail with a 5xx still gets the recorded response (the claim defers its lookup to the commit)', async () => {
    const key = `k-${Math.random()}`
    const body = cardPayment()
    const a = await t.api('POST', '/payments', body, {'idempotency-key': key})
    expect(a.status, a.text).toBe(201)
    const providers = [...t.engine.app.core.providers.values()]
    const saved = providers.map((p) => p.authorize)
    for (const p of providers) (p as {authorize: unknown}).authorize = async () => Promise.reject(new Error('provider down'))
    try {
      const b = await t.api('POST', '/payments', body, {'idempotency-key': key})
      expect(b.status, b.text).toBe(201)
      expect(b.text).toBe(a.text)
      expect(b.headers['idempotent-replayed']).toBe('true')
      // a new key does run, and fails
      const c = await t.api('POST', '/payments', body, {'idempotency-key': `k-${Math.random()}`})
      expect(c.status, c.text).toBeGreaterThanOrEqual(500)
    } finally {
      providers.forEach((p, i) => ((p as {authorize: unknown}).authorize = saved[i]))
    }
  })

  it('4xx outcomes are replayed identically (402 decline, 400 validation)', async () => {
    const cus = await newCustomer()
    const key = `k-${Math.random()}`
    const body = cardPayment({customer: {id: cus}}, '4000000000000002')
    const a = await t.api('POST', '/payments', body, {'idempotency-key': key})
    const b = await t.api('POST', '/payments', body, {'idempotency-key': key})
    expect(a.status).toBe(402)
    expect(b.status).toBe(402)
    expect(b.text).toBe(a.text)
    expect(await countFor(cus)).toBe(1)
    // the replayed error is still a well-formed error response: header and body agree
    expectError(b, 402, 'card_error', 'card_declined')
    expect(b.headers['idempotent-replayed']).toBe('true')

    const key2 = `k-${Math.random()}`
    const bad = cardPayment({amount: 1.25})
    const c = await t.api('POST', '/payments', bad, {'idempotency-key': key2})
    const d = await t.api('POST', '/payments', bad, {'idempotency-key': key2})
    expect(c.status).toBe(400)
    expect(d.status).toBe(400)
    expect(d.text).toBe(c.text)
    expectError(d, 400, 'invalid_request_error', 'parameter_invalid')
  })

  it('replays of state changes (capture) do not apply twice', async () => {
    const p = await createPayment(t, cardPayment({capture_method: 'manual'}))
    const key = `k-${Math.random()}`
    const a = await t.api('POST', `/payments/${p.id}/capture`, {amount: 500}, {'idempotency-key': key})
    const b = await t.api('POST', `/payments/${p.id}/capture`, {amount: 500}, {'idempotency-key': key})
    expect(b.text).toBe(a.text)
    expect((await getPayment(t, p.id)).amount_captured).toBe(500)
  })

  it('same key, different body → 409 idempotency_key_reused; nothing created', async () => {
    const cus = await newCustomer()
    const key = `k-${Math.random()}`
    await t.api('POST', '/payments', cardPayment({customer: {id: cus}}), {'idempotency-key': key})
    const r = await t.api('POST', '/payments', cardPayment({customer: {id: cus}, amount: 2001}), {'idempotency-key': key})
    expectError(r, 409, 'idempotency_error', 'idempotency_key_reused')
    expect(await countFor(cus)).toBe(1)
  })

  it('same key on a different path → 409 idempotency_key_reused', async () => {
    const key = `k-${Math.random()}`
    await t.api('POST', '/customers', {email: 'x@example.com'}, {'idempotency-key': key})
    expectError(await t.api('POST', '/payment_methods', card(), {'idempotency-key': key}), 409, 'idempotency_error', 'idempotency_key_reused')
  })

  it('two concurrent requests with the same key → one runs, the other gets 409 idempotency_key_in_use', async () => {
    const cus = await newCustomer()
    let sawInUse = false
    let created = 0
    for (let round = 0; round < 20 && !sawInUse; round++) {
      const key = `race-${round}-${Math.random()}`
      const body = cardPayment({customer: {id: cus}, reference: `race-${round}`})
      const rs = await Promise.all(Array.from({length: 8}, () => t.api('POST', '/payments', body, {'idempotency-key': key})))
      const ok = rs.filter((r) => r.status === 201)
      const inUse = rs.filter((r) => r.status === 409)
      for (const r of inUse) expectError(r, 409, 'idempotency_error', 'idempotency_key_in_use')
      expect(ok.length + inUse.length).toBe(rs.length)
      expect(ok.length).toBeGreaterThanOrEqual(1)
      // every success is the same payment (original or replay)
      expect(new Set(ok.map((r) => r.body.id)).size).toBe(1)
      created++
      if (inUse.length > 0) sawInUse = true
    }
    expect(sawInUse).toBe(true)
    expect(await countFor(cus)).toBe(created)
  })

  it('an Idempotency-Key over 255 characters → 400 parameter_invalid; 255 is fine', async () => {
    expectError(await t.api('POST', '/customers', {}, {'idempotency-key': 'x'.repeat(256)}), 400, 'invalid_request_error', 'parameter_invalid')
    const ok = await t.api('POST', '/customers', {}, {'idempotency-key': 'y'.repeat(255)})
    expect(ok.status, ok.text).toBe(201)
  })

  it('the 24 h replay window follows the engine clock: after 25 h the key is usable again', async () => {
    const cus = await newCustomer()
    const key = `k-${Math.random()}`
    const body = cardPayment({customer: {id: cus}})
    const a = await t.api('POST', '/payments', body, {'idempotency-key': key})
    await t.advance(23 * 3600)
    const b = await t.api('POST', '/payments', body, {'idempotency-key': key})
    expect(b.text).toBe(a.text)
    expect(await countFor(cus)).toBe(1)
    await t.advance(2 * 3600)
    const c = await t.api('POST', '/payments', body, {'idempotency-key': key})
    expect(c.status).toBe(201)
    expect(c.body.id).not.toBe(a.body.id)
    expect(await countFor(cus)).toBe(2)
    // and a different body with the expired key is not a conflict any more
    const key2 = `k-${Math.random()}`
    await t.api('POST', '/customers', {email: 'one@example.com'}, {'idempotency-key': key2})
    await t.advance(25 * 3600)
    const d = await t.api('POST', '/customers', {email: 'two@example.com'}, {'idempotency-key': key2})
    expect(d.status, d.text).toBe(201)
    expect(d.body.email).toBe('two@example.com')
  })
})

describe('versioning', () => {
  it('Service-Version: v1 is accepted', async () => {
    expect((await t.api('GET', '/payments', undefined, {'service-version': 'v1'})).status).toBe(200)
  })

  it.each(['v2', '2024-01-01', 'V1', ''])('Service-Version %j → 400 version_invalid', async (v) => {
    const headers: Record<string, string> = {'service-version': v}
    // the harness drops empty headers; send a blank one explicitly
    if (v === '') headers['service-version'] = ' '
    expectError(await t.api('GET', '/payments', undefined, headers), 400, 'invalid_request_error', 'version_invalid')
  })

  it('list envelopes carry the /v1 url', async () => {
    expect((await t.api('GET', '/payments')).body.url).toBe('/v1/payments')
  })
})

describe('transport', () => {
  it('a body over 1 MiB → 413 with the error envelope', async () => {
    const big = JSON.stringify({amount: 100, currency: 'EUR', payment_method: 'ideal', description: 'x'.repeat(1024 * 1024 + 10)})
    const r = await t.api('POST', '/payments', big)
    expectError(r, 413, 'invalid_request_error')
  })

  it('a body just under 1 MiB is parsed (and rejected on its merits, not its size)', async () => {
    const body = JSON.stringify({amount: 100, currency: 'EUR', payment_method: 'ideal', description: 'x'.repeat(1024 * 1000)})
    const r = await t.api('POST', '/payments', body)
    expect(r.status).toBe(400)
    expect(r.body.error.param).toBe('description')
  })

  it('plain HTTP to the port → 400 tls_required JSON envelope', async () => {
    const port = t.engine.port
    const res = await new Promise<{status: number; headers: http.IncomingHttpHeaders; text: string}>((resolve, reject) => {
      const req = http.request({host: '127.0.0.1', port, path: '/v1/payments', method: 'GET', headers: {authorization: `Bearer ${t.key}`}}, (r) => {
        let text = ''
        r.setEncoding('utf8')
        r.on('data', (c) => (text += c))
        r.on('end', () => resolve({status: r.statusCode!, headers: r.headers, text}))
      })
      req.on('error', reject)
      req.setTimeout(5000, () => req.destroy(new Error('plain HTTP request hung')))
      req.end()
    })
    expect(res.status).toBe(400)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const body = JSON.parse(res.text)
    expect(body.error.type).toBe('invalid_request_error')
    expect(body.error.code).toBe('tls_required')
    expect(body.error.request_id).toMatch(/^req_/)
    expect(res.headers['request-id']).toBe(body.error.request_id)
  })

  it('a chunked body over 1 MiB (no Content-Length) → 413 envelope', async () => {
    const body = Readable.from([Buffer.alloc(700_000, 'a'), Buffer.alloc(700_000, 'a')])
    const r = await request(`${t.engine.baseUrl}/payments`, {
      method: 'POST',
      headers: {authorization: `Bearer ${t.key}`, 'content-type': 'application/json', 'idempotency-key': `big-${Math.random()}`},
      body,
      dispatcher: t.agent,
    })
    const text = await r.body.text()
    expectError({status: r.statusCode, headers: r.headers as any, body: JSON.parse(text), text}, 413, 'invalid_request_error')
  })

  /** raw bytes over a socket (TLS or plain); returns the parsed response */
  async function rawExchange(payload: string, secure: boolean) {
    const out = await new Promise<string>((resolve, reject) => {
      let text = ''
      const s = secure
        ? tls.connect({host: '127.0.0.1', port: t.engine.port, ca: t.engine.caCertPem, servername: 'localhost'}, () => s.write(payload))
        : net.connect({host: '127.0.0.1', port: t.engine.port}, () => s.write(payload))
      s.on('data', (c) => (text += c))
      s.on('close', () => resolve(text))
      s.on('error', reject)
      setTimeout(() => s.destroy(), 3000)
    })
    const [head, ...rest] = out.split('\r\n\r\n')
    const [statusLine, ...lines] = head!.split('\r\n')
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
    const text = rest.join('\r\n\r\n')
    return {status: Number(statusLine!.split(' ')[1]), headers, text, body: JSON.parse(text)}
  }

  it('a request that is not HTTP still gets the JSON envelope and a Request-Id', async () => {
    expectError(await rawExchange('NOT HTTP AT ALL\r\n\r\n', true), 400, 'invalid_request_error')
    const plain = await rawExchange('NOT HTTP AT ALL\r\n\r\n', false)
    expectError(plain, 400, 'invalid_request_error', 'tls_required')
  })

  it('an oversized header block → 431 with the JSON envelope and a Request-Id', async () => {
    const r = await rawExchange(`GET /v1/payments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.key}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, true)
    expectError(r, 431, 'invalid_request_error')
  })

  it('a request target no URL can be made of (GET //) → 400 request_malformed, and the engine keeps serving', async () => {
    for (const target of ['//', '//:99999/v1/payments']) {
      const r = await rawExchange(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`, true)
      expectError(r, 400, 'invalid_request_error', 'request_malformed')
      expect(r.body.error.message).toContain('/v1/payments')
    }
    const ok = await request(`${t.engine.baseUrl}/payments`, {headers: {authorization: `Bearer ${t.key}`}, dispatcher: t.agent})
    expect(ok.statusCode).toBe(200)
    await ok.body.text()
  })

  it('garbage pipelined after a complete POST /v1/payments never answers the POST with a 400: the client gets the 201 (or a closed connection) and the payment exists', async () => {
    const key = `pipelined-garbage-${Math.random()}`
    const json = JSON.stringify(cardPayment())
    // Content-Length covers the JSON only: the bytes after it are parsed as a next request, and are not HTTP
    const payload =
      `POST /v1/payments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.key}\r\nIdempotency-Key: ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}NOT HTTP AT ALL\r\n\r\n`
    const out = await new Promise<string>((resolve, reject) => {
      let text = ''
      const s = tls.connect({host: '127.0.0.1', port: t.engine.port, ca: t.engine.caCertPem, servername: 'localhost'}, () => s.write(payload))
      s.on('data', (c) => (text += c))
      s.on('close', () => resolve(text))
      s.on('error', reject)
      setTimeout(() => s.destroy(), 5000)
    })
    if (out !== '') {
      expect(out.slice(0, out.indexOf('\r\n')), out).toBe('HTTP/1.1 201 Created')
      const head = out.slice(0, out.indexOf('\r\n\r\n'))
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)![1])
      const body = JSON.parse(out.slice(head.length + 4, head.length + 4 + length))
      expect(body.object).toBe('payment')
      // the connection is closed after the 201: nothing else (no 400 for the garbage either) comes after it
      expect(out.length, out).toBe(head.length + 4 + length)
    }
    const replay = await t.api('POST', '/payments', json, {'idempotency-key': key})
    expect(replay.status, replay.text).toBe(201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
  })

  it('a path with dot segments is resolved as a URL parser does', async () => {
    const r = await rawExchange(`GET /v1/customers/../payments?limit=1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.key}\r\nConnection: close\r\n\r\n`, true)
    expect(r.status, r.text).toBe(200)
    expect(r.body.object).toBe('list')
  })

  it('HTTPS keeps working after a plain-HTTP request', async () => {
    const r = await request(`${t.engine.baseUrl}/payments`, {headers: {authorization: `Bearer ${t.key}`}, dispatcher: t.agent})
    expect(r.statusCode).toBe(200)
    await r.body.text()
  })
})
