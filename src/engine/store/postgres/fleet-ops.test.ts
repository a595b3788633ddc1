// A fleet as an operator runs it (docs/decisions.md#the-fleet): two instances on one PostgreSQL database behind a
// TCP load balancer, a certificate the operator brought, --public-url naming the balancer. A 3-D
// Secure payment completes through the balancer only; readiness turns false while PostgreSQL is
// stopped and true after; `gw logs tail` through the balancer shows every request of both
// instances; the metrics parse as Prometheus text and move with the load. A cluster of its own
// (it is stopped). Needs the build (gw logs tail runs the built CLI).
import {waitFor} from '../../test-support/wait.js'
import {spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import net from 'node:net'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import {Agent, request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, fleetSecretsKeyFile, type TestEngine} from '../../test-support/harness.js'
import {ensureCertificates, type TlsMaterial} from '../../tls/certificates.js'
import {startCluster, type Cluster} from './cluster.js'
import {postgresStore} from './postgres-store.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))


/** A TCP load balancer: each new connection goes to the next backend in turn (TLS passes through). */
async function balancer(ports: number[], port: number): Promise<{port: number; close(): void; counts: number[]}> {
  let next = 0
  const counts = ports.map(() => 0)
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const i = next++ % ports.length
    counts[i]!++
    const upstream = net.connect(ports[i]!, '127.0.0.1')
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => s.destroy())
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  return {
    port: (server.address() as net.AddressInfo).port,
    counts,
    close() {
      for (const s of sockets) s.destroy()
      server.close()
    },
  }
}

