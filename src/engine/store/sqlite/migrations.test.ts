import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {afterEach, describe, expect, it} from 'vitest'
import {MIGRATIONS} from './schema.js'
import {SqliteStore} from './sqlite-store.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, {recursive: true, force: true})
})

describe('migrations', () => {
  it('a data dir written by migration 1 upgrades in place: ledger columns are backfilled and the balance sums them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-mig-'))
    dirs.push(dir)
    const path = join(dir, 'gw.db')
    const old = new Database(path)
    old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)')
    old.exec(MIGRATIONS[0]!)
    old.prepare('INSERT INTO schema_migrations VALUES (1, ?)').run(new Date().toISOString())
    const entry = (id: string, amount: number, available_at: string) =>
      JSON.stringify({id, object: 'ledger_entry', type: 'payment', amount, currency: 'EUR', payment: 'pay_1', source: null, provider: 'prov_x', reference: 'r', available_at, created_at: '2026-01-01T00:00:00.000Z'})
    const ins = old.prepare('INSERT INTO ledger_entries (id, created_at, version, data, currency, payment, type) VALUES (?, ?, 1, ?, ?, ?, ?)')
    ins.run('le_1', '2026-01-01T00:00:00.000Z', entry('le_1', 700, '2026-01-01T00:00:00.000Z'), 'EUR', 'pay_1', 'payment')
    ins.run('le_2', '2026-01-01T00:00:00.000Z', entry('le_2', 300, '2099-01-01T00:00:00.000Z'), 'EUR', 'pay_1', 'payment')
    old.close()

    const store = new SqliteStore({path, durability: 'normal'})
    expect((store.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as {v: number}).v).toBe(MIGRATIONS.length)
    expect(await store.sum('ledger_entry', {field: 'amount', groupBy: 'currency'})).toEqual([{group: 'EUR', sum: 1000}])
    expect(
      await store.sum('ledger_entry', {field: 'amount', groupBy: 'currency', filters: [{field: 'available_at', op: 'lte', value: '2030-01-01T00:00:00.000Z'}]}),
    ).toEqual([{group: 'EUR', sum: 700}])
    await store.close()
  })
})
