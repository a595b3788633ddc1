// A frozen test clock and a clock set to a fixed instant (docs/decisions.md#the-engine-clock): timestamps that repeat.
import {afterAll, beforeAll, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => {
  await t.stop()
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function account() {
  const r = await t.api('POST', '/accounts', {name: 'clock'})
  return t.as(r.body.secret_key)
}

// a round instant ahead of real time, and within the 400 days one request may move the clock: next New Year
const year = new Date().getUTCFullYear() + 1
const newYear = `${year}-01-01T00:00:00.000Z`

it('set to a fixed instant and frozen: every read and every object carries that instant until advanced or set', async () => {
  const a = await account()
  const set = await a.api('POST', '/test_helpers/clock', {now: `${year}-01-01T00:00:00Z`, frozen: true})
  expect(set.status).toBe(200)
  expect(set.body).toMatchObject({object: 'test_clock', now: newYear, frozen: true})
  await sleep(30)
  expect((await a.api('GET', '/test_helpers/clock')).body.now).toBe(newYear)
  const p = await a.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
  expect(p.body.created_at).toBe(newYear)
  const adv = await a.api('POST', '/test_helpers/clock/advance', {seconds: 90})
  expect(adv.body).toMatchObject({now: `${year}-01-01T00:01:30.000Z`, frozen: true})
  // the same world on the next run: a snapshot of it loads with the same frozen instant
  const snap = (await a.api('GET', '/test_helpers/snapshot')).body
  const b = await account()
  await b.api('POST', '/test_helpers/snapshot', snap)
  expect((await b.api('GET', '/test_helpers/clock')).body).toMatchObject({now: `${year}-01-01T00:01:30.000Z`, frozen: true})
  expect((await b.api('GET', `/payments/${p.body.id}`)).body.created_at).toBe(newYear)
})

it('unfrozen, it ticks on from where it stood; it never moves back; what fell due runs', async () => {
  const a = await account()
  const p = await a.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), capture_method: 'manual'})
  expect(p.body.status).toBe('requires_capture')
  const frozen = (await a.api('POST', '/test_helpers/clock', {frozen: true})).body
  // frozen where it stood: the instant holds (the write took a few ms of real time; the clock did not)
  expect(frozen.frozen).toBe(true)
  await sleep(20)
  expect((await a.api('GET', '/test_helpers/clock')).body).toMatchObject({now: frozen.now, frozen: true})
  // set 8 days later: the uncaptured authorization (released after 7) is released before the answer
  const later = new Date(Date.parse(frozen.now) + 8 * 86_400_000).toISOString()
  expect((await a.api('POST', '/test_helpers/clock', {now: later})).body).toMatchObject({now: later, frozen: true})
  expect((await a.api('GET', `/payments/${p.body.id}`)).body.status).toBe('canceled')
  const back = await a.api('POST', '/test_helpers/clock', {now: frozen.now})
  expect(back.status).toBe(400)
  expect(back.body.error.param).toBe('now')
  const ticking = (await a.api('POST', '/test_helpers/clock', {frozen: false})).body
  expect(ticking.frozen).toBe(false)
  expect(Date.parse(ticking.now)).toBeGreaterThanOrEqual(Date.parse(later))
  await sleep(40)
  expect(Date.parse((await a.api('GET', '/test_helpers/clock')).body.now)).toBeGreaterThan(Date.parse(ticking.now))
  // other accounts' clocks are their own
  expect((await t.api('GET', '/test_helpers/clock')).body.frozen).toBe(false)
})
