// End-to-end for the admin commands: the built CLI (`node bin/run.js`, from dist/ — run
// `npm run build` first) against an engine in this process, HOME and XDG_CONFIG_HOME in a temp dir.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {ListEnvelope, Payment, Provider, RoutingRule} from '../src/api/types.js'
import {startCliWorld, type CliWorld} from './support/cli-world.js'

let w: CliWorld
beforeAll(async () => {
  w = await startCliWorld('gw-e2e-admin-', 'commands/routing-rules/create.js')
}, 60_000)
afterAll(async () => w?.close())

const gw = (args: string[]) => w.gw(args)
const gwJson = <T>(args: string[]) => w.gwJson<T>(args)

describe('admin commands against the engine', () => {
  it('a routing rule preferring a provider routes the next matching payment there', async () => {
    const providers = await gwJson<ListEnvelope<Provider>>(['providers', 'list', '--payment-method', 'card', '--currency', 'EUR'])
    expect(providers.data.length).toBeGreaterThan(1)
    // what the router picks without a rule; then prefer a different provider
    const before = await gwJson<Payment>(['payments', 'create', '--amount', '2000', '--currency', 'EUR', '--method', 'card', '--card', '4242424242424242'])
    const target = providers.data.map((p) => p.id).find((id) => id !== before.provider)!
    const rule = await gwJson<RoutingRule>(['routing-rules', 'create', '--priority', '1', '--action', 'prefer', '--provider', target, '--currency', 'EUR'])
    expect(rule).toMatchObject({object: 'routing_rule', action: 'prefer', providers: [{provider: target}], conditions: {currency: 'EUR'}})
    const listed = await gw(['routing-rules', 'list'])
    expect(listed.stdout).toContain(rule.id)

    const after = await gwJson<Payment>(['payments', 'create', '--amount', '2000', '--currency', 'EUR', '--method', 'card', '--card', '4242424242424242'])
    expect(after.status).toBe('succeeded')
    expect(after.provider).toBe(target)

    const del = await gw(['routing-rules', 'delete', rule.id])
    expect(del.code).toBe(9) // no terminal: --yes required
    expect(await gwJson(['routing-rules', 'delete', rule.id, '--yes'])).toEqual({id: rule.id, object: 'routing_rule', deleted: true})
  })

  it('providers list shows the status set by the health test helper', async () => {
    const health = await gwJson<Provider>(['providers', 'health', 'prov_atlas', '--status', 'degraded'])
    expect(health.status).toBe('degraded')
    const r = await gw(['providers', 'list'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/prov_atlas\s.*degraded/)
    const got = await gwJson<Provider>(['providers', 'get', 'prov_atlas'])
    expect(got.status).toBe('degraded')
  })
})
