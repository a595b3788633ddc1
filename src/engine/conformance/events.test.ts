// Events (docs/api.md#event-types, docs/decisions.md#reading-events): GET /events (filters, newest first), GET /events/{id},
// request_id, 30-day retention on the engine clock, GET /events/stream (SSE, Last-Event-ID).
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {openEventStream} from '../test-support/sse.js'
import {cardPayment, createPayment, eventsFor, expectError} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

const listEvents = async (q = '') => {
  const r = await t.api('GET', `/events${q}`)
  expect(r.status, r.text).toBe(200)
  return r.body
}

describe('GET /events', () => {
  it('lists events newest first in a list envelope', async () => {
    const p = await createPayment(t, cardPayment())
    const b = await listEvents()
    expect(b.object).toBe('list')
    expect(b.url).toBe('/v1/events')
    expect(b.data[0].data.object.id).toBe(p.id)
    const times = b.data.map((e: any) => e.created_at)
    expect([...times].sort().reverse()).toEqual(times)
    const e = b.data[0]
    expect(e.id).toMatch(/^evt_/)
    expect(e.object).toBe('event')
    expect(e.type).toBe('payment.succeeded')
    expect(e.livemode).toBe(false)
    expect(new Date(e.created_at).toISOString()).toBe(e.created_at)
    expect(e.data.object).toMatchObject({id: p.id, object: 'payment', status: 'succeeded'})
    expect(JSON.stringify(e)).not.toContain('"_x"')
  })

  it('data.object is the full API object in the state that triggered the event', async () => {
    const p = await createPayment(t, cardPayment({}, '4000000000003220'))
    await t.api('POST', `/test_helpers/payments/${p.id}/action`, {outcome: 'approve'})
    const evs = (await eventsFor(t, p.id)).reverse()
    expect(evs.map((e) => [e.type, e.data.object.status])).toEqual([
      ['payment.requires_action', 'requires_action'],
      ['payment.processing', 'processing'],
      ['payment.succeeded', 'succeeded'],
    ])
    expect(evs[0].data.object).toEqual(p)
    expect(Object.keys(evs[2].data.object).sort()).toEqual(Object.keys(p).sort())
  })

  it('type filter: exact, and a prefix ending in .*', async () => {
    await createPayment(t, cardPayment({amount: 4992}))
    const prov = (await t.api('GET', '/providers')).body.data[0].id
    await t.api('POST', `/test_helpers/providers/${prov}/health`, {status: 'degraded'})
    await t.api('POST', `/test_helpers/providers/${prov}/health`, {status: 'active'})

    const exact = await listEvents('?type=payment.failed')
    expect(exact.data.length).toBeGreaterThan(0)
    for (const e of exact.data) expect(e.type).toBe('payment.failed')

    const prefix = await listEvents('?type=payment.*&limit=100')
    const types = new Set(prefix.data.map((e: any) => e.type))
    for (const ty of types) expect(ty).toMatch(/^payment\./)
    expect(types.has('payment.succeeded')).toBe(true)
    expect(types.has('payment.failed')).toBe(true)

    const all = await listEvents('?limit=100')
    expect(all.data.some((e: any) => e.type === 'provider.health.changed')).toBe(true)
    expect(prefix.data.length).toBe(all.data.filter((e: any) => e.type.startsWith('payment.')).length)

    const provOnly = await listEvents('?type=provider.*')
    expect(provOnly.data.length).toBeGreaterThanOrEqual(2)
    for (const e of provOnly.data) expect(e.type).toBe('provider.health.changed')

    expect((await listEvents('?type=refund.succeeded')).data).toEqual([])
  })

  it('created_gte / created_lte are inclusive', async () => {
    const a = await createPayment(t, cardPayment())
    await t.advance(5)
    const b = await createPayment(t, cardPayment())
    await t.advance(5)
    const c = await createPayment(t, cardPayment())
    const [ea] = await eventsFor(t, a.id)
    const [eb] = await eventsFor(t, b.id)
    const [ec] = await eventsFor(t, c.id)
    const q = (gte: string, lte: string) => `?created_gte=${encodeURIComponent(gte)}&created_lte=${encodeURIComponent(lte)}&limit=100`
    const only = await listEvents(q(eb.created_at, eb.created_at))
    expect(only.data.map((e: any) => e.id)).toEqual([eb.id])
    const span = await listEvents(q(ea.created_at, ec.created_at))
    expect(span.data.map((e: any) => e.id)).toEqual([ec.id, eb.id, ea.id])
    const after = await listEvents(`?created_gte=${encodeURIComponent(eb.created_at)}`)
    expect(after.data.map((e: any) => e.id)).toEqual([ec.id, eb.id])
    expectError(await t.api('GET', '/events?created_gte=soon'), 400, 'invalid_request_error')
  })

  it('paginates with cursors', async () => {
    const all = await listEvents('?limit=100')
    expect(all.data.length).toBeGreaterThan(4)
    const p1 = await listEvents('?limit=2')
    expect(p1.has_more).toBe(true)
    const p2 = await listEvents(`?limit=2&starting_after=${p1.data[1].id}`)
    expect([...p1.data, ...p2.data].map((e: any) => e.id)).toEqual(all.data.slice(0, 4).map((e: any) => e.id))
    const back = await listEvents(`?limit=2&ending_before=${p2.data[0].id}`)
    expect(back.data.map((e: any) => e.id)).toEqual(p1.data.map((e: any) => e.id))
    expect(back.has_more).toBe(false)
  })

  it('bad type filter → 400', async () => {
    expectError(await t.api('GET', '/events?type=NOT A TYPE'), 400, 'invalid_request_error')
  })
})

