// Snapshots (docs/decisions.md#snapshots), as a tenant of a shared engine would try it: a snapshot with a bad value is
// refused by name and changes nothing (it once loaded, then stopped the process), and no value in
// the store — written around the API — stops the process or another account's work: its
// failures are the poisoned account's own, logged once and counted in /metrics. Runs on SQLite
// and, in the conformance-postgres project, on PostgreSQL.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type AsKey, type TestEngine} from '../test-support/harness.js'
import {waitFor} from '../test-support/wait.js'
import {busyTenant} from './helpers.js'

let t: TestEngine
const lines: string[] = []
const LIMIT = 1536 * 1024

beforeAll(async () => {
  // a small snapshot limit, so that a body over it is cheap to send
  t = await bootEngine({rateLimit: 0, snapshotMaxBytes: LIMIT, log: (l) => void lines.push(l)})
})

afterAll(async () => {
  await t.stop()
})

type Snap = {rows: {objects: any[]; events: any[]; jobs: any[]; idempotency: any[]; stats: any[]; settings: Record<string, unknown>}} & Record<string, any>

const pay = (who: AsKey, extra: Record<string, unknown> = {}) =>
  who.api('POST', '/payments', {amount: 2500, currency: 'EUR', payment_method: 'card', payment_method_data: card(), ...extra})

const busyAccount = (name: string) => busyTenant(t, name)

const snapshotOf = async (a: AsKey): Promise<Snap> => {
  const r = await a.api('GET', '/test_helpers/snapshot')
  expect(r.status).toBe(200)
  return r.body
}

/** The account's state in a snapshot, but what a refused request adds (its idempotency record) and the save time. */
const stateOf = async (a: AsKey) => {
  const {created_at: _c, rows, ...rest} = await snapshotOf(a)
  const {idempotency: _i, ...kept} = rows
  return {...rest, rows: kept}
}

const load = (a: AsKey, snap: unknown) => a.api('POST', '/test_helpers/snapshot', snap)

function expectRefused(r: {status: number; body: any}, param: string, message?: RegExp) {
  expect(r.status, JSON.stringify(r.body)).toBe(400)
  expect(r.body.error).toMatchObject({type: 'invalid_request_error', code: 'parameter_invalid', param})
  if (message) expect(r.body.error.message).toMatch(message)
}

