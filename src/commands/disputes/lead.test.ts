// The lead's view (docs/decisions.md#disputes-and-evidence): what lost a dispute, deadlines sorted across every page,
// filters by reason, stage and currency, the engine clock ahead of the wall clock said, and the
// evidence argued at earlier stages shown after an escalation.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Dispute} from '../../api/types.js'
import {dispute as baseDispute} from '../../api/test-support/objects.js'
import {at, cliEnv, json, type CliEnv} from '../../base/test-support/cli.js'
import DisputesGet from './get.js'
import DisputesList from './list.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const D = 86_400_000
/** an engine clock 10 days ahead of the wall clock (and a minute: still "10d" ahead when a loaded machine runs a test seconds after this) */
const NOW = new Date(Date.now() + 10 * D + 60_000)
const later = (ms: number) => new Date(NOW.getTime() + ms).toISOString()

const dispute = (over: Partial<Dispute>) => baseDispute({id: 'dp_x', payment: 'pay_x', evidence_due_by: later(3 * D), created_at: '2026-01-01T00:00:00.000Z', ...over})

function clock() {
  cli.pool.intercept({path: '/v1/test_helpers/clock', method: 'GET'}).reply(200, {object: 'test_clock', now: NOW.toISOString(), offset_seconds: 864_000, frozen: false}, json).persist()
}

/** two pages: the soonest deadline is on the second */
function pages(first: Dispute[], second: Dispute[]) {
  const seen: string[] = []
  cli.pool
    .intercept({path: (p: string) => p.startsWith('/v1/disputes?'), method: 'GET'})
    .reply((o) => {
      const path = String(o.path)
      seen.push(path)
      const data = path.includes('starting_after=') ? second : first
      return {statusCode: 200, data: {object: 'list', url: '/v1/disputes', data, has_more: data === first}, responseOptions: json}
    })
    .persist()
  return seen
}

describe('disputes list for a lead', () => {
  const a = dispute({id: 'dp_a', evidence_due_by: later(5 * D), reason: 'fraudulent', currency: 'EUR'})
  const b = dispute({id: 'dp_b', evidence_due_by: later(4 * D), reason: 'duplicate', currency: 'EUR'})
  const c = dispute({id: 'dp_c', evidence_due_by: later(1 * D), reason: 'fraudulent', currency: 'EUR'})
  const d = dispute({id: 'dp_d', evidence_due_by: later(2 * D), reason: 'fraudulent', currency: 'USD', stage: 'pre_arbitration'})

  it('--sort due sorts every page by deadline, not just the first; --limit keeps the soonest', async () => {
    clock()
    const seen = pages([a, b], [c, d])
    const r = await cli.run<Dispute[]>(DisputesList, [...at(), '--status', 'needs_response', '--sort', 'due', '--json'])
    expect(r.exitCode).toBe(0)
    expect(r.result?.map((x) => x.id)).toEqual(['dp_c', 'dp_d', 'dp_b', 'dp_a'])
    expect(seen).toHaveLength(2)
    expect(seen[0]).toContain('status=needs_response')
    const two = await cli.run<Dispute[]>(DisputesList, [...at(), '--sort', 'due', '--limit', '2'])
    expect(two.stdout.indexOf('dp_c')).toBeLessThan(two.stdout.indexOf('dp_d'))
    expect(two.stdout).not.toContain('dp_a')
    expect(two.stderr).toContain('2 of 4 matching disputes shown')
  })

  it('--reason, --stage and --currency filter across every page', async () => {
    clock()
    pages([a, b], [c, d])
    const fraudEur = await cli.run<Dispute[]>(DisputesList, [...at(), '--reason', 'fraudulent', '--currency', 'eur', '--json'])
    expect(fraudEur.result?.map((x) => x.id)).toEqual(['dp_c', 'dp_a'])
    const pre = await cli.run<Dispute[]>(DisputesList, [...at(), '--stage', 'pre_arbitration', '--json'])
    expect(pre.result?.map((x) => x.id)).toEqual(['dp_d'])
  })

  it('says when the engine clock is ahead of the wall clock wherever deadlines are shown', async () => {
    clock()
    pages([a, b], [c, d])
    const r = await cli.run(DisputesList, [...at(), '--sort', 'due'])
    expect(r.stderr).toMatch(/engine clock is 10d( \d+m)? ahead of the wall clock/)
  })

  it('a lost dispute says what lost it: a missed deadline or a ruling', async () => {
    clock()
    pages([dispute({id: 'dp_late', status: 'lost', closed_by: 'deadline', evidence_due_by: null}), dispute({id: 'dp_ruled', status: 'lost', closed_by: 'ruling', evidence_due_by: null})], [])
    const r = await cli.run(DisputesList, [...at(), '--sort', 'due'])
    expect(r.stdout).toMatch(/dp_late\s+│?\s*lost \(deadline missed\)/)
    expect(r.stdout).toMatch(/dp_ruled\s+│?\s*lost \(ruling\)/)
  })
})