describe('GET /events/{id}', () => {
  it('returns the same event as the list', async () => {
    const [e] = (await listEvents('?limit=1')).data
    const r = await t.api('GET', `/events/${e.id}`)
    expect(r.status).toBe(200)
    expect(r.body).toEqual(e)
    expect(r.headers['request-id']).toMatch(/^req_/)
  })

  it('unknown id → 404 resource_missing', async () => {
    expectError(await t.api('GET', '/events/evt_missing'), 404, 'invalid_request_error', 'resource_missing')
  })
})

describe('request_id', () => {
  it('events caused by an API request carry that request id', async () => {
    const r = await t.api('POST', '/payments', cardPayment())
    const rid = r.headers['request-id']
    const evs = await eventsFor(t, r.body.id)
    expect(evs.length).toBeGreaterThan(0)
    for (const e of evs) expect(e.request_id).toBe(rid)

    const m = await createPayment(t, cardPayment({capture_method: 'manual'}))
    const c = await t.api('POST', `/payments/${m.id}/capture`)
    const [succeeded] = await eventsFor(t, m.id)
    expect(succeeded.type).toBe('payment.succeeded')
    expect(succeeded.request_id).toBe(c.headers['request-id'])

    const d = await t.api('POST', '/payments', cardPayment({}, '4000000000000002'))
    const [failed] = await eventsFor(t, d.body.error.payment)
    expect(failed.type).toBe('payment.failed')
    expect(failed.request_id).toBe(d.headers['request-id'])
  })

  it('events not caused by an API request (session expiry) have request_id null', async () => {
    const p = await createPayment(t, cardPayment({}, '4000000000003220'))
    await t.advance(2 * 3600)
    const [failed] = await eventsFor(t, p.id)
    expect(failed.type).toBe('payment.failed')
    expect(failed.request_id).toBeNull()
  })

  // a test helper has the same effects as the real trigger (docs/decisions.md#test-helpers): the customer, the operator, the network
  const allEvents = async () => {
    const out: {type: string; request_id: string | null; data: {object: {id: string; payment?: string}}}[] = []
    let after: string | undefined
    for (;;) {
      const r = await t.api('GET', `/events?limit=100${after ? `&starting_after=${after}` : ''}`)
      out.push(...r.body.data)
      if (!r.body.has_more) return out
      after = r.body.data.at(-1).id
    }
  }
  const carrying = async (rid: string) => (await allEvents()).filter((e) => e.request_id === rid)

  it("the customer's step through its test helper (3-D Secure approve) carries request_id null", async () => {
    const p = await createPayment(t, cardPayment({}, '4000000000003220'))
    expect(p.status).toBe('requires_action')
    const h = await t.api('POST', `/test_helpers/payments/${p.id}/action`, {outcome: 'approve'})
    expect(h.status).toBe(200)
    const evs = await eventsFor(t, p.id)
    expect(evs.map((e) => e.type)).toEqual(expect.arrayContaining(['payment.processing', 'payment.succeeded']))
    for (const e of evs.filter((e) => e.type === 'payment.processing' || e.type === 'payment.succeeded')) expect(e.request_id).toBeNull()
    expect(await carrying(h.headers['request-id'] as string)).toEqual([])
  })

  it("the operator's review decision through its test helper carries request_id null", async () => {
    for (const decision of ['approve', 'block'] as const) {
      const p = await createPayment(t, cardPayment({amount: 4991}))
      expect(p.risk.decision).toBe('review')
      const h = await t.api('POST', `/test_helpers/payments/${p.id}/review`, {decision})
      expect(h.status).toBe(200)
      const evs = await eventsFor(t, p.id)
      expect(evs[0].type).toBe(decision === 'approve' ? 'payment.succeeded' : 'payment.failed')
      expect(evs[0].request_id).toBeNull()
      expect(await carrying(h.headers['request-id'] as string)).toEqual([])
    }
  })

  it("the network's dispute through its test helpers (open, resolve) carries request_id null", async () => {
    const p = await createPayment(t, cardPayment())
    const d = await t.api('POST', '/test_helpers/disputes', {payment: p.id})
    expect(d.status).toBe(201)
    expect(await carrying(d.headers['request-id'] as string)).toEqual([])
    expect((await t.api('POST', `/disputes/${d.body.id}/evidence`, {fields: {product_description: 'Desk lamp'}, files: []})).status).toBe(200)
    const r = await t.api('POST', `/test_helpers/disputes/${d.body.id}/resolve`, {outcome: 'lost'})
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(await carrying(r.headers['request-id'] as string)).toEqual([])
    const disputeEvents = (await allEvents()).filter((e) => e.type.startsWith('dispute.') && e.data.object.id === d.body.id)
    expect(disputeEvents.length).toBeGreaterThanOrEqual(2)
    for (const e of disputeEvents) expect(e.request_id).toBeNull()
  })
})

