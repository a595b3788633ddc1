// A webhook receiver for engine tests: HTTPS on 127.0.0.1 with a certificate of its own (a
// test-mode engine delivers to loopback receivers without checking it), recording what arrives
// and answering what the test says.
import {mkdtempSync, rmSync} from 'node:fs'
import {createServer, type Server} from 'node:https'
import type {IncomingHttpHeaders} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {ensureCertificates, type TlsMaterial} from '../tls/certificates.js'

export interface Received {
  headers: IncomingHttpHeaders
  body: string
  /** wall-clock ms when it arrived */
  at: number
  /** what the receiver answered */
  status: number
}

export interface TestReceiver {
  url: string
  received: Received[]
  /** the status answered from now on */
  status: number
  close(): Promise<void>
}

let material: Promise<TlsMaterial> | undefined

/**
 * The receivers' certificate, made once per test process. Its files are removed as soon as it is
 * read: a test process may end without an 'exit' event (vitest stops its workers), which left
 * one directory in the temp dir per test file that used a receiver.
 */
function tlsOnce(): Promise<TlsMaterial> {
  material ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-test-receiver-'))
    try {
      return await ensureCertificates({caCert: join(dir, 'ca.pem'), caKey: join(dir, 'ca-key.pem'), serverCert: join(dir, 'cert.pem'), serverKey: join(dir, 'key.pem')}, '127.0.0.1')
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  })()
  return material
}

export async function testReceiver(status = 200): Promise<TestReceiver> {
  const tls = await tlsOnce()
  const r = {received: [] as Received[], status} as TestReceiver
  const server: Server = createServer({key: tls.key, cert: tls.cert}, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      r.received.push({headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), status: r.status})
      res.writeHead(r.status, {'content-type': 'application/json'}).end(r.status < 300 ? '{"received":true}' : '{"error":"down"}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  r.url = `https://127.0.0.1:${(server.address() as {port: number}).port}/hooks`
  r.close = async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  return r
}
