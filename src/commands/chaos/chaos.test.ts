// gw chaos (docs/decisions.md#failure-on-purpose): switch an API fault on with flags named as a person says them, see what is
// on, end one or all; gw logs tail marks what was injected.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {ChaosApiRule, ChaosProviderRule, ChaosRule, ChaosWebhookRule} from '../../api/types.js'
import {at, cliEnv, json, type CliEnv} from '../../base/test-support/cli.js'
import {requestLogLine} from '../logs/tail.js'
import {painter} from '../../output/color.js'
import ChaosApi from './api.js'
import ChaosClear from './clear.js'
import ChaosProvider from './provider.js'
import ChaosWebhooks from './webhooks.js'
import ChaosStatus from './status.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const rule = (over: Partial<ChaosApiRule> = {}): ChaosApiRule => ({
  id: 'chaos_1', object: 'chaos_rule', kind: 'api', method: 'POST', path: '/payments', fault: '503', rate: 1, count: 3, latency_ms: null, seed: null,
  created_at: '2026-01-01T00:00:00.000Z', until: '2026-01-08T00:00:00.000Z', ...over,
})

describe('gw chaos api', () => {
  it('sends the rule as the API names it (durations in seconds and ms) and says what it will do and how to end it', async () => {
    const seen: unknown[] = []
    cli.pool.intercept({path: '/v1/chaos/api', method: 'POST'}).reply((o) => {
      seen.push(JSON.parse(String(o.body)))
      return {statusCode: 201, data: rule({fault: 'slow', latency_ms: 800, rate: 0.5, seed: 42, count: null, method: 'GET', path: '/**'}), responseOptions: json}
    })
    const r = await cli.run<ChaosRule>(ChaosApi, [...at(), '--method', 'GET', '--path', '/**', '--fault', 'slow', '--latency', '800ms', '--rate', '0.5', '--seed', '42', '--for', '10m'])
    expect(r.exitCode).toBe(0)
    expect(seen).toEqual([{method: 'GET', path: '/**', fault: 'slow', rate: 0.5, for_seconds: 600, latency_ms: 800, seed: 42}])
    expect(r.stdout).toContain('chaos_1: 50% of GET /v1/** request slowed by 800 ms')
    expect(r.stderr).toContain('gw chaos clear chaos_1')
  })

  it('response_lost with a count: the description says the work is done and the answer lost', async () => {
    cli.pool.intercept({path: '/v1/chaos/api', method: 'POST'}).reply(201, rule({fault: 'response_lost', count: 1}), json)
    const r = await cli.run(ChaosApi, [...at(), '--method', 'POST', '--path', 'payments', '--fault', 'response_lost', '--count', '1'])
    expect(r.stdout).toContain('every POST /v1/payments request done, then left without a response (the connection dropped), for the next 1 such request')
  })

  it('mistakes are usage errors before anything is sent', async () => {
    expect((await cli.run(ChaosApi, [...at(), '--path', '/payments', '--fault', '503', '--rate', '2'])).exitCode).toBe(2)
    expect((await cli.run(ChaosApi, [...at(), '--path', '/payments', '--fault', '503', '--latency', '1s'])).exitCode).toBe(2)
    expect((await cli.run(ChaosApi, [...at(), '--path', '/payments', '--fault', 'slow', '--latency', 'soon'])).exitCode).toBe(2)
    expect((await cli.run(ChaosApi, [...at(), '--path', '/payments', '--fault', 'boom'])).exitCode).toBe(2)
  })
})

const base = {object: 'chaos_rule' as const, rate: 1, count: null, seed: null, created_at: '2026-01-01T00:00:00.000Z', until: '2026-01-01T00:10:00.000Z'}
const providerRule = (over: Partial<ChaosProviderRule> = {}): ChaosProviderRule => ({id: 'chaos_p', kind: 'provider', provider: 'prov_atlas', fault: 'down', latency_ms: null, ...base, ...over})
const webhookRule = (over: Partial<ChaosWebhookRule> = {}): ChaosWebhookRule => ({id: 'chaos_w', kind: 'webhooks', endpoint: null, fault: 'duplicate', delay_seconds: null, attempts: null, ...base, ...over})

