// docs/decisions.md#the-engine-clock: one clock advance runs every due job in due-time order, with event times at
// their due times. A long advance crosses settlement runs (each schedules the next), a SEPA
// debit clearing and a dispute deadline; the event log must stay newest first and every
// job's effects must carry its due time.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {cardPayment, createPayment} from './helpers.js'

const DAY = 86_400
const DAY_MS = DAY * 1000

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => t.stop())

async function allEvents(): Promise<any[]> {
  const out: any[] = []
  let after: string | undefined
  for (;;) {
    const r = await t.api('GET', `/events?limit=100${after ? `&starting_after=${after}` : ''}`)
    expect(r.status, r.text).toBe(200)
    out.push(...r.body.data)
    if (!r.body.has_more) return out
    after = r.body.data.at(-1).id
  }
}

describe('one long clock advance', () => {
  it('runs every due job in due-time order: the event log stays newest first and each effect is at its due time', async () => {
    const card = await createPayment(t, cardPayment({amount: 3000, reference: 'order-card'}))
    expect(card.status).toBe('succeeded')
    const sepa = await createPayment(t, {amount: 4000, currency: 'EUR', payment_method: 'sepa_debit', reference: 'order-sepa'})
    expect(sepa.status).toBe('processing')
    const dpRes = await t.api('POST', '/test_helpers/disputes', {payment: card.id, amount: 1000})
    expect(dpRes.status, dpRes.text).toBe(201)
    const dp = dpRes.body
    const start = Date.parse((await t.api('GET', '/test_helpers/clock')).body.now)

    await t.advance(8 * DAY)

    const events = await allEvents()
    // newest first, by created_at, across the whole log
    for (let i = 1; i < events.length; i++) {
      expect(events[i - 1].created_at >= events[i].created_at, `${events[i - 1].type} ${events[i - 1].created_at} listed above ${events[i].type} ${events[i].created_at}`).toBe(true)
    }

    // the SEPA debit cleared exactly 2 days after it was created
    const sepaOk = events.find((e) => e.type === 'payment.succeeded' && e.data.object.id === sepa.id)
    expect(sepaOk.created_at).toBe(new Date(Date.parse(sepa.created_at) + 2 * DAY_MS).toISOString())
    // the dispute was lost at its deadline, not at the end of the advance
    const closed = events.find((e) => e.type === 'dispute.closed' && e.data.object.id === dp.id)
    expect(closed.data.object.status).toBe('lost')
    expect(closed.created_at).toBe(new Date(dp.evidence_due_by).toISOString())

    // reports of the days with money movements (the card payment and dispute, the SEPA
    // clearing), each ready at 02:00 UTC of the following day
    const ready = events.filter((e) => e.type === 'settlement.report.ready').reverse()
    const runOf = (iso: string) => new Date(Date.parse(iso.slice(0, 10)) + DAY_MS + 2 * 3600_000).toISOString()
    expect([...new Set(ready.map((e) => e.created_at))]).toEqual([...new Set([runOf(card.created_at), runOf(sepaOk.created_at)])])
    for (const e of ready) {
      const runDay = Date.parse(e.created_at.slice(0, 10))
      expect(e.data.object.date).toBe(new Date(runDay - DAY_MS).toISOString().slice(0, 10))
    }
    // every line is reported on the day its money moved: the SEPA payment on its clearing day
    const sepaLine = ready.flatMap((e) => e.data.object.lines.map((l: any) => ({...l, date: e.data.object.date}))).find((l: any) => l.payment === sepa.id && l.type === 'payment')
    expect(sepaLine.date).toBe(sepaOk.created_at.slice(0, 10))
    // payouts arrive one day after their run, all within the advance
    const payouts = (await t.api('GET', '/payouts?limit=100')).body.data
    expect(payouts.length).toBeGreaterThan(0)
    for (const po of payouts) {
      expect(Date.parse(po.created_at)).toBeGreaterThan(start)
      if (Date.parse(po.created_at) + DAY_MS <= start + 8 * DAY_MS) expect(po.status).toBe('paid')
    }
  })
})


describe('after a clock advance that purges every event', () => {
  it('the live stream still delivers new events (found by the property test: event seqs were reused after the purge)', async () => {
    const {request} = await import('undici')
    const ac = new AbortController()
    const res = await request(`${t.engine.baseUrl}/events/stream`, {headers: {authorization: `Bearer ${t.key}`, accept: 'text/event-stream'}, dispatcher: t.agent, signal: ac.signal})
    expect(res.statusCode).toBe(200)
    let buf = ''
    const pump = (async () => {
      try {
        for await (const chunk of res.body) buf += chunk.toString('utf8')
      } catch {
        /* aborted */
      }
    })()
    const seen = async (id: string) => {
      const end = Date.now() + 10_000
      while (!buf.includes(id) && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
      return buf.includes(id)
    }
    const before = await createPayment(t, cardPayment({reference: 'before-the-purge'}))
    expect(await seen(before.id)).toBe(true)
    // 40 days without events: housekeeping purges every event older than 30 days
    await t.advance(40 * DAY)
    expect((await t.api('GET', '/events?limit=100')).body.data).toEqual([])
    const after = await createPayment(t, cardPayment({reference: 'after-the-purge'}))
    expect(await seen(after.id)).toBe(true)
    ac.abort()
    await pump
  })
})
