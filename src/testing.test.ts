// gw/testing's accounts between tests: a snapshot put back with the account's restore() keeps the
// account's receivers working, and a receiver that refuses deliveries says why when it times out.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startGateway, type GatewayAccount, type TestGateway} from './testing.js'

let gw: TestGateway
let shop: GatewayAccount
const card = {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}
const pay = async (a: GatewayAccount, amount: number) => {
  const r = await a.api('POST', '/payments', {amount, currency: 'EUR', payment_method: 'card', payment_method_data: card})
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.id as string
}

beforeAll(async () => {
  gw = await startGateway()
  shop = await gw.account({name: 'snapshots between tests'})
})
afterAll(async () => gw?.stop())

describe('account.snapshot() and restore()', () => {
  it('a receiver made before the snapshot keeps verifying deliveries after every restore', async () => {
    const rx = await shop.receiver({events: ['payment.*']})
    const clean = await shop.snapshot()
    expect(clean.rows.objects.length).toBeGreaterThan(0)
    for (let test = 0; test < 2; test++) {
      const before = rx.endpointId
      const p = await pay(shop, 1000 + test)
      await rx.next('payment.succeeded', {object: p})
      const loaded = await shop.restore(clean)
      expect(loaded.object).toBe('snapshot_load')
      // the test's payment is gone with the restore; the receiver's endpoint is the same, with the receiver's secret
      expect((await shop.api('GET', `/payments/${p}`)).status).toBe(404)
      expect(rx.endpointId).toBe(before)
    }
    const after = await pay(shop, 1100)
    await rx.next('payment.succeeded', {object: after})
    expect(rx.rejected).toBe(0)
  })

  it('a receiver made after the snapshot is registered again by restore(): its endpoint and secret change, deliveries verify', async () => {
    const a = await gw.account({name: 'snapshot before the receiver'})
    const empty = await a.snapshot()
    const rx = await a.receiver({events: ['payment.succeeded']})
    const first = {endpoint: rx.endpointId, secret: rx.secret}
    await a.restore(empty)
    expect(rx.endpointId).not.toBe(first.endpoint)
    expect(rx.secret).not.toBe(first.secret)
    expect((await a.api('GET', `/webhook_endpoints/${first.endpoint}`)).status).toBe(404)
    const p = await pay(a, 2000)
    await rx.next('payment.succeeded', {object: p})
    expect(rx.rejected).toBe(0)
  })

  it('a snapshot loaded past restore() (the API, the SDK): the receiver refuses the deliveries and its timeout says why', async () => {
    const a = await gw.account({name: 'loaded by hand'})
    const rx = await a.receiver({events: ['payment.succeeded']})
    const saved = await a.snapshot()
    expect((await a.api('POST', '/test_helpers/snapshot', saved)).status).toBe(200)
    const p = await pay(a, 3000)
    // the delivery arrives and is refused; a wait for the event then times out saying why (a
    // short one: what it reports is already there)
    for (const end = Date.now() + 20_000; rx.rejections.length === 0 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 25))
    const err = await rx.next('payment.succeeded', {object: p, timeoutMs: 200}).catch((e: Error) => e)
    expect(err).toBeInstanceOf(Error)
    expect((err as Error).message).toMatch(/^no payment\.succeeded for pay_\w+ event within 200 ms \(received: nothing\); refused 1 delivery: signature_mismatch ×1 \(the endpoint signs with a secret this receiver does not know .*restore\(\)\)$/)
    expect(rx.rejections).toEqual(['signature_mismatch'])

    // a snapshot from before the receiver, loaded by hand: its endpoint is gone, and the timeout says so
    const b = await gw.account({name: 'endpoint deleted by a load'})
    const empty = await b.snapshot()
    const rxB = await b.receiver({events: ['payment.succeeded']})
    expect((await b.api('POST', '/test_helpers/snapshot', empty)).status).toBe(200)
    const q = await pay(b, 3100)
    const gone = await rxB.next('payment.succeeded', {object: q, timeoutMs: 500}).catch((e: Error) => e)
    expect((gone as Error).message).toContain(`its endpoint ${rxB.endpointId} no longer exists on the account (a snapshot saved before receiver() was called deletes it when loaded`)
  })
})
