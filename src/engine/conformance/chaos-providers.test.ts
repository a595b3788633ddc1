// Failure on purpose, the providers (docs/decisions.md#failure-on-purpose): a provider down for a while, a share of its calls
// timing out or soft-declining, added latency. Routing reacts as to a real failure (docs/api.md#routing-and-failover): the
// next provider is tried inside the same call, every attempt is in provider_attempts, the down
// provider is marked degraded (provider.health.changed) and recovers when the fault ends, and its
// 7-day rate moves. Refunds meet the same provider: down, their answer fails them.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type TestEngine} from '../test-support/harness.js'
import {cardPayment, expectError} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => t?.stop())

type Attempt = {provider: string; outcome: string; decline_code: string | null; latency_ms: number}
const pay = async (a: AsKey, extra: Record<string, unknown> = {}) => {
  const r = await a.api('POST', '/payments', cardPayment(extra))
  expect(r.status, r.text).toBe(201)
  return r.body as {id: string; status: string; provider_attempts: Attempt[]}
}
/** The provider a EUR card payment goes to first in a fresh account. */
const firstChoice = async (a: AsKey) => (await pay(a)).provider_attempts[0]!.provider
/** P first for EUR payments (smart routing moves with the 7-day rates as payments succeed). */
const pin = async (a: AsKey, provider: string) => {
  const r = await a.api('POST', '/routing_rules', {priority: 1, action: 'prefer', providers: [{provider}], conditions: {currency: 'EUR'}})
  expect(r.status, r.text).toBe(201)
}
const healthEvents = async (a: AsKey, provider: string) =>
  ((await a.api('GET', '/events?type=provider.health.changed&limit=100')).body.data as {data: {object: {id: string; status: string}}}[])
    .filter((e) => e.data.object.id === provider)
    .map((e) => e.data.object.status)
    .reverse()