describe('GET /events?object=: one story', () => {
  it("a payment's story holds its own events and its refunds' and disputes'; a refund's only its own; others stay out", async () => {
    const p = await createPayment(t, cardPayment({amount: 5000}))
    const other = await createPayment(t, cardPayment({amount: 700}))
    const rf = (await t.api('POST', '/refunds', {payment: p.id, amount: 1000})).body
    await t.advance(31 * 60) // card refunds answer after 30 minutes
    const dp = (await t.api('POST', '/test_helpers/disputes', {payment: p.id})).body
    const story = (await t.api('GET', `/events?object=${p.id}&limit=100`)).body.data as {type: string; data: {object: {id: string}}}[]
    const types = story.map((e) => e.type)
    expect(types).toEqual(expect.arrayContaining(['payment.succeeded', 'refund.succeeded', 'dispute.created']))
    expect(story.every((e) => [p.id, rf.id, dp.id].includes(e.data.object.id))).toBe(true)
    expect(story.some((e) => e.data.object.id === other.id)).toBe(false)
    const refundOnly = (await t.api('GET', `/events?object=${rf.id}&limit=100`)).body.data as {type: string; data: {object: {id: string}}}[]
    expect(refundOnly.map((e) => e.type)).toEqual(['refund.succeeded'])
    expect((await t.api('GET', '/events?object=pay_doesnotexist')).body.data).toEqual([])
    // composes with the type filter
    expect(((await t.api('GET', `/events?object=${p.id}&type=dispute.*`)).body.data as {type: string}[]).map((e) => e.type)).toEqual(['dispute.created'])
  })
})

