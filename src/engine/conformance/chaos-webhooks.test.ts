// Failure on purpose, webhooks (docs/decisions.md#failure-on-purpose): what docs/api.md#webhook-delivery warns of, on demand — events
// delivered twice, held and shuffled out of order, delayed, the first attempts failing — every
// delivery still signed when sent and recorded in the delivery log, marked with its rule.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {verifySignature} from '../../api/webhook-signature.js'
import {bootEngine, type AsKey, type TestEngine} from '../test-support/harness.js'
import {testReceiver, type TestReceiver} from '../test-support/tls-receiver.js'
import {waitFor as until, sleep} from '../test-support/wait.js'
import {cardPayment, expectError} from './helpers.js'

let t: TestEngine
const receivers: TestReceiver[] = []
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()))
  await t?.stop()
})


/** An account with an endpoint for payment.succeeded at a fresh receiver. */
async function setup(name: string): Promise<{a: AsKey; rx: TestReceiver; endpoint: {id: string; secret: string}}> {
  const a = await t.account(name)
  const rx = await testReceiver()
  receivers.push(rx)
  const ep = await a.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})
  expect(ep.status, ep.text).toBe(201)
  return {a, rx, endpoint: ep.body}
}
const pay = async (a: AsKey) => {
  const r = await a.api('POST', '/payments', cardPayment())
  expect(r.status, r.text).toBe(201)
  return r.body as {id: string}
}
const eventOf = async (a: AsKey, payment: string) =>
  until(`payment.succeeded of ${payment}`, async () => ((await a.api('GET', '/events?type=payment.succeeded&limit=100')).body.data as {id: string; data: {object: {id: string}}}[]).find((e) => e.data.object.id === payment))
const deliveriesOf = async (a: AsKey, event: string) => (await a.api('GET', `/events/${event}/deliveries`)).body.data as any[]
const eventIds = (rx: TestReceiver) => rx.received.map((r) => JSON.parse(r.body).id as string)

