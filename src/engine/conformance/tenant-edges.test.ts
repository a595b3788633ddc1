// A shared gateway (docs/api.md#security) as a tenant would try it (one engine, several accounts, keys of
// every kind; on SQLite, and on PostgreSQL in the conformance-postgres project): permissions that
// hand over event payloads, who may frame the hosted pages, webhook destinations written in IPv6,
// and metrics kept off the API port.
import {request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type TestEngine} from '../test-support/harness.js'
import {card, expectError} from './helpers.js'

let t: TestEngine
let a: AsKey & {id: string; publishableKey: string}
let b: AsKey & {id: string}

beforeAll(async () => {
  t = await bootEngine({rateLimit: 0, metricsListen: '127.0.0.1:0'})
  a = await t.account('edges-a')
  b = await t.account('edges-b')
})
afterAll(async () => t?.stop())

describe('item 7: resending or replaying an event needs events:read too', () => {
  it('a key with only webhooks:write may manage endpoints but not resend or replay events to them; with events:read it may', async () => {
    const paid = await a.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'card', payment_method_data: card('4242424242424242')})
    const event = (await a.api('GET', `/events?object=${paid.body.id}&limit=1`)).body.data[0]
    const narrow = a.as((await a.api('POST', '/api_keys', {permissions: ['webhooks:write']})).body.secret)
    expectError(await narrow.api('GET', '/events'), 403, 'permission_error', 'permission_denied')
    // (an endpoint for every payload needs events:read too: docs/api.md#what-a-key-reaches; the account's key makes it)
    expect(expectError(await narrow.api('POST', '/webhook_endpoints', {url: 'https://127.0.0.1:9/hook', enabled_events: ['*']}), 403, 'permission_error', 'permission_denied').permission).toBe('events:read')
    const ep = await a.api('POST', '/webhook_endpoints', {url: 'https://127.0.0.1:9/hook', enabled_events: ['*']})
    expect(ep.status, ep.text).toBe(201)
    for (const [path, body] of [
      [`/events/${event.id}/resend`, {endpoint: ep.body.id}],
      [`/webhook_endpoints/${ep.body.id}/replay`, {within: 3600, status: ['succeeded', 'failed_retrying', 'undeliverable']}],
    ] as const) {
      const e = expectError(await narrow.api('POST', path, body), 403, 'permission_error', 'permission_denied')
      expect(e.permission, path).toBe('webhooks:write,events:read')
      expect(e.message).toContain('lacks events:read')
      expect(e.message).toContain('gw keys create --permissions webhooks:write,events:read')
    }
    // nothing was queued for the endpoint
    expect((await a.api('GET', `/webhook_endpoints/${ep.body.id}/deliveries`)).body.data).toEqual([])
    const both = a.as((await a.api('POST', '/api_keys', {permissions: ['webhooks:write', 'events:read']})).body.secret)
    const resent = await both.api('POST', `/events/${event.id}/resend`, {endpoint: ep.body.id})
    expect(resent.status, resent.text).toBe(200)
    expect(resent.body.data).toHaveLength(1)
    // another account's key with both finds nothing of this account's
    const theirs = b.as((await b.api('POST', '/api_keys', {permissions: ['webhooks:write', 'events:read']})).body.secret)
    expectError(await theirs.api('POST', `/events/${event.id}/resend`, {}), 404, 'invalid_request_error', 'resource_missing')
  })
})

