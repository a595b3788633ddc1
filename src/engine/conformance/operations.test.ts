// What a fleet's operator and load balancer use (docs/decisions.md#the-fleet), on one engine: liveness, readiness
// and Prometheus metrics without a key; the public URL the engine advertises; a certificate the
// operator brings; the access log.
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import {Agent, request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startEngine} from '../index.js'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {ensureCertificates} from '../tls/certificates.js'
import {cardPayment, sleep} from './helpers.js'

let t: TestEngine
const dirs: string[] = []
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => {
  await t?.stop()
  for (const d of dirs) rmSync(d, {recursive: true, force: true})
})

const origin = () => t.engine.baseUrl.slice(0, -'/v1'.length)
const get = async (path: string) => t.raw('GET', origin() + path)

/** The value of a counter or gauge's samples with these labels (summed over the others), as the parser reads them. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const family = parsePrometheusTextFormat(text).find((f) => f.name === name)
  if (!family) return NaN
  return family.metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)).reduce((a, m) => a + Number(m.value ?? 0), 0)
}

/** A histogram's observation count with these labels (its `_count` lines). */
function observations(text: string, name: string, labels: Record<string, string> = {}): number {
  let n = 0
  for (const line of text.split('\n')) {
    const m = new RegExp(`^${name}_count(?:\\{(.*)\\})? (\\S+)$`).exec(line)
    if (m && Object.entries(labels).every(([k, v]) => (m[1] ?? '').includes(`${k}="${v}"`))) n += Number(m[2])
  }
  return n
}

describe('liveness, readiness and metrics', () => {
  it('answer without a key, outside /v1, for GET and HEAD; anything else is a clear 404', async () => {
    const live = await get('/healthz')
    expect(live.status).toBe(200)
    expect(JSON.parse(live.body)).toEqual({status: 'ok'})
    expect(live.headers['request-id']).toMatch(/^req_/)
    const ready = await get('/readyz')
    expect([ready.status, JSON.parse(ready.body)]).toEqual([200, {status: 'ready'}])
    expect((await t.raw('HEAD', origin() + '/readyz')).status).toBe(200)
    const post = await t.raw('POST', origin() + '/healthz')
    expect(post.status).toBe(404)
    expect(JSON.parse(post.body).error.code).toBe('route_unknown')
    // the API still needs its key
    expect((await t.raw('GET', t.engine.baseUrl + '/payments')).status).toBe(401)
  })

  it('the metrics parse as Prometheus text and move with the load: requests by operation and status, unit latency, webhook backlog, due jobs', async () => {
    const before = (await get('/metrics')).body
    expect(() => parsePrometheusTextFormat(before)).not.toThrow()
    const created = sample(before, 'gw_http_requests_total', {operation: 'createPayment', status: '201'})
    for (let i = 0; i < 5; i++) expect((await t.api('POST', '/payments', cardPayment())).status).toBe(201)
    expect((await t.api('GET', '/payments/pay_missing')).status).toBe(404)
    // an endpoint that never answers: its deliveries wait
    await t.api('POST', '/webhook_endpoints', {url: 'https://127.0.0.1:9/down', enabled_events: ['payment.succeeded']})
    await t.api('POST', '/payments', cardPayment())
    await sleep(200)
    // the platform account's key reads every account's series (the backlog's are per account and endpoint)
    const res = await t.raw('GET', origin() + '/metrics', {headers: {authorization: `Bearer ${t.key}`}})
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    const after = res.body
    expect(sample(after, 'gw_http_requests_total', {operation: 'createPayment', status: '201'}) - (Number.isNaN(created) ? 0 : created)).toBe(6)
    expect(sample(after, 'gw_http_requests_total', {operation: 'retrievePayment', status: '404'})).toBeGreaterThanOrEqual(1)
    expect(observations(after, 'gw_http_request_duration_seconds', {operation: 'createPayment'})).toBeGreaterThanOrEqual(6)
    expect(observations(after, 'gw_store_unit_duration_seconds')).toBeGreaterThan(6)
    expect(sample(after, 'gw_webhook_backlog')).toBeGreaterThanOrEqual(1)
    expect(sample(after, 'gw_webhook_attempts_total', {outcome: 'failed'})).toBeGreaterThanOrEqual(1)
    expect(sample(after, 'gw_store_up')).toBe(1)
    // the process under the standard names dashboards look for (prom-client's defaults)
    for (const name of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'process_start_time_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds'])
      expect(sample(after, name), name).toBeGreaterThan(0)
    expect(after).not.toMatch(/^gw_(process|nodejs)_/m)
    // no series carries `instance` (the scraper's label: Prometheus would rename ours exported_instance); the instance's name is an info metric
    const families = parsePrometheusTextFormat(after)
    expect(families.flatMap((f) => (f.metrics as {labels?: Record<string, string>}[]).filter((m) => m.labels?.instance !== undefined).map(() => f.name))).toEqual([])
    expect(families.find((f) => f.name === 'gw_instance_info')!.metrics).toEqual([{labels: {instance_id: expect.stringMatching(/:\d+$/)}, value: '1'}])
    // the request log's outage buffer: empty, nothing dropped
    expect(sample(after, 'gw_request_log_dropped_total')).toBe(0)
    // a manual-capture authorization expires in 7 days: once the clock is past it, a job is due until it runs
    expect(sample(after, 'gw_jobs_oldest_due_lag_seconds')).toBeGreaterThanOrEqual(0)
  })
})

