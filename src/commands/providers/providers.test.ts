import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {ListEnvelope, Provider} from '../../api/types.js'
import {at, cliEnv, errorBody, json, type CliEnv} from '../../base/test-support/cli.js'
import ProvidersGet from './get.js'
import ProvidersHealth from './health.js'
import ProvidersList from './list.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

function provider(over: Partial<Provider> = {}): Provider {
  return {
    id: 'prov_atlas',
    object: 'provider',
    methods: ['card', 'ideal'],
    currencies: ['EUR', 'USD'],
    regions: ['EU'],
    status: 'active',
    auth_rate_7d: 0.9312,
    attempts_7d: 120,
    fees: {percent_bps: 180, fixed: {EUR: 25, USD: 30}},
    latency_ms: {p50: 120, p99: 600},
    livemode: false,
    ...over,
  }
}

const list = (data: Provider[]): ListEnvelope<Provider> => ({object: 'list', url: '/v1/providers', data, has_more: false})

describe('providers list', () => {
  it('sends the method and currency filters and draws a table with status and auth rate', async () => {
    let path = ''
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/providers'), method: 'GET'})
      .reply((o) => {
        path = o.path
        return {statusCode: 200, data: list([provider(), provider({id: 'prov_borealis', status: 'degraded', auth_rate_7d: null})]), responseOptions: json}
      })
    const r = await cli.run(ProvidersList, [...at(), '--payment-method', 'ideal', '--currency', 'eur'])
    expect(r.exitCode).toBe(0)
    const u = new URL(path, 'https://x')
    expect(u.searchParams.get('payment_method')).toBe('ideal')
    expect(u.searchParams.get('currency')).toBe('EUR')
    expect(r.stdout).toMatch(/prov_atlas\s.*active.*93\.1%/)
    expect(r.stdout).toMatch(/prov_borealis\s.*degraded/)
  })

  it('--json returns the list envelope', async () => {
    cli.pool.intercept({path: '/v1/providers', method: 'GET'}).reply(200, list([provider()]), json)
    const r = await cli.run<ListEnvelope<Provider>>(ProvidersList, [...at(), '--json'])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout).data[0].id).toBe('prov_atlas')
  })

  it('rejects a bad currency before sending anything (exit 2)', async () => {
    const r = await cli.run(ProvidersList, [...at(), '--currency', 'EURO'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('ISO 4217')
  })
})

describe('providers get', () => {
  it('shows fees, latency and the 7-day auth rate', async () => {
    cli.pool.intercept({path: '/v1/providers/prov_atlas', method: 'GET'}).reply(200, provider(), json)
    const r = await cli.run<Provider>(ProvidersGet, [...at(), 'prov_atlas'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/^prov_atlas {2}active/)
    expect(r.stdout).toMatch(/Auth rate 7d\s+93\.1% of 120 attempts/)
    expect(r.stdout).toMatch(/Fees\s+1\.80% \+ €0\.25/)
    expect(r.stdout).toMatch(/Latency\s+p50 120 ms · p99 600 ms/)
    expect(r.result?.id).toBe('prov_atlas')
  })

  it('an unknown provider exits 5; a non-prov_ id is a usage error', async () => {
    cli.pool.intercept({path: '/v1/providers/prov_nope', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', "No such provider: 'prov_nope'"))
    expect((await cli.run(ProvidersGet, [...at(), 'prov_nope'])).exitCode).toBe(5)
    const bad = await cli.run(ProvidersGet, [...at(), 'atlas'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('prov_')
  })
})

describe('providers health', () => {
  it('posts the status to the test helper and returns the provider', async () => {
    const seen: unknown[] = []
    cli.pool.intercept({path: '/v1/test_helpers/providers/prov_atlas/health', method: 'POST'}).reply((o) => {
      seen.push(JSON.parse(String(o.body)))
      return {statusCode: 200, data: provider({status: 'disabled'}), responseOptions: json}
    })
    const r = await cli.run<Provider>(ProvidersHealth, [...at(), 'prov_atlas', '--status', 'disabled', '--json'])
    expect(r.exitCode).toBe(0)
    expect(seen).toEqual([{status: 'disabled'}])
    expect(JSON.parse(r.stdout).status).toBe('disabled')
  })

  it('requires --status from the allowed values (exit 2)', async () => {
    const r = await cli.run(ProvidersHealth, [...at(), 'prov_atlas', '--status', 'broken'])
    expect(r.exitCode).toBe(2)
  })
})
