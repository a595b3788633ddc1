// Snapshots (docs/decisions.md#snapshots): an account's whole state saved and loaded back — into the same account or
// another — with its clock, events, jobs and idempotency records; bad snapshots refused by name.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../test-support/harness.js'

let t: TestEngine

beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})

afterAll(async () => {
  await t.stop()
})

const pay = (who: {api: TestEngine['api']}, amount: number, key?: string) =>
  who.api('POST', '/payments', {amount, currency: 'EUR', payment_method: 'card', payment_method_data: card(), capture_method: 'manual'}, key ? {'idempotency-key': key} : {})

async function account(name: string) {
  const r = await t.api('POST', '/accounts', {name})
  expect(r.status).toBe(201)
  return {id: r.body.id as string, as: t.as(r.body.secret_key)}
}

describe('snapshots', () => {
  it('save, change, load: the account is back as it was — objects, events, clock, pending jobs and idempotency records', async () => {
    const a = await account('snapshot source')
    const first = await pay(a.as, 1111, 'snap-key-1')
    expect(first.status).toBe(201)
    // enough payments that the snapshot is larger than an ordinary request body (1 MiB)
    for (let i = 0; i < 400; i++) expect((await pay(a.as, 100 + i)).status).toBe(201)
    const saved = await a.as.api('GET', '/test_helpers/snapshot')
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({object: 'snapshot', format: 'gw.snapshot', version: 1, account: a.id, livemode: false})
    const text = JSON.stringify(saved.body)
    expect(text.length).toBeGreaterThan(1024 * 1024)
    const eventsBefore = (await a.as.api('GET', '/events?limit=100')).body.data.map((e: {id: string}) => e.id)
    const clockBefore = Date.parse(saved.body.engine_time)

    // the world moves on: a day passes (uncaptured authorizations are not yet released: 7 d), another payment
    await a.as.advance(86_400)
    const later = await pay(a.as, 2222)
    expect(later.status).toBe(201)

    const loaded = await a.as.api('POST', '/test_helpers/snapshot', saved.body)
    expect(loaded.status, JSON.stringify(loaded.body).slice(0, 300)).toBe(200)
    expect(loaded.body).toMatchObject({object: 'snapshot_load', from_account: a.id, objects: expect.any(Number), events: expect.any(Number), jobs: expect.any(Number)})
    expect(loaded.body.jobs).toBeGreaterThan(0) // the authorizations' expiries

    expect((await a.as.api('GET', `/payments/${later.body.id}`)).status).toBe(404)
    expect((await a.as.api('GET', `/payments/${first.body.id}`)).body).toMatchObject({id: first.body.id, amount: 1111, status: 'requires_capture'})
    expect((await a.as.api('GET', '/events?limit=100')).body.data.map((e: {id: string}) => e.id)).toEqual(eventsBefore)
    // the clock is the snapshot's again (it ticks on from there)
    const now = Date.parse((await a.as.api('GET', '/test_helpers/clock')).body.now)
    expect(now - clockBefore).toBeGreaterThanOrEqual(0)
    expect(now - clockBefore).toBeLessThan(60_000)
    // the idempotency record came back: the same key replays the original answer
    const replay = await pay(a.as, 1111, 'snap-key-1')
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.body.id).toBe(first.body.id)
    // the timeline jobs came back: 7 days on, the authorizations are released
    await a.as.advance(7 * 86_400)
    expect((await a.as.api('GET', `/payments/${first.body.id}`)).body.status).toBe('canceled')
  }, 120_000)

  it('loads into another account: the same world, apart from the first', async () => {
    const a = await account('template')
    const p = await pay(a.as, 3333)
    const snap = (await a.as.api('GET', '/test_helpers/snapshot')).body
    const b = await account('from the template')
    expect((await b.as.api('POST', '/test_helpers/snapshot', snap)).status).toBe(200)
    expect((await b.as.api('GET', `/payments/${p.body.id}`)).body.amount).toBe(3333)
    // B's keys are B's own: the snapshot carries none
    expect((await b.as.api('GET', '/account')).body.id).toBe(b.id)
    // apart: capturing in B changes nothing in A
    expect((await b.as.api('POST', `/payments/${p.body.id}/capture`, {})).status).toBe(200)
    expect((await a.as.api('GET', `/payments/${p.body.id}`)).body.status).toBe('requires_capture')
  }, 60_000)

  it('refuses what is not a snapshot it can read, naming the field, and changes nothing', async () => {
    const a = await account('refusals')
    const p = await pay(a.as, 4444)
    const snap = (await a.as.api('GET', '/test_helpers/snapshot')).body
    const newer = await a.as.api('POST', '/test_helpers/snapshot', {...snap, version: 2})
    expect(newer.status).toBe(400)
    expect(newer.body.error).toMatchObject({code: 'parameter_invalid', param: 'version'})
    expect(newer.body.error.message).toMatch(/newer gw/)
    const notOne = await a.as.api('POST', '/test_helpers/snapshot', {...snap, format: 'stripe'})
    expect(notOne.body.error).toMatchObject({param: 'format'})
    const bad = await a.as.api('POST', '/test_helpers/snapshot', {...snap, rows: {...snap.rows, objects: [{kind: 'nonsense', obj: {}, version: 1}]}})
    expect(bad.status).toBe(400)
    expect(bad.body.error.param).toBe('rows.objects[0].kind')
    const keys = await a.as.api('POST', '/test_helpers/snapshot', {...snap, rows: {...snap.rows, objects: [{kind: 'api_key', obj: {id: 'key_x', created_at: snap.created_at}, version: 1}]}})
    expect(keys.body.error.param).toBe('rows.objects[0].kind')
    expect((await a.as.api('GET', `/payments/${p.body.id}`)).status).toBe(200)
  }, 60_000)
})
