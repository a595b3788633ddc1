// The database going away (PostgreSQL restarted) under two engine instances: clients get 503
// with Retry-After, never a crash; the instances reconnect by themselves, the live event feed
// across them included; nothing acknowledged is lost. A cluster of its own (it is restarted).
import {waitFor} from '../../test-support/wait.js'
import {request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, fleetSecretsKeyFile, type TestEngine} from '../../test-support/harness.js'
import {startCluster, type Cluster} from './cluster.js'
import {postgresStore} from './postgres-store.js'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))


const body = (reference: string) => ({amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference})

describe('PostgreSQL restarted under two instances', () => {
  let cluster: Cluster
  let a: TestEngine
  let b: TestEngine
  const lines: {a: string[]; b: string[]} = {a: [], b: []}
  beforeAll(async () => {
    cluster = await startCluster()
    const url = await cluster.createDatabase('outage')
    const secretsKeyFile = fleetSecretsKeyFile()
    a = await bootEngine({store: postgresStore(url, {unitConnections: 4, readConnections: 2}), secretsKeyFile, log: (l) => void lines.a.push(l)})
    b = await bootEngine({store: postgresStore(url, {unitConnections: 4, readConnections: 2}), secretsKeyFile, log: (l) => void lines.b.push(l)})
  })
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await cluster?.stop()
  })

  it('503 with Retry-After while it is down; both instances come back by themselves; nothing acknowledged is lost', async () => {
    const kept = await a.api('POST', '/payments', body('before-the-outage'))
    expect(kept.status).toBe(201)

    // a live stream on A, open across the outage
    const ac = new AbortController()
    const res = await request(`${a.engine.baseUrl}/events/stream`, {headers: {authorization: `Bearer ${a.key}`}, dispatcher: a.agent, signal: ac.signal})
    let streamed = ''
    void (async () => {
      try {
        for await (const c of res.body) streamed += c.toString('utf8')
      } catch {
        /* closed */
      }
    })()

    await cluster.stopServer('fast')
    const key = `outage-${Date.now()}`
    for (const t of [a, b]) {
      const w = await t.api('POST', '/payments', body('during-the-outage'), {'idempotency-key': key})
      expect(w.status, w.text).toBe(503)
      expect(w.body.error).toMatchObject({type: 'api_error', code: 'service_unavailable'})
      expect(Number(w.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      const r = await t.api('GET', `/payments/${kept.body.id}`)
      expect(r.status).toBe(503)
    }
    // the background work fails meanwhile (job polls, delivery claims): each instance says so once
    await sleep(1500)
    await cluster.startServer()

    // the client retries with the same key, on either instance, until it is answered: one payment
    const done = await waitFor('a 201 after the restart', async () => {
      const r = await b.api('POST', '/payments', body('during-the-outage'), {'idempotency-key': key})
      return r.status === 201 && r
    })
    const again = await a.api('POST', '/payments', body('during-the-outage'), {'idempotency-key': key})
    expect(again.status).toBe(201)
    expect(again.text).toBe(done.text)
    for (const t of [a, b]) expect((await t.api('GET', `/payments/${kept.body.id}`)).body).toEqual(kept.body)

    // the requests answered while it was down reach the fleet's request log, and the metrics name their operation
    for (const t of [a, b]) {
      await waitFor('the outage\'s 503s in the request log', async () => {
        const r = await t.api('GET', '/request_logs?status=503&limit=100')
        const mine = (r.body.data ?? []) as {path: string; method: string; instance: string}[]
        return r.status === 200 && mine.some((e) => e.method === 'POST' && e.path === '/v1/payments') && mine.some((e) => e.path === `/v1/payments/${kept.body.id}`)
      })
      const metrics = (await t.raw('GET', t.engine.baseUrl.replace(/\/v1$/, '/metrics'))).text
      expect(metrics).toMatch(/^gw_http_requests_total\{[^}]*operation="createPayment"[^}]*status="503"[^}]*\} [1-9]/m)
      expect(metrics).toMatch(/^gw_http_requests_total\{[^}]*operation="retrievePayment"[^}]*status="503"[^}]*\} [1-9]/m)
      expect(metrics).not.toMatch(/operation="none"/)
      expect(metrics).toMatch(/^gw_request_log_dropped_total(\{[^}]*\})? 0$/m)
    }

    // the outage and the recovery, one line each per instance (not a line per failing poll)
    for (const l of [lines.a, lines.b]) {
      await waitFor('the recovery logged', async () => l.some((x) => x.startsWith('store back after')))
      expect(l.filter((x) => x.startsWith('store unreachable: PostgreSQL is not reachable'))).toHaveLength(1)
      expect(l.filter((x) => x.startsWith('store back after'))).toHaveLength(1)
      expect(l.filter((x) => /contained|request log/.test(x))).toEqual([])
    }

    // the change feed reconnected: what B commits now reaches A's stream
    const after = await b.api('POST', '/payments', body('after-the-outage'))
    expect(after.status).toBe(201)
    await waitFor("B's payment on A's stream", async () => streamed.includes(after.body.id))
    ac.abort()
  })
})