describe('disputes get after an escalation', () => {
  it('shows the evidence argued at the earlier stage, multi-line values whole', async () => {
    clock()
    const dp = dispute({
      id: 'dp_esc',
      stage: 'pre_arbitration',
      previous_evidence: [{stage: 'chargeback', fields: {customer_communication: 'Thread of 3 May:\nReceived, thanks.'}, files: ['https://shop.example/t.pdf'], submitted_at: '2026-01-02T00:00:00.000Z'}],
    })
    cli.pool.intercept({path: '/v1/disputes/dp_esc', method: 'GET'}).reply(200, dp, json).persist()
    const r = await cli.run(DisputesGet, [...at(), 'dp_esc'])
    expect(r.exitCode).toBe(0)
    expect(r.stdout).toContain('Argued at the chargeback stage')
    expect(r.stdout).toContain('customer_communication: Thread of 3 May:\n    Received, thanks.')
    expect(r.stdout).toContain('file: https://shop.example/t.pdf')
  })

  it('a dispute lost at its deadline says so in its view', async () => {
    cli.pool.intercept({path: '/v1/disputes/dp_l', method: 'GET'}).reply(200, dispute({id: 'dp_l', status: 'lost', closed_by: 'deadline', evidence_due_by: null}), json).persist()
    const r = await cli.run(DisputesGet, [...at(), 'dp_l'])
    expect(r.stdout).toMatch(/Closed by\s+deadline missed/)
  })
})

describe('checklists that follow the payment', () => {
  const paymentWith = (over: Record<string, unknown>) => ({
    id: 'pay_x', object: 'payment', amount: 2000, currency: 'EUR', status: 'succeeded', payment_method: 'card',
    payment_method_details: {card: {brand: 'visa', last4: '3220', exp_month: 12, exp_year: 2030, funding: 'credit', country: 'NL', three_d_secure: {result: 'authenticated'}}},
    risk: {score: 5, decision: 'approve', checks: {avs_result: 'pass', cvv_result: 'fail'}},
    ...over,
  })
  const refundsOf = (data: unknown[]) =>
    cli.pool.intercept({path: (p: string) => p.startsWith('/v1/refunds?'), method: 'GET'}).reply(200, {object: 'list', url: '/v1/refunds', data, has_more: false}, json).persist()

  it('a fraud dispute shows the actual 3-D Secure, AVS and CVV results that will be attached', async () => {
    clock()
    cli.pool.intercept({path: '/v1/disputes/dp_f', method: 'GET'}).reply(200, dispute({id: 'dp_f', reason: 'fraudulent'}), json).persist()
    cli.pool.intercept({path: '/v1/payments/pay_x', method: 'GET'}).reply(200, paymentWith({}), json).persist()
    const r = await cli.run(DisputesGet, [...at(), 'dp_f'])
    expect(r.stdout).toContain('attached automatically from the payment: 3-D Secure passed · AVS pass · CVV fail')
  })

  it('a credit_not_processed dispute names the refund ids that will be attached, or says there are none', async () => {
    clock()
    cli.pool.intercept({path: '/v1/disputes/dp_c', method: 'GET'}).reply(200, dispute({id: 'dp_c', reason: 'credit_not_processed'}), json).persist()
    cli.pool.intercept({path: '/v1/payments/pay_x', method: 'GET'}).reply(200, paymentWith({}), json).persist()
    refundsOf([])
    const none = await cli.run(DisputesGet, [...at(), 'dp_c'])
    expect(none.stdout).toContain('attached automatically from the payment: refunds: none')
  })

  it('with refunds, their ids (failed ones left out)', async () => {
    clock()
    cli.pool.intercept({path: '/v1/disputes/dp_c', method: 'GET'}).reply(200, dispute({id: 'dp_c', reason: 'credit_not_processed'}), json).persist()
    cli.pool.intercept({path: '/v1/payments/pay_x', method: 'GET'}).reply(200, paymentWith({}), json).persist()
    refundsOf([{id: 're_ok', status: 'succeeded'}, {id: 're_bad', status: 'failed'}])
    const some = await cli.run(DisputesGet, [...at(), 'dp_c'])
    expect(some.stdout).toContain('refunds re_ok')
    expect(some.stdout).not.toContain('re_bad')
  })

  it('a closed dispute with nothing submitted shows no empty checklist', async () => {
    cli.pool.intercept({path: '/v1/disputes/dp_gone', method: 'GET'}).reply(200, dispute({id: 'dp_gone', status: 'lost', closed_by: 'deadline', evidence_due_by: null, reason: 'product_not_received'}), json).persist()
    const r = await cli.run(DisputesGet, [...at(), 'dp_gone'])
    expect(r.stdout).toContain('none was submitted at the chargeback stage')
    expect(r.stdout).not.toMatch(/\[ \]/)
    expect(r.stdout).not.toContain('tracking_number')
  })
})