describe('a snapshot load checks every row as the API would', () => {
  let a: AsKey & {id: string}
  let snap: Snap
  beforeAll(async () => {
    a = await busyAccount('source')
    snap = await snapshotOf(a)
  }, 60_000)

  it('an engine-made snapshot of a busy account loads, into itself and into another account', async () => {
    const b = await t.account('copy')
    const r = await load(b, snap)
    expect(r.status, r.text).toBe(200)
    expect(r.body.objects).toBe(snap.rows.objects.length)
    expect(await stateOf(b)).toMatchObject({rows: {objects: snap.rows.objects, jobs: snap.rows.jobs, settings: snap.rows.settings}})
    expect((await load(a, snap)).status).toBe(200)
  })

  it('refuses a clock frozen at "abc" (it once answered 200, then the process died) and stays up', async () => {
    const before = await stateOf(a)
    const r = await load(a, {...snap, rows: {...snap.rows, settings: {...snap.rows.settings, clock_frozen_at_ms: 'abc'}}})
    expectRefused(r, 'rows.settings.clock_frozen_at_ms', /milliseconds/)
    // nothing changed, and the engine answers on
    expect(await stateOf(a)).toEqual(before)
    expect((await a.api('GET', '/test_helpers/clock')).status).toBe(200)
  })

  it('refuses a negative clock offset (it set the clock to 1970) and one past the clock range', async () => {
    expectRefused(await load(a, {...snap, rows: {...snap.rows, settings: {...snap.rows.settings, clock_offset_ms: '-1710000000000'}}}), 'rows.settings.clock_offset_ms', /0 or more/)
    expectRefused(await load(a, {...snap, rows: {...snap.rows, settings: {...snap.rows.settings, clock_offset_ms: '9999999999999999'}}}), 'rows.settings.clock_offset_ms')
    expectRefused(await load(a, {...snap, rows: {...snap.rows, settings: {...snap.rows.settings, clock_frozen_at_ms: '5'}}}), 'rows.settings.clock_frozen_at_ms', /within/)
  })

  it('refuses webhook endpoints at http:// and file:// URLs, and at addresses webhooks never reach', async () => {
    const i = snap.rows.objects.findIndex((o) => o.kind === 'webhook_endpoint')
    const withUrl = (url: string) => ({...snap, rows: {...snap.rows, objects: snap.rows.objects.map((o, j) => (j === i ? {...o, obj: {...o.obj, url}} : o))}})
    expectRefused(await load(a, withUrl('http://127.0.0.1:9/hook')), `rows.objects[${i}].obj.url`, /HTTPS/)
    expectRefused(await load(a, withUrl('file:///etc/passwd')), `rows.objects[${i}].obj.url`)
    expectRefused(await load(a, withUrl('https://169.254.169.254/latest/meta-data')), `rows.objects[${i}].obj.url`, /link-local|metadata/)
  })

  it('names the first bad field of an object: types, enums, ids, times, bounds, unknown fields, the internal part', async () => {
    const i = snap.rows.objects.findIndex((o) => o.kind === 'payment')
    const with_ = (change: (o: any) => any) => ({...snap, rows: {...snap.rows, objects: snap.rows.objects.map((o, j) => (j === i ? change(structuredClone(o)) : o))}})
    expectRefused(await load(a, with_((o) => ({...o, obj: {...o.obj, amount: 'abc'}}))), `rows.objects[${i}].obj.amount`, /integer/)
    expectRefused(await load(a, with_((o) => ({...o, obj: {...o.obj, amount: 100_000_000}}))), `rows.objects[${i}].obj.amount`)
    expectRefused(await load(a, with_((o) => ({...o, obj: {...o.obj, status: 'paid'}}))), `rows.objects[${i}].obj.status`)
    expectRefused(await load(a, with_((o) => ({...o, obj: {...o.obj, id: 'cus_123'}}))), `rows.objects[${i}].obj.id`, /pay_/)
    expectRefused(await load(a, with_((o) => ({...o, obj: {...o.obj, created_at: '2026-02-30T00:00:00Z'}}))), `rows.objects[${i}].obj.created_at`, /UTC time/)
    expectRefused(await load(a, with_((o) => ({...o, obj: {...o.obj, description: 'x'.repeat(1001)}}))), `rows.objects[${i}].obj.description`)
    expectRefused(await load(a, with_((o) => ({...o, obj: {...o.obj, surprise: 1}}))), `rows.objects[${i}].obj.surprise`)
    expectRefused(await load(a, with_((o) => ({...o, obj: {...o.obj, _x: {...o.obj._x, tried: 'prov_atlas'}}}))), `rows.objects[${i}].obj._x.tried`)
    expectRefused(await load(a, with_((o) => ({...o, version: 0}))), `rows.objects[${i}].version`)
    expectRefused(await load(a, with_((o) => ({...o, obj: {...o.obj, livemode: true}}))), `rows.objects[${i}].obj.livemode`)
    // the same id twice
    expectRefused(await load(a, {...snap, rows: {...snap.rows, objects: [...snap.rows.objects, snap.rows.objects[i]]}}), `rows.objects[${snap.rows.objects.length}].obj.id`, /second/)
  })

  it('checks events, jobs, idempotency records, statistics and settings', async () => {
    const rows = snap.rows
    const e0 = rows.events[0]
    expectRefused(await load(a, {...snap, rows: {...rows, events: [{...e0, json: '{"id":'}, ...rows.events.slice(1)]}}), 'rows.events[0].json')
    const odd = await load(a, {...snap, rows: {...rows, events: [{...e0, json: JSON.stringify({...JSON.parse(e0.json), data: {object: {id: 'x'}}})}, ...rows.events.slice(1)]}})
    expect(odd.status).toBe(400)
    expect(odd.body.error.param).toMatch(/^rows\.events\[0\]\.json\.data\.object/)
    expectRefused(await load(a, {...snap, rows: {...rows, events: [{...e0, type: 'payment.exploded'}, ...rows.events.slice(1)]}}), 'rows.events[0].type')
    const j0 = rows.jobs[0]
    expectRefused(await load(a, {...snap, rows: {...rows, jobs: [{...j0, kind: 'shell.exec'}]}}), 'rows.jobs[0].kind')
    expectRefused(await load(a, {...snap, rows: {...rows, jobs: [{...j0, due_at: 'tomorrow'}]}}), 'rows.jobs[0].due_at')
    expectRefused(await load(a, {...snap, rows: {...rows, jobs: [{id: 'job_1', kind: 'dispute.deadline', ref: 'dp_1', due_at: j0.due_at, data: {stage: 'supreme_court'}}]}}), 'rows.jobs[0].data.stage')
    expectRefused(await load(a, {...snap, rows: {...rows, jobs: [{id: 'job_1', kind: 'dispute.deadline', ref: 'pay_1', due_at: j0.due_at, data: {stage: 'chargeback'}}]}}), 'rows.jobs[0].ref', /dp_/)
    const record = {scope: 'test', key: 'k', request_hash: 'a'.repeat(64), status: 200, body: '{}', created_at: j0.due_at, expires_at: new Date(Date.parse(j0.due_at) + 86_400_000).toISOString()}
    expect((await load(a, {...snap, rows: {...rows, idempotency: [record]}})).status).toBe(200)
    expectRefused(await load(a, {...snap, rows: {...rows, idempotency: [{...record, request_hash: 'nope'}]}}), 'rows.idempotency[0].request_hash')
    expectRefused(await load(a, {...snap, rows: {...rows, idempotency: [{...record, scope: 'live'}]}}), 'rows.idempotency[0].scope')
    expectRefused(await load(a, {...snap, rows: {...rows, idempotency: [record, record]}}), 'rows.idempotency[1].key', /second/)
    expectRefused(await load(a, {...snap, rows: {...rows, stats: [{provider: 'prov_atlas', day: '2026-01-01', approved: 3, total: 2}]}}), 'rows.stats[0].approved')
    expectRefused(await load(a, {...snap, rows: {...rows, stats: [{provider: 'prov_nowhere', day: '2026-01-01', approved: 1, total: 2}]}}), 'rows.stats[0].provider')
    expectRefused(await load(a, {...snap, rows: {...rows, settings: {...rows.settings, favourite_colour: 'blue'}}}), 'rows.settings.favourite_colour', /not a setting/)
    expectRefused(await load(a, {...snap, rows: {...rows, settings: {...rows.settings, 'fleet.webhook_allow': '0.0.0.0/0'}}}), 'rows.settings.fleet.webhook_allow', /whole engine/)
    expectRefused(await load(a, {...snap, rows: {...rows, settings: {...rows.settings, 'provider_status:prov_atlas': 'on fire'}}}), 'rows.settings.provider_status:prov_atlas')
    expectRefused(await load(a, {...snap, rows: {...rows, settings: {...rows.settings, 'chaos_hits:chaos_1': '-3'}}}), 'rows.settings.chaos_hits:chaos_1')
    expectRefused(await load(a, {...snap, rows: {...rows, extra: []}}), 'rows.extra')
  })

  it('checks chaos rules by the rules POST /chaos/... makes them with', async () => {
    const rules = JSON.parse(snap.rows.settings.chaos_rules as string)
    const withRules = (rs: unknown) => ({...snap, rows: {...snap.rows, settings: {...snap.rows.settings, chaos_rules: JSON.stringify(rs)}}})
    expect((await load(a, withRules(rules))).status).toBe(200)
    expectRefused(await load(a, withRules([{...rules[0], fault: 'slow', latency_ms: 86_400_000}])), 'rows.settings.chaos_rules', /latency_ms/)
    expectRefused(await load(a, withRules([{...rules[0], until: new Date(Date.parse(rules[0].created_at) + 30 * 86_400_000).toISOString()}])), 'rows.settings.chaos_rules', /for_seconds/)
    expectRefused(await load(a, withRules([null])), 'rows.settings.chaos_rules')
    expectRefused(await load(a, withRules({})), 'rows.settings.chaos_rules')
  })
})

