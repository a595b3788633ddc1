// Which of another instance's commits wake an instance (docs/api.md#several-instances-on-postgresql):
// every notice heard costs a wake-up, so an instance whose listeners want only what every
// instance acts on by itself ('shared': the engine's caches, job runner and delivery worker) is
// not woken by another's payments, and one that follows an account (an event stream, the request
// log's tail) hears every commit from the moment `following()` resolves, and no longer after.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {ChangeNotice} from '../../ports/store.js'
import {EventFeed} from '../../app/events.js'
import {iso, nextId, pay, put, T0} from '../contract/helpers.js'
import {freshDatabase} from '../../test-support/pg.js'
import {waitFor} from '../../test-support/wait.js'
import {PostgresStore} from './postgres-store.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let a: PostgresStore
let b: PostgresStore
beforeAll(async () => {
  const url = await freshDatabase('notices')
  a = await PostgresStore.open({url, unitConnections: 4, readConnections: 2})
  b = await PostgresStore.open({url, unitConnections: 4, readConnections: 2})
  await sleep(500)
})
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
})

const event = () => ({id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0), json: '{}'})
/** what a payment commits: its objects and its event */
const payment = (account: string) => a.account(account).commit({puts: [put('payment', pay()), put('ledger_entry', {id: nextId('le'), object: 'ledger_entry', created_at: iso(T0)})], events: [event()]})

describe("another instance's commits", () => {
  it("an instance whose listeners hear only 'shared' notices is not woken by another's payments (no notice, no round trip), and still hears settings, keys and deliveries", async () => {
    const heard: ChangeNotice[] = []
    const offs = [b.onChange((n) => heard.push(n), 'shared'), b.account('acct_quiet').onChange(() => {}, 'shared')]
    const before = b.counters()
    for (let i = 0; i < 10; i++) await payment('acct_quiet')
    await Promise.all(Array.from({length: 10}, () => payment('acct_quiet')))
    await sleep(300)
    expect(b.counters().notices - before.notices).toBe(0)
    expect(b.counters().roundTrips - before.roundTrips).toBe(0)
    expect(heard).toEqual([])

    // what every instance acts on by itself: each heard, with the rest of what its commit did
    await a.account('acct_quiet').commit({settings: {clock_offset_ms: '5'}})
    await a.account('acct_quiet').commit({puts: [put('api_key', {id: nextId('key'), object: 'api_key', type: 'secret', created_at: iso(T0), _x: {secret_hash: `h-${nextId('x')}`}})]})
    await a.account('acct_quiet').commit({puts: [put('payment', pay()), put('delivery', {id: nextId('whd'), object: 'webhook_delivery', event: 'e', endpoint: 'wh_q', status: 'pending', next_attempt_at: iso(T0), created_at: iso(T0)})], events: [event()]})
    await a.account('acct_quiet').commit({addJobs: [{id: nextId('job'), kind: 'k', ref: 'r', due_at: iso(T0 + 5)}]})
    await waitFor('four shared notices', () => heard.length >= 4)
    await sleep(100)
    for (const f of offs) f()
    expect(heard.map((n) => [n.settings.length > 0, n.kinds.has('api_key'), n.kinds.has('delivery'), n.dueBy !== null])).toEqual([
      [true, false, false, false],
      [false, true, false, false],
      [false, false, true, false],
      [false, false, false, true],
    ])
    // a notice carries all its commit said: the delivery's payment and event too
    expect(heard[2]!.kinds.has('payment')).toBe(true)
    expect(heard[2]!.eventSeq).not.toBeNull()
    expect(b.counters().notices - before.notices).toBe(4)
  })

  it("a listener that hears 'all' makes the instance follow every commit from when following() resolves; once it goes, the instance is not woken again", async () => {
    const heard: ChangeNotice[] = []
    const off = b.account('acct_follow').onChange((n) => heard.push(n))
    await b.following()
    await payment('acct_follow')
    await waitFor("the other instance's payment", () => heard.some((n) => n.kinds.has('payment')))
    expect(heard[0]!.eventSeq).not.toBeNull()
    off()
    await b.following()
    const before = b.counters().notices
    for (let i = 0; i < 5; i++) await payment('acct_follow')
    await sleep(300)
    expect(b.counters().notices - before).toBe(0)
  })

  it("an event feed that followed nobody starts a stream at the newest event, though it heard none of the other instance's, and then hands out each new one once", async () => {
    const account = 'acct_feed'
    await payment(account)
    const feed = await EventFeed.start(b.account(account))
    // while no stream follows, the other instance's events are not heard here
    for (let i = 0; i < 3; i++) await payment(account)
    const newest = (await b.account(account).listEvents({limit: 1})).data[0]!.seq
    expect(feed.position).toBeLessThan(newest)
    const release = await feed.follow()
    expect(feed.position).toBe(newest)
    const got: number[] = []
    const off = feed.subscribe((e) => got.push(e.seq))
    for (let i = 0; i < 3; i++) await payment(account)
    const later = (await b.account(account).listEvents({limit: 3})).data.map((e) => e.seq).reverse()
    await waitFor('the three new events', () => got.length >= 3)
    expect(got).toEqual(later)
    off()
    release()
    const before = b.counters().notices
    await payment(account)
    await sleep(300)
    expect(b.counters().notices - before).toBe(0)
  })

  it("the request log's appends wake an instance only while its log is followed there", async () => {
    const entry = () => ({account: 'acct_log', entry: JSON.stringify({id: nextId('req')}), created_at: iso(T0)})
    const before = b.counters().notices
    await a.requestLog.append([entry()])
    await sleep(300)
    expect(b.counters().notices - before).toBe(0)
    const seqs: number[] = []
    const off = b.requestLog.onAppend((seq) => seqs.push(seq))
    await b.requestLog.following()
    await a.requestLog.append([entry(), entry()])
    await waitFor('the append heard', () => seqs.length > 0)
    expect(seqs.at(-1)).toBe(await a.requestLog.last())
    off()
    await b.requestLog.following()
    const n = b.counters().notices
    await a.requestLog.append([entry()])
    await sleep(300)
    expect(b.counters().notices - n).toBe(0)
  })
})
