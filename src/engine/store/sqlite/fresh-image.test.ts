// A fresh database from the process's migrated image (migrations.ts, freshImage): the first
// fresh store runs the migrations, later ones start from a copy of what they made. What a file
// carries must be what the migrations make: schema, header values, pragmas, rows.
import {readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {describe, expect, it} from 'vitest'
import {PLATFORM_ACCOUNT} from '../../ports/store.js'
import {tempDirs} from '../../test-support/tmp.js'
import {freshDatabases, migrate} from './migrations.js'
import {MIGRATIONS} from './schema.js'
import {SqliteStore} from './sqlite-store.js'

const dir = tempDirs('gw-fresh-')
const customer = (i: number) => ({kind: 'customer' as const, obj: {id: `cus_${String(i).padStart(24, '0')}`, created_at: new Date().toISOString(), email: `c${i}@example.com`}})

/** What a database file carries that matters: its schema, header values and pragmas, and its rows but the migration times. */
function shape(path: string) {
  const db = new Database(path, {readonly: true})
  try {
    const pragma = (p: string) => db.pragma(p, {simple: true})
    const header = readFileSync(path).subarray(0, 100)
    return {
      schema: db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all(),
      pragmas: Object.fromEntries(['user_version', 'application_id', 'page_size', 'journal_mode', 'auto_vacuum', 'encoding', 'page_count', 'freelist_count'].map((p) => [p, pragma(p)])),
      // file format bytes (18-19: 2 = WAL), reserved space, the schema format number, text encoding
      header: {format: [header[18], header[19]], reserved: header[20], schemaFormat: header.readUInt32BE(44), encoding: header.readUInt32BE(56)},
      migrations: db.prepare('SELECT version FROM schema_migrations ORDER BY version').all(),
      accounts: db.prepare('SELECT n, id FROM account_numbers ORDER BY n').all(),
      rows: (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_migrations', 'account_numbers') ORDER BY name").all() as {name: string}[]).map(
        ({name}) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as {n: number}).n],
      ),
    }
  } finally {
    db.close()
  }
}

describe('a fresh database from the migrated image', () => {
  it('the first fresh store of the process runs the migrations; later ones start from its image, with the schema, header and pragmas the migrations make', async () => {
    // the reference: the migrations run on an empty file, as a store does it
    const reference = join(dir(), 'ref.db')
    const ref = new Database(reference)
    ref.pragma('journal_mode = WAL')
    migrate(ref)
    ref.pragma('wal_checkpoint(TRUNCATE)')
    ref.close()

    const before = freshDatabases()
    const stores = [join(dir(), 'gw.db'), join(dir(), 'gw.db'), join(dir(), 'gw.db')]
    for (const path of stores) {
      const s = new SqliteStore({path, durability: 'full'})
      expect(s.schemaVersion()).toBe(MIGRATIONS.length)
      await s.close()
    }
    const after = freshDatabases()
    // three fresh stores: at most one migrated (none if an earlier test of this process made the image), the rest copied
    expect(after.made + after.copied - before.made - before.copied).toBe(3)
    expect(after.made).toBeGreaterThanOrEqual(1)
    expect(after.copied - before.copied).toBeGreaterThanOrEqual(2)
    const want = shape(reference)
    for (const path of stores) {
      expect(shape(path)).toEqual(want)
      // the file is its owner's only
      expect(statSync(path).mode & 0o777).toBe(0o600)
    }
  })

  it("a copied database's migration times are its own, and it holds none of another store's data", async () => {
    // a store whose database was copied: data written to it, and to the one before
    const first = join(dir(), 'gw.db')
    const a = new SqliteStore({path: first, durability: 'full'})
    await a.account(PLATFORM_ACCOUNT).commit({puts: [customer(1)]})
    await a.account('acct_other').commit({puts: [customer(2)]})
    await a.close()
    const started = new Date().toISOString()
    const b = new SqliteStore({path: join(dir(), 'gw.db'), durability: 'full'})
    expect(await b.account(PLATFORM_ACCOUNT).all('customer')).toEqual([])
    expect(await b.account('acct_other').all('customer')).toEqual([])
    const times = b.db.prepare('SELECT applied_at FROM schema_migrations').all() as {applied_at: string}[]
    expect(times).toHaveLength(MIGRATIONS.length)
    for (const t of times) expect(t.applied_at >= started).toBe(true)
    expect(b.db.prepare('SELECT n, id FROM account_numbers').all()).toEqual([{n: 1, id: PLATFORM_ACCOUNT}])
    // and it works as a store: a commit, a new account numbered after the platform's
    await b.account('acct_new').commit({puts: [customer(3)]})
    expect(await b.account('acct_new').all('customer')).toHaveLength(1)
    expect(b.db.prepare("SELECT n FROM account_numbers WHERE id = 'acct_new'").get()).toEqual({n: 2})
    await b.close()
  })
})
