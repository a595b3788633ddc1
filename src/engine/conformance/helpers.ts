// Shared helpers of the black-box conformance suite: everything goes through HTTPS.
import {expect} from 'vitest'
import {card, type AsKey, type Res, type TestEngine} from '../test-support/harness.js'

export {card}

export const RETURN_URL = 'https://shop.example/return'

/** A frictionless EUR card payment body; override any field. */
export const cardPayment = (extra: Record<string, unknown> = {}, number = '4242424242424242') => ({
  amount: 2000,
  currency: 'EUR',
  payment_method: 'card',
  payment_method_data: card(number),
  return_url: RETURN_URL,
  ...extra,
})

/** POST /payments and assert the status. */
export async function createPayment(t: TestEngine, body: Record<string, unknown>, status = 201): Promise<any> {
  const r = await t.api('POST', '/payments', body)
  expect(r.status, r.text).toBe(status)
  return r.body
}

export async function getPayment(t: TestEngine, id: string): Promise<any> {
  const r = await t.api('GET', `/payments/${id}`)
  expect(r.status, r.text).toBe(200)
  return r.body
}

/** Events (newest first) whose data.object.id is `id`, from the most recent 100. */
export async function eventsFor(t: TestEngine, id: string): Promise<any[]> {
  const r = await t.api('GET', '/events?limit=100')
  expect(r.status, r.text).toBe(200)
  return r.body.data.filter((e: any) => e.data.object.id === id)
}

/** Event types of an object, oldest first. */
export async function eventTypes(t: TestEngine, id: string): Promise<string[]> {
  return (await eventsFor(t, id)).map((e) => e.type).reverse()
}

/** Asserts the error envelope (docs/api.md#errors) and the Request-Id header. */
export function expectError(r: Res, status: number, type: string, code?: string): any {
  expect(r.status, r.text).toBe(status)
  const e = r.body?.error
  expect(e, r.text).toBeTruthy()
  expect(e.type).toBe(type)
  if (code !== undefined) expect(e.code).toBe(code)
  expect(typeof e.code).toBe('string')
  expect(e.code.length).toBeGreaterThan(0)
  expect(typeof e.message).toBe('string')
  expect(e.message.length).toBeGreaterThan(0)
  expect(e.doc_url).toMatch(/^https:\/\//)
  expect(e.request_id).toMatch(/^req_/)
  expect(r.headers['request-id']).toBe(e.request_id)
  return e
}

/** Completes the customer step as the customer would on the hosted page. */
export async function customerAction(t: TestEngine, id: string, outcome: 'approve' | 'fail' | 'abandon'): Promise<Res> {
  return t.api('POST', `/test_helpers/payments/${id}/action`, {outcome})
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * A new account with a little of everything (for the snapshot suites): a customer, payments
 * (one uncaptured, one refunded in part, one disputed), a webhook endpoint and its deliveries, a
 * chaos rule, a frozen clock.
 */
export async function busyTenant(t: TestEngine, name: string): Promise<AsKey & {id: string}> {
  const a = await t.account(name)
  const pay = (extra: Record<string, unknown> = {}) => a.api('POST', '/payments', {amount: 2500, currency: 'EUR', payment_method: 'card', payment_method_data: card(), ...extra})
  const cus = await a.api('POST', '/customers', {email: 'buyer@example.com', name: 'Buyer', metadata: {tier: 'gold'}})
  expect(cus.status).toBe(201)
  expect((await a.api('POST', '/webhook_endpoints', {url: 'https://127.0.0.1:9/hook', enabled_events: ['payment.*', 'refund.succeeded']})).status).toBe(201)
  const p = await pay({customer: cus.body.id})
  expect(p.status).toBe(201)
  expect((await pay({capture_method: 'manual'})).status).toBe(201)
  expect((await a.api('POST', '/refunds', {payment: p.body.id, amount: 500})).status).toBe(201)
  const paid = await pay()
  expect((await a.api('POST', '/test_helpers/disputes', {payment: paid.body.id})).status).toBe(201)
  expect((await a.api('POST', '/chaos/api', {path: '/customers/*', fault: '503', rate: 0.5, seed: 7})).status).toBe(201)
  expect((await a.api('POST', '/test_helpers/clock', {frozen: true})).status).toBe(200)
  return a
}
