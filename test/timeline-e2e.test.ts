// `gw payments timeline` (docs/decisions.md#a-payments-whole-story): a payment's whole story from the built CLI against an
// engine in this process — creation, provider attempts, its events and its refund's and
// dispute's, and the webhook attempts made for them, in time order.
import {afterAll, beforeAll, expect, it} from 'vitest'
import {testReceiver, type TestReceiver} from '../src/engine/test-support/tls-receiver.js'
import {startCliWorld, type CliWorld} from './support/cli-world.js'

let w: CliWorld
let rx: TestReceiver

const gw = (args: string[]) => w.gw(args)
const api = (method: 'GET' | 'POST', path: string, body?: unknown) => w.api(method, path, body)

beforeAll(async () => {
  w = await startCliWorld('gw-e2e-timeline-', 'commands/payments/timeline.js', {env: {NO_COLOR: '1'}, rateLimit: 0})
  rx = await testReceiver()
}, 60_000)

afterAll(async () => {
  await rx?.close()
  await w?.close()
})

it("tells a payment's story: creation, provider attempts, its refund's and dispute's events, and the webhook attempts, in time order", async () => {
  await api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['*']})
  const card = {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}
  const p = await api('POST', '/payments', {amount: 19900, currency: 'EUR', payment_method: 'card', payment_method_data: card, reference: 'order-1042'})
  const other = await api('POST', '/payments', {amount: 500, currency: 'EUR', payment_method: 'card', payment_method_data: card})
  const rf = await api('POST', '/refunds', {payment: p.id, amount: 2500})
  await api('POST', '/test_helpers/clock/advance', {seconds: 31 * 60, wait: true})
  const dp = await api('POST', '/test_helpers/disputes', {payment: p.id})
  // every delivery made and recorded
  await api('POST', '/test_helpers/clock/advance', {seconds: 1, wait: true})

  const r = await gw(['payments', 'timeline', p.id, '--json'])
  expect(r.code, r.stderr).toBe(0)
  const {payment, timeline} = JSON.parse(r.stdout) as {payment: {id: string}; timeline: {at: string; kind: string; object: string; what: string}[]}
  expect(payment.id).toBe(p.id)
  const kinds = new Set(timeline.map((t) => t.kind))
  expect([...kinds].sort()).toEqual(['created', 'event', 'provider_attempt', 'webhook_attempt'])
  const events = timeline.filter((t) => t.kind === 'event')
  expect(events.map((e) => e.what)).toEqual(expect.arrayContaining(['payment.succeeded', 'refund.succeeded', 'dispute.created']))
  expect(events.every((e) => [p.id, rf.id, dp.id].includes(e.object))).toBe(true)
  expect(timeline.some((t) => t.object === other.id)).toBe(false)
  expect(timeline.filter((t) => t.kind === 'webhook_attempt').length).toBeGreaterThanOrEqual(3)
  // in time order
  const times = timeline.map((t) => t.at)
  expect([...times].sort()).toEqual(times)
  expect(timeline[0]!.kind).toBe('created')

  // the refund's creation, not only its outcome
  const created = timeline.find((t) => t.what === 'refund created')
  expect(created?.object).toBe(rf.id)
  expect(timeline.indexOf(created!)).toBeLessThan(timeline.findIndex((t) => t.what === 'refund.succeeded'))
  expect(JSON.parse(r.stdout).unavailable).toEqual([])

  const text = await gw(['payments', 'timeline', p.id])
  expect(text.stdout).toContain('refund.succeeded')
  expect(text.stdout).toContain('↳ dispute.created')
  // the ids to act on, beside the events' ids
  expect(text.stdout).toMatch(new RegExp(`refund created\\s+${rf.id}`))
  expect(text.stdout).toMatch(new RegExp(`dispute\\.created\\s+${dp.id}`))

  // a key that may read the payment and its events but not refunds nor webhooks: says what it left out
  const key = await api('POST', '/api_keys', {name: 'tl-support', permissions: ['payments:read', 'events:read']})
  const limited = await gw(['payments', 'timeline', p.id, '--json', '--api-key', key.secret])
  expect(limited.code, limited.stderr).toBe(0)
  expect(JSON.parse(limited.stdout).unavailable).toEqual([{what: 'refunds created', permission: 'refunds:read'}, {what: 'webhook attempts', permission: 'webhooks:read'}])
  expect(limited.stderr).toContain('refunds:read')
  expect(limited.stderr).toContain('webhooks:read')
  const quiet = JSON.parse((await gw(['payments', 'timeline', p.id, '--no-webhooks', '--json'])).stdout)
  expect(quiet.timeline.some((t: {kind: string}) => t.kind === 'webhook_attempt')).toBe(false)
}, 60_000)
