// Every answer to an authenticated request says the account's engine time (docs/decisions.md#the-gateways-clock):
// `Gw-Engine-Time`, so a key that may not read the clock (a support agent's restricted key) still
// shows deadlines against it. The OpenAPI checker (test-support/openapi-check.ts) also requires it
// on every success any conformance test gets.
import {request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type TestEngine} from '../test-support/harness.js'
import {cardPayment, createPayment, expectError} from './helpers.js'

const DAY_MS = 86_400_000
const engineTime = (r: {headers: Record<string, unknown>}) => r.headers['gw-engine-time'] as string | undefined

let t: TestEngine
let a: AsKey
let support: AsKey
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
  a = await t.account('engine-time')
  const made = await a.api('POST', '/api_keys', {name: 'support', permissions: ['disputes:read']})
  expect(made.status, made.text).toBe(201)
  support = a.as(made.body.secret)
})
afterAll(async () => t?.stop())

describe('Gw-Engine-Time', () => {
  it("is the account's clock on every answer to its keys, a restricted key's without test_helpers:read and its errors too", async () => {
    await a.advance(7 * 86_400)
    const clock = Date.parse((await a.api('GET', '/test_helpers/clock')).body.now)
    expect(clock - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000)

    const listed = await support.api('GET', '/disputes')
    expect(listed.status, listed.text).toBe(200)
    const said = engineTime(listed)!
    expect(said).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    // the clock ticks with real time from where it stands: the header is at least the clock read before
    expect(Date.parse(said)).toBeGreaterThanOrEqual(clock)
    expect(Date.parse(said) - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000)

    // refused (403) and not found (404) answers say it too
    const refused = await support.api('GET', '/test_helpers/clock')
    expectError(refused, 403, 'permission_error')
    expect(Date.parse(engineTime(refused)!) - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000)
    const missing = await support.api('GET', '/disputes/dp_nothing')
    expectError(missing, 404, 'invalid_request_error')
    expect(Date.parse(engineTime(missing)!) - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000)

    // another account (the engine's own) is on its own clock
    const platform = await t.api('GET', '/payments?limit=1')
    expect(Math.abs(Date.parse(engineTime(platform)!) - Date.now())).toBeLessThan(60_000)
  })

  it('a frozen clock is said exactly; an advance answers with the time after it', async () => {
    const at = new Date(Date.now() + 30 * DAY_MS).toISOString().slice(0, 10) + 'T09:00:00.000Z'
    const set = await a.api('POST', '/test_helpers/clock', {frozen: true, now: at})
    expect(set.status, set.text).toBe(200)
    expect(engineTime(set)).toBe(at)
    const p = await createPayment(a as TestEngine, cardPayment())
    expect(p.created_at).toBe(at)
    expect(engineTime(await support.api('GET', '/disputes'))).toBe(at)
    const advanced = await a.api('POST', '/test_helpers/clock/advance', {seconds: 3600})
    expect(advanced.status, advanced.text).toBe(200)
    expect(engineTime(advanced)).toBe(new Date(Date.parse(at) + 3_600_000).toISOString())
    expect((await a.api('POST', '/test_helpers/clock', {frozen: false})).status).toBe(200)
  })

  it('is written with every kind of answer: a POST and its replay, a body kept as text (an event), a stream', async () => {
    // (the pipeline keeps the time until the answer's head is written)
    const at = new Date(Date.now() + 40 * DAY_MS).toISOString().slice(0, 10) + 'T10:00:00.000Z'
    expect((await a.api('POST', '/test_helpers/clock', {frozen: true, now: at})).status).toBe(200)
    try {
      const key = {'idempotency-key': `engine-time-${process.pid}`}
      const made = await a.api('POST', '/payments', cardPayment(), key)
      expect(made.status, made.text).toBe(201)
      expect(engineTime(made)).toBe(at)
      const again = await a.api('POST', '/payments', cardPayment(), key)
      expect(again.headers['idempotent-replayed']).toBe('true')
      expect(engineTime(again)).toBe(at)
      const events = await a.api('GET', '/events?limit=1')
      expect(events.status, events.text).toBe(200)
      expect(engineTime(events)).toBe(at)
      const event = await a.api('GET', `/events/${events.body.data[0].id}`)
      expect(event.status, event.text).toBe(200)
      expect(engineTime(event)).toBe(at)
      const stream = await request(`${t.engine.baseUrl}/events/stream`, {headers: {authorization: `Bearer ${a.key}`, accept: 'text/event-stream'}, dispatcher: t.agent})
      try {
        expect(stream.statusCode).toBe(200)
        expect(stream.headers['gw-engine-time']).toBe(at)
      } finally {
        stream.body.destroy()
      }
    } finally {
      expect((await a.api('POST', '/test_helpers/clock', {frozen: false})).status).toBe(200)
    }
  })

  it('is not sent where no key was authenticated: a 401, the public OpenAPI document', async () => {
    const unknown = await t.as('sk_test_nobody_0123456789abcdef').api('GET', '/payments')
    expectError(unknown, 401, 'authentication_error')
    expect(engineTime(unknown)).toBeUndefined()
    const doc = await t.api('GET', '/openapi.json', undefined, {authorization: ''})
    expect(doc.status).toBe(200)
    expect(engineTime(doc)).toBeUndefined()
  })
})
