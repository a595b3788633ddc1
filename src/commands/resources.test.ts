import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Customer, PaymentMethod, TestClock} from '../api/types.js'
import {at, cliEnv, errorBody, json, LIVE_KEY, type CliEnv} from '../base/test-support/cli.js'
import ApiDelete from './api/delete.js'
import ApiGet from './api/get.js'
import ApiPost from './api/post.js'
import ClockAdvance from './clock/advance.js'
import ClockGet from './clock/get.js'
import CustomersCreate from './customers/create.js'
import CustomersGet from './customers/get.js'
import CustomersList from './customers/list.js'
import PaymentMethodsCreate from './payment-methods/create.js'
import PaymentMethodsDetach from './payment-methods/detach.js'
import PaymentMethodsGet from './payment-methods/get.js'
import PaymentMethodsList from './payment-methods/list.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const customer = (over: Partial<Customer> = {}): Customer => ({
  id: 'cus_1', object: 'customer', email: 'jane@example.com', name: 'Jane', description: null, metadata: {}, livemode: false, created_at: '2025-01-01T00:00:00Z', ...over,
})
const pm = (over: Partial<PaymentMethod> = {}): PaymentMethod => ({
  id: 'pm_1', object: 'payment_method', type: 'card',
  card: {brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, funding: 'credit', country: 'US', network_token: true},
  billing_details: {name: null, email: null, address: null}, customer: 'cus_1', livemode: false, created_at: '2025-01-01T00:00:00Z', ...over,
})

function post(path: string, reply: object, status = 200) {
  const bodies: unknown[] = []
  cli.pool.intercept({path, method: 'POST'}).reply((o) => {
    bodies.push(JSON.parse(String(o.body ?? 'null')))
    return {statusCode: status, data: reply, responseOptions: json}
  }).persist()
  return bodies
}

