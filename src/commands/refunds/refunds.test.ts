import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {ListEnvelope, Refund} from '../../api/types.js'
import {at, capturePosts, cliEnv, errorBody, json, LIVE_KEY, payment, type CliEnv} from '../../base/test-support/cli.js'
import RefundsCreate from './create.js'
import RefundsGet from './get.js'
import RefundsList from './list.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

function refund(over: Partial<Refund> = {}): Refund {
  return {
    id: 'rf_123',
    object: 'refund',
    payment: 'pay_123',
    amount: 500,
    currency: 'EUR',
    status: 'pending',
    reason: null,
    failure_reason: null,
    reference: 'order_1',
    metadata: {},
    livemode: false,
    created_at: '2025-01-01T00:00:00Z',
    ...over,
  }
}

const capturePost = (path: string, reply: object, status = 201) => capturePosts(cli, path, reply, status)

describe('refunds create', () => {
  it('sends payment, amount, reason and metadata, and prints the pending refund with a hint', async () => {
    const seen = capturePost('/v1/refunds', refund({reason: 'requested_by_customer', metadata: {ticket: 'SUP-1'}}))
    const r = await cli.run<Refund>(RefundsCreate, [...at(), '--payment', 'pay_123', '--amount', '500', '--reason', 'requested_by_customer', '--metadata', 'ticket=SUP-1'])
    expect(r.exitCode).toBe(0)
    expect(seen[0].body).toEqual({payment: 'pay_123', amount: 500, reason: 'requested_by_customer', metadata: {ticket: 'SUP-1'}})
    expect(seen[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(r.stdout).toMatch(/^rf_123 {2}pending/)
    expect(r.stdout).toMatch(/Amount\s+€5\.00 EUR/)
    expect(r.stdout).toContain('ticket=SUP-1')
    expect(r.stderr).toContain('gw refunds get rf_123')
    expect(r.result?.id).toBe('rf_123')
  })

  it('without an amount refunds what is left (no amount in the body)', async () => {
    const seen = capturePost('/v1/refunds', refund({amount: 2000}))
    const r = await cli.run(RefundsCreate, [...at(), '--payment', 'pay_123', '--idempotency-key', 'refund-order-1'])
    expect(r.exitCode).toBe(0)
    expect(seen[0].body).toEqual({payment: 'pay_123'})
    expect(seen[0].headers['idempotency-key']).toBe('refund-order-1')
  })

  it("--display-amount is read in the payment's currency (JPY has no decimals, KWD three)", async () => {
    cli.pool.intercept({path: '/v1/payments/pay_jpy', method: 'GET'}).reply(200, payment({id: 'pay_jpy', currency: 'JPY', amount: 5000}), json)
    cli.pool.intercept({path: '/v1/payments/pay_kwd', method: 'GET'}).reply(200, payment({id: 'pay_kwd', currency: 'KWD', amount: 5000}), json)
    const seen = capturePost('/v1/refunds', refund())
    expect((await cli.run(RefundsCreate, [...at(), '--payment', 'pay_jpy', '--display-amount', '1500'])).exitCode).toBe(0)
    expect((await cli.run(RefundsCreate, [...at(), '--payment', 'pay_kwd', '--display-amount', '1.250'])).exitCode).toBe(0)
    expect(seen.map((s) => s.body.amount)).toEqual([1500, 1250])
  })

  it('a display amount with too many decimals for the currency is a usage error naming it, nothing sent', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_123', method: 'GET'}).reply(200, payment(), json)
    const seen = capturePost('/v1/refunds', refund())
    const r = await cli.run(RefundsCreate, [...at(), '--payment', 'pay_123', '--display-amount', '5.001'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('EUR')
    expect(seen).toHaveLength(0)
  })

  it.each([
    [['--amount', '500'], /Missing --payment: the payment/],
    [['--payment', 'order-1'], /payment ids start with pay_/],
    [['--payment', 'pay_1', '--amount', '5.00'], /--display-amount 5.00/],
    [['--payment', 'pay_1', '--amount', '500', '--display-amount', '5'], /--amount and --display-amount cannot be used together/],
    [['--payment', 'pay_1', '--reason', 'because'], /--reason "because" is not one of: duplicate, fraudulent, requested_by_customer/],
    [['--payment', 'pay_1', '--metadata', 'x'], /--metadata "x" is not key=value/],
  ])('bad input %j exits 2', async (args, message) => {
    const r = await cli.run(RefundsCreate, [...at(), ...args])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stdout).toBe('')
  })

  it('amount_too_large exits 1 with the message, code, param and request_id', async () => {
    cli.pool
      .intercept({path: '/v1/refunds', method: 'POST'})
      .reply(400, errorBody('invalid_request_error', 'amount_too_large', 'amount 5000 exceeds the 1500 still refundable on pay_123.', {param: 'amount'}))
    const r = await cli.run(RefundsCreate, [...at(), '--payment', 'pay_123', '--amount', '5000'])
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('exceeds the 1500 still refundable')
    expect(r.stderr).toContain('amount_too_large')
    expect(r.stderr).toContain('param amount')
    expect(r.stderr).toContain('request_id req_err_1')
    expect(r.stdout).toBe('')
  })

  it('payment_disputed with --json prints the error envelope and exits 1', async () => {
    cli.pool
      .intercept({path: '/v1/refunds', method: 'POST'})
      .reply(400, errorBody('invalid_request_error', 'payment_disputed', 'Payment pay_123 has an open chargeback.'))
    const r = await cli.run(RefundsCreate, [...at(), '--payment', 'pay_123', '--json'])
    expect(r.exitCode).toBe(1)
    expect(JSON.parse(r.stdout).error).toMatchObject({code: 'payment_disputed', request_id: 'req_err_1'})
  })

  it('an unknown payment exits 5', async () => {
    cli.pool.intercept({path: '/v1/refunds', method: 'POST'}).reply(404, errorBody('invalid_request_error', 'resource_missing', "No such payment: 'pay_nope'"))
    const r = await cli.run(RefundsCreate, [...at(), '--payment', 'pay_nope'])
    expect(r.exitCode).toBe(5)
  })

  describe('live-mode guard (money moves)', () => {
    it('refuses without --yes when there is no terminal (exit 9), sending nothing', async () => {
      const seen = capturePost('/v1/refunds', refund({livemode: true}))
      const r = await cli.run(RefundsCreate, [...at(LIVE_KEY), '--payment', 'pay_123'])
      expect(r.exitCode).toBe(9)
      expect(r.stderr).toContain('--yes')
      expect(seen).toHaveLength(0)
    })

    it('asks for "live" to be typed, naming the amount in the payment currency', async () => {
      cli.pool.intercept({path: '/v1/payments/pay_123', method: 'GET'}).reply(200, payment({livemode: true}), json).times(2)
      const seen = capturePost('/v1/refunds', refund({livemode: true}))
      const no = await cli.run(RefundsCreate, [...at(LIVE_KEY), '--payment', 'pay_123', '--amount', '500'], {interactive: true, answers: ['yes']})
      expect(no.exitCode).toBe(9)
      expect(no.prompts[0].question).toContain('refund €5.00 EUR of pay_123')
      expect(seen).toHaveLength(0)
      const yes = await cli.run(RefundsCreate, [...at(LIVE_KEY), '--payment', 'pay_123', '--amount', '500'], {interactive: true, answers: ['live']})
      expect(yes.exitCode).toBe(0)
      expect(seen).toHaveLength(1)
    })

    it('--yes skips the question', async () => {
      const seen = capturePost('/v1/refunds', refund({livemode: true}))
      const r = await cli.run(RefundsCreate, [...at(LIVE_KEY), '--payment', 'pay_123', '--yes'])
      expect(r.exitCode).toBe(0)
      expect(seen).toHaveLength(1)
      expect(r.stdout).toContain('LIVE')
    })
  })
})

describe('refunds get', () => {
  it('shows the refund; a failed one shows its failure and that the amount is refundable again', async () => {
    cli.pool.intercept({path: '/v1/refunds/rf_123', method: 'GET'}).reply(200, refund({status: 'failed', failure_reason: 'declined'}), json)
    const r = await cli.run(RefundsGet, [...at(), 'rf_123'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toMatch(/^rf_123 {2}failed/)
    expect(r.stdout).toMatch(/Failure\s+declined/)
    expect(r.stderr).toContain('refundable again on pay_123')
  })

  it('--json is the API object', async () => {
    cli.pool.intercept({path: '/v1/refunds/rf_123', method: 'GET'}).reply(200, refund({status: 'succeeded'}), json)
    const r = await cli.run(RefundsGet, [...at(), 'rf_123', '--json'])
    expect(JSON.parse(r.stdout)).toEqual(refund({status: 'succeeded'}))
  })

  it('an id without rf_ is a usage error; an unknown id exits 5', async () => {
    const bad = await cli.run(RefundsGet, [...at(), 're_1'])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('refund ids start with rf_')
    cli.pool.intercept({path: '/v1/refunds/rf_nope', method: 'GET'}).reply(404, errorBody('invalid_request_error', 'resource_missing', "No such refund: 'rf_nope'"))
    const missing = await cli.run(RefundsGet, [...at(), 'rf_nope'])
    expect(missing.exitCode).toBe(5)
    expect(missing.stderr).toContain("No such refund: 'rf_nope'")
  })
})

describe('refunds list', () => {
  const page = (ids: string[], has_more: boolean): ListEnvelope<Refund> => ({object: 'list', url: '/v1/refunds', data: ids.map((id) => refund({id})), has_more})

  it('passes --payment, --status and paging, prints a table with a next-page hint', async () => {
    let query: Record<string, string> = {}
    cli.pool
      .intercept({path: (p) => p.startsWith('/v1/refunds?'), method: 'GET'})
      .reply((o) => {
        query = Object.fromEntries(new URL(o.path, 'https://x').searchParams)
        return {statusCode: 200, data: page(['rf_2', 'rf_1'], true), responseOptions: json}
      })
    const r = await cli.run(RefundsList, [...at(), '--payment', 'pay_123', '--status', 'pending', '--limit', '2'])
    expect(r.exitCode).toBe(0)
    expect(query).toEqual({payment: 'pay_123', status: 'pending', limit: '2'})
    expect(r.stdout).toContain('rf_2')
    expect(r.stdout).toContain('€5.00 EUR')
    expect(r.stderr).toContain('--starting-after rf_1')
  })

  it('--all --json streams NDJSON across pages', async () => {
    const pages = [page(['rf_2'], true), page(['rf_1'], false)]
    let n = 0
    cli.pool.intercept({path: (p) => p.startsWith('/v1/refunds?'), method: 'GET'}).reply(() => ({statusCode: 200, data: pages[n++], responseOptions: json})).times(2)
    const r = await cli.run(RefundsList, [...at(), '--all', '--json'])
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(['rf_2', 'rf_1'])
  })

  it('says so when there are none; a bad status is a usage error', async () => {
    cli.pool.intercept({path: (p) => p.startsWith('/v1/refunds'), method: 'GET'}).reply(200, page([], false))
    expect((await cli.run(RefundsList, [...at()])).stdout.trim()).toBe('No refunds.')
    const bad = await cli.run(RefundsList, [...at(), '--status', 'done'])
    expect(bad.exitCode).toBe(2)
  })
})
