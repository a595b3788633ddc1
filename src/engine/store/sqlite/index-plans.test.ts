// Every read of one account seeks within the account's own rows (docs/decisions.md#storage-per-payment): migration 9
// leads some indexes with a reference (an event's deliveries, a payment's ledger entries and
// refunds, an event's subject) rather than the account, and drops two of the deliveries'; each
// statement an account's reads prepare is checked here with EXPLAIN QUERY PLAN — no table scan,
// and every index search has the account among its seek constraints (or is a rowid lookup of a
// row chosen that way).
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {type Filter, type Kind, KINDS, PLATFORM_ACCOUNT} from '../../ports/store.js'
import {FIELDS} from '../columns.js'
import {tempDirs} from '../../test-support/tmp.js'
import {SqliteStore} from './sqlite-store.js'

const dir = tempDirs('gw-index-plans-')
let store: SqliteStore
const seen = new Set<string>()

beforeAll(() => {
  store = new SqliteStore({path: join(dir(), 'gw.db'), durability: 'normal'})
  const stmt = store.stmt.bind(store)
  store.stmt = (sql: string) => {
    seen.add(sql)
    return stmt(sql)
  }
})
afterAll(async () => {
  await store.close()
})

/** The plan lines of `sql` that read a table or an index, each with its constraints. */
function plan(sql: string): string[] {
  const params = Array.from({length: (sql.match(/\?/g) ?? []).length}, () => 1)
  return (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as {detail: string}[]).map((r) => r.detail).filter((d) => /^(SCAN|SEARCH) /.test(d))
}

/** Why a plan line may read another account's rows, or undefined. */
function crossing(line: string): string | undefined {
  if (line.startsWith('SCAN ')) return 'a scan'
  if (/\(rowid=\?\)$/.test(line)) return undefined
  // a key's secret hash is unique across accounts: one row at most
  if (/USING INDEX api_keys_secret_hash \(secret_hash=\?\)$/.test(line)) return undefined
  return /[(\s]account=\?/.test(line) ? undefined : 'a search not bounded to the account'
}

describe('SQLite index plans (migration 9)', () => {
  it("every list, lookup, count, sum and export of one account seeks within the account's rows", async () => {
    const a = store.account(PLATFORM_ACCOUNT)
    for (const kind of Object.keys(KINDS) as Kind[]) {
      await a.get(kind, 'x_1')
      await a.list(kind, {limit: 10})
      await a.list(kind, {limit: 10, starting_after: 'x_1'})
      await a.count(kind)
      for (const [field, type] of Object.entries(FIELDS[kind])) {
        const value = type === 'int' ? 1 : type === 'bool' ? true : '2030-01-01T00:00:00.000Z'
        const filters = [{field, op: 'eq', value}] as unknown as Filter[]
        await a.list(kind, {limit: 10, filters})
        await a.all(kind, filters)
        await a.count(kind, filters)
      }
    }
    await a.sum('ledger_entry', {field: 'amount', groupBy: 'currency', filters: [{field: 'available_at', op: 'lte', value: '2030-01-01T00:00:00.000Z'}]})
    await a.all('ledger_entry', [{field: 'created_at', op: 'gte', value: '2030-01-01T00:00:00.000Z'}, {field: 'created_at', op: 'lte', value: '2030-01-02T00:00:00.000Z'}])
    await a.all('delivery', [{field: 'endpoint', op: 'eq', value: 'wh_1'}, {field: 'created_at', op: 'gte', value: '2030-01-01T00:00:00.000Z'}, {field: 'status', op: 'in', value: ['failed', 'succeeded']}])
    await a.earliest('ledger_entry', 'created_at', [{field: 'created_at', op: 'gte', value: '2030-01-01T00:00:00.000Z'}])
    await a.nextJobDue('2030-01-01T00:00:00.000Z', 'job_1')
    await a.getEvent('evt_1')
    await a.eventsAfter(0, 10)
    for (const q of [{}, {subject: 'pay_1'}, {subject: 'pay_1', object: 're_1'}, {types: ['payment.succeeded']}, {typePrefixes: ['payment.']}, {created_gte: '2030-01-01T00:00:00.000Z'}])
      await a.listEvents({limit: 10, ...q})
    await store.exportRows(PLATFORM_ACCOUNT)

    const bad: string[] = []
    for (const sql of seen) for (const line of plan(sql)) if (crossing(line) && !/FROM (schema_migrations|account_numbers)\b/.test(sql)) bad.push(`${crossing(line)}: ${line}\n  in ${sql}`)
    expect(bad).toEqual([])
    expect(seen.size).toBeGreaterThan(100)
  })

  it("an account's rows read for a snapshot come in an index's order: no statement sorts them all before its first row (a stretch as long as the account is large)", async () => {
    seen.clear()
    await store.exportRows(PLATFORM_ACCOUNT)
    const sorting = [...seen].filter((sql) => (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(1) as {detail: string}[]).some((r) => /TEMP B-TREE/.test(r.detail)))
    expect(sorting).toEqual([])
    expect(seen.size).toBeGreaterThan(15)
  })

  it('the indexes led by a reference are the ones the lookups by that reference use', () => {
    const used = (sql: string) => plan(sql).join('; ')
    expect(used('SELECT seq FROM deliveries WHERE account = ? AND event = ? ORDER BY seq DESC LIMIT 11')).toMatch(/USING (COVERING )?INDEX deliveries_event \(event=\? AND account=\?\)/)
    expect(used('SELECT seq FROM deliveries WHERE account = ? AND endpoint = ? AND status = ? ORDER BY seq DESC LIMIT 11')).toMatch(/USING (COVERING )?INDEX deliveries_endpoint \(account=\? AND endpoint=\?\)/)
    expect(used('SELECT seq FROM ledger_entries WHERE account = ? AND payment = ? ORDER BY seq ASC')).toMatch(/USING (COVERING )?INDEX ledger_entries_payment \(payment=\? AND account=\?\)/)
    expect(used('SELECT seq FROM refunds WHERE account = ? AND payment = ? ORDER BY seq DESC LIMIT 11')).toMatch(/USING (COVERING )?INDEX refunds_payment \(payment=\? AND account=\?\)/)
    expect(used('SELECT seq FROM events WHERE account = ? AND COALESCE(payment, object_id) = ? ORDER BY seq DESC LIMIT 11')).toMatch(/USING (COVERING )?INDEX events_subject \(<expr>=\? AND account=\?\)/)
  })
})
