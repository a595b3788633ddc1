// gw checkout (docs/api.md#hosted-checkout-sessions): create a session with flags named as a person says them, read it, end it.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {CheckoutSession} from '../../api/types.js'
import {at, cliEnv, errorBody, json, payment, type CliEnv} from '../../base/test-support/cli.js'
import CheckoutCreate from './create.js'
import CheckoutExpire from './expire.js'
import CheckoutGet from './get.js'
import CheckoutPay from './pay.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const session = (over: Partial<CheckoutSession> = {}): CheckoutSession => ({
  id: 'cs_1', object: 'checkout_session', status: 'open', url: 'https://127.0.0.1:1/checkout/session/cs_1?account=acct_1&token=t', amount: 2000, currency: 'EUR',
  payment_methods: ['card', 'ideal'], reference: 'order-1', customer: null, success_url: 'https://shop.example/thanks', cancel_url: 'https://shop.example/cart',
  payment: null, metadata: {}, expires_at: '2026-01-02T00:00:00.000Z', completed_at: null, livemode: false, created_at: '2026-01-01T00:00:00.000Z', ...over,
})

describe('gw checkout', () => {
  it('create sends the session as the API names it and shows its page', async () => {
    const seen: unknown[] = []
    cli.pool.intercept({path: '/v1/checkout_sessions', method: 'POST'}).reply((o) => (seen.push(JSON.parse(String(o.body))), {statusCode: 201, data: session(), responseOptions: json}))
    const r = await cli.run(CheckoutCreate, [...at(), '--amount', '2000', '--currency', 'eur', '--methods', 'card, ideal', '--success-url', 'https://shop.example/thanks', '--cancel-url', 'https://shop.example/cart', '--expires-in', '1h'])
    expect(r.exitCode).toBe(0)
    expect(seen).toEqual([{amount: 2000, currency: 'EUR', payment_methods: ['card', 'ideal'], success_url: 'https://shop.example/thanks', cancel_url: 'https://shop.example/cart', expires_in: 3600}])
    expect(r.stdout).toContain('cs_1')
    expect(r.stdout).toContain('€20.00')
    expect(r.stdout).toContain('Card, iDEAL')
    expect(r.stdout).toContain('https://127.0.0.1:1/checkout/session/cs_1')
    expect(r.stderr).toContain('gw checkout get cs_1')
  })

  it('--json prints the session as it came; get shows the payment once paid; expire ends it', async () => {
    cli.pool.intercept({path: '/v1/checkout_sessions', method: 'POST'}).reply(201, session(), json)
    const r = await cli.run<CheckoutSession>(CheckoutCreate, [...at(), '--amount', '2000', '--currency', 'EUR', '--json'])
    expect(JSON.parse(r.stdout)).toEqual(session())
    cli.pool.intercept({path: '/v1/checkout_sessions/cs_1', method: 'GET'}).reply(200, session({status: 'complete', payment: 'pay_9', completed_at: '2026-01-01T00:05:00.000Z'}), json)
    const g = await cli.run(CheckoutGet, [...at(), 'cs_1'])
    expect(g.stdout).toMatch(/complete/)
    expect(g.stdout).toContain('pay_9')
    cli.pool.intercept({path: '/v1/checkout_sessions/cs_1/expire', method: 'POST'}).reply(200, session({status: 'expired'}), json)
    expect((await cli.run(CheckoutExpire, [...at(), 'cs_1'])).stdout).toContain('expired')
  })

  it('pay: a declined card exits 4 with the session open; another card pays it', async () => {
    const bodies: unknown[] = []
    const pm = (id: string) => ({id, object: 'payment_method', type: 'card', card: {brand: 'visa', last4: '0002', exp_month: 12, exp_year: 2034}, customer: null, livemode: false, created_at: '2026-01-01T00:00:00.000Z'})
    cli.pool.intercept({path: '/v1/payment_methods', method: 'POST'}).reply((o) => (bodies.push(JSON.parse(String(o.body))), {statusCode: 201, data: pm('pm_1'), responseOptions: json}))
    cli.pool.intercept({path: '/v1/checkout_sessions/cs_1/pay', method: 'POST'}).reply((o) => (bodies.push(JSON.parse(String(o.body))), {statusCode: 402, data: errorBody('card_error', 'card_declined', 'The card was declined.', {payment: 'pay_1'}), responseOptions: json}))
    const declined = await cli.run(CheckoutPay, [...at(), 'cs_1', '--card', '4000000000000002'])
    expect(declined.exitCode).toBe(4)
    expect(bodies).toEqual([{type: 'card', card: expect.objectContaining({number: '4000000000000002'})}, {payment_method_id: 'pm_1'}])
    cli.pool.intercept({path: '/v1/checkout_sessions/cs_1/pay', method: 'POST'}).reply(201, payment({id: 'pay_2', status: 'succeeded'}), json)
    const paid = await cli.run(CheckoutPay, [...at(), 'cs_1', '--payment-method-id', 'pm_2'])
    expect(paid.exitCode).toBe(0)
    expect(paid.stdout).toContain('pay_2')
    expect(paid.stdout).toContain('Checkout session cs_1 is complete.')
    // one way to name the card
    expect((await cli.run(CheckoutPay, [...at(), 'cs_1'])).exitCode).toBe(2)
  })

  it('mistakes are usage errors before anything is sent', async () => {
    expect((await cli.run(CheckoutCreate, [...at(), '--amount', '2000', '--currency', 'euro'])).exitCode).toBe(2)
    expect((await cli.run(CheckoutCreate, [...at(), '--amount', '20.00', '--currency', 'EUR'])).exitCode).toBe(2)
    expect((await cli.run(CheckoutGet, [...at(), 'pay_1'])).exitCode).toBe(2)
  })
})
