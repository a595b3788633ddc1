// The edges of the wire as a tenant (or anyone) would try them, black box over HTTPS (SQLite;
// PostgreSQL in the conformance-postgres project): every answer says nosniff, a gzip body is
// decoded within the body limit (a bomb stops there), other encodings and non-JSON bodies are 415
// naming what was sent, and a huge query string gets a JSON 431 rather than a dropped connection.
// (docs/api.md#what-a-key-reaches)
import {connect as netConnect} from 'node:net'
import {connect as tlsConnect} from 'node:tls'
import {gzipSync} from 'node:zlib'
import {request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type TestEngine} from '../test-support/harness.js'
import {cardPayment, expectError} from './helpers.js'

let t: TestEngine
let a: AsKey & {id: string; publishableKey: string}

beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
  a = await t.account('wire')
})
afterAll(async () => t?.stop())

/** One exchange on a TLS connection of its own: what came back before the connection closed, and how it closed. */
function rawExchange(head: string, body: Buffer = Buffer.alloc(0)): Promise<{text: string; error?: string}> {
  return new Promise((resolve) => {
    const s = tlsConnect({host: '127.0.0.1', port: t.engine.port, ca: t.engine.caCertPem, servername: 'localhost'}, () => {
      s.write(head)
      if (body.length) s.write(body)
    })
    let text = ''
    s.on('data', (d) => (text += d.toString('latin1')))
    s.on('error', (e) => resolve({text, error: (e as NodeJS.ErrnoException).code ?? e.message}))
    s.on('close', () => resolve({text}))
    s.setTimeout(10_000, () => s.destroy(new Error('timeout')))
  })
}

