// A clock moved far cannot cost the engine hours (docs/api.md#clock-jumps), over HTTPS on SQLite
// and PostgreSQL: a snapshot's clock obeys the clock API's bounds (400 naming the setting), a
// restore puts the clock back to the snapshot's (a decision), a catch-up costs what happened and not
// the days passed (empty settlement days cost nothing), and a snapshot loaded while the account's
// settlement job runs costs that job one clear line — no stack trace, nothing of it committed.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type TestEngine} from '../test-support/harness.js'
import {sleep, waitFor} from '../test-support/wait.js'
import {card, cardPayment, expectError} from './helpers.js'

const DAY_S = 86_400
const lines: string[] = []

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0, log: (l) => lines.push(l)})
})
afterAll(async () => t?.stop())

/** Units of work this engine has committed (gw_store_unit_duration_seconds_count of GET /metrics). */
async function unitsCommitted(): Promise<number> {
  const r = await t.raw('GET', `${new URL(t.engine.baseUrl).origin}/metrics`)
  const m = /^gw_store_unit_duration_seconds_count (\d+)$/m.exec(r.text)
  if (!m) throw new Error(`no unit count in the metrics: ${r.text.slice(0, 300)}`)
  return Number(m[1])
}

async function snapshotOf(a: AsKey): Promise<any> {
  const r = await a.api('GET', '/test_helpers/snapshot')
  expect(r.status, r.text).toBe(200)
  return r.body
}

describe("a snapshot's clock (item 3)", () => {
  it('may move the clock at most 400 days forward, as POST /test_helpers/clock may: further is 400 naming the setting, and nothing changes', async () => {
    const a = await t.account('far clock')
    expect((await a.api('POST', '/payments', cardPayment())).status).toBe(201)
    const clock = (await a.api('GET', '/test_helpers/clock')).body
    const snap = await snapshotOf(a)

    // a ticking clock 7,000 years ahead (the offset's own rule lets it reach 9999-01-01)
    const offset = {...snap, rows: {...snap.rows, settings: {...snap.rows.settings, clock_offset_ms: String(Date.parse('9000-01-01T00:00:00Z') - Date.now())}}}
    delete offset.rows.settings.clock_frozen_at_ms
    const e = expectError(await a.api('POST', '/test_helpers/snapshot', offset), 400, 'invalid_request_error', 'parameter_invalid')
    expect(e.param).toBe('rows.settings.clock_offset_ms')
    expect(e.message).toMatch(/puts the account's clock at 9000-01-01T.*, more than 400 days after its engine time now .*: a load moves the clock as far as POST \/v1\/test_helpers\/clock may, at most 400 days forward \(any distance back\)/)
    expect(e.message).toMatch(/gw clock set --now 9000-01-01T/)

    // frozen a day past the bound
    const frozenFar = Date.parse(clock.now) + 401 * DAY_S * 1000
    const frozen = {...snap, rows: {...snap.rows, settings: {...snap.rows.settings, clock_frozen_at_ms: String(frozenFar)}}}
    expect(expectError(await a.api('POST', '/test_helpers/snapshot', frozen), 400, 'invalid_request_error', 'parameter_invalid').param).toBe('rows.settings.clock_frozen_at_ms')
    // nothing changed: the clock and the payment are where they were
    const now = (await a.api('GET', '/test_helpers/clock')).body
    expect(Date.parse(now.now) - Date.parse(clock.now)).toBeLessThan(60_000)
    expect((await a.api('GET', '/payments')).body.data).toHaveLength(1)

    // within the bound it loads, and the clock is there
    const near = Date.parse(clock.now) + 399 * DAY_S * 1000
    const ok = await a.api('POST', '/test_helpers/snapshot', {...snap, rows: {...snap.rows, settings: {...snap.rows.settings, clock_frozen_at_ms: String(near)}}})
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body.engine_time).toBe(new Date(near).toISOString())
    expect((await a.api('GET', '/test_helpers/clock')).body).toMatchObject({now: new Date(near).toISOString(), frozen: true})
  }, 120_000)

  it('a restore puts the clock back to the snapshot\'s, however far it went since (a decision: the account is as it was, its clock with it)', async () => {
    const a = await t.account('back')
    const frozen = (await a.api('POST', '/test_helpers/clock', {frozen: true})).body
    const snap = await snapshotOf(a)
    await a.advance(30 * DAY_S)
    await a.advance(390 * DAY_S)
    const r = await a.api('POST', '/test_helpers/snapshot', snap)
    expect(r.status, r.text).toBe(200)
    expect(r.body.engine_time).toBe(frozen.now)
    expect((await a.api('GET', '/test_helpers/clock')).body).toMatchObject({now: frozen.now, frozen: true})
  }, 120_000)
})

