// Finding payments from the support desk (issue 26 item 2): --customer takes an id or an email,
// the wrong kind of id is said so, --reference-prefix and --metadata; customers list --email.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {at, cliEnv, json, type CliEnv} from '../../base/test-support/cli.js'
import CustomersList from '../customers/list.js'
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

describe('customers list --email', () => {
  it('filters by email', async () => {
    const seen = capture('/v1/customers', '/v1/customers')
    const r = await cli.run(CustomersList, [...at(), '--email', 'ada@example.com'])
    expect(r.exitCode).toBe(0)
    expect(seen[0]).toContain('email=ada%40example.com')
  })
})