describe('gw chaos provider', () => {
  const sent = () => {
    const seen: unknown[] = []
    return {seen, reply: (r: ChaosProviderRule) => cli.pool.intercept({path: '/v1/chaos/providers', method: 'POST'}).reply((o) => (seen.push(JSON.parse(String(o.body))), {statusCode: 201, data: r, responseOptions: json}))}
  }

  it('--down --for: the provider down for a while, said in words', async () => {
    const s = sent()
    s.reply(providerRule())
    const r = await cli.run(ChaosProvider, [...at(), 'prov_atlas', '--down', '--for', '10m'])
    expect(r.exitCode).toBe(0)
    expect(s.seen).toEqual([{provider: 'prov_atlas', fault: 'down', for_seconds: 600}])
    expect(r.stdout).toContain('chaos_p: prov_atlas is down: every call fails with a provider error and it is marked degraded')
    expect(r.stderr).toContain('gw chaos clear chaos_p')
  })

  it('rates, latency, count and seed as the API names them', async () => {
    const s = sent()
    s.reply(providerRule({fault: 'timeout', rate: 0.3, seed: 7}))
    s.reply(providerRule({fault: 'soft_decline', count: 5}))
    s.reply(providerRule({fault: 'latency', latency_ms: 800}))
    expect((await cli.run(ChaosProvider, [...at(), 'prov_atlas', '--timeout-rate', '0.3', '--seed', '7'])).stdout).toContain('30% of authorization and refund calls to prov_atlas time out')
    expect((await cli.run(ChaosProvider, [...at(), 'prov_atlas', '--soft-decline-rate', '1', '--count', '5'])).stdout).toContain('for the next 5 such calls')
    expect((await cli.run(ChaosProvider, [...at(), 'prov_atlas', '--latency', '800ms'])).stdout).toContain('answers 800 ms later')
    expect(s.seen).toEqual([
      {provider: 'prov_atlas', fault: 'timeout', rate: 0.3, seed: 7},
      {provider: 'prov_atlas', fault: 'soft_decline', rate: 1, count: 5},
      {provider: 'prov_atlas', fault: 'latency', latency_ms: 800},
    ])
  })

  it('mistakes are usage errors before anything is sent', async () => {
    expect((await cli.run(ChaosProvider, [...at(), 'prov_atlas'])).exitCode).toBe(2)
    expect((await cli.run(ChaosProvider, [...at(), 'atlas', '--down'])).exitCode).toBe(2)
    expect((await cli.run(ChaosProvider, [...at(), 'prov_atlas', '--down', '--count', '2'])).exitCode).toBe(2)
    expect((await cli.run(ChaosProvider, [...at(), 'prov_atlas', '--down', '--timeout-rate', '0.2'])).exitCode).toBe(2)
    expect((await cli.run(ChaosProvider, [...at(), 'prov_atlas', '--timeout-rate', '3'])).exitCode).toBe(2)
  })
})