describe('catching up after a clock jump (item 3)', () => {
  it('costs what happened, not the days passed: a 400-day advance over two busy days settles those two days in a handful of units, not one per day', async () => {
    const a = await t.account('catching up')
    await a.api('POST', '/test_helpers/clock', {frozen: true})
    const start = Date.parse((await a.api('GET', '/test_helpers/clock')).body.now)
    for (let i = 0; i < 3; i++) expect((await a.api('POST', '/payments', cardPayment({amount: 1000 + i}))).status).toBe(201)
    // a day in the middle of the stretch books too, by a job (the test card's dispute opens 60 s after its payment, then its deadline passes)
    expect((await a.api('POST', '/payments', {...cardPayment(), payment_method_data: card('4000000000000259')})).status).toBe(201)
    const before = await unitsCommitted()
    const adv = await a.api('POST', '/test_helpers/clock/advance', {seconds: 400 * DAY_S})
    expect(adv.status, adv.text).toBe(200)
    const units = (await unitsCommitted()) - before
    // (one run per day was 400 units and more; what happened here is a few days' runs and the dispute's jobs)
    expect(units).toBeLessThan(40)
    const reports = (await a.api('GET', '/settlement_reports?limit=100')).body.data as any[]
    const dates = [...new Set(reports.map((r) => r.date))].sort()
    // the day of the payments is settled, with every payment in it
    expect(dates[0]).toBe(new Date(start).toISOString().slice(0, 10))
    const paid = reports.filter((r) => r.date === dates[0]).flatMap((r) => r.lines.filter((l: any) => l.type === 'payment'))
    expect(paid).toHaveLength(4)
    expect((await a.api('GET', '/payouts')).body.data.length).toBeGreaterThan(0)
    // and the account settles day by day again from where the clock is
    expect((await a.api('POST', '/payments', cardPayment({amount: 777}))).status).toBe(201)
    const today = new Date(Date.parse((await a.api('GET', '/test_helpers/clock')).body.now)).toISOString().slice(0, 10)
    await a.advance(2 * DAY_S)
    const later = (await a.api('GET', `/settlement_reports?date=${today}`)).body.data as any[]
    expect(later.flatMap((r) => r.lines).some((l: any) => l.type === 'payment' && l.amount === 777)).toBe(true)
  }, 180_000)
})

describe('a snapshot loaded while the account settles (item 3)', () => {
  it("costs the settlement job one clear line: no stack trace, nothing of it committed, the loaded account's own job still pending", async () => {
    const a = await t.account('racing')
    await a.api('POST', '/test_helpers/clock', {frozen: true})
    expect((await a.api('POST', '/payments', cardPayment())).status).toBe(201)
    const snap = await snapshotOf(a)
    const settlement = snap.rows.jobs.find((j: any) => j.kind === 'settlement.run')
    expect(settlement).toBeTruthy()
    const core = t.engine.app.loaded(a.id) ?? (await t.engine.app.account(a.id))
    // the settlement job's unit waits for its lock, held here, once the advance has claimed it
    let release!: () => void
    let entered!: () => void
    const inside = new Promise<void>((r) => (entered = r))
    const holder = core.run({}, async (u) => {
      await u.lock('settlement')
      entered()
      await new Promise<void>((r) => (release = r))
    })
    await inside
    const from = lines.length
    const advance = a.api('POST', '/test_helpers/clock/advance', {seconds: DAY_S})
    // the runner is inside the account's timeline section, and has claimed the job (a few ms)
    await waitFor('the job runner', async () => !(await core.store.exclusive('timeline', async () => true, {wait: false})).ran)
    await sleep(300)
    const loaded = await a.api('POST', '/test_helpers/snapshot', snap)
    expect(loaded.status, loaded.text).toBe(200)
    release()
    await holder
    const adv = await advance
    expect(adv.status, adv.text).toBe(200)
    const logged = lines.slice(from)
    expect(logged.filter((l) => /\n\s+at /.test(l))).toEqual([])
    expect(logged.filter((l) => /changed concurrently/.test(l))).toEqual([])
    expect(logged.filter((l) => /settlement\.run settlement of acct_\w+ due \S+ was not applied: the job was replaced meanwhile \(a snapshot loaded into the account/.test(l))).toHaveLength(1)
    // the account is the snapshot's: no report of the run that lost, and its own settlement job pending as saved
    expect((await a.api('GET', '/settlement_reports')).body.data).toEqual([])
    expect((await snapshotOf(a)).rows.jobs.filter((j: any) => j.kind === 'settlement.run')).toEqual([settlement])
  }, 120_000)
})