describe('how a snapshot load is read', () => {
  it('a body over the engine\'s limit is a 413 naming the limit and the operator\'s flag', async () => {
    const a = await t.account('too large')
    const snap = await snapshotOf(a)
    const r = await load(a, {...snap, padding: 'x'.repeat(LIMIT)})
    expect(r.status).toBe(413)
    expect(r.body.error).toMatchObject({code: 'request_too_large'})
    expect(r.body.error.message).toMatch(/1\.5 MiB \(1572864 bytes\).*--snapshot-max-bytes.*GW_SNAPSHOT_MAX_BYTES/)
  })

  it('an Idempotency-Key replays the same bytes, and refuses other bytes', async () => {
    const a = await t.account('replayed load')
    const snap = await snapshotOf(a)
    const key = {'idempotency-key': `load-${Date.now()}`}
    const first = await a.api('POST', '/test_helpers/snapshot', snap, key)
    expect(first.status).toBe(200)
    const again = await a.api('POST', '/test_helpers/snapshot', snap, key)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.body).toEqual(first.body)
    expect((await a.api('POST', '/test_helpers/snapshot', JSON.stringify(snap, null, 1), key)).body.error.code).toBe('idempotency_key_reused')
  })

  it('a body that is no JSON, or nests too deep, is a 400 naming the body; unknown top-level fields by name', async () => {
    const a = await t.account('bad bodies')
    const snap = await snapshotOf(a)
    const text = JSON.stringify(snap)
    expectRefused(await a.api('POST', '/test_helpers/snapshot', text.slice(0, -5)), 'body', /not valid JSON/)
    expectRefused(await a.api('POST', '/test_helpers/snapshot', text.replace('"objects":[', `"objects":[${'['.repeat(40)}${']'.repeat(40)},`)), 'body', /levels deep/)
    const unknown = await load(a, {...snap, surprise: 1})
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toMatchObject({code: 'parameter_unknown', param: 'surprise'})
    expectRefused(await load(a, {...snap, rows: []}), 'rows')
    expectRefused(await load(a, {...snap, rows: {...snap.rows, objects: {}}}), 'rows.objects')
  })
})