describe('a fleet behind a load balancer', () => {
  let cluster: Cluster
  let pki: string
  let tls: TlsMaterial
  let lb: Awaited<ReturnType<typeof balancer>>
  let one: TestEngine
  let two: TestEngine
  let publicUrl: string
  let agent: Agent

  beforeAll(async () => {
    cluster = await startCluster()
    const url = await cluster.createDatabase('fleet_ops')
    // the operator's own CA and certificate (made elsewhere; the instances' data dirs never make theirs)
    pki = mkdtempSync(join(tmpdir(), 'gw-pki-'))
    tls = await ensureCertificates({caCert: join(pki, 'ca.crt'), caKey: join(pki, 'ca.key'), serverCert: join(pki, 'server.crt'), serverKey: join(pki, 'server.key')}, 'localhost')
    // the balancer's port is known first: both instances advertise it
    const reserved = net.createServer()
    await new Promise<void>((r) => reserved.listen(0, '127.0.0.1', r))
    const lbPort = (reserved.address() as net.AddressInfo).port
    await new Promise<void>((r) => reserved.close(() => r()))
    publicUrl = `https://localhost:${lbPort}`
    const opts = {store: postgresStore(url, {unitConnections: 4, readConnections: 3}), publicUrl, tlsCert: join(pki, 'server.crt'), tlsKey: join(pki, 'server.key'), tlsCa: join(pki, 'ca.crt'), rateLimit: 0, secretsKeyFile: fleetSecretsKeyFile()}
    one = await bootEngine(opts)
    two = await bootEngine(opts)
    lb = await balancer([one.engine.port, two.engine.port], lbPort)
    // a client that knows only the balancer and the operator's CA; a new connection per request, so the balancer alternates
    agent = new Agent({connect: {ca: tls.caCert}, pipelining: 0})
  })
  afterAll(async () => {
    lb?.close()
    await agent?.close()
    await Promise.all([one?.stop(), two?.stop()])
    await cluster?.stop()
    if (pki) rmSync(pki, {recursive: true, force: true})
  })

  async function viaLb(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const h: Record<string, string> = {authorization: `Bearer ${one.key}`, ...headers}
    if (body !== undefined) h['content-type'] = 'application/json'
    if (method === 'POST' && !h['idempotency-key']) h['idempotency-key'] = `fleet-${Date.now()}-${Math.random()}`
    const res = await request(`${publicUrl}${path}`, {method: method as 'GET', headers: h, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body), dispatcher: agent, reset: true})
    const text = await res.body.text()
    let parsed: any = text
    try {
      parsed = JSON.parse(text)
    } catch {
      /* a page */
    }
    return {status: res.statusCode, headers: res.headers, body: parsed, text}
  }

  it('advertises the balancer: a 3-D Secure payment completes through it alone, pages and all', async () => {
    expect(one.engine.baseUrl).toBe(`${publicUrl}/v1`)
    const created = await viaLb('POST', '/v1/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000003220'), return_url: 'https://shop.example/back'})
    expect(created.status, created.text).toBe(201)
    expect(created.body.status).toBe('requires_action')
    const page = created.body.next_action.url as string
    expect(page.startsWith(`${publicUrl}/checkout/`)).toBe(true)
    const path = page.slice(publicUrl.length)
    const shown = await viaLb('GET', path)
    expect(shown.status, `${path} -> ${String(shown.headers.location)}`).toBe(200)
    expect(shown.text).toContain('Complete authentication')
    // the customer approves on the page (the form posts back to the same URL), through the balancer
    const approved = await viaLb('POST', path, 'outcome=approve', {'content-type': 'application/x-www-form-urlencoded'})
    // back to the shop's return URL
    expect(approved.status).toBe(303)
    expect(String(approved.headers.location)).toMatch(/^https:\/\/shop\.example\/back/)
    const got = await waitFor('the payment succeeded', async () => {
      const r = await viaLb('GET', `/v1/payments/${created.body.id}`)
      return r.body.status === 'succeeded' && r
    })
    expect(got.body.amount_captured).toBe(2000)
    expect(lb.counts.every((n) => n > 0)).toBe(true)
  })

  it('gw logs tail through the balancer shows every request of both instances', async () => {
    const env = {...process.env, GW_BASE_URL: `${publicUrl}/v1`, GW_CA_FILE: join(pki, 'ca.crt'), GW_API_KEY: one.key, GW_PROFILE: '', XDG_CONFIG_HOME: pki, GW_NO_KEYRING: '1', NO_COLOR: '1'}
    const tail = spawn(process.execPath, [join(ROOT, 'bin/run.js'), 'logs', 'tail', '--json', '--path', '/payments'], {cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe']})
    const seen: {id: string; instance: string; status: number}[] = []
    createInterface({input: tail.stdout!}).on('line', (l) => {
      try {
        seen.push(JSON.parse(l))
      } catch {
        /* not a line of the tail */
      }
    })
    let err = ''
    tail.stderr!.on('data', (c) => (err += c))
    try {
      await waitFor('the tail connected', async () => err.includes('Tailing'), 15_000)
      // ten requests, alternating instances, one a deliberate 400
      const ids: string[] = []
      for (let i = 0; i < 10; i++) {
        const r = i === 4 ? await viaLb('POST', '/v1/payments', {amount: 'ten'}) : await viaLb('POST', '/v1/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
        ids.push(r.headers['request-id'] as string)
      }
      await waitFor('every request in the tail', async () => ids.every((id) => seen.some((s) => s.id === id)), 15_000)
      const mine = seen.filter((s) => ids.includes(s.id))
      expect(new Set(mine.map((s) => s.instance)).size).toBe(2)
      expect(mine.filter((s) => s.status === 400)).toHaveLength(1)
    } finally {
      tail.kill('SIGINT')
    }
  })

  it('the metrics of each instance parse as Prometheus text and move with the load', async () => {
    const scrape = async (t: TestEngine) => (await t.raw('GET', `https://127.0.0.1:${t.engine.port}/metrics`)).body
    const count = (text: string) =>
      parsePrometheusTextFormat(text)
        .find((f) => f.name === 'gw_http_requests_total')!
        .metrics.filter((m) => m.labels?.operation === 'listPayments')
        .reduce((a, m) => a + Number(m.value), 0)
    const before = [await scrape(one), await scrape(two)].map((t) => (t.includes('listPayments') ? count(t) : 0))
    for (let i = 0; i < 6; i++) await viaLb('GET', '/v1/payments?limit=1')
    const after = [await scrape(one), await scrape(two)].map(count)
    expect(after[0]! + after[1]! - before[0]! - before[1]!).toBe(6)
    expect(after[0]!).toBeGreaterThan(before[0]!)
    expect(after[1]!).toBeGreaterThan(before[1]!)
  })

  it('readiness is false while PostgreSQL is stopped and true again after; liveness stays true', async () => {
    const probe = async (t: TestEngine, path: string) => (await t.raw('GET', `https://127.0.0.1:${t.engine.port}${path}`)).status
    // gw_store_up is what the scrape itself found, not the previous scrape's (it once lagged one scrape)
    const storeUp = async (t: TestEngine) => Number(/^gw_store_up (\S+)$/m.exec((await t.raw('GET', `https://127.0.0.1:${t.engine.port}/metrics`)).body)?.[1])
    expect([await probe(one, '/readyz'), await probe(two, '/readyz')]).toEqual([200, 200])
    expect([await storeUp(one), await storeUp(two)]).toEqual([1, 1])
    await cluster.stopServer('fast')
    try {
      await waitFor('not ready', async () => (await probe(one, '/readyz')) === 503 && (await probe(two, '/readyz')) === 503)
      expect([await storeUp(one), await storeUp(two)]).toEqual([0, 0])
      expect([await probe(one, '/healthz'), await probe(two, '/healthz')]).toEqual([200, 200])
    } finally {
      await cluster.startServer()
    }
    await waitFor('ready again', async () => (await probe(one, '/readyz')) === 200 && (await probe(two, '/readyz')) === 200)
    expect([await storeUp(one), await storeUp(two)]).toEqual([1, 1])
  })

  it('the fleet-wide gauges (read from the shared database) are reported by one instance, so sum() counts them once', async () => {
    const scrape = async (t: TestEngine) => (await t.raw('GET', `https://127.0.0.1:${t.engine.port}/metrics`)).body
    const reports = (text: string) => /^gw_jobs_oldest_due_lag_seconds /m.test(text)
    // (after a restart of the database the reporter is chosen again within a term of 5 s)
    const both = await waitFor('one reporter', async () => {
      const r = [reports(await scrape(one)), reports(await scrape(two))]
      return r.filter(Boolean).length === 1 && r
    })
    expect(both.filter(Boolean)).toHaveLength(1)
    // every instance still reports its own: the process, its requests
    for (const t of [one, two]) expect(await scrape(t)).toMatch(/^process_resident_memory_bytes /m)
  })
})
