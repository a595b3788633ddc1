// The API port's connection budget (connections.ts) with real sockets on the listener (server.ts):
// the first request's deadline, the caps per address and in all, what a new connection closes to
// get in, and what it never closes.
import {mkdtempSync, rmSync} from 'node:fs'
import type {IncomingMessage, ServerResponse} from 'node:http'
import net from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import tls from 'node:tls'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {ensureCertificates, type TlsMaterial} from '../tls/certificates.js'
import {waitFor} from '../test-support/wait.js'
import {ConnectionBudget, type ConnectionLimits, defaultMaxConnections} from './connections.js'
import {listen, type ListeningServer} from './server.js'

let dir: string
let material: TlsMaterial
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gw-connections-'))
  material = await ensureCertificates({caCert: join(dir, 'ca.pem'), caKey: join(dir, 'ca.key'), serverCert: join(dir, 'server.pem'), serverKey: join(dir, 'server.key')}, '127.0.0.1')
})
afterAll(() => rmSync(dir, {recursive: true, force: true}))

let server: ListeningServer | undefined
const sockets: net.Socket[] = []
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  await server?.close(100)
  server = undefined
})

/** A listener whose handler answers at once, or holds `/hold` requests until released; `/key` requests count as authenticated. */
async function serve(limits: Partial<ConnectionLimits>): Promise<{budget: ConnectionBudget; held: ServerResponse[]}> {
  const budget = new ConnectionBudget({total: 1000, perAddress: 0, trustedProxies: 0, firstRequestMs: 10_000, ...limits})
  const held: ServerResponse[] = []
  server = await listen({
    host: '127.0.0.1',
    port: 0,
    key: material.key,
    cert: material.cert,
    handler: (req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/key') budget.authenticated(req)
      if (req.url === '/hold') return void held.push(res)
      res.end('ok')
    },
    newRequestId: () => 'req_test',
    connections: budget,
  })
  return {budget, held}
}

/** A TCP connection that sends nothing; resolves once connected. */
async function silent(): Promise<net.Socket> {
  const s = net.connect({host: '127.0.0.1', port: server!.port})
  sockets.push(s)
  s.on('error', () => {})
  await new Promise<void>((r) => s.once('connect', () => r()))
  return s
}

/** A TLS connection kept alive, and a GET on it whose answer (status line and body) it resolves with. */
async function keepAlive(): Promise<{socket: tls.TLSSocket; get(path: string): Promise<string>}> {
  const s = tls.connect({host: '127.0.0.1', port: server!.port, ca: material.caCert, servername: 'localhost'})
  sockets.push(s)
  s.on('error', () => {})
  await new Promise<void>((r) => s.once('secureConnect', () => r()))
  return {
    socket: s,
    get: (path) =>
      new Promise<string>((resolve, reject) => {
        let text = ''
        const data = (c: Buffer) => {
          text += c
          if (/\r\n\r\n/.test(text) && /ok$/.test(text)) done()
        }
        const done = () => {
          s.off('data', data)
          s.off('close', closed)
          resolve(text)
        }
        const closed = () => reject(new Error(`closed before an answer: ${text}`))
        s.on('data', data)
        s.once('close', closed)
        s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
      }),
  }
}

const closed = (s: net.Socket) => s.destroyed || s.readyState === 'closed'
const whenClosed = (s: net.Socket) => new Promise<void>((r) => (closed(s) ? r() : s.once('close', () => r())))

describe('the first request is due within the deadline', () => {
  it('a connection that sends nothing, one whose TLS is done but sends no request, and one trickling its handshake are all closed at the deadline', async () => {
    await serve({firstRequestMs: 300})
    const quiet = await silent()
    const handshaken = await keepAlive()
    // a TLS ClientHello a byte at a time keeps an idle timeout at bay, not a deadline
    const trickle = await silent()
    const hello = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, ...Array(40).fill(7)])
    let i = 0
    const timer = setInterval(() => (i < hello.length && !closed(trickle) ? trickle.write(hello.subarray(i, ++i)) : undefined), 40)
    const started = Date.now()
    await Promise.all([whenClosed(quiet), whenClosed(handshaken.socket), whenClosed(trickle)])
    clearInterval(timer)
    expect(Date.now() - started).toBeLessThan(3000)
  })

  it('a connection that sent its request in time is not cut at the deadline', async () => {
    await serve({firstRequestMs: 300})
    const c = await keepAlive()
    expect(await c.get('/')).toMatch(/^HTTP\/1\.1 200/)
    await new Promise((r) => setTimeout(r, 600))
    expect(closed(c.socket)).toBe(false)
    expect(await c.get('/')).toMatch(/^HTTP\/1\.1 200/)
  })
})

