// What an account's rows may hold (docs/decisions.md#snapshots): the rules a snapshot load checks rows by, kept equal
// to what the engine writes.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {RandomIds} from '../adapters/ids.js'
import {SqliteStore} from '../store/sqlite/sqlite-store.js'
import {apiRule} from './chaos-rules.js'
import {App} from '../app/index.js'
import {chaosRuleProblem, isEngineTime, JOB_KINDS, settingProblem} from './stored-rows.js'

describe('stored rows', () => {
  it('the job kinds a snapshot may hold are the kinds the engine registers handlers for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-rows-'))
    const store = new SqliteStore({path: join(dir, 'gw.db'), durability: 'normal'})
    try {
      const app = await App.create({store, ids: new RandomIds(), providers: new Map(), urls: {baseUrl: '', checkoutUrl: ''}, log: () => {}})
      expect([...JOB_KINDS].sort()).toEqual(app.core.jobs.kinds().sort())
      await app.stop()
    } finally {
      await store.close()
      rmSync(dir, {recursive: true, force: true})
    }
  })

  it('times are the engine\'s own form: what toISOString gives, of a real day', () => {
    for (const t of ['2026-01-31T12:00:00.000Z', '2024-02-29T23:59:59.999Z', new Date().toISOString()]) expect(isEngineTime(t), t).toBe(true)
    for (const t of ['2026-01-31T12:00:00Z', '2026-01-31', '2025-02-29T00:00:00.000Z', '2026-13-01T00:00:00.000Z', '2026-01-31T24:00:00.000Z', '+275760-09-13T00:00:00.000Z', '2026-01-31T12:00:00.000+01:00', '0000-01-01T00:00:00.000Z', ''])
      expect(isEngineTime(t), t).toBe(false)
  })

  it('settings by their writer\'s rule; unknown keys and the engine\'s own refused by name', () => {
    expect(settingProblem('clock_offset_ms', '0')).toBeUndefined()
    expect(settingProblem('clock_offset_ms', '-1')).toMatch(/0 or more/)
    expect(settingProblem('provider_status:prov_atlas', 'degraded')).toBeUndefined()
    expect(settingProblem('provider_status:prov_nowhere', 'active')).toMatch(/names no provider/)
    expect(settingProblem('chaos_hits:chaos_abc', '12')).toBeUndefined()
    expect(settingProblem('chaos_hits:chaos_abc', '1.5')).toMatch(/whole number/)
    expect(settingProblem('settlement_unpaid_reports', '["stl_1"]')).toBeUndefined()
    expect(settingProblem('settlement_unpaid_reports', '["pay_1"]')).toMatch(/stl_/)
    expect(settingProblem('fleet.rate_limit', '5')).toMatch(/whole engine/)
    expect(settingProblem('anything', 'x')).toMatch(/not a setting gw keeps/)
  })

  it('a chaos rule is one the API would make of its fields', () => {
    const rule = apiRule({path: '/payments', fault: 'slow', latency_ms: 500, rate: 0.5, seed: 3}, 'chaos_1', new Date('2030-01-01T00:00:00.000Z'))
    expect(chaosRuleProblem(rule)).toBeUndefined()
    expect(chaosRuleProblem({...rule, latency_ms: 60_000})).toMatch(/latency_ms/)
    expect(chaosRuleProblem({...rule, fault: '503'})).toMatch(/latency_ms/)
    expect(chaosRuleProblem({...rule, rate: 2})).toMatch(/rate/)
    expect(chaosRuleProblem({...rule, until: '2030-02-01T00:00:00.000Z'})).toMatch(/for_seconds/)
    expect(chaosRuleProblem({...rule, id: 5})).toMatch(/rule\.id/)
  })
})
