// Time-driven outcomes, moved by the account's own clock (other test files' clocks stay put): an
// authorization that is never captured expires; a chargeback left unanswered is lost at its deadline.
import {afterAll, beforeAll, expect, it} from 'vitest'
import {CARD, until, world, type World} from './setup.js'

let w: World
beforeAll(async () => {
  w = await world('clock tests')
})
afterAll(async () => w?.stop())

it('an authorization never captured expires after 7 days: payment.canceled, the order says so', async () => {
  const {order} = await w.shop.checkout({id: '2001', amount: 5000, currency: 'EUR'}, CARD, {capture: 'manual'})
  expect(order.status).toBe('awaiting_payment')
  await w.account.clock.advance('8d', {wait: true})
  await until(w.shop, '2001', 'authorization_expired')
})

it('a chargeback nobody answers is lost at its evidence deadline', async () => {
  await w.shop.checkout({id: '2002', amount: 7000, currency: 'EUR'}, CARD)
  await until(w.shop, '2002', 'paid')
  const opened = await w.account.api('POST', '/test_helpers/disputes', {payment: w.shop.orders.get('2002')!.payment, reason: 'fraudulent'})
  expect(opened.status).toBe(201)
  await w.account.clock.advance('8d', {wait: true})
  await until(w.shop, '2002', 'chargeback_lost')
  expect((await w.account.api('GET', `/disputes/${opened.body.id}`)).body).toMatchObject({status: 'lost', closed_by: 'deadline'})
})
