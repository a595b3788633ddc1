// Bulk replay after an outage (docs/decisions.md#recovery-after-an-outage): every event an endpoint missed, once each, in one call.
import {afterAll, beforeAll, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'
import {testReceiver, type TestReceiver} from '../test-support/tls-receiver.js'

let t: TestEngine
let rx: TestReceiver

beforeAll(async () => {
  rx = await testReceiver(500)
  t = await bootEngine({rateLimit: 0})
})

afterAll(async () => {
  await t.stop()
  await rx.close()
})

/** The events the receiver accepted (a 2xx), in arrival order. */
const received = () => rx.received.filter((r) => r.status < 300).map((r) => JSON.parse(r.body) as {id: string; data: {object: {id: string}}})

async function until<T>(what: string, fn: () => Promise<T | undefined | false>): Promise<T> {
  const end = Date.now() + 10_000
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const pay = async () => (await t.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})).body.id as string

it('an endpoint back after an outage gets every event it missed exactly once: retrying ones now, given-up ones anew; received ones are skipped', async () => {
  const ep = (await t.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})).body
  const deliveries = async () => (await t.api('GET', `/webhook_endpoints/${ep.id}/deliveries?limit=100`)).body.data as {event: string; status: string; attempts: unknown[]}[]
  // the receiver is down: two payments, then three and a half days, then one more
  const early = [await pay(), await pay()]
  await until('first attempts', async () => (await deliveries()).every((d) => d.attempts.length > 0) && (await deliveries()).length === 2)
  await t.advance(84 * 3600)
  const late = await pay()
  await until('gave up on the early ones, the late one retrying', async () => {
    const ds = await deliveries()
    return ds.length === 3 && ds.filter((d) => d.status === 'undeliverable').length === 2 && ds.some((d) => d.status === 'failed_retrying')
  })
  // it is back
  rx.status = 200
  const r = await t.api('POST', `/webhook_endpoints/${ep.id}/replay`, {within: 5 * 86_400})
  expect(r.status).toBe(200)
  expect(r.body).toMatchObject({object: 'webhook_replay', endpoint: ep.id, queued: 2, rescheduled: 1, skipped: {already_received: 0, event_expired: 0}})
  const ids = await until('each missed event once', async () => (received().length >= 3 ? received().map((e) => e.id) : undefined))
  await new Promise((res) => setTimeout(res, 300))
  expect(received()).toHaveLength(3)
  expect(new Set(ids).size).toBe(3)
  const objects = received().map((e) => e.data.object.id).sort()
  expect(objects).toEqual([...early, late].sort())

  // a second replay finds nothing missing
  await until('outcomes recorded', async () => (await deliveries()).filter((d) => d.status === 'succeeded').length === 3)
  const again = await t.api('POST', `/webhook_endpoints/${ep.id}/replay`, {within: 5 * 86_400, status: ['failed_retrying', 'undeliverable']})
  expect(again.body).toMatchObject({queued: 0, rescheduled: 0, skipped: {already_received: 2}})
}, 60_000)

it('says what is wrong with a replay request, naming the field', async () => {
  const ep = (await t.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['payment.succeeded']})).body
  const none = await t.api('POST', `/webhook_endpoints/${ep.id}/replay`, {})
  expect(none.status).toBe(400)
  expect(none.body.error.param).toBe('since')
  const both = await t.api('POST', `/webhook_endpoints/${ep.id}/replay`, {within: 60, since: '2026-01-01T00:00:00Z'})
  expect(both.body.error.param).toBe('since')
  const bad = await t.api('POST', `/webhook_endpoints/${ep.id}/replay`, {within: 60, status: ['succeeded']})
  expect(bad.status).toBe(400)
  expect((await t.api('POST', '/webhook_endpoints/wh_missing/replay', {within: 60})).status).toBe(404)
  await t.api('POST', `/webhook_endpoints/${ep.id}`, {disabled: true})
  const disabled = await t.api('POST', `/webhook_endpoints/${ep.id}/replay`, {within: 60})
  expect(disabled.body.error.code).toBe('webhook_endpoint_disabled')
})