describe('the caps', () => {
  it("at an address's cap its next connection closes its oldest that sent nothing; its clients still get through", async () => {
    const {budget} = await serve({perAddress: 5})
    const quiet = [] as net.Socket[]
    for (let i = 0; i < 5; i++) quiet.push(await silent())
    const c = await keepAlive()
    await whenClosed(quiet[0]!)
    expect(await c.get('/')).toMatch(/^HTTP\/1\.1 200/)
    expect(quiet.slice(1).some(closed)).toBe(false)
    expect(budget.shed).toBe(1)
  })

  it('at the total cap: connections that sent nothing go first, then idle ones that never authenticated, then idle authenticated ones; busy ones never', async () => {
    const {budget, held} = await serve({total: 4})
    const known = await keepAlive()
    expect(await known.get('/key')).toMatch(/^HTTP\/1\.1 200/)
    const anonymous = await keepAlive()
    expect(await anonymous.get('/')).toMatch(/^HTTP\/1\.1 200/)
    const busy = await keepAlive()
    busy.socket.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n')
    await waitFor('the held request', () => held.length === 1)
    const quiet = await silent()
    expect(budget.byState()).toEqual({handshake: 1, active: 1, idle: 2, stream: 0})
    // the fifth: the one that sent nothing goes
    const fifth = await keepAlive()
    await whenClosed(quiet)
    expect(await fifth.get('/')).toMatch(/^HTTP\/1\.1 200/)
    // the sixth: the idle one that never authenticated (the fifth has not either, but it is the more recently used)
    const sixth = await keepAlive()
    await whenClosed(anonymous.socket)
    expect(closed(known.socket)).toBe(false)
    expect(await sixth.get('/key')).toMatch(/^HTTP\/1\.1 200/)
    // the seventh: the fifth (idle, not authenticated); once none but authenticated ones wait, the eighth closes the one idle longest
    const seventh = await keepAlive()
    await whenClosed(fifth.socket)
    expect(await seventh.get('/key')).toMatch(/^HTTP\/1\.1 200/)
    const eighth = await keepAlive()
    await whenClosed(known.socket)
    expect(closed(busy.socket)).toBe(false)
    // the held request is answered on its connection all along
    held[0]!.end('ok')
    expect(await new Promise<string>((r) => busy.socket.once('data', (d) => r(String(d))))).toMatch(/^HTTP\/1\.1 200/)
    expect(await eighth.get('/')).toMatch(/^HTTP\/1\.1 200/)
  })

  it('a new connection is refused only while every connection is busy', async () => {
    const {budget, held} = await serve({total: 2})
    const a = await keepAlive()
    const b = await keepAlive()
    a.socket.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n')
    b.socket.write('GET /hold HTTP/1.1\r\nHost: x\r\n\r\n')
    await waitFor('the held requests', () => held.length === 2)
    const refused = await silent()
    await whenClosed(refused)
    expect(budget.refused).toBe(1)
    for (const r of held) r.end('ok')
  })

  it('behind trusted proxies connections are counted by the address X-Forwarded-For names, not the proxy\'s', async () => {
    const {budget} = await serve({perAddress: 2, trustedProxies: 1})
    const send = async (c: Awaited<ReturnType<typeof keepAlive>>, client: string) =>
      new Promise<string>((resolve) => {
        let text = ''
        c.socket.on('data', (d) => {
          text += d
          if (/ok$/.test(text)) resolve(text)
        })
        c.socket.write(`GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${client}\r\n\r\n`)
      })
    // five connections from one proxy (the peer): not capped by it
    const cs = await Promise.all(Array.from({length: 5}, () => keepAlive()))
    for (const [i, c] of cs.entries()) expect(await send(c, i < 2 ? '203.0.113.7' : `198.51.100.${i}`)).toMatch(/^HTTP\/1\.1 200/)
    expect(cs.some((c) => closed(c.socket))).toBe(false)
    // a third connection of 203.0.113.7 closes its oldest idle one
    const third = await keepAlive()
    expect(await send(third, '203.0.113.7')).toMatch(/^HTTP\/1\.1 200/)
    await whenClosed(cs[0]!.socket)
    expect(cs.slice(1).some((c) => closed(c.socket))).toBe(false)
    expect(budget.shed).toBe(1)
  })

  it("behind trusted proxies, a client at its cap whose connections are all busy gets its answer on a connection closed after it", async () => {
    const {held} = await serve({perAddress: 1, trustedProxies: 1})
    const busy = await keepAlive()
    busy.socket.write('GET /hold HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\n\r\n')
    await waitFor('the held request', () => held.length === 1)
    const next = await keepAlive()
    let text = ''
    next.socket.on('data', (d) => (text += d))
    next.socket.write('GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\n\r\n')
    await whenClosed(next.socket)
    expect(text).toMatch(/^HTTP\/1\.1 200/)
    expect(text).toMatch(/\r\nConnection: close\r\n/i)
    expect(closed(busy.socket)).toBe(false)
    held[0]!.end('ok')
  })
})

describe('the default total', () => {
  it('stays below the descriptor limit, leaving a fifth of it (at least 256), at most 16,384', () => {
    expect(defaultMaxConnections(1024)).toBe(768)
    expect(defaultMaxConnections(20_000)).toBe(16_000)
    expect(defaultMaxConnections(1_048_576)).toBe(16_384)
    expect(defaultMaxConnections(Number.NaN)).toBe(4096)
    expect(defaultMaxConnections(100)).toBe(64)
  })
})
