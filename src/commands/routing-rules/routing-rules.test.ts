import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {RoutingRule} from '../../api/types.js'
import {at, capturePostBodies, cliEnv, errorBody, json, type CliEnv} from '../../base/test-support/cli.js'
import RoutingRulesCreate from './create.js'
import RoutingRulesDelete from './delete.js'
import RoutingRulesGet from './get.js'
import RoutingRulesList from './list.js'
import RoutingRulesUpdate from './update.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

function rule(over: Partial<RoutingRule> = {}): RoutingRule {
  return {
    id: 'rr_123',
    object: 'routing_rule',
    merchant: null,
    priority: 10,
    action: 'prefer',
    providers: [{provider: 'prov_atlas'}],
    conditions: {currency: 'EUR'},
    livemode: false,
    created_at: '2025-01-01T00:00:00Z',
    ...over,
  }
}

const capturePost = (path: string, reply: object, status = 200) => capturePostBodies(cli, path, reply, status)

function captureDelete(path: string, object: string) {
  const seen: string[] = []
  cli.pool
    .intercept({path, method: 'DELETE'})
    .reply((o) => {
      seen.push(o.path)
      return {statusCode: 200, data: {id: path.split('/').pop(), object, deleted: true}, responseOptions: json}
    })
    .persist()
  return seen
}

describe('routing-rules create', () => {
  it('builds providers with weights and conditions from flags', async () => {
    const seen = capturePost('/v1/routing_rules', rule({action: 'split'}), 201)
    const r = await cli.run<RoutingRule>(RoutingRulesCreate, [
      ...at(),
      '--priority', '20', '--action', 'split', '--provider', 'prov_atlas:70', '--provider', 'prov_borealis:30',
      '--merchant', 'mer_1', '--payment-method', 'card', '--currency', 'eur', '--amount-gte', '1000', '--amount-lte', '50000', '--card-brand', 'visa', '--country', 'nl',
    ])
    expect(r.exitCode).toBe(0)
    expect(seen[0]).toEqual({
      priority: 20,
      action: 'split',
      providers: [{provider: 'prov_atlas', weight: 70}, {provider: 'prov_borealis', weight: 30}],
      merchant: 'mer_1',
      conditions: {payment_method: 'card', currency: 'EUR', amount_gte: 1000, amount_lte: 50000, card_brand: 'visa', country: 'NL'},
    })
    expect(r.result?.id).toBe('rr_123')
    expect(r.stdout).toMatch(/^rr_123 {2}split/)
  })

  it('a bad --provider is a usage error; the API rejecting a rule exits 1', async () => {
    const bad = await cli.run(RoutingRulesCreate, [...at(), '--priority', '1', '--action', 'prefer', '--provider', 'atlas:x'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('prov_id:weight')
    cli.pool.intercept({path: '/v1/routing_rules', method: 'POST'}).reply(400, errorBody('invalid_request_error', 'parameter_invalid', 'A prefer rule needs at least one provider.', {param: 'providers'}))
    const r = await cli.run(RoutingRulesCreate, [...at(), '--priority', '1', '--action', 'prefer'])
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('at least one provider')
  })
})

describe('routing-rules list / get', () => {
  it('lists with a merchant filter and describes conditions', async () => {
    let path = ''
    cli.pool.intercept({path: (p) => p.startsWith('/v1/routing_rules'), method: 'GET'}).reply((o) => {
      path = o.path
      return {statusCode: 200, data: {object: 'list', url: '/v1/routing_rules', data: [rule({merchant: 'mer_1'})], has_more: false}, responseOptions: json}
    })
    const r = await cli.run(RoutingRulesList, [...at(), '--merchant', 'mer_1'])
    expect(r.exitCode).toBe(0)
    expect(new URL(path, 'https://x').searchParams.get('merchant')).toBe('mer_1')
    expect(r.stdout).toMatch(/rr_123\s.*10.*prefer.*prov_atlas.*currency=EUR.*mer_1/)
  })

  it('get --json returns the rule; an unknown rule exits 5', async () => {
    cli.pool.intercept({path: '/v1/routing_rules/rr_123', method: 'GET'}).reply(200, rule(), json)
    const r = await cli.run(RoutingRulesGet, [...at(), 'rr_123', '--json'])
    expect(r.exitCode).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({id: 'rr_123', providers: [{provider: 'prov_atlas'}]})
    cli.pool.intercept({path: '/v1/routing_rules/rr_nope', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', "No such routing rule: 'rr_nope'"))
    expect((await cli.run(RoutingRulesGet, [...at(), 'rr_nope'])).exitCode).toBe(5)
  })
})

describe('routing-rules update', () => {
  it('sends only the changed fields', async () => {
    const seen = capturePost('/v1/routing_rules/rr_123', rule({priority: 5}))
    const r = await cli.run(RoutingRulesUpdate, [...at(), 'rr_123', '--priority', '5'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]).toEqual({priority: 5})
    expect(r.stdout).toMatch(/Priority\s+5/)
  })

  it('with nothing to change is a usage error (exit 2)', async () => {
    const r = await cli.run(RoutingRulesUpdate, [...at(), 'rr_123'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('Nothing to change')
  })
})

describe('routing-rules delete', () => {
  it('with --yes deletes without asking', async () => {
    const seen = captureDelete('/v1/routing_rules/rr_123', 'routing_rule')
    const r = await cli.run(RoutingRulesDelete, [...at(), 'rr_123', '--yes', '--json'])
    expect(r.exitCode).toBe(0)
    expect(seen).toHaveLength(1)
    expect(JSON.parse(r.stdout)).toEqual({id: 'rr_123', object: 'routing_rule', deleted: true})
    expect(r.prompts).toHaveLength(0)
  })

  it('on a terminal asks first: "y" deletes, anything else sends nothing (exit 9)', async () => {
    const seen = captureDelete('/v1/routing_rules/rr_123', 'routing_rule')
    const ok = await cli.run(RoutingRulesDelete, [...at(), 'rr_123'], {interactive: true, answers: ['y']})
    expect(ok.exitCode).toBe(0)
    expect(ok.prompts[0].question).toContain('delete routing rule rr_123')
    expect(ok.stdout).toContain('Deleted rr_123.')
    const no = await cli.run(RoutingRulesDelete, [...at(), 'rr_123'], {interactive: true, answers: ['n']})
    expect(no.exitCode).toBe(9)
    expect(seen).toHaveLength(1)
  })

  it('without a terminal requires --yes (exit 9, nothing sent)', async () => {
    const seen = captureDelete('/v1/routing_rules/rr_123', 'routing_rule')
    const r = await cli.run(RoutingRulesDelete, [...at(), 'rr_123'])
    expect(r.exitCode).toBe(9)
    expect(r.stderr).toContain('--yes')
    expect(seen).toHaveLength(0)
  })
})
