// Checkout as customers pay: a card that just works, one that asks for 3-D Secure, one declined;
// then a refund. Every outcome reaches the shop by signed webhook.
import {afterAll, beforeAll, expect, it} from 'vitest'
import {CARD, CARD_3DS, CARD_DECLINED, until, world, type World} from './setup.js'

let w: World
beforeAll(async () => {
  w = await world('checkout tests')
})
afterAll(async () => w?.stop())

it('a card that needs nothing more: paid when payment.succeeded arrives', async () => {
  const {order} = await w.shop.checkout({id: '1001', amount: 2500, currency: 'EUR'}, CARD)
  await until(w.shop, '1001', 'paid')
  expect(order.payment).toMatch(/^pay_/)
})

it('a retried checkout of the same order charges once (the same Idempotency-Key replays it)', async () => {
  const first = await w.shop.checkout({id: '1002', amount: 1000, currency: 'EUR'}, CARD)
  const again = await w.shop.checkout({id: '1002', amount: 1000, currency: 'EUR'}, CARD)
  expect(again.order.payment).toBe(first.order.payment)
  const list = await w.account.api('GET', '/payments?reference=1002')
  expect(list.body.data).toHaveLength(1)
})

it('3-D Secure: the customer is sent to the challenge; coming back is not payment, the webhook is', async () => {
  const {redirect} = await w.shop.checkout({id: '1003', amount: 4000, currency: 'EUR'}, CARD_3DS)
  expect(redirect).toMatch(/^https:\/\//)
  expect(w.shop.orders.get('1003')!.status).toBe('awaiting_payment')
  // the customer passes the challenge (the test helper stands in for the hosted page)
  const paymentId = w.shop.orders.get('1003')!.payment!
  expect((await w.account.api('POST', `/test_helpers/payments/${paymentId}/action`, {outcome: 'approve'})).status).toBe(200)
  await until(w.shop, '1003', 'paid')
})

it('a declined card leaves the order waiting for another card', async () => {
  const {order} = await w.shop.checkout({id: '1004', amount: 1500, currency: 'EUR'}, CARD_DECLINED)
  expect(order.status).toBe('awaiting_payment')
})

it('a refund: refunded once the rail confirms it (the clock moves it along)', async () => {
  await w.shop.checkout({id: '1005', amount: 3000, currency: 'EUR'}, CARD)
  await until(w.shop, '1005', 'paid')
  await w.shop.refund('1005')
  await w.account.clock.advance('1h', {wait: true})
  await until(w.shop, '1005', 'refunded')
})