describe('item 8: who may frame the hosted pages, and what they send as Referer', () => {
  const framing = (r: {headers: Record<string, unknown>}) => ({
    ancestors: /frame-ancestors ([^;]*)/.exec(String(r.headers['content-security-policy']))?.[1],
    xfo: r.headers['x-frame-options'],
    referrer: r.headers['referrer-policy'],
  })
  const challenge = () => ({amount: 1500, currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000003220'), return_url: 'https://shop.example/return'})

  it("every hosted page: framed by no one but the card fields' frame; no Referer from any of them", async () => {
    const session = (await a.api('POST', '/checkout_sessions', {amount: 1500, currency: 'EUR'})).body
    const threeDs = (await a.api('POST', '/payments', challenge())).body
    const denied = {ancestors: "'none'", xfo: 'DENY', referrer: 'no-referrer'}
    const checkout = t.engine.checkoutUrl
    for (const url of [session.url, threeDs.next_action.url, `${checkout}/returned/success?session=${session.id}`, `${checkout}/session/${session.id}?account=${a.id}&token=wrong`, `${checkout}/3ds/pay_nothing`])
      expect(framing(await t.raw('GET', url)), url).toEqual(denied)
    expect(framing(await t.raw('GET', `${checkout}/fields?key=${a.publishableKey}`))).toEqual({ancestors: '*', xfo: undefined, referrer: 'no-referrer'})
    expect(framing(await t.raw('GET', `${checkout}/fields?key=nonsense`))).toEqual({ancestors: '*', xfo: undefined, referrer: 'no-referrer'})
    // completing the step sends the customer on to the shop without a Referer either
    const approve = {body: 'outcome=approve', headers: {'content-type': 'application/x-www-form-urlencoded'}}
    const done = await t.raw('POST', threeDs.next_action.url, approve)
    expect(done.status).toBe(303)
    expect(done.headers['referrer-policy']).toBe('no-referrer')
    // without a return_url, the last page is framed by no one and tells no one the outcome
    const bare = (await a.api('POST', '/payments', {...challenge(), return_url: undefined})).body
    const last = await t.raw('POST', bare.next_action.url, approve)
    expect(last.status).toBe(200)
    expect(framing(last)).toEqual(denied)
    expect(last.text).not.toContain('postMessage')
  })

  it("a payment the card fields confirmed: its 3-D Secure page is framed by that shop's origin alone, bound at confirmation, and its last page tells that origin", async () => {
    const shop = 'https://shop.example:8080'
    const pk = a.as(a.publishableKey)
    const pm = (await pk.api('POST', '/payment_methods', {type: 'card', card: {number: '4000000000003220', exp_month: 12, exp_year: 2034, cvc: '123'}})).body
    const created = (await a.api('POST', '/payments', {amount: 1500, currency: 'EUR', payment_method: 'card', confirm: false})).body
    // not an origin: refused, naming the header
    const bad = await pk.api('POST', `/payments/${created.id}/confirm`, {payment_method_id: pm.id}, {'gw-parent-origin': `${shop}/path`})
    expect(expectError(bad, 400, 'invalid_request_error').param).toBe('Gw-Parent-Origin')
    const p = (await pk.api('POST', `/payments/${created.id}/confirm`, {payment_method_id: pm.id}, {'gw-parent-origin': shop})).body
    expect(p.status).toBe('requires_action')
    const page = await t.raw('GET', p.next_action.url)
    expect(page.text).toContain('Complete authentication')
    expect(framing(page)).toEqual({ancestors: shop, xfo: undefined, referrer: 'no-referrer'})
    // a parameter in the page's URL changes nothing
    expect(framing(await t.raw('GET', `${p.next_action.url}&parent=https%3A%2F%2Fevil.example&frame_origin=https%3A%2F%2Fevil.example`)).ancestors).toBe(shop)
    // the customer completes it in the modal: the last page posts to the shop's origin, framed by it alone
    const last = await t.raw('POST', p.next_action.url, {body: 'outcome=approve', headers: {'content-type': 'application/x-www-form-urlencoded'}})
    expect(last.status).toBe(200)
    expect(framing(last).ancestors).toBe(shop)
    expect(last.text).toContain(`postMessage({type: 'gw:payment', payment: {"id":"${p.id}","status":"succeeded"}}, "${shop}")`)
    expect(last.text).not.toContain("'*'")
  })
})

describe('item 9: webhook destinations in IPv6', () => {
  it.each([
    'https://[::]:8443/hook',
    'https://[::ffff:169.254.169.254]/hook',
    'https://[::a9fe:a9fe]/hook',
    'https://[64:ff9b::a9fe:a9fe]/hook',
    'https://[2002:a9fe:a9fe::]/hook',
    'https://[2001:0:a9fe:a9fe::1]/hook',
    'https://[::ffff:0.0.0.0]/hook',
  ])('%s is refused at creation and at update, as its IPv4 form is', async (url) => {
    expect(expectError(await a.api('POST', '/webhook_endpoints', {url, enabled_events: ['*']}), 400, 'invalid_request_error', 'parameter_invalid').param).toBe('url')
    const ep = (await a.api('POST', '/webhook_endpoints', {url: 'https://[::1]:9/hook', enabled_events: ['*']})).body
    expect(expectError(await a.api('POST', `/webhook_endpoints/${ep.id}`, {url}), 400, 'invalid_request_error', 'parameter_invalid').param).toBe('url')
    await a.api('DELETE', `/webhook_endpoints/${ep.id}`)
  })
})

describe('item 10: metrics on their own address', () => {
  it('the API port has no /metrics; the metrics address serves them, naming the accounts', async () => {
    const root = t.engine.baseUrl.replace(/\/v1$/, '')
    const api = await t.raw('GET', `${root}/metrics`)
    expect(api.status).toBe(404)
    expect(JSON.parse(api.text).error.code).toBe('route_unknown')
    expect(t.engine.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    const scraped = await request(t.engine.metricsUrl!)
    expect(scraped.statusCode).toBe(200)
    expect(await scraped.body.text()).toContain('gw_http_requests_total')
  })
})
