// The listener of gw serve: one port, HTTPS, plain HTTP told to use TLS.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import net from 'node:net'
import tls from 'node:tls'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {ensureCertificates, type TlsMaterial} from '../tls/certificates.js'
import {listen, type ListeningServer} from './server.js'

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
    firstByteTimeoutMs: 300,
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
