// What a narrow key, a bad key and no key reach on a shared gateway, black box over HTTPS with
// several accounts on one engine (SQLite; PostgreSQL in the conformance-postgres project):
// a webhooks:write key receives only payloads it may read, a payments:read key cannot test
// customers' data through the payment filters, bad keys behind one address never lock out good
// ones, and /metrics tells a caller without a key no account or endpoint id.
// (docs/api.md#what-a-key-reaches)
import {request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type Res, type TestEngine} from '../test-support/harness.js'
import {cardPayment, expectError} from './helpers.js'

let t: TestEngine
let a: AsKey & {id: string}
let b: AsKey & {id: string}

beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
  a = await t.account('reach-a')
  b = await t.account('reach-b')
})
afterAll(async () => t?.stop())

/** A restricted key of `k`'s account with these permissions, as another AsKey. */
async function keyWith(k: AsKey, permissions: string[]): Promise<AsKey> {
  const r = await k.api('POST', '/api_keys', {permissions})
  expect(r.status, r.text).toBe(201)
  return k.as(r.body.secret)
}

describe('bad keys never lock good keys out', () => {
  let limited: TestEngine
  beforeAll(async () => {
    // a proxy in front is trusted: X-Forwarded-For names the client (a NAT's one address here)
    limited = await bootEngine({rateLimit: 1000, trustedProxies: 1})
  })
  afterAll(async () => limited?.stop())
  const nat = {'x-forwarded-for': '198.51.100.77'}

  it("behind one address, a tenant's revoked key in a retry loop is refused (429) while every request of another tenant's valid key is served", async () => {
    const mine = await limited.account('nat-revoked')
    const theirs = await limited.account('nat-valid')
    const made = (await mine.api('POST', '/api_keys', {permissions: ['payments:read']})).body
    await mine.api('POST', `/api_keys/${made.id}/revoke`, {})
    const revoked = limited.as(made.secret)
    const failures: Res[] = []
    const served: Res[] = []
    // the loop, with the other tenant's requests between its own, until its failures are refused
    // (a burst of 20, more as the bucket refills at 5 a second: a slow machine refills it meanwhile)
    for (let i = 0; i < 300 && !failures.some((r) => r.status === 429); i++) {
      failures.push(await revoked.api('GET', '/payments', undefined, nat))
      served.push(await theirs.api('GET', '/payments', undefined, nat))
    }
    // and on while the address is refused: 30 more of each
    for (let i = 0; i < 30; i++) {
      failures.push(await revoked.api('GET', '/payments', undefined, nat))
      served.push(await theirs.api('GET', '/payments', undefined, nat))
    }
    expect(served.map((r) => r.status)).toEqual(Array(served.length).fill(200))
    // the failures ran out of their budget: 401 (revoked) at first, then 429 with Retry-After
    expectError(failures[0]!, 401, 'authentication_error', 'api_key_revoked')
    const refused = failures.filter((r) => r.status === 429)
    expect(refused.length).toBeGreaterThan(0)
    expect(expectError(refused[0]!, 429, 'rate_limit_error', 'rate_limit_exceeded').message).toMatch(/failed authentications from 198\.51\.100\.77/)
    // a flood of unknown keys from the address changes nothing for a valid key either
    for (let i = 0; i < 30; i++) await limited.as(`sk_test_flood${String(i).padStart(24, '0')}`).api('GET', '/payments', undefined, nat)
    expect((await theirs.api('GET', '/payments', undefined, nat)).status).toBe(200)
    expect((await mine.api('GET', '/payments', undefined, nat)).status).toBe(200)
  })
})

describe('the payment filters that read customers need customers:read', () => {
  it('customer_email, email_domain and customer_name: 403 naming customers:read for a payments:read key; answered with customers:read too', async () => {
    const paid = await a.api('POST', '/payments', cardPayment({customer: {email: 'zoe@lovelace-shop.example', name: 'Zoë Lovelace'}}))
    expect(paid.status, paid.text).toBe(201)
    const narrow = await keyWith(a, ['payments:read'])
    const both = await keyWith(a, ['payments:read', 'customers:read'])
    for (const q of ['customer_email=zoe@lovelace-shop.example', 'email_domain=lovelace-shop.example', 'customer_name=lov', 'status=succeeded&customer_name=zo']) {
      const e = expectError(await narrow.api('GET', `/payments?${q}`), 403, 'permission_error', 'permission_denied')
      expect(e.permission, q).toBe('customers:read')
      expect(e.message).toContain('customers:read')
      const r = await both.api('GET', `/payments?${q}`)
      expect(r.status, r.text).toBe(200)
      expect(r.body.data.map((p: {id: string}) => p.id)).toContain(paid.body.id)
    }
    // the payment filters that name no customer's data stay payments:read's
    expect((await narrow.api('GET', `/payments?card_last4=4242&status=succeeded`)).status).toBe(200)
    expect((await narrow.api('GET', `/payments?customer=${paid.body.customer}`)).status).toBe(200)
  })
})

