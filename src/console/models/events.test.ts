// The Events view's model without a terminal: the ring buffer, the `/` filter, pause with its
// held count, and one redraw per batch whatever the rate.
import {afterEach, describe, expect, it, vi} from 'vitest'
import type {GwEvent} from '../../api/types.js'
import type {GwClient} from '../../client/index.js'
import {ConsoleSession} from '../session.js'
import {EventsModel, objectMatches, parseEventFilter, Ring, typeMatches} from './events.js'

function session(): ConsoleSession {
  return new ConsoleSession({client: {baseUrl: 'https://127.0.0.1:1/v1'} as GwClient, apiKey: 'sk_test_abc', profile: 'default'})
}

let n = 0
function event(type: string, object: Record<string, unknown> = {id: 'pay_1', status: 'succeeded', amount: 1250, currency: 'EUR'}): GwEvent {
  n++
  return {id: `evt_${n}`, object: 'event', type, data: {object}, livemode: false, request_id: null, created_at: '2025-03-01T10:00:00.000Z'} as unknown as GwEvent
}
const fe = (e: GwEvent) => ({event: e, raw: '', backfilled: false})

afterEach(() => vi.useRealTimers())

describe('Ring', () => {
  it('keeps the newest `cap` items, oldest first, and counts every push', () => {
    const r = new Ring<number>(3)
    for (let i = 1; i <= 5; i++) r.push(i)
    expect(r.size).toBe(3)
    expect(r.pushed).toBe(5)
    expect(r.slice(0, 3)).toEqual([3, 4, 5])
    expect(r.at(0)).toBe(3)
    expect(r.at(2)).toBe(5)
    expect(r.at(3)).toBeUndefined()
    expect(r.slice(1, 10)).toEqual([4, 5])
    r.clear()
    expect(r.size).toBe(0)
    expect(r.slice(0, 3)).toEqual([])
  })
})

describe('the events filter', () => {
  it('reads types, prefixes and an object id from what is typed', () => {
    expect(parseEventFilter('')).toEqual({})
    expect(parseEventFilter('payment')).toEqual({types: 'payment.*'})
    expect(parseEventFilter('payment. Refund.failed')).toEqual({types: 'payment.*,refund.failed'})
    expect(parseEventFilter('dispute.* pay_123abc')).toEqual({types: 'dispute.*', object: 'pay_123abc'})
    expect(parseEventFilter('pay_123abc')).toEqual({object: 'pay_123abc'})
  })

  it('matches as the engine does: exact types, prefixes, and a payment with its refunds and disputes', () => {
    expect(typeMatches('payment.succeeded', 'payment.*')).toBe(true)
    expect(typeMatches('payment.succeeded', 'refund.*,payment.failed')).toBe(false)
    expect(typeMatches('refund.failed', 'refund.failed')).toBe(true)
    expect(typeMatches('anything', undefined)).toBe(true)
    expect(objectMatches(event('payment.succeeded'), 'pay_1')).toBe(true)
    expect(objectMatches(event('refund.created', {id: 're_1', payment: 'pay_1'}), 'pay_1')).toBe(true)
    expect(objectMatches(event('refund.created', {id: 're_1', payment: 'pay_2'}), 'pay_1')).toBe(false)
    expect(objectMatches(event('refund.created', {id: 're_1', payment: 'pay_1'}), 're_1')).toBe(true)
  })
})

describe('EventsModel', () => {
  it('keeps at most its cap, drops events the filter refuses and repeats of an id', () => {
    const m = new EventsModel(session(), 5)
    m.filter = parseEventFilter('payment')
    for (let i = 0; i < 8; i++) m.add(fe(event('payment.succeeded')))
    const refund = event('refund.created', {id: 're_1', payment: 'pay_1'})
    m.add(fe(refund))
    expect(m.rows.size).toBe(5)
    expect(m.rows.pushed).toBe(8)
    const last = m.rows.at(4)!.event
    m.add(fe(last))
    expect(m.rows.pushed).toBe(8)
    expect(m.rows.at(4)!.summary.amount).toBe('€12.50 EUR')
    m.dispose()
  })

  it('pause holds and counts new events; resume shows them after the ones shown', () => {
    const m = new EventsModel(session(), 100)
    m.add(fe(event('payment.created')))
    m.togglePause()
    expect(m.paused).toBe(true)
    for (let i = 0; i < 3; i++) m.add(fe(event('payment.succeeded')))
    expect(m.heldCount).toBe(3)
    expect(m.rows.size).toBe(1)
    m.togglePause()
    expect(m.paused).toBe(false)
    expect(m.heldCount).toBe(0)
    expect(m.rows.size).toBe(4)
    expect(m.rows.slice(0, 4).map((r) => r.event.type)).toEqual(['payment.created', 'payment.succeeded', 'payment.succeeded', 'payment.succeeded'])
    m.dispose()
  })

  it('the held count goes on past what the buffer keeps', () => {
    const m = new EventsModel(session(), 10)
    m.togglePause()
    for (let i = 0; i < 25; i++) m.add(fe(event('payment.succeeded')))
    expect(m.heldCount).toBe(25)
    m.togglePause()
    expect(m.rows.size).toBe(10)
    m.dispose()
  })

  it('views hear of a burst once per batch, not once per event', () => {
    vi.useFakeTimers()
    const m = new EventsModel(session(), 2000, 50)
    let heard = 0
    const unsub = m.subscribe(() => heard++)
    for (let i = 0; i < 1000; i++) m.add(fe(event('payment.succeeded')))
    expect(heard).toBe(0)
    vi.advanceTimersByTime(50)
    expect(heard).toBe(1)
    for (let i = 0; i < 10; i++) m.add(fe(event('payment.succeeded')))
    vi.advanceTimersByTime(50)
    expect(heard).toBe(2)
    unsub()
    m.dispose()
  })

  it('paused or scrolled up, where a new event changes only a count, the views hear of it more slowly', () => {
    vi.useFakeTimers()
    const m = new EventsModel(session(), 2000, 100, 500)
    let heard = 0
    const unsub = m.subscribe(() => heard++)
    m.following = false
    m.add(fe(event('payment.succeeded')))
    vi.advanceTimersByTime(100)
    expect(heard).toBe(0)
    vi.advanceTimersByTime(400)
    expect(heard).toBe(1)
    // back to the newest: a batch pending is brought forward
    m.add(fe(event('payment.succeeded')))
    m.following = true
    m.add(fe(event('payment.succeeded')))
    vi.advanceTimersByTime(100)
    expect(heard).toBe(2)
    m.togglePause()
    expect(heard).toBe(3)
    m.add(fe(event('payment.succeeded')))
    vi.advanceTimersByTime(100)
    expect(heard).toBe(3)
    vi.advanceTimersByTime(400)
    expect(heard).toBe(4)
    expect(m.heldCount).toBe(1)
    unsub()
    m.dispose()
  })
})