describe('provider faults', () => {
  it('down: calls fail and fail over in the same call, the provider is degraded once, its 7-day rate falls, and it recovers when the fault ends', async () => {
    const a = await t.account('chaos-down')
    const p = await firstChoice(a)
    const before = (await a.api('GET', `/providers/${p}`)).body
    const rule = await a.api('POST', '/chaos/providers', {provider: p, fault: 'down', for_seconds: 600})
    expect(rule.status, rule.text).toBe(201)
    expect(rule.body).toMatchObject({object: 'chaos_rule', kind: 'provider', provider: p, fault: 'down', rate: 1, count: null, latency_ms: null})

    const failed = await pay(a)
    expect(failed.status).toBe('succeeded')
    expect(failed.provider_attempts[0]).toMatchObject({provider: p, outcome: 'error', decline_code: null})
    expect(failed.provider_attempts[1]).toMatchObject({outcome: 'approved'})
    expect(failed.provider_attempts[1]!.provider).not.toBe(p)
    const routing = (await a.api('GET', `/payments/${failed.id}/routing`)).body
    expect(routing.attempts[0]).toMatchObject({provider: p, outcome: 'error', decline_class: 'soft'})

    // noticed: degraded, one event; the next payment tries it last, so it never gets there
    const degraded = (await a.api('GET', `/providers/${p}`)).body
    expect(degraded.status).toBe('degraded')
    expect(degraded.attempts_7d).toBe(before.attempts_7d + 1)
    expect(degraded.auth_rate_7d).toBeLessThan(before.auth_rate_7d)
    const next = await pay(a)
    expect(next.provider_attempts.map((x) => x.provider)).not.toContain(p)
    expect(await healthEvents(a, p)).toEqual(['degraded'])

    // the fault ends on the engine clock: active again, with its event
    await a.advance(601)
    expect((await a.api('GET', `/providers/${p}`)).body.status).toBe('active')
    expect(await healthEvents(a, p)).toEqual(['degraded', 'active'])
    await pin(a, p)
    expect((await pay(a)).provider_attempts).toEqual([expect.objectContaining({provider: p, outcome: 'approved'})])
    expect((await a.api('GET', '/chaos')).body.data).toEqual([])
  })

  it('down and cleared early: active at once; a health set by hand meanwhile is left as it is', async () => {
    const a = await t.account('chaos-down-clear')
    const p = await firstChoice(a)
    const rule = (await a.api('POST', '/chaos/providers', {provider: p, fault: 'down'})).body
    await pay(a)
    expect((await a.api('GET', `/providers/${p}`)).body.status).toBe('degraded')
    expect((await a.api('DELETE', `/chaos/${rule.id}`)).status).toBe(200)
    expect((await a.api('GET', `/providers/${p}`)).body.status).toBe('active')
    expect(await healthEvents(a, p)).toEqual(['degraded', 'active'])

    // the operator disables it by hand while a down fault is on: the fault's end does not undo that
    await a.api('POST', '/chaos/providers', {provider: p, fault: 'down', for_seconds: 60})
    await pay(a)
    expect((await a.api('POST', `/test_helpers/providers/${p}/health`, {status: 'disabled'})).status).toBe(200)
    await a.advance(61)
    expect((await a.api('GET', `/providers/${p}`)).body.status).toBe('disabled')
  })

  it("another account's providers are untouched", async () => {
    const a = await t.account('chaos-down-a')
    const b = await t.account('chaos-down-b')
    const p = await firstChoice(a)
    await a.api('POST', '/chaos/providers', {provider: p, fault: 'down'})
    await pay(a)
    await pin(b, p)
    expect((await b.api('GET', `/providers/${p}`)).body.status).toBe('active')
    expect((await pay(b)).provider_attempts).toEqual([expect.objectContaining({provider: p, outcome: 'approved'})])
    expect(await healthEvents(b, p)).toEqual([])
  })

  it('a timeout rate with a seed times out the same calls every run, and each payment still succeeds on the next provider', async () => {
    const run = async (name: string) => {
      const a = await t.account(name)
      const p = await firstChoice(a)
      await pin(a, p)
      await a.api('POST', '/chaos/providers', {provider: p, fault: 'timeout', rate: 0.5, seed: 11})
      const out: string[] = []
      for (let i = 0; i < 12; i++) {
        const x = await pay(a)
        expect(x.status).toBe('succeeded')
        expect(x.provider_attempts[0]!.provider).toBe(p)
        out.push(x.provider_attempts[0]!.outcome)
      }
      return out
    }
    const first = await run('chaos-timeout-1')
    expect(await run('chaos-timeout-2')).toEqual(first)
    expect(first).toContain('timeout')
    expect(first).toContain('approved')
  })

  it('soft declines for a count: try_again_later, routed on, then the provider approves again', async () => {
    const a = await t.account('chaos-soft')
    const p = await firstChoice(a)
    await pin(a, p)
    const rule = (await a.api('POST', '/chaos/providers', {provider: p, fault: 'soft_decline', count: 2})).body
    for (let i = 0; i < 2; i++) {
      const x = await pay(a)
      expect(x.status).toBe('succeeded')
      expect(x.provider_attempts[0]).toMatchObject({provider: p, outcome: 'soft_declined', decline_code: 'try_again_later'})
    }
    expect((await pay(a)).provider_attempts).toEqual([expect.objectContaining({provider: p, outcome: 'approved'})])
    expect((await a.api('GET', '/chaos')).body.data).toEqual([expect.objectContaining({id: rule.id, injected: 2})])
  })

  it('latency is really waited and recorded on the attempt', async () => {
    const a = await t.account('chaos-latency')
    const p = await firstChoice(a)
    await pin(a, p)
    const plain = (await pay(a)).provider_attempts[0]!.latency_ms
    await a.api('POST', '/chaos/providers', {provider: p, fault: 'latency', latency_ms: 400, count: 1})
    const started = performance.now()
    const slow = await pay(a)
    expect(performance.now() - started).toBeGreaterThanOrEqual(390)
    expect(slow.provider_attempts[0]).toMatchObject({provider: p, outcome: 'approved'})
    expect(slow.provider_attempts[0]!.latency_ms).toBeGreaterThanOrEqual(400)
    expect(slow.provider_attempts[0]!.latency_ms).toBeLessThan(plain + 400 + 1000)
  })

  it('a refund to a provider that is down fails when the rail answers (provider_unavailable), and the money comes back', async () => {
    const a = await t.account('chaos-refund')
    const paid = await pay(a)
    const p = paid.provider_attempts[0]!.provider
    await a.api('POST', '/chaos/providers', {provider: p, fault: 'down', for_seconds: 7200})
    const rf = await a.api('POST', '/refunds', {payment: paid.id, amount: 500})
    expect(rf.status, rf.text).toBe(201)
    expect(rf.body.status).toBe('pending')
    await a.advance(3600)
    const done = (await a.api('GET', `/refunds/${rf.body.id}`)).body
    expect(done).toMatchObject({status: 'failed', failure_reason: 'provider_unavailable'})
    expect((await a.api('GET', `/payments/${paid.id}`)).body.amount_refunded).toBe(0)
  })

  it('bad rules are refused naming the field', async () => {
    const a = await t.account('chaos-provider-bad')
    expectError(await a.api('POST', '/chaos/providers', {provider: 'prov_nowhere', fault: 'down'}), 404, 'invalid_request_error')
    const p = 'prov_atlas'
    expect(expectError(await a.api('POST', '/chaos/providers', {provider: p, fault: 'down', count: 3}), 400, 'invalid_request_error').param).toBe('count')
    expect(expectError(await a.api('POST', '/chaos/providers', {provider: p, fault: 'explode'}), 400, 'invalid_request_error').param).toBe('fault')
    expect(expectError(await a.api('POST', '/chaos/providers', {provider: p, fault: 'timeout', rate: 1.5}), 400, 'invalid_request_error').param).toBe('rate')
    expect(expectError(await a.api('POST', '/chaos/providers', {provider: p, fault: 'timeout', latency_ms: 10}), 400, 'invalid_request_error').param).toBe('latency_ms')
    expect((await a.api('GET', '/chaos')).body.data).toEqual([])
  })
})