describe('a webhooks:write key receives only what it may read', () => {
  const url = 'https://127.0.0.1:9/reach'

  it('creating an endpoint needs the read permission of each subscribed type (events:read for *): 403 naming the missing one', async () => {
    const hooks = await keyWith(a, ['webhooks:write'])
    for (const [events, missing] of [
      [['*'], 'events:read'],
      [['payment.succeeded'], 'payments:read'],
      [['payment.*'], 'payments:read'],
      [['checkout.session.completed'], 'payments:read'],
      [['refund.failed', 'dispute.created'], 'refunds:read,disputes:read'],
      [['settlement.report.ready'], 'settlement:read'],
      [['merchant.updated'], 'merchants:read'],
      [['provider.health.changed'], 'routing:read'],
    ] as const) {
      const e = expectError(await hooks.api('POST', '/webhook_endpoints', {url, enabled_events: events}), 403, 'permission_error', 'permission_denied')
      expect(e.permission, events.join()).toBe(missing)
      expect(e.message).toContain(`gw keys create --permissions webhooks:write,${missing}`)
    }
    // its own notices are a webhooks:read matter, which webhooks:write includes
    expect((await hooks.api('POST', '/webhook_endpoints', {url, enabled_events: ['webhook_endpoint.failing']})).status).toBe(201)
    // with the read permissions it may
    const payments = await keyWith(a, ['webhooks:write', 'payments:read'])
    expect((await payments.api('POST', '/webhook_endpoints', {url, enabled_events: ['payment.*', 'checkout.session.completed']})).status).toBe(201)
    const everything = await keyWith(a, ['webhooks:write', 'events:read'])
    expect((await everything.api('POST', '/webhook_endpoints', {url, enabled_events: ['*']})).status).toBe(201)
    // nothing was made by the refused ones: 3 endpoints
    expect((await a.api('GET', '/webhook_endpoints?limit=100')).body.data.filter((e: {url: string}) => e.url === url)).toHaveLength(3)
    for (const ep of (await a.api('GET', '/webhook_endpoints?limit=100')).body.data) await a.api('DELETE', `/webhook_endpoints/${ep.id}`)
  })

  it("changing another's endpoint's URL or events needs the same; its description or state does not", async () => {
    const ep = (await a.api('POST', '/webhook_endpoints', {url, enabled_events: ['*']})).body
    const hooks = await keyWith(a, ['webhooks:write'])
    // repointing an endpoint that receives every payload
    let e = expectError(await hooks.api('POST', `/webhook_endpoints/${ep.id}`, {url: 'https://127.0.0.1:9/stolen'}), 403, 'permission_error', 'permission_denied')
    expect(e.permission).toBe('events:read')
    e = expectError(await hooks.api('POST', `/webhook_endpoints/${ep.id}`, {enabled_events: ['payment.succeeded']}), 403, 'permission_error', 'permission_denied')
    expect(e.permission).toBe('payments:read')
    expect((await a.api('GET', `/webhook_endpoints/${ep.id}`)).body).toMatchObject({url, enabled_events: ['*']})
    expect((await hooks.api('POST', `/webhook_endpoints/${ep.id}`, {description: 'renamed', disabled: true})).status).toBe(200)
    const payments = await keyWith(a, ['webhooks:write', 'payments:read'])
    expectError(await payments.api('POST', `/webhook_endpoints/${ep.id}`, {url: 'https://127.0.0.1:9/stolen'}), 403, 'permission_error', 'permission_denied')
    expect((await payments.api('POST', `/webhook_endpoints/${ep.id}`, {url: 'https://127.0.0.1:9/moved', enabled_events: ['payment.succeeded']})).status).toBe(200)
    await a.api('DELETE', `/webhook_endpoints/${ep.id}`)
  })
})

describe('/metrics without a key names no account or endpoint', () => {
  it("the API port answers the aggregate series to anyone, each account's only with the platform's key (or an account's own)", async () => {
    // an endpoint with a backlog in each account: the per-account series have something to say
    const eps: string[] = []
    for (const k of [a, b]) {
      eps.push((await k.api('POST', '/webhook_endpoints', {url: 'https://127.0.0.1:9/metrics', enabled_events: ['*']})).body.id)
      expect((await k.api('POST', '/payments', cardPayment())).status).toBe(201)
    }
    const root = t.engine.baseUrl.replace(/\/v1$/, '')
    const scrape = async (key?: string) => {
      const r = await request(`${root}/metrics`, {headers: key ? {authorization: `Bearer ${key}`} : {}, dispatcher: t.agent})
      return {status: r.statusCode, text: await r.body.text()}
    }
    const keyless = await scrape()
    expect(keyless.status).toBe(200)
    expect(keyless.text).toContain('gw_http_requests_total')
    expect(keyless.text).not.toMatch(/acct_/)
    for (const id of [a.id, b.id, ...eps]) expect(keyless.text).not.toContain(id)
    expect(keyless.text).not.toMatch(/^gw_webhook_backlog\{/m)
    // the platform's key: every account's series
    const platform = await scrape(t.key)
    expect(platform.status).toBe(200)
    for (const id of [a.id, b.id, ...eps]) expect(platform.text).toContain(id)
    // an account's key: its own account's alone
    const own = await scrape(a.key)
    expect(own.status).toBe(200)
    expect(own.text).toContain(`account="${a.id}"`)
    expect(own.text).toContain(eps[0])
    expect(own.text).not.toContain(b.id)
    expect(own.text).not.toContain(eps[1])
    // a key that does not authenticate is refused as on the API
    expect((await scrape('sk_test_nobody_000000000000000000000')).status).toBe(401)
  })
})
