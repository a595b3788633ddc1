// Finding payments from the support desk (docs/decisions.md#finding-payments): --customer takes an id or an email,
// the wrong kind of id is said so, --reference-prefix and --metadata; customers list --email.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Payment} from '../../api/types.js'
import {at, cliEnv, errorBody, json, payment, type CliEnv} from '../../base/test-support/cli.js'
import CustomersList from '../customers/list.js'
import PaymentsGet from './get.js'
import PaymentsList from './list.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const empty = {object: 'list', url: '/v1/payments', data: [], has_more: false}

function capture(path: string, url = '/v1/payments'): string[] {
  const seen: string[] = []
  cli.pool
    .intercept({path: (p: string) => p.startsWith(path), method: 'GET'})
    .reply((o) => {
      seen.push(String(o.path))
      return {statusCode: 200, data: {...empty, url}, responseOptions: json}
    })
    .persist()
  return seen
}

describe('payments list: finding the customer', () => {
  it('--customer with an email asks for every customer with that email', async () => {
    const seen = capture('/v1/payments')
    const r = await cli.run(PaymentsList, [...at(), '--customer', 'ada@example.com'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]).toContain('customer_email=ada%40example.com')
    expect(seen[0]).not.toMatch(/[?&]customer=/)
  })

  it('--customer with a cus_ id filters by it', async () => {
    const seen = capture('/v1/payments')
    expect((await cli.run(PaymentsList, [...at(), '--customer', 'cus_123'])).exitCode).toBe(0)
    expect(seen[0]).toContain('customer=cus_123')
  })

  it('another kind of id, or a bare word, is a usage error naming what it is, before any request', async () => {
    const seen = capture('/v1/payments')
    const pay = await cli.run(PaymentsList, [...at(), '--customer', 'pay_123'])
    expect(pay.exitCode).toBe(2)
    expect(pay.stderr).toContain('"pay_123" is a pay_... id, not a customer id')
    expect(pay.stderr).toContain('--customer ada@example.com')
    const word = await cli.run(PaymentsList, [...at(), '--customer', '1008'])
    expect(word.exitCode).toBe(2)
    expect(word.stderr).toContain('neither a customer id nor an email')
    expect(seen).toEqual([])
  })

  it('--reference-prefix and --metadata key=value go to the API as reference_prefix and metadata=key:value', async () => {
    const seen = capture('/v1/payments')
    expect((await cli.run(PaymentsList, [...at(), '--reference-prefix', '10', '--metadata', 'order_id=1008'])).exitCode).toBe(0)
    expect(seen[0]).toContain('reference_prefix=10')
    expect(decodeURIComponent(seen[0]!)).toContain('metadata=order_id:1008')
    const bad = await cli.run(PaymentsList, [...at(), '--metadata', 'order_id'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('key=value')
  })
})

describe('payments list: what the customer says', () => {
  it('--card-last4, --customer-name, --email-domain and --customer-email go to the API by their documented names', async () => {
    const seen = capture('/v1/payments')
    const r = await cli.run(PaymentsList, [...at(), '--card-last4', '4242', '--customer-name', 'zoe love', '--email-domain', '@Lovelace-Shop.example', '--customer-email', 'ZOE@Lovelace-Shop.example'])
    expect(r.exitCode, r.stderr).toBe(0)
    const q = new URL(seen[0]!, 'https://x').searchParams
    expect(Object.fromEntries(q)).toMatchObject({card_last4: '4242', customer_name: 'zoe love', email_domain: '@Lovelace-Shop.example', customer_email: 'ZOE@Lovelace-Shop.example'})
  })

  it('--card-last4 that is not four digits is a usage error before any request', async () => {
    const seen = capture('/v1/payments')
    const r = await cli.run(PaymentsList, [...at(), '--card-last4', '42424'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('not four digits')
    expect(seen).toEqual([])
  })
})

describe('customers list --email', () => {
  it('filters by email', async () => {
    const seen = capture('/v1/customers', '/v1/customers')
    const r = await cli.run(CustomersList, [...at(), '--email', 'ada@example.com'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]).toContain('email=ada%40example.com')
  })
})

describe('payments get: the refunds and disputes beside the payment', () => {
  const pay = payment({id: 'pay_story', amount: 19900, currency: 'EUR', amount_refunded: 2500, status: 'succeeded'})
  const refund = {id: 're_1', object: 'refund', payment: 'pay_story', amount: 2500, currency: 'EUR', status: 'succeeded', reason: 'requested_by_customer', failure_reason: null, reference: 'x', metadata: {}, livemode: false, created_at: '2026-01-02T00:00:00.000Z'}
  const dispute = {id: 'dp_1', object: 'dispute', payment: 'pay_story', amount: 17400, currency: 'EUR', reason: 'fraudulent', stage: 'chargeback', status: 'lost', evidence_due_by: null, evidence: null, livemode: false, created_at: '2026-01-03T00:00:00.000Z'}
  const list = (url: string, data: unknown[]) => ({statusCode: 200, data: {object: 'list', url, data, has_more: false}, responseOptions: json})

  it('shows each refund and dispute with its status and amount, and points at the timeline', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_story', method: 'GET'}).reply(200, pay, json)
    cli.pool.intercept({path: (p: string) => p.startsWith('/v1/refunds?') && p.includes('payment=pay_story'), method: 'GET'}).reply(() => list('/v1/refunds', [refund]))
    cli.pool.intercept({path: (p: string) => p.startsWith('/v1/disputes?') && p.includes('payment=pay_story'), method: 'GET'}).reply(() => list('/v1/disputes', [dispute]))
    const r = await cli.run<Payment>(PaymentsGet, [...at(), 'pay_story'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/Refunds\s+re_1\s+succeeded\s+€25\.00/)
    expect(r.stdout).toMatch(/Disputes\s+dp_1\s+lost\s+€174\.00 EUR\s+fraudulent\s+chargeback stage/)
    expect(r.stderr).toContain('gw payments timeline pay_story')
  })

  it('--json prints the payment as the API returned it and asks for nothing else', async () => {
    const seen: string[] = []
    cli.pool.intercept({path: '/v1/payments/pay_story', method: 'GET'}).reply(200, pay, json)
    cli.pool.intercept({path: (p: string) => !p.startsWith('/v1/payments/'), method: 'GET'}).reply((o) => {
      seen.push(String(o.path))
      return list('/v1/x', [])
    }).persist()
    const r = await cli.run<Payment>(PaymentsGet, [...at(), 'pay_story', '--json'])
    expect(JSON.parse(r.stdout)).toEqual(pay)
    expect(seen).toEqual([])
  })

  it('a key that may not read disputes still shows the payment and its refunds', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_story', method: 'GET'}).reply(200, pay, json)
    cli.pool.intercept({path: (p: string) => p.startsWith('/v1/refunds?'), method: 'GET'}).reply(() => list('/v1/refunds', [refund]))
    cli.pool.intercept({path: (p: string) => p.startsWith('/v1/disputes?'), method: 'GET'}).reply(403, errorBody('permission_error', 'permission_denied', 'This key lacks disputes:read.'), json)
    const r = await cli.run<Payment>(PaymentsGet, [...at(), 'pay_story'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('re_1')
    expect(r.stdout).not.toContain('Disputes')
    // said, with the permission that shows them
    expect(r.stderr).toContain('disputes (needs disputes:read)')
    expect(r.stderr).not.toContain('refunds:read')
  })

  it('another error reading a part is said too, and the payment is still shown', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_story', method: 'GET'}).reply(200, pay, json)
    cli.pool.intercept({path: (p: string) => p.startsWith('/v1/refunds?'), method: 'GET'}).reply(() => list('/v1/refunds', [refund]))
    cli.pool.intercept({path: (p: string) => p.startsWith('/v1/disputes?'), method: 'GET'}).reply(400, errorBody('invalid_request_error', 'parameter_invalid', 'bad payment'), json)
    const r = await cli.run<Payment>(PaymentsGet, [...at(), 'pay_story'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('re_1')
    expect(r.stderr).toContain('disputes could not be read (bad payment)')
  })
})
