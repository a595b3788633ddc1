import {lookup} from 'node:dns'
import {mkdtempSync, rmSync} from 'node:fs'
import {createServer, type Server} from 'node:https'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import tls from 'node:tls'
import {request} from 'undici'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {ensureCertificates} from '../tls/certificates.js'
import {webhookAgents} from './webhook-agents.js'

// A receiver on loopback with a certificate of the engine's own CA (not a trusted root).
let dir: string
let server: Server
let url: string
let connections = 0

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gw-webhook-agents-'))
  const m = await ensureCertificates({caCert: join(dir, 'ca.pem'), caKey: join(dir, 'ca-key.pem'), serverCert: join(dir, 'cert.pem'), serverKey: join(dir, 'key.pem')}, '127.0.0.1')
  server = createServer({key: m.key, cert: m.cert}, (_req, res) => res.end('ok'))
  server.on('secureConnection', () => connections++)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
})

afterAll(async () => {
  await new Promise((r) => server.close(r))
  rmSync(dir, {recursive: true, force: true})
})

describe('webhook agents', () => {
  it('the verifying agent refuses a certificate no trusted root signed; the loopback agent accepts it', async () => {
    const {agent, loopbackAgent} = webhookAgents(lookup)
    try {
      const refused = await request(url, {method: 'POST', body: '{}', dispatcher: agent}).then(
        () => undefined,
        (e: NodeJS.ErrnoException) => e,
      )
      expect(refused?.code).toMatch(/CERT|SIGNATURE|VERIFY/)
      const ok = await request(url, {method: 'POST', body: '{}', dispatcher: loopbackAgent})
      expect(ok.statusCode).toBe(200)
      expect(await ok.body.text()).toBe('ok')
    } finally {
      await Promise.all([agent.destroy(), loopbackAgent.destroy()])
    }
  })

  it('builds one TLS context for all its connections, not one per connection', async () => {
    const {agent, loopbackAgent} = webhookAgents(lookup)
    const contexts = vi.spyOn(tls, 'createSecureContext')
    try {
      const before = connections
      // eight at once: eight connections, each a handshake
      const answers = await Promise.all(Array.from({length: 8}, () => request(url, {method: 'POST', body: '{}', dispatcher: loopbackAgent}).then((r) => r.body.text())))
      expect(answers).toEqual(Array(8).fill('ok'))
      expect(connections - before).toBe(8)
      expect(contexts).not.toHaveBeenCalled()
    } finally {
      contexts.mockRestore()
      await Promise.all([agent.destroy(), loopbackAgent.destroy()])
    }
  })
})
