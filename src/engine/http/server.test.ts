// The listener of gw serve: one port, HTTPS, plain HTTP told to use TLS.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import net from 'node:net'
import tls from 'node:tls'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ensureCertificates, type TlsMaterial} from '../tls/certificates.js'
import {ConnectionBudget} from './connections.js'
import {listen, type ListeningServer} from './server.js'

/** The caps out of the way; a connection's first request due within `firstRequestMs`. */
const budget = (firstRequestMs: number) => new ConnectionBudget({total: 10_000, perAddress: 0, trustedProxies: 0, firstRequestMs})

let dir: string
let material: TlsMaterial
let server: ListeningServer
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gw-server-'))
  material = await ensureCertificates({caCert: join(dir, 'ca.pem'), caKey: join(dir, 'ca.key'), serverCert: join(dir, 'server.pem'), serverKey: join(dir, 'server.key')}, '127.0.0.1')
  server = await listen({
    host: '127.0.0.1',
    port: 0,
    key: material.key,
    cert: material.cert,
    // answers after longer than the timeout: a request in progress is not cut
    handler: (_req, res) => void setTimeout(() => res.end('ok'), 600),
    newRequestId: () => 'req_test',
    connections: budget(300),
  })
})
afterAll(async () => {
  await server?.close()
  rmSync(dir, {recursive: true, force: true})
})

describe('connections that never send a byte', () => {
  it('are closed after the first-byte timeout (they were once held open for good, unlike every other idle connection)', async () => {
    const s = net.connect({host: '127.0.0.1', port: server.port})
    const started = Date.now()
    await new Promise<void>((resolve) => s.on('close', () => resolve()).on('error', () => {}))
    expect(Date.now() - started).toBeLessThan(3000)
  })

  it('a TLS connection that completes its handshake and never sends a request is closed after the same timeout (Node times a request only from its first byte)', async () => {
    const s = tls.connect({host: '127.0.0.1', port: server.port, ca: material.caCert, servername: 'localhost'})
    s.on('error', () => {})
    await new Promise<void>((r) => s.once('secureConnect', () => r()))
    const started = Date.now()
    await new Promise<void>((resolve) => s.on('close', () => resolve()))
    expect(Date.now() - started).toBeLessThan(3000)
  })

  it('a connection that sends its request in time is served, even when the answer takes longer than the timeout', async () => {
    const s = tls.connect({host: '127.0.0.1', port: server.port, ca: material.caCert, servername: 'localhost'})
    await new Promise<void>((r) => s.once('secureConnect', () => r()))
    await new Promise((r) => setTimeout(r, 100))
    let text = ''
    s.on('data', (c) => (text += c))
    s.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    await new Promise<void>((r) => s.on('close', () => r()))
    expect(text).toMatch(/^HTTP\/1\.1 200/)
    expect(text).toMatch(/ok$/)
  })
})

describe('garbage pipelined after complete requests', () => {
  it('lets every request parsed before it finish its answer, in order, then closes: no 400 is read as one of their answers', async () => {
    const s = tls.connect({host: '127.0.0.1', port: server.port, ca: material.caCert, servername: 'localhost'})
    await new Promise<void>((r) => s.once('secureConnect', () => r()))
    let text = ''
    s.on('data', (c) => (text += c))
    s.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\nNOT HTTP AT ALL\r\n\r\n')
    await new Promise<void>((r) => s.on('close', () => r()))
    const statuses = text.match(/HTTP\/1\.1 \d+/g)
    expect(statuses, text).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200'])
    // the last answer says the connection closes after it
    expect(text.slice(text.lastIndexOf('HTTP/1.1'))).toMatch(/\r\nConnection: close\r\n/i)
    expect(text).toMatch(/ok$/)
  })
})

describe('requests not received in time (Node headersTimeout / requestTimeout)', () => {
  let slow: ListeningServer
  beforeAll(async () => {
    slow = await listen({
      host: '127.0.0.1',
      port: 0,
      key: material.key,
      cert: material.cert,
      // reads the whole body before answering
      handler: (req, res) => {
        req.resume()
        req.on('end', () => res.end('ok'))
      },
      newRequestId: () => 'req_test',
      connections: budget(10_000),
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      timeoutCheckIntervalMs: 50,
    })
  })
  afterAll(async () => slow?.close())

  async function exchange(first: string, ...more: string[]): Promise<string> {
    const s = tls.connect({host: '127.0.0.1', port: slow.port, ca: material.caCert, servername: 'localhost'})
    s.on('error', () => {})
    await new Promise<void>((r) => s.once('secureConnect', () => r()))
    let text = ''
    s.on('data', (c) => (text += c))
    s.write(first)
    // bytes that keep the connection busy without finishing the request
    const timer = setInterval(() => (more.length > 0 ? s.write(more.shift()!) : undefined), 100)
    const kill = setTimeout(() => s.destroy(), 5000)
    await new Promise<void>((r) => s.on('close', () => r()))
    clearInterval(timer)
    clearTimeout(kill)
    return text
  }

  function expect408(text: string) {
    const head = text.slice(0, text.indexOf('\r\n\r\n'))
    expect(head.split('\r\n')[0], text).toBe('HTTP/1.1 408 Request Timeout')
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/)
    expect(head).toMatch(/\r\nRequest-Id: req_test(\r\n|$)/)
    expect(head).toMatch(/\r\nContent-Type: application\/json/)
    const body = JSON.parse(text.slice(head.length + 4))
    expect(body.error).toMatchObject({type: 'invalid_request_error', code: 'request_timeout', request_id: 'req_test', doc_url: 'https://docs.gw.dev/errors#request_timeout'})
    expect(body.error.message).toMatch(/in time/)
    expect(body.error.message).toMatch(/Idempotency-Key/)
  }

  it('headers never finished → 408 request_timeout with the JSON envelope, a Request-Id and Connection: close (not 400 request_malformed)', async () => {
    expect408(await exchange('GET / HTTP/1.1\r\nHost: x\r\n', 'X-A: 1\r\n', 'X-B: 2\r\n', 'X-C: 3\r\n', 'X-D: 4\r\n', 'X-E: 5\r\n', 'X-F: 6\r\n', 'X-G: 7\r\n'))
  })

  it('a body never finished → 408 request_timeout', async () => {
    expect408(await exchange('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{', '"a', '":', '1', ',', '"b', '":', '2', ',', '"c'))
  })
  it('plain HTTP trickled slowly is cut off too, with the tls_required answer (it was once never timed out)', async () => {
    const s = net.connect({host: '127.0.0.1', port: slow.port})
    s.on('error', () => {})
    await new Promise<void>((r) => s.once('connect', () => r()))
    let text = ''
    s.on('data', (c) => (text += c))
    s.write('GET / HTTP/1.1\r\nHost: x\r\n')
    const more = ['X-A: 1\r\n', 'X-B: 2\r\n', 'X-C: 3\r\n', 'X-D: 4\r\n', 'X-E: 5\r\n', 'X-F: 6\r\n', 'X-G: 7\r\n']
    const timer = setInterval(() => (more.length > 0 ? s.write(more.shift()!) : undefined), 100)
    const kill = setTimeout(() => s.destroy(), 5000)
    await new Promise<void>((r) => s.on('close', () => r()))
    clearInterval(timer)
    clearTimeout(kill)
    expect(text.split('\r\n')[0], text).toBe('HTTP/1.1 400 Bad Request')
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error.code).toBe('tls_required')
  })
})
