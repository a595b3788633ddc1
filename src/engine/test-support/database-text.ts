// What a test's engine wrote to its database, as text, for tests that prove a secret (a working
// key, a signing secret, a card number) rests nowhere in it: SQLite's files byte for byte (the
// WAL too) and every stored value decoded (large values are packed); PostgreSQL's every text and
// JSON column, and a pg_dump of the database.
import {execFile} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {promisify} from 'node:util'
import Database from 'better-sqlite3'
import type {EngineOptions} from '../index.js'
import {unpack} from '../store/sqlite/codec.js'
import {postgresBinDir} from '../store/postgres/cluster.js'
import type {TestEngine} from './harness.js'

const onPostgres = process.env.GW_TEST_STORE === 'postgres'

/** A store of its own, so the test can read the database it writes (PostgreSQL: its URL). */
export async function ownStore(): Promise<{opts: Partial<EngineOptions>; url?: string}> {
  if (!onPostgres) return {opts: {}}
  const [{freshDatabase}, {postgresStore}] = await Promise.all([import('./pg.js'), import('../store/postgres/postgres-store.js')])
  const url = await freshDatabase('secrets')
  return {opts: {store: postgresStore(url, {unitConnections: 4, readConnections: 2})}, url}
}

/** Every byte the database holds, as text: SQLite's files (after a checkpoint) and every value decoded; PostgreSQL's every text and JSON column and its pg_dump. */
export async function databaseText(t: TestEngine, url: string | undefined): Promise<string> {
  if (url) {
    const {default: pg} = await import('pg')
    const c = new pg.Client({connectionString: url})
    await c.connect()
    try {
      const cols = (await c.query<{t: string; c: string}>("SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'public' AND data_type IN ('text', 'json', 'jsonb', 'character varying')")).rows
      const out: string[] = []
      for (const {t: table, c: col} of cols) out.push(...(await c.query<{v: string | null}>(`SELECT "${col}"::text AS v FROM "${table}"`)).rows.map((r) => r.v ?? ''))
      // and the dump an operator would take of it
      out.push((await promisify(execFile)(join(postgresBinDir(), 'pg_dump'), ['--dbname', url], {maxBuffer: 256 * 1024 * 1024})).stdout)
      return out.join('\n')
    } finally {
      await c.end()
    }
  }
  const file = join(t.dataDir, 'gw.db')
  const db = new Database(file)
  const out: string[] = []
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
    for (const {name} of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {name: string}[])
      for (const row of db.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][])
        for (const v of row) {
          if (Buffer.isBuffer(v)) {
            out.push(v.toString('latin1'))
            try {
              out.push(unpack(v))
            } catch {
              /* not a packed value */
            }
          } else out.push(String(v))
        }
  } finally {
    db.close()
  }
  for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) out.push(readFileSync(f).toString('latin1'))
  return out.join('\n')
}

