// The schema migrations of the PostgreSQL adapter (schema.ts holds their SQL): applied once,
// whoever starts first, under an advisory lock.
import pg from 'pg'
import type {Kind} from '../../ports/store.js'
import {fieldValue} from '../columns.js'
import {MIGRATIONS, SEARCH_KEYS_COLUMNS, SEARCH_KEYS_MIGRATION, TABLE} from './schema.js'
import {columnValue, objOf} from './sql.js'

/** advisory lock key of the migrations (the bigint form; per-key locks hash text into the same space) */
const MIGRATION_LOCK = 7_263_101

export async function migrate(clientConfig: pg.ClientConfig): Promise<void> {
  const c = new pg.Client(clientConfig)
  c.on('error', () => {})
  await c.connect()
  try {
    await c.query('BEGIN')
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await c.query('CREATE TABLE IF NOT EXISTS gw_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)')
    const current = Number((await c.query<{v: number | null}>('SELECT max(version) AS v FROM gw_schema_migrations')).rows[0]!.v ?? 0)
    if (current > MIGRATIONS.length)
      throw new Error(`The database's schema is version ${current}, newer than this gw knows (${MIGRATIONS.length}): upgrade gw on this instance.`)
    for (let i = current; i < MIGRATIONS.length; i++) {
      await c.query(MIGRATIONS[i]!)
      if (i + 1 === SEARCH_KEYS_MIGRATION) await backfillSearchKeys(c)
      await c.query('INSERT INTO gw_schema_migrations (version, applied_at) VALUES ($1, now())', [i + 1])
    }
    await c.query('COMMIT')
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {})
    throw e
  } finally {
    await c.end().catch(() => {})
  }
}

/**
 * Migration 4 (docs/decisions.md#finding-payments): the search columns of every stored payment and customer, computed as
 * every write computes them (ports/store.ts DERIVED), a page of rows at a time.
 */
async function backfillSearchKeys(c: pg.Client): Promise<void> {
  for (const [table, cols] of Object.entries(SEARCH_KEYS_COLUMNS)) {
    const kind = (Object.keys(TABLE) as Kind[]).find((k) => TABLE[k] === table)!
    for (let after = 0; ; ) {
      const page = (await c.query<{seq: number; data: Record<string, unknown>; internal: unknown}>(`SELECT seq, data, internal FROM ${table} WHERE seq > $1 ORDER BY seq LIMIT 1000`, [after])).rows
      if (page.length === 0) break
      for (const r of page) {
        const obj = objOf<Record<string, unknown>>(r)
        await c.query(`UPDATE ${table} SET ${cols.map((col, j) => `${col} = $${j + 2}`).join(', ')} WHERE seq = $1`, [r.seq, ...cols.map((col) => columnValue('text', fieldValue(kind, obj, col)))])
      }
      after = Number(page[page.length - 1]!.seq)
    }
  }
}