describe('no value in the store stops the process or another account', () => {
  it('a poisoned clock, object and job are the poisoned account\'s alone: logged once, counted, and another account\'s dispute deadline still fires', async () => {
    const poisoned = await t.account('poisoned')
    const other = await t.account('neighbour')
    const disputed = await pay(other)
    const dp = await other.api('POST', '/test_helpers/disputes', {payment: disputed.body.id})
    expect(dp.status).toBe(201)
    // written around the API, through the store port: a clock that is no number, a payment that
    // is no payment, and a job on it that is due
    const store = t.engine.app.core.engineStore.account(poisoned.id)
    const now = new Date().toISOString()
    const logged = (where: string) => lines.filter((l) => l.includes(`contained (${where}, account ${poisoned.id})`))
    const metric = async (where: string) => {
      const text = (await t.raw('GET', t.engine.baseUrl.replace(/\/v1$/, '/metrics'))).text
      return Number(new RegExp(`gw_contained_errors_total\\{[^}]*where="${where}"[^}]*\\} (\\d+)`).exec(text)?.[1] ?? 0)
    }
    lines.length = 0
    await store.commit({
      settings: {clock_frozen_at_ms: 'abc', clock_offset_ms: '-5'},
      puts: [{kind: 'payment', obj: {id: 'pay_poison', created_at: now, status: 'requires_capture'} as any}],
      addJobs: [{id: 'job_poison', kind: 'payment.auth_expiry', ref: 'pay_poison', due_at: '2020-01-01T00:00:00.000Z'}],
    })
    // the running engine reads it through the change feed: the clock falls back (and is repaired), the job fails
    await waitFor('the running engine to contain both', () => logged('clock').length > 0 && logged('timeline_job').length > 0)
    expect(logged('clock')).toHaveLength(1)
    expect(await metric('clock')).toBeGreaterThanOrEqual(1)
    expect(await store.getSetting('clock_offset_ms')).toBe('0')
    expect(await store.getSetting('clock_frozen_at_ms')).toBe('')
    // and a restarted engine reads it all back as it starts
    lines.length = 0
    await t.restart()
    const clock = await poisoned.api('GET', '/test_helpers/clock')
    expect(clock.status).toBe(200)
    expect(clock.body).toMatchObject({frozen: false, offset_seconds: 0})
    expect(Math.abs(Date.parse(clock.body.now) - Date.now())).toBeLessThan(60_000)
    // its job fails on every run (it was put back a minute later; each advance runs it again): contained, counted each time, logged once
    for (let i = 0; i < 3; i++) expect((await poisoned.api('POST', '/test_helpers/clock/advance', {seconds: 120})).status).toBe(200)
    expect(logged('timeline_job')).toHaveLength(1)
    expect(logged('clock')).toHaveLength(0)
    expect(await metric('timeline_job')).toBeGreaterThanOrEqual(3)
    // the neighbour's work goes on: its dispute's evidence deadline fires on its clock advance
    await other.advance(8 * 86_400)
    expect((await other.api('GET', `/disputes/${dp.body.id}`)).body).toMatchObject({status: 'lost', closed_by: 'deadline'})
    expect((await other.api('GET', '/account')).status).toBe(200)
  }, 90_000)
})
