// `gw serve --store postgres://… --import-from DIR`: copies a SQLite data dir's contents into an
// empty PostgreSQL store, in one transaction: every account's objects (with their versions, keys
// and accounts included), event log, pending jobs, idempotency records, provider statistics and
// settings (clocks, provider health). The data dir's secret key and TLS files stay where they
// are: an instance keeps using them with --data-dir DIR.
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {type AccountRows, type Kind, UNSNAPSHOTTED, type StoredObject} from '../../ports/store.js'
import {TABLE} from '../tables.js'
import {SqliteStore} from '../sqlite/sqlite-store.js'
import {insertAccountRows} from './committer.js'
import {emptyNotice} from './feed.js'
import type {PostgresStore} from './postgres-store.js'
import {query} from './sql.js'

export interface ImportSummary {
  accounts: number
  objects: number
  events: number
  jobs: number
  idempotency: number
}

/**
 * Copies the SQLite database of a data dir (DIR/gw.db, or a .db file) into `store`, which must be
 * empty. The data dir is read through the SQLite store itself (it upgrades an older schema first,
 * as `gw serve` on it would, and unpacks what it keeps packed).
 */
export async function importSqliteDir(store: PostgresStore, dirOrFile: string, log: (line: string) => void = () => {}): Promise<ImportSummary> {
  const file = existsSync(join(dirOrFile, 'gw.db')) ? join(dirOrFile, 'gw.db') : dirOrFile
  if (!existsSync(file)) throw new Error(`--import-from: no engine database at ${join(dirOrFile, 'gw.db')}. Point it at a gw serve data dir (the one with gw.db).`)
  let src: SqliteStore
  try {
    src = new SqliteStore({path: file})
  } catch (e) {
    throw new Error(`--import-from: cannot open ${file}: ${(e as Error).message}`)
  }
  try {
    const accounts = (
      src.db
        .prepare(`SELECT id FROM account_numbers WHERE n IN (${[...Object.values(TABLE), 'events', 'jobs', 'idempotency_keys', 'provider_stats', 'settings'].map((t) => `SELECT account FROM ${t}`).join(' UNION ')}) ORDER BY id`)
        .all() as {id: string}[]
    ).map((r) => r.id)
    const summary: ImportSummary = {accounts: accounts.length, objects: 0, events: 0, jobs: 0, idempotency: 0}
    await store.inTx(async (c) => {
      await query(c, 'SET LOCAL synchronous_commit = on')
      const q = (text: string, params?: unknown[]) => query(c, text, params)
      const counts = [...Object.values(TABLE), 'jobs', 'idempotency_keys'].map((t) => `(SELECT count(*) FROM ${t})`).join(' + ')
      const busy = (await q(`SELECT (SELECT last FROM event_seq) + ${counts} AS n`)).rows[0].n as number
      if (busy > 0) throw new Error('--import-from copies into an empty PostgreSQL database only, and this one already holds data. Use a new database (CREATE DATABASE ...), or start without --import-from.')
      for (const account of accounts) {
        const rows: AccountRows = src.exportRows(account)
        // what a snapshot leaves out (keys, the accounts a platform account holds) is part of an import
        for (const kind of UNSNAPSHOTTED as ReadonlySet<Kind>) {
          const versions = new Map((src.db.prepare(`SELECT id, version FROM ${TABLE[kind]} WHERE account = ?`).all(src.no(account)) as {id: string; version: number}[]).map((r) => [r.id, r.version]))
          for (const obj of await src.account(account).all<StoredObject>(kind)) rows.objects.push({kind, obj, version: versions.get(obj.id) ?? 1})
        }
        await insertAccountRows(q, account, rows, emptyNotice(account))
        summary.objects += rows.objects.length
        summary.events += rows.events.length
        summary.jobs += rows.jobs.length
        summary.idempotency += rows.idempotency.length
      }
    })
    log(`imported ${file}: ${summary.accounts} account(s), ${summary.objects} objects, ${summary.events} events, ${summary.jobs} jobs, ${summary.idempotency} idempotency records`)
    return summary
  } finally {
    await src.close()
  }
}
