import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {GwEvent} from '../api/types.js'
import {at, cliEnv, errorBody, json, LIVE_KEY, payment, type CliEnv} from '../base/test-support/cli.js'
import {list} from './events/shared/test-support/events.js'
import Trigger from './trigger.js'
import type {TriggerResult} from './events/shared/trigger.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

function event(id: string, type: string, object: object): GwEvent {
  // the mock feed's objects carry only the fields the command reads
  return {id, object: 'event', type, created_at: '2025-01-01T00:00:00.000Z', livemode: false, request_id: 'req_1', data: {object}} as GwEvent<object> as GwEvent
}

function post(path: string, reply: (body: Record<string, unknown>) => {status?: number; data: unknown}) {
  const bodies: Record<string, unknown>[] = []
  cli.pool
    .intercept({path, method: 'POST'})
    .reply((o) => {
      const body = JSON.parse(String(o.body ?? '{}'))
      bodies.push(body)
      const r = reply(body)
      return {statusCode: r.status ?? 200, data: r.data as object, responseOptions: json}
    })
    .persist()
  return bodies
}

describe('gw trigger', () => {
  it('payment.succeeded: creates the payment with the overrides merged in and shows the event that fired', async () => {
    cli.pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([event('evt_0', 'payment.succeeded', {id: 'pay_old'})]), json)
    const bodies = post('/v1/payments', () => ({status: 201, data: payment({amount: 5000, currency: 'USD'})}))
    cli.pool
      .intercept({path: '/v1/events?ending_before=evt_0&limit=100', method: 'GET'})
      .reply(200, list([event('evt_9', 'payment.succeeded', payment({amount: 5000, currency: 'USD'})), event('evt_8', 'payment.processing', {id: 'pay_other'})]), json)
    const r = await cli.run<TriggerResult>(Trigger, [...at(), 'payment.succeeded', '--override', 'amount=5000', '--override', 'currency=USD', '--override', 'metadata.order=42'])
    expect(r.exitCode).toBe(0)
    expect(bodies[0]).toMatchObject({
      amount: 5000,
      currency: 'USD',
      payment_method: 'card',
      payment_method_data: {type: 'card', card: {number: '4242424242424242'}},
      metadata: {order: '42'},
    })
    expect(String(bodies[0]!.reference)).toMatch(/^gw_trigger_[0-9a-f]{10}$/)
    expect(r.stdout).toMatch(/POST \/v1\/payments\s+pay_123 {2}succeeded/)
    expect(r.stdout).toContain('evt_9')
    expect(r.stdout).not.toContain('pay_other') // an unrelated event is not shown
    expect(r.result).toMatchObject({type: 'payment.succeeded', created: [{object: 'payment', id: 'pay_123'}], events: [{id: 'evt_9', type: 'payment.succeeded', object: 'pay_123'}]})
  })

  it('payment.failed: a 402 decline is the expected outcome', async () => {
    cli.pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([]), json)
    const bodies = post('/v1/payments', () => ({status: 402, data: errorBody('card_error', 'card_declined', 'Your card was declined.', {payment: 'pay_f'})}))
    cli.pool.intercept({path: '/v1/payments/pay_f', method: 'GET'}).reply(200, payment({id: 'pay_f', status: 'failed', failure_code: 'card_declined'}), json)
    cli.pool.intercept({path: '/v1/events?limit=100', method: 'GET'}).reply(200, list([event('evt_1', 'payment.failed', {id: 'pay_f'})]), json)
    const r = await cli.run<TriggerResult>(Trigger, [...at(), 'payment.failed', '--json'])
    expect(r.exitCode).toBe(0)
    expect((bodies[0]!.payment_method_data as {card: {number: string}}).card.number).toBe('4000000000000002')
    expect(JSON.parse(r.stdout)).toMatchObject({created: [{id: 'pay_f', status: 'failed', step: 'POST /v1/payments (402 card_declined)'}], events: [{id: 'evt_1', type: 'payment.failed'}]})
  })

  it('refund.failed: refunds a 5126 payment and advances the clock past the card rail delay', async () => {
    cli.pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([event('evt_0', 'x.y', {id: 'x'})]), json)
    const pays = post('/v1/payments', () => ({status: 201, data: payment({id: 'pay_r'})}))
    const refunds = post('/v1/refunds', () => ({status: 201, data: {id: 'rf_1', object: 'refund', status: 'pending'}}))
    const advances = post('/v1/test_helpers/clock/advance', (b) => ({data: {object: 'test_clock', now: 'x', offset_seconds: b.seconds}}))
    cli.pool.intercept({path: '/v1/refunds/rf_1', method: 'GET'}).reply(200, {id: 'rf_1', object: 'refund', status: 'failed'}, json)
    cli.pool.intercept({path: '/v1/events?ending_before=evt_0&limit=100', method: 'GET'}).reply(200, list([event('evt_2', 'refund.failed', {id: 'rf_1'}), event('evt_1', 'payment.succeeded', {id: 'pay_r'})]), json)
    const r = await cli.run<TriggerResult>(Trigger, [...at(), 'refund.failed'])
    expect(r.exitCode).toBe(0)
    expect((pays[0]!.payment_method_data as {card: {number: string}}).card.number).toBe('4000000000005126')
    expect(refunds[0]).toMatchObject({payment: 'pay_r'})
    expect(advances).toEqual([{seconds: 1801}])
    expect(r.stdout).toMatch(/GET \/v1\/refunds\/rf_1\s+rf_1 {2}failed/)
    expect(r.stdout).toContain('advance the clock 30m 1s')
    expect(r.stderr).toContain('The engine clock moved 30m 1s ahead')
    expect(r.result?.events.map((e) => e.type)).toEqual(['payment.succeeded', 'refund.failed'])
  })

  it('merchant.updated: the overrides go to the merchant create call', async () => {
    cli.pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([]), json)
    const merchants = post('/v1/merchants', () => ({status: 201, data: {id: 'mer_1', kyb_status: 'pending'}}))
    const advances = post('/v1/test_helpers/clock/advance', () => ({data: {object: 'test_clock', now: 'x', offset_seconds: 61}}))
    cli.pool.intercept({path: '/v1/merchants/mer_1', method: 'GET'}).reply(200, {id: 'mer_1', kyb_status: 'active'}, json)
    cli.pool.intercept({path: '/v1/events?limit=100', method: 'GET'}).reply(200, list([event('evt_1', 'merchant.updated', {id: 'mer_1'})]), json)
    const r = await cli.run(Trigger, [...at(), 'merchant.updated', '--override', 'country=DE'])
    expect(r.exitCode).toBe(0)
    expect(merchants[0]).toMatchObject({business_name: 'Trigger Shop', legal_name: 'Trigger Shop B.V.', country: 'DE'})
    expect(advances).toEqual([{seconds: 61}])
  })

  it('exits 1 when the flow ran but the event did not appear', async () => {
    cli.pool.intercept({path: '/v1/events?limit=1', method: 'GET'}).reply(200, list([]), json)
    post('/v1/payments', () => ({status: 201, data: payment({status: 'requires_action'})}))
    cli.pool.intercept({path: '/v1/events?limit=100', method: 'GET'}).reply(200, list([]), json).persist()
    const r = await cli.run(Trigger, [...at(), 'payment.requires_action'])
    expect(r.exitCode).toBe(1)
    expect(r.stderr).toContain('no payment.requires_action event appeared')
  })

  it('--list, an unknown type with a suggestion, no type, live keys', async () => {
    const l = await cli.run<{type: string}[]>(Trigger, ['--list'])
    expect(l.exitCode).toBe(0)
    expect(l.result?.map((x) => x.type)).toEqual(expect.arrayContaining(['payment.succeeded', 'refund.failed', 'dispute.closed', 'settlement.report.ready', 'merchant.updated', 'provider.health.changed', 'payment.canceled']))
    expect(l.stdout).toContain('payment.risk_review')
    const typo = await cli.run(Trigger, [...at(), 'payment.succeded'])
    expect(typo.exitCode).toBe(2)
    expect(typo.stderr).toContain('Did you mean payment.succeeded')
    expect((await cli.run(Trigger, [...at()])).exitCode).toBe(2)
    const live = await cli.run(Trigger, [...at(LIVE_KEY), 'payment.succeeded'])
    expect(live.exitCode).toBe(2)
    expect(live.stderr).toContain('test mode only')
    const badOverride = await cli.run(Trigger, [...at(), 'payment.succeeded', '--override', 'amount'])
    expect(badOverride.exitCode).toBe(2)
  })
})
