import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {WebhookDelivery} from '../api/types.js'
import {BASE, json} from '../base/test-support/cli.js'
import {mockApi, type MockApi} from '../base/test-support/mock-context.js'
import {webhooksDelivery} from './webhooks/delivery.js'
import {eventsDeliveries} from './events/deliveries.js'

let api: MockApi
beforeEach(() => {
  api = mockApi()
})
afterEach(async () => {
  await api.close()
})

function delivery(over: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: 'whd_1',
    object: 'webhook_delivery',
    event: 'evt_1',
    event_type: 'payment.succeeded',
    endpoint: 'wh_1',
    status: 'failed_retrying',
    attempts: [
      {at: '2026-03-01T10:00:00.000Z', status_code: 500, error: null, error_message: null, latency_ms: 41, response_excerpt: '{"error":\n "boom"}'},
      {at: '2026-03-01T10:01:00.000Z', status_code: null, error: 'timeout', error_message: 'no answer within 10 s', latency_ms: 10000, response_excerpt: null},
    ],
    next_attempt_at: '2026-03-01T10:06:00.000Z',
    undeliverable_reason: null,
    livemode: false,
    created_at: '2026-03-01T10:00:00.000Z',
    ...over,
  }
}

describe('events deliveries evt_...', () => {
  it("lists the event's deliveries across endpoints with the filters", async () => {
    const queries: Record<string, string>[] = []
    api.pool
      .intercept({path: (p) => p.startsWith('/v1/events/evt_1/deliveries'), method: 'GET'})
      .reply((o) => {
        queries.push(Object.fromEntries(new URL(o.path, BASE).searchParams))
        return {statusCode: 200, data: {object: 'list', url: '/v1/events/evt_1/deliveries', data: [delivery(), delivery({id: 'whd_2', endpoint: 'wh_2', status: 'succeeded'})], has_more: false}, responseOptions: json}
      })
    const t = api.context()
    const r = await eventsDeliveries(t.ctx, {all: false, status: 'failed_retrying', endpoint: 'wh_1', limit: 5, id: 'evt_1'})
    expect(queries).toEqual([{status: 'failed_retrying', endpoint: 'wh_1', limit: '5'}])
    expect((r as {data: WebhookDelivery[]}).data.map((d) => d.id)).toEqual(['whd_1', 'whd_2'])
    expect(t.stdout()).toMatch(/whd_1\s+│ evt_1\s+│ payment\.succeeded\s+│ failed_retrying\s+│ 2\s+│ timeout 10000ms/)
    expect(t.stdout()).toContain('whd_2')
  })

  it('--all follows the cursor; a bad --endpoint is refused before sending', async () => {
    const pages = [
      {data: [delivery()], has_more: true},
      {data: [delivery({id: 'whd_2'})], has_more: false},
    ]
    const queries: Record<string, string>[] = []
    api.pool
      .intercept({path: (p) => p.startsWith('/v1/events/evt_1/deliveries'), method: 'GET'})
      .reply((o) => {
        queries.push(Object.fromEntries(new URL(o.path, BASE).searchParams))
        return {statusCode: 200, data: {object: 'list', url: '/v1/events/evt_1/deliveries', ...pages.shift()!}, responseOptions: json}
      })
      .times(2)
    const t = api.context({json: true})
    const all = (await eventsDeliveries(t.ctx, {all: true, id: 'evt_1'})) as WebhookDelivery[]
    expect(all.map((d) => d.id)).toEqual(['whd_1', 'whd_2'])
    expect(queries).toEqual([{limit: '100'}, {limit: '100', starting_after: 'whd_1'}])
    await expect(eventsDeliveries(t.ctx, {all: false, endpoint: 'https://x', id: 'evt_1'})).rejects.toThrow('--endpoint "https://x" is not a webhook endpoint id')
  })
})

describe('webhooks delivery whd_...', () => {
  it('shows the delivery and every attempt; says how to deliver it again', async () => {
    api.pool.intercept({path: '/v1/webhook_deliveries/whd_1', method: 'GET'}).reply(200, delivery(), json)
    const t = api.context()
    const d = await webhooksDelivery(t.ctx, {id: 'whd_1'})
    expect(d.id).toBe('whd_1')
    const out = t.stdout()
    expect(out).toMatch(/^whd_1 {2}failed_retrying/)
    expect(out).toMatch(/Event\s+evt_1 \(payment\.succeeded\)/)
    expect(out).toMatch(/Next attempt\s+2026-03-01 10:06:00Z/)
    expect(out).toMatch(/│ 1 │ 2026-03-01 10:00:00Z │ HTTP 500\s+│ 41 ms\s+│ \{"error": "boom"\}/)
    expect(out).toMatch(/│ 2 │ 2026-03-01 10:01:00Z │ timeout: no answer within 10 s │ 10000 ms/)
    expect(t.stderr()).toContain('gw events resend evt_1 --endpoint wh_1')
  })

  it('--json is the object and nothing else', async () => {
    api.pool.intercept({path: '/v1/webhook_deliveries/whd_1', method: 'GET'}).reply(200, delivery({status: 'succeeded'}), json)
    const t = api.context({json: true})
    expect(await webhooksDelivery(t.ctx, {id: 'whd_1'})).toEqual(delivery({status: 'succeeded'}))
    expect(t.stdout()).toBe('')
    expect(t.stderr()).toBe('')
  })
})