describe('customers', () => {
  it('create sends the fields and shows the customer', async () => {
    const bodies = post('/v1/customers', customer(), 201)
    const r = await cli.run<Customer>(CustomersCreate, [...at(), '--email', 'jane@example.com', '--name', 'Jane', '--metadata', 'tier=gold'])
    expect(r.exitCode).toBe(0)
    expect(bodies[0]).toEqual({email: 'jane@example.com', name: 'Jane', metadata: {tier: 'gold'}})
    expect(r.stdout).toMatch(/cus_1\n\s+Email\s+jane@example.com/)
  })

  it('list shows a table, get shows one, --json gives the objects', async () => {
    cli.pool.intercept({path: (p) => p.startsWith('/v1/customers?') || p === '/v1/customers', method: 'GET'}).reply(200, {object: 'list', url: '/v1/customers', data: [customer()], has_more: false})
    const list = await cli.run(CustomersList, [...at()])
    expect(list.stdout).toContain('EMAIL')
    expect(list.stdout).toContain('jane@example.com')
    cli.pool.intercept({path: '/v1/customers/cus_1', method: 'GET'}).reply(200, customer())
    const get = await cli.run(CustomersGet, [...at(), 'cus_1', '--json'])
    expect(JSON.parse(get.stdout)).toEqual(customer())
  })

  it('get with a non-customer id is a usage error', async () => {
    const r = await cli.run(CustomersGet, [...at(), 'pay_1'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('customer ids start with cus_')
  })
})

describe('payment methods', () => {
  it('create sends a card with defaults and billing details', async () => {
    const bodies = post('/v1/payment_methods', pm(), 201)
    const r = await cli.run(PaymentMethodsCreate, [...at(), '--card', '4242424242424242', '--customer', 'cus_1', '--billing-name', 'Jane', '--billing-country', 'nl', '--billing-postal-code', '1012'])
    expect(r.exitCode).toBe(0)
    const body = bodies[0] as {card: {exp_year: number}}
    expect(body).toMatchObject({
      type: 'card',
      card: {number: '4242424242424242', exp_month: 12, cvc: '123'},
      customer: 'cus_1',
      billing_details: {name: 'Jane', address: {country: 'NL', postal_code: '1012'}},
    })
    expect(body.card.exp_year).toBeGreaterThan(new Date().getUTCFullYear())
    expect(r.stdout).toContain('visa •••• 4242')
  })

  it('create refuses raw cards in live mode', async () => {
    const r = await cli.run(PaymentMethodsCreate, [...at(LIVE_KEY), '--card', '4242424242424242'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('test mode only')
  })

  it('list filters by customer; get and detach', async () => {
    let q = ''
    cli.pool.intercept({path: (p) => p.startsWith('/v1/payment_methods?'), method: 'GET'}).reply((o) => {
      q = o.path
      return {statusCode: 200, data: {object: 'list', url: '/v1/payment_methods', data: [pm()], has_more: false}}
    })
    const list = await cli.run(PaymentMethodsList, [...at(), '--customer', 'cus_1'])
    expect(new URL(q, 'https://x').searchParams.get('customer')).toBe('cus_1')
    expect(list.stdout).toContain('pm_1')
    cli.pool.intercept({path: '/v1/payment_methods/pm_1', method: 'GET'}).reply(200, pm())
    expect((await cli.run(PaymentMethodsGet, [...at(), 'pm_1'])).stdout).toMatch(/Network token\s+yes/)
    post('/v1/payment_methods/pm_1/detach', pm({customer: null}))
    const detach = await cli.run<PaymentMethod>(PaymentMethodsDetach, [...at(), 'pm_1', '--yes'])
    expect(detach.result?.customer).toBeNull()
    expect(detach.stdout).toContain('(detached)')
  })
})

describe('clock', () => {
  const clock = (offset: number): TestClock => ({object: 'test_clock', now: '2025-01-08T00:00:00.000Z', offset_seconds: offset, frozen: false})

  it('get shows the time and offset', async () => {
    cli.pool.intercept({path: '/v1/test_helpers/clock', method: 'GET'}).reply(200, clock(0))
    const r = await cli.run(ClockGet, [...at()])
    expect(r.stdout).toMatch(/Now\s+2025-01-08T00:00:00.000Z/)
  })

  it('advance converts human durations to seconds', async () => {
    const bodies = post('/v1/test_helpers/clock/advance', clock(604800))
    const r = await cli.run(ClockAdvance, [...at(), '7d'])
    expect(r.exitCode).toBe(0)
    expect(bodies[0]).toEqual({seconds: 604800})
    expect(r.stdout).toMatch(/Offset\s+7d ahead/)
    await cli.run(ClockAdvance, [...at(), '1d12h'])
    expect(bodies[1]).toEqual({seconds: 129600})
  })

  it('advance rejects a bad duration', async () => {
    const r = await cli.run(ClockAdvance, [...at(), 'soon'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('DURATION "soon" is not a duration')
    const zero = await cli.run(ClockAdvance, [...at(), '0s'])
    expect(zero.exitCode).toBe(2)
  })
})

describe('gw api', () => {
  it('get turns -d into a query and prints JSON', async () => {
    let path = ''
    cli.pool.intercept({path: (p) => p.startsWith('/v1/payments?'), method: 'GET'}).reply((o) => {
      path = o.path
      return {statusCode: 200, data: {object: 'list', data: [], has_more: false, url: '/v1/payments'}}
    })
    const r = await cli.run(ApiGet, [...at(), 'payments', '-d', 'limit=5', '-d', 'status=succeeded'])
    expect(r.exitCode).toBe(0)
    expect(Object.fromEntries(new URL(path, 'https://x').searchParams)).toEqual({limit: '5', status: 'succeeded'})
    expect(JSON.parse(r.stdout)).toMatchObject({object: 'list'})
  })

  it('post sends a JSON body with an Idempotency-Key', async () => {
    let headers: Record<string, string> = {}
    let body: unknown
    cli.pool.intercept({path: '/v1/refunds', method: 'POST'}).reply((o) => {
      headers = o.headers as Record<string, string>
      body = JSON.parse(String(o.body))
      return {statusCode: 201, data: {id: 'rf_1', object: 'refund'}}
    })
    const r = await cli.run(ApiPost, [...at(), '/v1/refunds', '-d', 'payment=pay_1', '-d', 'amount=500', '--idempotency-key', 'k1'])
    expect(r.exitCode).toBe(0)
    expect(body).toEqual({payment: 'pay_1', amount: 500})
    expect(headers['idempotency-key']).toBe('k1')
    expect(JSON.parse(r.stdout)).toEqual({id: 'rf_1', object: 'refund'})
  })

  it('post sends a JSON body as it is: --input FILE, --input - (stdin), or one -d that is a JSON object', async () => {
    const bodies: unknown[] = []
    cli.pool
      .intercept({path: '/v1/webhook_endpoints', method: 'POST'})
      .reply((o) => {
        bodies.push(JSON.parse(String(o.body)))
        return {statusCode: 201, data: {id: 'wh_1', object: 'webhook_endpoint'}}
      })
      .times(3)
    const doc = {url: 'https://shop.example/hooks', enabled_events: ['payment.*'], metadata: {order: '0042'}}
    const file = join(cli.dir, 'body.json')
    writeFileSync(file, JSON.stringify(doc))
    expect((await cli.run(ApiPost, [...at(), '/webhook_endpoints', '--input', file])).exitCode).toBe(0)
    expect((await cli.run(ApiPost, [...at(), '/webhook_endpoints', '--input', '-'], {stdin: JSON.stringify(doc)})).exitCode).toBe(0)
    expect((await cli.run(ApiPost, [...at(), '/webhook_endpoints', '-d', JSON.stringify(doc)])).exitCode).toBe(0)
    // as it is: the metadata value '0042' stays a string, the list a list
    expect(bodies).toEqual([doc, doc, doc])
    const notObject = await cli.run(ApiPost, [...at(), '/webhook_endpoints', '--input', '-'], {stdin: '[1, 2]'})
    expect(notObject.exitCode).toBe(2)
    expect(notObject.stderr).toContain('not a JSON object')
    const both = await cli.run(ApiPost, [...at(), '/webhook_endpoints', '--input', file, '-d', 'a=b'])
    expect(both.exitCode).toBe(2)
  })

  it('delete sends DELETE; errors keep their exit codes', async () => {
    cli.pool.intercept({path: '/v1/customers/cus_9', method: 'DELETE'}).reply(404, errorBody('invalid_request_error', 'resource_missing', "No such customer: 'cus_9'"))
    const r = await cli.run(ApiDelete, [...at(), '/customers/cus_9'])
    expect(r.exitCode).toBe(5)
    expect(r.stderr).toContain('request_id req_err_1')
  })

  it('post in live mode asks for confirmation', async () => {
    const r = await cli.run(ApiPost, [...at(LIVE_KEY), '/refunds', '-d', 'payment=pay_1'])
    expect(r.exitCode).toBe(9)
  })

  it('rejects a bad -d pair', async () => {
    const r = await cli.run(ApiPost, [...at(), '/refunds', '-d', 'payment'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('-d "payment" is not key=value')
  })
})
