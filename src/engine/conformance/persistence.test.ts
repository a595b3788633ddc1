// `gw serve` (docs/decisions.md#the-embedded-engine): restart on the same data dir keeps payments, events, keys,
// idempotency records, scheduled work and the test clock.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Agent, request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startEngine, type EngineHandle} from '../index.js'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {cardPayment, createPayment, eventsFor, getPayment} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

describe('restart on the same data dir', () => {
  it('keeps payments, customers, payment methods, events and idempotency records', async () => {
    const cus = (await t.api('POST', '/customers', {email: 'keep@example.com'})).body
    const pm = (await t.api('POST', '/payment_methods', {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}, customer: cus.id})).body
    const key = `persist-${Math.random()}`
    const body = cardPayment({customer: {id: cus.id}})
    const created = await t.api('POST', '/payments', body, {'idempotency-key': key})
    expect(created.status).toBe(201)
    const p = created.body
    const evs = await eventsFor(t, p.id)
    const list = (await t.api('GET', '/payments?limit=100')).body

    await t.restart()

    expect(await getPayment(t, p.id)).toEqual(p)
    expect((await t.api('GET', `/customers/${cus.id}`)).body).toEqual(cus)
    expect((await t.api('GET', `/payment_methods/${pm.id}`)).body).toEqual(pm)
    expect(await eventsFor(t, p.id)).toEqual(evs)
    expect((await t.api('GET', `/events/${evs[0].id}`)).body).toEqual(evs[0])
    expect((await t.api('GET', '/payments?limit=100')).body).toEqual(list)
    const replay = await t.api('POST', '/payments', body, {'idempotency-key': key})
    expect(replay.text).toBe(created.text)
    // a saved card still pays after the restart
    const again = await createPayment(t, {amount: 500, currency: 'EUR', payment_method_id: pm.id})
    expect(again.status).toBe('succeeded')
  })

  it('keeps the test clock offset', async () => {
    await t.advance(3 * 86_400)
    const before = (await t.api('GET', '/test_helpers/clock')).body
    expect(before.offset_seconds).toBeGreaterThanOrEqual(3 * 86_400)
    await t.restart()
    const after = (await t.api('GET', '/test_helpers/clock')).body
    expect(after.offset_seconds).toBe(before.offset_seconds)
    const drift = Date.parse(after.now) - Date.parse(before.now)
    expect(drift).toBeGreaterThanOrEqual(0)
    expect(drift).toBeLessThan(60_000)
  })

  it('keeps scheduled work: an authorization still expires after a restart', async () => {
    const p = await createPayment(t, cardPayment({capture_method: 'manual'}))
    const s = await createPayment(t, cardPayment({}, '4000000000003220'))
    await t.restart()
    expect((await getPayment(t, p.id)).status).toBe('requires_capture')
    await t.advance(7 * 86_400 + 60)
    expect((await getPayment(t, p.id)).status).toBe('canceled')
    expect((await getPayment(t, s.id)).status).toBe('failed')
  })

  it('keeps provider health', async () => {
    const id = (await t.api('GET', '/providers')).body.data[0].id
    await t.api('POST', `/test_helpers/providers/${id}/health`, {status: 'degraded'})
    await t.restart()
    expect((await t.api('GET', `/providers/${id}`)).body.status).toBe('degraded')
    await t.api('POST', `/test_helpers/providers/${id}/health`, {status: 'active'})
  })
})

describe('the generated secret key', () => {
  let dir: string
  let engine: EngineHandle | undefined
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gw-conf-key-'))
  })
  afterAll(async () => {
    await engine?.close()
    rmSync(dir, {recursive: true, force: true})
  })

  async function get(e: EngineHandle, key: string, path: string) {
    const agent = new Agent({connect: {ca: e.caCertPem}})
    try {
      const r = await request(e.baseUrl + path, {headers: {authorization: `Bearer ${key}`}, dispatcher: agent})
      return {status: r.statusCode, body: (await r.body.json()) as any}
    } finally {
      await agent.close()
    }
  }

  it('is created once and kept in the data dir across restarts, with the data', async () => {
    engine = await startEngine({dataDir: dir, port: 0, durability: 'normal', log: () => {}})
    const key = engine.secretKey
    expect(key).toMatch(/^sk_test_/)
    const c = await (async () => {
      const agent = new Agent({connect: {ca: engine!.caCertPem}})
      try {
        const r = await request(engine!.baseUrl + '/customers', {
          method: 'POST',
          headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'k1'},
          body: JSON.stringify({name: 'kept'}),
          dispatcher: agent,
        })
        return (await r.body.json()) as any
      } finally {
        await agent.close()
      }
    })()
    const ca = engine.caCertPem
    await engine.close()
    engine = await startEngine({dataDir: dir, port: 0, durability: 'normal', log: () => {}})
    expect(engine.secretKey).toBe(key)
    expect(engine.caCertPem).toBe(ca)
    const r = await get(engine, key, `/customers/${c.id}`)
    expect(r.status).toBe(200)
    expect(r.body.name).toBe('kept')
    expect((await get(engine, 'sk_test_not_the_key_123', '/customers')).status).toBe(401)
  })
})
