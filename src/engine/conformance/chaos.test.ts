// Failure on purpose, the API part (docs/decisions.md#failure-on-purpose): faults an account switches on — 503/429 with
// Retry-After, 500, slow, and the response lost after the work committed — matched by method and
// path, for a share of requests (seedable), always ending (a count, a time on the engine clock),
// marked in the request log, and never felt by another account. The rehearsal's point: a client
// that retries without an Idempotency-Key after a lost response pays twice; one that reuses its
// key pays once.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type TestEngine} from '../test-support/harness.js'
import {cardPayment, expectError} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => t?.stop())

const fresh = async (name: string): Promise<AsKey> => t.account(name)
const paymentsOf = async (a: AsKey, reference: string) => (await a.api('GET', `/payments?reference=${reference}&limit=100`)).body.data as {id: string}[]

describe('API faults', () => {
  it('503 with Retry-After for the next 2 POST /payments, then normal again; the faulted requests created nothing', async () => {
    const a = await fresh('chaos-503')
    const rule = await a.api('POST', '/chaos/api', {method: 'POST', path: '/payments', fault: '503', count: 2})
    expect(rule.status, rule.text).toBe(201)
    expect(rule.body).toMatchObject({object: 'chaos_rule', kind: 'api', method: 'POST', path: '/payments', fault: '503', rate: 1, count: 2})
    expect(rule.body.id).toMatch(/^chaos_/)
    for (let i = 0; i < 2; i++) {
      const r = await a.api('POST', '/payments', cardPayment({reference: 'c503'}))
      const e = expectError(r, 503, 'api_error', 'service_unavailable')
      expect(e.message).toContain('Retry after 1s with the same Idempotency-Key.')
      expect(r.headers['retry-after']).toBe('1')
      expect(r.headers['gw-chaos']).toBe(rule.body.id)
    }
    expect(await paymentsOf(a, 'c503')).toHaveLength(0)
    // other paths and methods are untouched meanwhile; then the count is spent
    expect((await a.api('GET', '/payments')).status).toBe(200)
    expect((await a.api('POST', '/payments', cardPayment({reference: 'c503'}))).status).toBe(201)
    const status = await a.api('GET', '/chaos')
    expect(status.body.data).toEqual([expect.objectContaining({id: rule.body.id, injected: 2})])
  })

  it('429 and 500 look as the real ones do', async () => {
    const a = await fresh('chaos-429')
    await a.api('POST', '/chaos/api', {method: 'GET', path: '/payments', fault: '429', count: 1})
    const limited = expectError(await a.api('GET', '/payments'), 429, 'rate_limit_error', 'rate_limit_exceeded')
    // a GET is safe to repeat as it is: no Idempotency-Key to speak of
    expect(limited.message).toBe('Too many requests. Retry after 1s.')
    await a.api('POST', '/chaos/api', {path: '/customers', fault: '500', count: 1})
    expectError(await a.api('GET', '/customers'), 500, 'api_error', 'internal_error')
    expect((await a.api('GET', '/customers')).status).toBe(200)
    // a POST that sent no Idempotency-Key is told to send one, not to reuse the one it never sent
    await a.api('POST', '/chaos/api', {method: 'POST', path: '/customers', fault: '503', count: 1})
    const keyless = expectError(await a.api('POST', '/customers', {email: 'k@example.com'}, {'idempotency-key': ''}), 503, 'api_error', 'service_unavailable')
    expect(keyless.message).not.toContain('same Idempotency-Key')
    expect(keyless.message).toContain('send an Idempotency-Key header with this POST')
  })

  it('response lost: the naive client (no Idempotency-Key) retries and pays twice; the careful one (same key) pays once, answered from the record', async () => {
    const a = await fresh('chaos-lost')
    await a.api('POST', '/chaos/api', {method: 'POST', path: '/payments', fault: 'response_lost', count: 1})
    // naive: no key; the connection drops, so it tries again
    const naive = async () => a.api('POST', '/payments', cardPayment({reference: 'naive'}), {'idempotency-key': ''})
    await expect(naive()).rejects.toThrow()
    expect((await naive()).status).toBe(201)
    expect(await paymentsOf(a, 'naive')).toHaveLength(2)

    await a.api('POST', '/chaos/api', {method: 'POST', path: '/payments', fault: 'response_lost', count: 1})
    const key = {'idempotency-key': `careful-${Date.now()}`}
    const careful = async () => a.api('POST', '/payments', cardPayment({reference: 'careful'}), key)
    await expect(careful()).rejects.toThrow()
    const retried = await careful()
    expect(retried.status).toBe(201)
    expect(retried.headers['idempotent-replayed']).toBe('true')
    expect(await paymentsOf(a, 'careful')).toHaveLength(1)
  })

  it("the SDK is the careful client: a lost response is retried with the same key and the payment is made once", async () => {
    const a = await fresh('chaos-sdk')
    await a.api('POST', '/chaos/api', {method: 'POST', path: '/payments', fault: 'response_lost', count: 1})
    const {Gateway} = await import('../../sdk.js')
    const sdk = new Gateway({baseUrl: t.engine.baseUrl, apiKey: a.key, ca: t.engine.caCertPem})
    try {
      const p = await sdk.payments.create(cardPayment({reference: 'sdk-careful'}) as never)
      expect(p.status).toBe('succeeded')
      expect(await paymentsOf(a, 'sdk-careful')).toEqual([expect.objectContaining({id: p.id})])
    } finally {
      await sdk.close()
    }
  })

  it('slow answers after latency_ms, and answers', async () => {
    const a = await fresh('chaos-slow')
    await a.api('POST', '/chaos/api', {method: 'GET', path: '/balance', fault: 'slow', latency_ms: 300, count: 1})
    const t0 = performance.now()
    expect((await a.api('GET', '/balance')).status).toBe(200)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290)
  })

  it('a rate with a seed faults the same requests every run', async () => {
    const pattern = async (name: string) => {
      const a = await fresh(name)
      await a.api('POST', '/chaos/api', {method: 'GET', path: '/customers', fault: '500', rate: 0.4, seed: 7})
      const out: number[] = []
      for (let i = 0; i < 20; i++) out.push((await a.api('GET', '/customers')).status)
      return out
    }
    const first = await pattern('chaos-seed-1')
    expect(first).toEqual(await pattern('chaos-seed-2'))
    const faulted = first.filter((s) => s === 500).length
    expect(faulted).toBeGreaterThan(0)
    expect(faulted).toBeLessThan(20)
  })

  it('every fault ends: at for_seconds on the engine clock; cleared one by one or all at once', async () => {
    const a = await fresh('chaos-end')
    const timed = await a.api('POST', '/chaos/api', {path: '/customers', fault: '500', for_seconds: 60})
    expect(Date.parse(timed.body.until) - Date.parse(timed.body.created_at)).toBe(60_000)
    expect((await a.api('GET', '/customers')).status).toBe(500)
    await a.api('POST', '/test_helpers/clock/advance', {seconds: 61})
    expect((await a.api('GET', '/customers')).status).toBe(200)
    expect((await a.api('GET', '/chaos')).body.data).toEqual([])
    // without a count or a time: 10 minutes
    const dflt = await a.api('POST', '/chaos/api', {path: '/customers', fault: '500'})
    expect(Date.parse(dflt.body.until) - Date.parse(dflt.body.created_at)).toBe(600_000)
    const other = await a.api('POST', '/chaos/api', {path: '/balance', fault: '503'})
    expect((await a.api('DELETE', `/chaos/${dflt.body.id}`)).body).toMatchObject({id: dflt.body.id})
    expect((await a.api('GET', '/customers')).status).toBe(200)
    expect((await a.api('GET', '/chaos')).body.data.map((r: {id: string}) => r.id)).toEqual([other.body.id])
    expect((await a.api('DELETE', '/chaos')).body.data.map((r: {id: string}) => r.id)).toEqual([other.body.id])
    expect((await a.api('GET', '/balance')).status).toBe(200)
    expectError(await a.api('DELETE', `/chaos/${other.body.id}`), 404, 'invalid_request_error', 'resource_missing')
  })

  it("one account's faults never touch another's requests, nor /v1/chaos itself", async () => {
    const a = await fresh('chaos-a')
    const b = await fresh('chaos-b')
    await a.api('POST', '/chaos/api', {path: '/**', fault: '503'})
    expect((await a.api('GET', '/payments')).status).toBe(503)
    expect((await b.api('GET', '/payments')).status).toBe(200)
    // the way out is never blocked
    expect((await a.api('GET', '/chaos')).status).toBe(200)
    expect((await a.api('DELETE', '/chaos')).status).toBe(200)
    expect((await a.api('GET', '/payments')).status).toBe(200)
  })

  it('the request log marks injected faults', async () => {
    const a = await fresh('chaos-log')
    const rule = await a.api('POST', '/chaos/api', {method: 'GET', path: '/customers', fault: '503', count: 1})
    const faulted = await a.api('GET', '/customers')
    const logs = await a.api('GET', '/request_logs?limit=20')
    const entry = logs.body.data.find((e: {id: string}) => e.id === faulted.headers['request-id'])
    expect(entry).toMatchObject({status: 503, chaos: `${rule.body.id} 503`})
  })

  it('bad rules are refused naming the field', async () => {
    const a = await fresh('chaos-bad')
    expect(expectError(await a.api('POST', '/chaos/api', {path: 'payments', fault: '500'}), 400, 'invalid_request_error').param).toBe('path')
    expect(expectError(await a.api('POST', '/chaos/api', {path: '/payments', fault: 'boom'}), 400, 'invalid_request_error').param).toBe('fault')
    expect(expectError(await a.api('POST', '/chaos/api', {path: '/payments', fault: '500', rate: 0}), 400, 'invalid_request_error').param).toBe('rate')
    expect(expectError(await a.api('POST', '/chaos/api', {path: '/payments', fault: '500', latency_ms: 10}), 400, 'invalid_request_error').param).toBe('latency_ms')
  })
})
