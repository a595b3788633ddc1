// Messages a support agent meets (docs/decisions.md#disputes-and-evidence): a near miss of a recognized evidence
// key, --display-amount answered in display units, --outcome as the API names it, and a 400 about
// an evidence field naming the flag it was typed with.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Dispute} from '../../api/types.js'
import {dispute as baseDispute} from '../../api/test-support/objects.js'
import {at, cliEnv, errorBody, json, payment, type CliEnv} from '../../base/test-support/cli.js'
import RefundsCreate from '../refunds/create.js'
import DisputesEvidence from './evidence.js'
import DisputesResolve from './resolve.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const NOW = '2025-03-01T00:00:00.000Z'
const dispute = (over: Partial<Dispute> = {}) => baseDispute({reason: 'general', created_at: NOW, ...over})

function engine() {
  const sent: unknown[] = []
  cli.pool.intercept({path: '/v1/test_helpers/clock', method: 'GET'}).reply(200, {object: 'test_clock', now: NOW, offset_seconds: 0, frozen: false}, json).persist()
  cli.pool.intercept({path: '/v1/disputes/dp_123', method: 'GET'}).reply(200, dispute(), json).persist()
  cli.pool.intercept({path: (p: string) => p.startsWith('/v1/payments/'), method: 'GET'}).reply(200, payment({id: 'pay_123'}), json).persist()
  cli.pool
    .intercept({path: '/v1/disputes/dp_123/evidence', method: 'POST'})
    .reply((o) => {
      sent.push(JSON.parse(String(o.body)))
      return {statusCode: 200, data: dispute({status: 'under_review', evidence_due_by: null}), responseOptions: json}
    })
    .persist()
  return sent
}

describe('a near miss of a recognized evidence key (item 4)', () => {
  it('without a terminal (or with --yes): refused before sending, with the did-you-mean and the fix', async () => {
    const sent = engine()
    const r = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'custmer_communication=Emails of 3 May', '--yes'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--field custmer_communication: did you mean customer_communication?')
    expect(r.stderr).toContain('--free-text')
    expect(sent).toEqual([])
  })

  it('--free-text sends the key as it is; a truly free key (courier_note) is never questioned', async () => {
    const sent = engine()
    expect((await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'refund_polcy=30 days', '--free-text', '--yes'])).exitCode).toBe(0)
    expect((await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'courier_note=left at door', '--yes'])).exitCode).toBe(0)
    expect(sent).toEqual([{fields: {refund_polcy: '30 days'}, files: []}, {fields: {courier_note: 'left at door'}, files: []}])
  })

  it('on a terminal: says did-you-mean, asks, and the preview marks it; "n" sends nothing', async () => {
    const sent = engine()
    const no = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'refund_polcy=30 days'], {interactive: true, answers: ['n']})
    expect(no.exitCode).toBe(9)
    expect(no.stderr).toContain('--field refund_polcy: did you mean refund_policy?')
    expect(no.prompts[0]?.question).toContain('Send refund_polcy as free text anyway? [y/N]')
    expect(sent).toEqual([])
    const yes = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'refund_polcy=30 days'], {interactive: true, answers: ['y', 'y']})
    expect(yes.stderr).toContain('also: refund_polcy (did you mean refund_policy?)')
    expect(yes.exitCode).toBe(0)
    expect(sent).toHaveLength(1)
  })
})

describe('messages (item 10)', () => {
  it('--display-amount too large is answered in display units, naming the chargeback that took money', async () => {
    cli.pool.intercept({path: '/v1/payments/pay_1', method: 'GET'}).reply(200, payment({id: 'pay_1', amount: 10000, amount_captured: 10000, amount_refunded: 2500, currency: 'EUR'}), json).persist()
    cli.pool
      .intercept({path: (p: string) => p.startsWith('/v1/disputes?'), method: 'GET'})
      .reply(200, {object: 'list', url: '/v1/disputes', data: [dispute({id: 'dp_lost', payment: 'pay_1', amount: 5000, status: 'lost', closed_by: 'ruling'})], has_more: false}, json)
    cli.pool.intercept({path: '/v1/refunds', method: 'POST'}).reply(400, errorBody('invalid_request_error', 'amount_too_large', 'amount 5000 exceeds the 2500 still refundable on pay_1.', {param: 'amount'}), json)
    const r = await cli.run(RefundsCreate, [...at(), '--payment', 'pay_1', '--display-amount', '50.00'])
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('You asked for €50.00 EUR; at most €25.00 EUR is still refundable on pay_1 (€25.00 EUR refunded or pending; the chargeback dp_lost took €50.00 EUR).')
  })

  it('disputes resolve --outcome takes the API field name', async () => {
    const seen: unknown[] = []
    cli.pool
      .intercept({path: '/v1/test_helpers/disputes/dp_123/resolve', method: 'POST'})
      .reply((o) => {
        seen.push(JSON.parse(String(o.body)))
        return {statusCode: 200, data: dispute({status: 'lost', closed_by: 'ruling', evidence_due_by: null}), responseOptions: json}
      })
    const r = await cli.run(DisputesResolve, [...at(), 'dp_123', '--outcome', 'lost'])
    expect(r.exitCode).toBe(0)
    expect(seen).toEqual([{outcome: 'lost'}])
    expect((await cli.run(DisputesResolve, [...at(), 'dp_123', '--outcome', 'lost', '--won'])).exitCode).toBe(2)
  })

  it('a 400 about an evidence field typed with --field names --field KEY, not fields.KEY', async () => {
    cli.pool
      .intercept({path: '/v1/disputes/dp_123/evidence', method: 'POST'})
      .reply(400, errorBody('invalid_request_error', 'parameter_invalid', 'fields.tracking_number must be at most 5000 characters.', {param: 'fields.tracking_number'}), json)
    const r = await cli.run(DisputesEvidence, [...at(), 'dp_123', '--field', 'tracking_number=x', '--yes'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toContain('--field tracking_number must be at most 5000 characters.')
    // the message names the flag; the API's own param stays on the detail line for support
    expect(r.stderr.split('\n')[0]).not.toContain('fields.tracking_number')
  })
})