describe('gw chaos webhooks', () => {
  it('each fault as the API names it, with the endpoint, window and count', async () => {
    const seen: unknown[] = []
    const reply = (r: ChaosWebhookRule) => cli.pool.intercept({path: '/v1/chaos/webhooks', method: 'POST'}).reply((o) => (seen.push(JSON.parse(String(o.body))), {statusCode: 201, data: r, responseOptions: json}))
    reply(webhookRule({rate: 0.5}))
    reply(webhookRule({fault: 'shuffle', delay_seconds: 30}))
    reply(webhookRule({fault: 'delay', delay_seconds: 30}))
    reply(webhookRule({fault: 'fail_first', attempts: 3, endpoint: 'wh_1'}))
    expect((await cli.run(ChaosWebhooks, [...at(), '--duplicate-rate', '0.5'])).stdout).toContain('50% of events are delivered twice')
    expect((await cli.run(ChaosWebhooks, [...at(), '--shuffle', '--window', '30s'])).stdout).toContain('every delivery is held up to 30 s at random, so they arrive out of order')
    expect((await cli.run(ChaosWebhooks, [...at(), '--delay', '30s', '--count', '2'])).stdout).toContain('held 30 s')
    expect((await cli.run(ChaosWebhooks, [...at(), '--fail-first', '3', '--endpoint', 'wh_1'])).stdout).toContain('the first 3 attempts of every delivery to wh_1 fail on purpose')
    expect(seen).toEqual([
      {fault: 'duplicate', rate: 0.5},
      {fault: 'shuffle', delay_seconds: 30},
      {fault: 'delay', delay_seconds: 30, count: 2},
      {fault: 'fail_first', attempts: 3, endpoint: 'wh_1'},
    ])
  })

  it('mistakes are usage errors before anything is sent', async () => {
    expect((await cli.run(ChaosWebhooks, [...at()])).exitCode).toBe(2)
    expect((await cli.run(ChaosWebhooks, [...at(), '--window', '30s'])).exitCode).toBe(2)
    expect((await cli.run(ChaosWebhooks, [...at(), '--fail-first', '11'])).exitCode).toBe(2)
    expect((await cli.run(ChaosWebhooks, [...at(), '--delay', 'soon'])).exitCode).toBe(2)
    expect((await cli.run(ChaosWebhooks, [...at(), '--duplicate-rate', '1', '--endpoint', 'x'])).exitCode).toBe(2)
  })
})

describe('gw chaos status and clear', () => {
  it('status: a table of what is on, with the faults injected of the count', async () => {
    cli.pool.intercept({path: '/v1/chaos', method: 'GET'}).reply(200, {object: 'list', url: '/v1/chaos', data: [rule({injected: 1})], has_more: false}, json)
    const r = await cli.run<ChaosRule[]>(ChaosStatus, [...at()])
    expect(r.stdout).toMatch(/chaos_1\s.*503\s.*POST \/v1\/payments\s.*every one\s.*1 of 3/)
    cli.pool.intercept({path: '/v1/chaos', method: 'GET'}).reply(200, {object: 'list', url: '/v1/chaos', data: [], has_more: false}, json)
    expect((await cli.run(ChaosStatus, [...at()])).stdout).toContain('No faults are on.')
  })

  it('status shows provider and webhook faults with what they apply to', async () => {
    const data = [providerRule(), providerRule({id: 'chaos_l', fault: 'latency', latency_ms: 800}), webhookRule({fault: 'fail_first', attempts: 3, endpoint: 'wh_1'})]
    cli.pool.intercept({path: '/v1/chaos', method: 'GET'}).reply(200, {object: 'list', url: '/v1/chaos', data, has_more: false}, json)
    const r = await cli.run<ChaosRule[]>(ChaosStatus, [...at()])
    expect(r.stdout).toMatch(/chaos_p\s.*down\s.*provider prov_atlas/)
    expect(r.stdout).toMatch(/chaos_l\s.*latency 800 ms\s.*provider prov_atlas/)
    expect(r.stdout).toMatch(/chaos_w\s.*fail first 3\s.*webhooks to wh_1/)
  })

  it('clear ends every rule, or the one named', async () => {
    cli.pool.intercept({path: '/v1/chaos', method: 'DELETE'}).reply(200, {object: 'list', url: '/v1/chaos', data: [rule(), rule({id: 'chaos_2'})], has_more: false}, json)
    expect((await cli.run(ChaosClear, [...at()])).stdout).toContain('Ended chaos_1, chaos_2.')
    cli.pool.intercept({path: '/v1/chaos/chaos_2', method: 'DELETE'}).reply(200, rule({id: 'chaos_2'}), json)
    expect((await cli.run(ChaosClear, [...at(), 'chaos_2'])).stdout).toContain('Ended chaos_2.')
    expect((await cli.run(ChaosClear, [...at(), 'pay_1'])).exitCode).toBe(2)
  })
})

it('gw logs tail marks an injected fault', () => {
  const line = requestLogLine({id: 'req_1', object: 'request_log', method: 'POST', path: '/v1/payments', status: 503, latency_ms: 2, idempotent_replayed: false, livemode: false, created_at: '2026-01-01T10:00:00.000Z', chaos: 'chaos_1 503'}, painter(false))
  expect(line).toContain('[chaos: 503 by chaos_1]')
})
