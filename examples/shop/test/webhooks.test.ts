// At-least-once delivery, in no promised order (docs/api.md#webhook-delivery): an event delivered twice is
// applied once, and an older event arriving after a newer one never moves the order back.
import {afterAll, beforeAll, expect, it} from 'vitest'
import {CARD, until, world, type World} from './setup.js'

let w: World
beforeAll(async () => {
  w = await world('webhook tests')
})
afterAll(async () => w?.stop())

it('payment.succeeded delivered again after the refund: the order stays refunded, the side effects happened once', async () => {
  await w.shop.checkout({id: '3001', amount: 2000, currency: 'EUR'}, CARD)
  await until(w.shop, '3001', 'paid')
  await w.shop.refund('3001')
  await w.account.clock.advance('1h', {wait: true})
  await until(w.shop, '3001', 'refunded')
  const order = w.shop.orders.get('3001')!
  expect(order.sideEffects).toHaveLength(2)

  // the gateway delivers the old payment.succeeded again, after refund.succeeded: a duplicate, out of order
  const events = await w.account.api('GET', `/events?object=${order.payment}&type=payment.succeeded`)
  const succeeded = events.body.data[0]
  const resent = await w.account.api('POST', `/events/${succeeded.id}/resend`, {all: true})
  expect(resent.status).toBe(200)
  await w.account.clock.advance('1s', {wait: true})
  const deliveries = await w.account.api('GET', `/events/${succeeded.id}/deliveries`)
  expect(deliveries.body.data.filter((d: {status: string}) => d.status === 'succeeded').length).toBeGreaterThanOrEqual(2)
  expect(order.status).toBe('refunded')
  expect(order.sideEffects).toHaveLength(2)
})

it('a delivery whose signature does not verify is refused (400) and changes nothing', async () => {
  const before = JSON.stringify([...w.shop.orders.values()])
  const forged = JSON.stringify({id: 'evt_forged', type: 'payment.failed', data: {object: {id: w.shop.orders.get('3001')!.payment, object: 'payment'}}})
  expect(w.shop.receive(forged, 't=1,v1=deadbeef')).toBe(400)
  expect(JSON.stringify([...w.shop.orders.values()])).toBe(before)
})