describe('what the engine advertises', () => {
  it('--public-url: base_url, checkout_url and next_action.url name the public address, not the instance', async () => {
    const e = await bootEngine({publicUrl: 'https://gw.example.test'})
    try {
      expect(e.engine.baseUrl).toBe('https://gw.example.test/v1')
      expect(e.engine.checkoutUrl).toBe('https://gw.example.test/checkout')
      const info = JSON.parse(readFileSync(join(e.dataDir, 'engine.json'), 'utf8'))
      expect(info.base_url).toBe('https://gw.example.test/v1')
    } finally {
      await e.stop()
    }
  })

  it('a malformed --public-url is refused naming the flag', async () => {
    for (const bad of ['http://gw.example.test', 'https://gw.example.test/api', 'not a url']) {
      await expect(startEngine({dataDir: mkdtemp(), port: 0, publicUrl: bad, log: () => {}})).rejects.toThrow(/--public-url/)
    }
  })
})

function mkdtemp(): string {
  const d = mkdtempSync(join(tmpdir(), 'gw-ops-'))
  dirs.push(d)
  return d
}

describe('a certificate the operator brings', () => {
  it('is served instead of the generated one; clients trust the CA it names (--tls-ca)', async () => {
    // a CA and a certificate for gw.test made elsewhere (here with the engine's own generator, in another directory)
    const pki = mkdtemp()
    const made = await ensureCertificates({caCert: join(pki, 'ca.crt'), caKey: join(pki, 'ca.key'), serverCert: join(pki, 'server.crt'), serverKey: join(pki, 'server.key')}, 'gw.test')
    const dataDir = mkdtemp()
    const e = await startEngine({dataDir, port: 0, log: () => {}, tlsCert: join(pki, 'server.crt'), tlsKey: join(pki, 'server.key'), tlsCa: join(pki, 'ca.crt'), apiKey: 'sk_test_brought_certificate_0001'})
    try {
      expect(e.caFile).toBe(join(pki, 'ca.crt'))
      const agent = new Agent({connect: {ca: made.caCert, servername: 'gw.test'}})
      const res = await request(`${e.baseUrl}/account`, {headers: {authorization: 'Bearer sk_test_brought_certificate_0001'}, dispatcher: agent})
      expect(res.statusCode).toBe(200)
      await res.body.text()
      await agent.close()
      // gw login --local learns the CA from the data dir's engine.json
      expect(JSON.parse(readFileSync(join(dataDir, 'engine.json'), 'utf8')).ca_file).toBe(join(pki, 'ca.crt'))
    } finally {
      await e.close()
    }
  })

  it('a certificate without its key, or a key that is not its own, is refused at start', async () => {
    const pki = mkdtemp()
    await ensureCertificates({caCert: join(pki, 'ca.crt'), caKey: join(pki, 'ca.key'), serverCert: join(pki, 'server.crt'), serverKey: join(pki, 'server.key')}, 'gw.test')
    await expect(startEngine({dataDir: mkdtemp(), port: 0, log: () => {}, tlsCert: join(pki, 'server.crt')})).rejects.toThrow(/--tls-cert and --tls-key go together/)
    await expect(startEngine({dataDir: mkdtemp(), port: 0, log: () => {}, tlsCert: join(pki, 'server.crt'), tlsKey: join(pki, 'ca.key')})).rejects.toThrow(/do not make a usable pair/)
    await expect(startEngine({dataDir: mkdtemp(), port: 0, log: () => {}, tlsCert: join(pki, 'nope.crt'), tlsKey: join(pki, 'server.key')})).rejects.toThrow(/--tls-cert: cannot read/)
  })
})

describe('the access log', () => {
  it('gets one JSON line per API request: who, what, how it went', async () => {
    const file = join(mkdtemp(), 'access.log')
    const e = await bootEngine({accessLog: file})
    try {
      await e.api('POST', '/payments', cardPayment())
      await e.api('GET', '/payments/pay_missing')
      await e.raw('GET', e.engine.baseUrl + '/payments')
      await sleep(50)
    } finally {
      await e.stop()
    }
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => [l.method, l.path, l.status, l.operation])).toEqual([
      ['POST', '/v1/payments', 201, 'createPayment'],
      ['GET', '/v1/payments/pay_missing', 404, 'retrievePayment'],
      // the route's operation is known before the key is checked: a refused request is counted under it too
      ['GET', '/v1/payments', 401, 'listPayments'],
    ])
    expect(lines[0]).toMatchObject({account: 'acct_default', idempotent_replayed: false})
    expect(lines[0].request_id).toMatch(/^req_/)
    expect(Date.parse(lines[0].time)).toBeGreaterThan(0)
    expect(lines[2].account).toBeNull()
  })
})