describe('webhook faults', () => {
  it('duplicate: one event delivered twice to the endpoint named, each signed and logged; another endpoint gets it once; a count ends it', async () => {
    const {a, rx, endpoint} = await setup('chaos-dup')
    const other = await testReceiver()
    receivers.push(other)
    expect((await a.api('POST', '/webhook_endpoints', {url: other.url, enabled_events: ['payment.succeeded']})).status).toBe(201)
    const rule = await a.api('POST', '/chaos/webhooks', {fault: 'duplicate', endpoint: endpoint.id, count: 1})
    expect(rule.status, rule.text).toBe(201)
    expect(rule.body).toMatchObject({kind: 'webhooks', fault: 'duplicate', endpoint: endpoint.id, rate: 1, count: 1, delay_seconds: null, attempts: null})

    const p = await pay(a)
    const evt = await eventOf(a, p.id)
    await until('two deliveries', () => rx.received.length >= 2)
    await until('the other endpoint', () => other.received.length >= 1)
    expect(eventIds(rx)).toEqual([evt.id, evt.id])
    for (const r of rx.received) expect(() => verifySignature({payload: r.body, header: r.headers['service-signature'], secret: endpoint.secret})).not.toThrow()
    const logged = await until('both recorded', async () => {
      const ds = (await deliveriesOf(a, evt.id)).filter((d) => d.endpoint === endpoint.id)
      return ds.length === 2 && ds.every((d) => d.status === 'succeeded') && ds
    })
    expect(logged.map((d: any) => d.chaos)).toEqual([rule.body.id, rule.body.id])
    expect((await deliveriesOf(a, evt.id)).filter((d) => d.endpoint !== endpoint.id).map((d) => d.chaos)).toEqual([undefined])

    // the count is spent: the next event once
    const p2 = await pay(a)
    const evt2 = await eventOf(a, p2.id)
    await until('the next event', () => eventIds(rx).includes(evt2.id))
    await sleep(300)
    expect(eventIds(rx).filter((id) => id === evt2.id)).toHaveLength(1)
  })

  it('delay: nothing arrives until the engine clock has moved on by the hold', async () => {
    const {a, rx} = await setup('chaos-delay')
    await a.api('POST', '/chaos/webhooks', {fault: 'delay', delay_seconds: 30})
    const p = await pay(a)
    const evt = await eventOf(a, p.id)
    const [d] = await deliveriesOf(a, evt.id)
    expect(d).toMatchObject({status: 'pending', attempts: []})
    expect(Date.parse(d.next_attempt_at) - Date.parse(d.created_at)).toBe(30_000)
    await sleep(500)
    expect(rx.received).toHaveLength(0)
    await a.advance(30)
    await until('the held delivery', () => rx.received.length === 1)
    expect(eventIds(rx)).toEqual([evt.id])
  })

  it('shuffle: deliveries held at random within the window arrive in the order of their holds, not of their events; the same holds every run with a seed', async () => {
    const run = async (name: string) => {
      const {a, rx} = await setup(name)
      await a.api('POST', '/chaos/webhooks', {fault: 'shuffle', delay_seconds: 60, seed: 3})
      const events: {id: string; due: number; created: number}[] = []
      for (let i = 0; i < 6; i++) {
        const evt = await eventOf(a, (await pay(a)).id)
        const [d] = await deliveriesOf(a, evt.id)
        events.push({id: evt.id, due: Date.parse(d.next_attempt_at), created: Date.parse(d.created_at)})
      }
      for (const e of events) expect(e.due - e.created).toBeLessThan(60_000)
      // the engine clock in 10-second steps: each step delivers what fell due
      for (let s = 0; s < 7; s++) {
        await a.advance(10)
        const clock = Date.parse((await a.api('GET', '/test_helpers/clock')).body.now)
        const due = events.filter((e) => e.due <= clock).length
        await until(`${due} deliveries by step ${s}`, () => rx.received.length >= due)
      }
      const arrived = eventIds(rx)
      expect([...arrived].sort()).toEqual(events.map((e) => e.id).sort())
      return {holds: events.map((e) => Math.round((e.due - e.created) / 1000)), arrived, created: events.map((e) => e.id)}
    }
    const first = await run('chaos-shuffle-1')
    expect(first.arrived).not.toEqual(first.created)
    expect((await run('chaos-shuffle-2')).holds).toEqual(first.holds)
  })

  it('fail first 2: two attempts fail on purpose (logged, nothing sent), the retry schedule takes over, the third is delivered', async () => {
    const {a, rx, endpoint} = await setup('chaos-fail-first')
    const rule = (await a.api('POST', '/chaos/webhooks', {fault: 'fail_first', attempts: 2, endpoint: endpoint.id})).body
    const evt = await eventOf(a, (await pay(a)).id)
    const attemptsMade = (n: number) => until(`${n} attempts`, async () => {
      const [d] = await deliveriesOf(a, evt.id)
      return d.attempts.length >= n && d
    })
    let d = await attemptsMade(1)
    expect(d).toMatchObject({status: 'failed_retrying', chaos: rule.id})
    expect(d.attempts[0]).toMatchObject({status_code: null, error: 'chaos_fail_first'})
    expect(d.attempts[0].error_message).toContain(rule.id)
    expect(Date.parse(d.next_attempt_at) - Date.parse(d.attempts[0].at)).toBe(60_000)
    await a.advance(60)
    d = await attemptsMade(2)
    expect(d.attempts[1]).toMatchObject({error: 'chaos_fail_first'})
    expect(rx.received).toHaveLength(0)
    await a.advance(300)
    d = await attemptsMade(3)
    expect(d).toMatchObject({status: 'succeeded'})
    expect(d.attempts[2]).toMatchObject({status_code: 200, error: null})
    expect(eventIds(rx)).toEqual([evt.id])
  })

  it('bad rules are refused naming the field; an endpoint of another account is not found', async () => {
    const {a} = await setup('chaos-webhooks-bad')
    const {endpoint: theirs} = await setup('chaos-webhooks-other')
    expect(expectError(await a.api('POST', '/chaos/webhooks', {fault: 'delay'}), 400, 'invalid_request_error').param).toBe('delay_seconds')
    expect(expectError(await a.api('POST', '/chaos/webhooks', {fault: 'duplicate', attempts: 2}), 400, 'invalid_request_error').param).toBe('attempts')
    expect(expectError(await a.api('POST', '/chaos/webhooks', {fault: 'scramble'}), 400, 'invalid_request_error').param).toBe('fault')
    expect(expectError(await a.api('POST', '/chaos/webhooks', {fault: 'fail_first', attempts: 11}), 400, 'invalid_request_error').param).toBe('attempts')
    expectError(await a.api('POST', '/chaos/webhooks', {fault: 'duplicate', endpoint: theirs.id}), 404, 'invalid_request_error')
    expect((await a.api('GET', '/chaos')).body.data).toEqual([])
  })
})