describe('GET /events/stream', () => {
  it('delivers new events live and resumes after Last-Event-ID', async () => {
    const s = await openEventStream(t)
    expect(s.status).toBe(200)
    expect(String(s.headers['content-type'])).toMatch(/^text\/event-stream/)
    expect(s.headers['request-id']).toMatch(/^req_/)
    const p1 = await createPayment(t, cardPayment())
    const got = await s.waitFor((e) => e.data.data.object.id === p1.id)
    expect(got.event).toBe('payment.succeeded')
    expect(got.id).toBe(got.data.id)
    expect((await t.api('GET', `/events/${got.id}`)).body).toEqual(got.data)
    await s.close()

    // events while disconnected
    const p2 = await createPayment(t, cardPayment())
    const p3 = await createPayment(t, cardPayment({}, '4000000000003220'))
    const s2 = await openEventStream(t, got.id)
    await s2.waitFor((e) => e.data.data.object.id === p3.id)
    const ids = s2.events.map((e) => e.data.data.object.id)
    expect(ids).toContain(p2.id)
    expect(ids).not.toContain(p1.id)
    expect(ids.indexOf(p2.id)).toBeLessThan(ids.indexOf(p3.id))
    // no duplicates
    expect(new Set(s2.events.map((e) => e.id)).size).toBe(s2.events.length)
    // and still live
    const p4 = await createPayment(t, cardPayment())
    await s2.waitFor((e) => e.data.data.object.id === p4.id)
    await s2.close()
  })

  it('the stream takes a type filter', async () => {
    const s = await openEventStream(t, undefined, '?type=payment.failed')
    await createPayment(t, cardPayment())
    const f = await t.api('POST', '/payments', cardPayment({}, '4000000000000002'))
    const got = await s.waitFor((e) => e.data.data.object.id === f.body.error.payment)
    expect(got.event).toBe('payment.failed')
    for (const e of s.events) expect(e.event).toBe('payment.failed')
    await s.close()
  })

  it('an unknown Last-Event-ID → 400', async () => {
    const r = await t.api('GET', '/events/stream', undefined, {'last-event-id': 'evt_unknown'})
    expectError(r, 400, 'invalid_request_error')
  })

  it('the stream needs a key', async () => {
    const r = await t.api('GET', '/events/stream', undefined, {authorization: ''})
    expectError(r, 401, 'authentication_error')
  })
})

describe('retention', () => {
  it('events older than 30 days (engine clock) are gone from the list and from GET /events/{id}', async () => {
    const p = await createPayment(t, cardPayment())
    const [old] = await eventsFor(t, p.id)
    await t.advance(29 * 86_400)
    expect((await t.api('GET', `/events/${old.id}`)).status).toBe(200)
    const fresh = await createPayment(t, cardPayment())
    await t.advance(2 * 86_400)
    const l = await listEvents('?limit=100')
    expect(l.data.some((e: any) => e.id === old.id)).toBe(false)
    expect(l.data.some((e: any) => e.data.object.id === fresh.id)).toBe(true)
    expectError(await t.api('GET', `/events/${old.id}`), 404, 'invalid_request_error', 'resource_missing')
    // the payment itself is not subject to event retention
    expect((await t.api('GET', `/payments/${p.id}`)).status).toBe(200)
    const newer = await createPayment(t, cardPayment())
    expect((await eventsFor(t, newer.id)).length).toBe(1)
  })
})