describe('every answer says X-Content-Type-Options: nosniff', () => {
  it('API answers of every kind, the document, operations, hosted pages, redirects, preflights, streams and errors before any route', async () => {
    const root = t.engine.baseUrl.replace(/\/v1$/, '')
    const session = (await a.api('POST', '/checkout_sessions', {amount: 1500, currency: 'EUR'})).body
    const paid = await a.api('POST', '/payments', cardPayment())
    const answers: [string, {status: number; headers: Record<string, unknown>}][] = [
      ['201', paid],
      ['200', await a.api('GET', `/payments/${paid.body.id}`)],
      ['400', await a.api('POST', '/payments', {amount: 'x'})],
      ['401', await t.as('sk_test_nobody_000000000000000000000').api('GET', '/payments')],
      ['403', await t.as(a.publishableKey).api('GET', '/payments')],
      ['404', await a.api('GET', '/nowhere')],
      ['document', await t.raw('GET', `${t.engine.baseUrl}/openapi.json`)],
      ['healthz', await t.raw('GET', `${root}/healthz`)],
      ['metrics', await t.raw('GET', `${root}/metrics`)],
      ['checkout page', await t.raw('GET', session.url)],
      ['card fields', await t.raw('GET', `${t.engine.checkoutUrl}/fields?key=${a.publishableKey}`)],
      ['gw.js', await t.raw('GET', `${t.engine.checkoutUrl}/gw.js`)],
      ['preflight', await t.raw('OPTIONS', `${t.engine.baseUrl}/payment_methods`, {headers: {origin: 'https://shop.example', 'access-control-request-method': 'POST'}})],
      ['outside /v1', await t.raw('GET', `${root}/elsewhere`)],
    ]
    for (const [what, r] of answers) expect(r.headers['x-content-type-options'], `${what} (${r.status})`).toBe('nosniff')
    // a stream's head
    const ac = new AbortController()
    const stream = await request(`${t.engine.baseUrl}/events/stream`, {headers: {authorization: `Bearer ${a.key}`, accept: 'text/event-stream'}, dispatcher: t.agent, signal: ac.signal})
    expect(stream.headers['x-content-type-options']).toBe('nosniff')
    ac.abort()
    await stream.body.dump().catch(() => {})
    // answers written before any handler: plain HTTP on the HTTPS port, a request Node cannot parse
    const plain = await new Promise<string>((resolve) => {
      const s = netConnect(t.engine.port, '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))
      let text = ''
      s.on('data', (d: Buffer) => (text += d))
      s.on('close', () => resolve(text))
      s.on('error', () => resolve(text))
    })
    expect(plain).toMatch(/^HTTP\/1\.1 400/)
    expect(plain.toLowerCase()).toContain('x-content-type-options: nosniff')
    const garbage = await rawExchange('GARBAGE\r\n\r\n')
    expect(garbage.text).toMatch(/^HTTP\/1\.1 400/)
    expect(garbage.text.toLowerCase()).toContain('x-content-type-options: nosniff')
  })
})

describe('request bodies: gzip decoded within the limit, anything else not JSON refused', () => {
  const post = (body: Buffer | string, headers: Record<string, string>) =>
    request(`${t.engine.baseUrl}/customers`, {method: 'POST', headers: {authorization: `Bearer ${a.key}`, ...headers}, body, dispatcher: t.agent}).then(async (r) => ({status: r.statusCode, body: JSON.parse(await r.body.text())}))

  it('a gzip body is decoded and read as the JSON it holds', async () => {
    const r = await post(gzipSync(JSON.stringify({email: 'gz@example.com', name: 'Gzip'})), {'content-type': 'application/json', 'content-encoding': 'gzip'})
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({email: 'gz@example.com', name: 'Gzip'})
  })

  it('a gzip bomb (a few KB that decode to 64 MiB) hits the 1 MiB body limit: 413, and the engine goes on', async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"description":"'), Buffer.alloc(64 * 1024 * 1024, 0x61), Buffer.from('"}')]))
    expect(bomb.length).toBeLessThan(200 * 1024)
    const before = process.memoryUsage().rss
    const r = await post(bomb, {'content-type': 'application/json', 'content-encoding': 'gzip'})
    expect(r.status, JSON.stringify(r.body)).toBe(413)
    expect(r.body.error.code).toBe('request_too_large')
    // (the engine runs in this process: it never held the 64 MiB)
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024)
    expect((await a.api('GET', '/account')).status).toBe(200)
  })

  it('bytes that are not gzip under Content-Encoding: gzip are 400 naming the body', async () => {
    const r = await post('{"email":"x@example.com"}', {'content-type': 'application/json', 'content-encoding': 'gzip'})
    expect(r.status).toBe(400)
    expect(r.body.error).toMatchObject({code: 'parameter_invalid', param: 'body'})
  })

  it.each(['br', 'deflate', 'compress', 'gzip, br'])('Content-Encoding %s is 415 naming it', async (encoding) => {
    const r = await post('{"email":"x@example.com"}', {'content-type': 'application/json', 'content-encoding': encoding})
    expect(r.status).toBe(415)
    expect(r.body.error).toMatchObject({type: 'invalid_request_error', code: 'media_type_unsupported'})
    expect(r.body.error.message).toContain(`"${encoding}"`)
  })

  it.each(['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])('a %s body is 415, never read as JSON', async (type) => {
    const r = await post('{"email":"plain@example.com"}', {'content-type': type})
    expect(r.status).toBe(415)
    expect(r.body.error).toMatchObject({type: 'invalid_request_error', code: 'media_type_unsupported'})
    expect(r.body.error.message).toContain(type)
    expect((await a.api('GET', '/customers?email=plain@example.com')).body.data).toEqual([])
  })

  it('JSON under its other names, and a body without a Content-Type, are read', async () => {
    for (const [i, headers] of [{'content-type': 'application/json; charset=utf-8'}, {'content-type': 'application/merge-patch+json'}, {}].entries()) {
      const r = await post(JSON.stringify({email: `json${i}@example.com`}), headers as Record<string, string>)
      expect(r.status, JSON.stringify(r.body)).toBe(201)
    }
  })
})

describe('a huge request target', () => {
  it.each([20, 80, 200])('a %s KB query string is answered 431 as JSON, not a dropped connection', async (kb) => {
    const target = `/v1/payments?reference=${'a'.repeat(kb * 1024)}`
    const r = await rawExchange(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${a.key}\r\n\r\n`)
    expect(r.text, r.error).toMatch(/^HTTP\/1\.1 431 /)
    const body = JSON.parse(r.text.slice(r.text.indexOf('\r\n\r\n') + 4))
    expect(body.error).toMatchObject({type: 'invalid_request_error', code: 'request_header_too_large'})
    expect(r.text.toLowerCase()).toContain('content-type: application/json')
  })
})
