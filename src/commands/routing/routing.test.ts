// gw payments explain and gw routing simulate: the command bodies as plain functions on a test
// context (MockAgent as the network), and their flags through oclif.
import {MockAgent} from 'undici'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {PaymentRouting} from '../../api/types.js'
import {at, BASE, cliEnv, mockApiPerTest, errorBody, json, payment, type CliEnv} from '../../base/test-support/cli.js'
import {testContext} from '../../base/test-support/context.js'
import {decision, failover} from './shared/test-support/routing.js'
import PaymentsExplain, {paymentsExplain} from '../payments/explain.js'
import RoutingSimulate, {routingSimulate} from './simulate.js'

const api = mockApiPerTest('gw-routing-')

function replyRouting(r: PaymentRouting = failover()) {
  const seen: string[] = []
  api.mock
    .get(BASE)
    .intercept({path: '/v1/payments/pay_123/routing', method: 'GET'})
    .reply((o) => {
      seen.push(o.path)
      return {statusCode: 200, data: r, responseOptions: json}
    })
    .persist()
  return seen
}

describe('payments explain (the body)', () => {
  it('prints the trace with the payment it explains, and returns the routing object', async () => {
    replyRouting()
    api.mock.get(BASE).intercept({path: '/v1/payments/pay_123', method: 'GET'}).reply(200, payment({amount: 4999, provider: 'prov_atlas'}), json)
    const t = testContext({dispatcher: api.mock, env: api.env()})
    const r = await paymentsExplain(t.ctx, {id: 'pay_123'})
    expect(r).toEqual(failover())
    expect(t.stdout()).toMatch(/^pay_123 {2}succeeded {2}€49\.99 EUR/)
    expect(t.stdout()).toMatch(/Outcome\s+approved by prov_atlas after 1 failover \(prov_borealis: timeout\)/)
    expect(t.stdout()).toMatch(/prov_borealis │ timeout\s+│\s+│ soft → next provider/)
    expect(t.stderr()).toBe('')
    await t.ctx.close()
  })

  it('under --json it asks only for the routing and prints nothing itself', async () => {
    const seen = replyRouting()
    const t = testContext({dispatcher: api.mock, env: api.env(), json: true})
    expect(await paymentsExplain(t.ctx, {id: 'pay_123'})).toEqual(failover())
    expect(seen).toEqual(['/v1/payments/pay_123/routing'])
    expect(t.stdout()).toBe('')
  })

  it('fits a terminal of 70 columns', async () => {
    replyRouting()
    api.mock.get(BASE).intercept({path: '/v1/payments/pay_123', method: 'GET'}).reply(200, payment(), json)
    const t = testContext({dispatcher: api.mock, env: api.env(), tty: 70})
    await paymentsExplain(t.ctx, {id: 'pay_123'})
    for (const line of t.stdout().trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(70)
  })

  it('still explains when the payment itself cannot be read', async () => {
    replyRouting()
    api.mock.get(BASE).intercept({path: '/v1/payments/pay_123', method: 'GET'}).reply(500, errorBody('api_error', 'internal', 'boom')).persist()
    const t = testContext({dispatcher: api.mock, env: {...api.env(), GW_MAX_RETRIES: '0'}})
    await paymentsExplain(t.ctx, {id: 'pay_123'})
    expect(t.stdout()).toMatch(/^pay_123\n\s+Outcome\s+approved by prov_atlas/)
  })
})

describe('routing simulate (the body)', () => {
  function replySimulate(d = decision()) {
    const queries: Record<string, string>[] = []
    api.mock
      .get(BASE)
      .intercept({path: (p) => p.startsWith('/v1/routing/simulate?'), method: 'GET'})
      .reply((o) => {
        queries.push(Object.fromEntries(new URL(o.path, BASE).searchParams))
        return {statusCode: 200, data: d, responseOptions: json}
      })
      .persist()
    return queries
  }

  it('sends the payment it describes as a GET (nothing is created) and renders the decision as explain does', async () => {
    const queries = replySimulate()
    const t = testContext({dispatcher: api.mock, env: api.env()})
    const d = await routingSimulate(t.ctx, {amount: 2000, currency: 'EUR', method: 'card', merchant: 'mer_1', 'card-brand': 'Visa', country: 'US'})
    expect(queries).toEqual([{amount: '2000', currency: 'EUR', payment_method: 'card', merchant: 'mer_1', card_brand: 'visa', country: 'US'}])
    expect(d).toEqual(decision())
    expect(t.stdout()).toMatch(/^Simulated routing · as of 2026-03-01 10:00:00Z · nothing was created/)
    expect(t.stdout()).toMatch(/Would try\s+prov_borealis, then prov_atlas/)
    expect(t.stdout()).toMatch(/prov_borealis\s+│ 1\s+│ 0\.8650\s+│ €1\.00 EUR · 0\.80/)
  })

  it('--display-amount is a decimal in the currency', async () => {
    const queries = replySimulate()
    const t = testContext({dispatcher: api.mock, env: api.env(), json: true})
    await routingSimulate(t.ctx, {'display-amount': '12.34', currency: 'EUR', method: 'card'})
    await routingSimulate(t.ctx, {'display-amount': '1500', currency: 'JPY', method: 'card'})
    expect(queries.map((q) => q.amount)).toEqual(['1234', '1500'])
    expect(t.stdout()).toBe('')
  })

  it('bad input is refused before anything is sent', async () => {
    const queries = replySimulate()
    const t = testContext({dispatcher: api.mock, env: api.env()})
    await expect(routingSimulate(t.ctx, {currency: 'EUR', method: 'card'})).rejects.toThrow(/Missing the amount/)
    await expect(routingSimulate(t.ctx, {'display-amount': '20.001', currency: 'EUR', method: 'card'})).rejects.toThrow(/EUR has 2 decimal places/)
    await expect(routingSimulate(t.ctx, {amount: 2000, currency: 'EUR', method: 'card', merchant: 'acme'})).rejects.toThrow(/--merchant "acme" is not a merchant id/)
    await expect(routingSimulate(t.ctx, {amount: 2000, currency: 'EUR', method: 'ideal', 'card-brand': 'visa'})).rejects.toThrow(/--card-brand needs --method card/)
    expect(queries).toEqual([])
  })
})

describe('through oclif', () => {
  let cli: CliEnv
  beforeEach(async () => {
    cli = await cliEnv()
  })
  afterEach(async () => {
    await cli.cleanup()
  })

  it('explain: --json is the routing object; a bad id exits 2, an unknown one 5', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_123/routing', method: 'GET'}).reply(200, failover(), json)
    const r = await cli.run(PaymentsExplain, [...at(), 'pay_123', '--json'])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual(failover())
    const bad = await cli.run(PaymentsExplain, [...at(), 'po_1'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('payment ids start with pay_')
    cli.pool.intercept({path: '/v1/payments/pay_x/routing', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', 'No such payment: pay_x'))
    cli.pool.intercept({path: '/v1/payments/pay_x', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', 'No such payment: pay_x'))
    const missing = await cli.run(PaymentsExplain, [...at(), 'pay_x'])
    expect(missing.exitCode).toBe(5)
    expect(missing.stderr).toContain('No such payment: pay_x')
  })

  it('simulate: flags from GW_ variables, --currency and --country checked, a 400 about a typed value names the flag', async () => {
    const queries: Record<string, string>[] = []
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/routing/simulate?'), method: 'GET'})
      .reply((o) => {
        queries.push(Object.fromEntries(new URL(o.path, BASE).searchParams))
        return {statusCode: 200, data: decision(), responseOptions: json}
      })
    const r = await cli.run(RoutingSimulate, [...at(), '--json'], {env: {GW_AMOUNT: '2500', GW_CURRENCY: 'usd', GW_METHOD: 'card'}})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(queries).toEqual([{amount: '2500', currency: 'USD', payment_method: 'card'}])
    expect(JSON.parse(r.stdout)).toEqual(decision())

    expect((await cli.run(RoutingSimulate, [...at(), '--amount', '2000', '--currency', 'EURO'])).exitCode).toBe(2)
    const country = await cli.run(RoutingSimulate, [...at(), '--amount', '2000', '--currency', 'EUR', '--country', 'USA'])
    expect(country.exitCode).toBe(2)
    expect(country.stderr).toContain('--country "USA" is not a two-letter country code')
    const both = await cli.run(RoutingSimulate, [...at(), '--amount', '2000', '--display-amount', '20', '--currency', 'EUR'])
    expect(both.exitCode).toBe(2)

    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/routing/simulate?'), method: 'GET'})
      .reply(400, errorBody('invalid_request_error', 'currency_not_supported', 'iDEAL (ideal) accepts EUR only; got USD.', {param: 'currency'}))
    const unsupported = await cli.run(RoutingSimulate, [...at(), '--amount', '2000', '--currency', 'USD', '--method', 'ideal'])
    expect(unsupported.exitCode).toBe(2)
    expect(unsupported.stderr).toContain('--currency')
    expect(unsupported.stderr).toContain('accepts EUR only')
  })
})
