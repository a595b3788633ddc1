// The schema migrations of the SQLite adapter (schema.ts holds their SQL), with the ones that
// read stored bytes in JavaScript (which may be packed: SQL cannot read them).
import type {Database as Db} from 'better-sqlite3'
import type {Kind} from '../../ports/store.js'
import {eventSubjects} from '../../domain/events.js'
import {fieldValue} from '../columns.js'
import {scrubShownOnce} from '../../domain/secrets.js'
import {pack, unpack} from './codec.js'
import {columnValue, parseRow, type Row, SELECT} from './rows.js'
import {EVENT_SUBJECTS_MIGRATION, MIGRATIONS, SCRUB_SECRETS_MIGRATION, SEARCH_KEYS_COLUMNS, SEARCH_KEYS_MIGRATION, TABLE} from './schema.js'

/** Applies the migrations the file has not had; refuses a file a newer gw wrote. */
export function migrate(db: Db): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)')
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as {v: number | null}
  const current = row.v ?? 0
  if (current > MIGRATIONS.length)
    throw new Error(`this data dir was written by a newer gw (schema ${current}; this one knows ${MIGRATIONS.length}): upgrade gw to open it`)
  let scrubbed = false
  const secureDelete = db.pragma('secure_delete', {simple: true}) as number
  for (let i = current; i < MIGRATIONS.length; i++) {
    // what a migration rewrites to drop a secret leaves no copy in the free space of the file's pages
    if (i + 1 === SCRUB_SECRETS_MIGRATION) db.pragma('secure_delete = ON')
    db.transaction(() => {
      db.exec(MIGRATIONS[i]!)
      if (i + 1 === EVENT_SUBJECTS_MIGRATION) backfillEventSubjects(db)
      if (i + 1 === SCRUB_SECRETS_MIGRATION) scrubbed = scrubShownOnceSecrets(db) > 0
      if (i + 1 === SEARCH_KEYS_MIGRATION) backfillSearchKeys(db)
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(i + 1, new Date().toISOString())
    })()
    if (i + 1 === SCRUB_SECRETS_MIGRATION) db.pragma(`secure_delete = ${secureDelete}`)
  }
  // ... nor in the write-ahead log: its frames are copied into the file and it is emptied
  if (scrubbed) db.pragma('wal_checkpoint(TRUNCATE)')
}

/**
 * A fresh database as the migrations made it, kept by the process: the first fresh store of a
 * process runs the migrations on its empty file and keeps the result's bytes (SQLite's own
 * serialization: pages, header with page size, WAL mode, user_version and application_id); each
 * later fresh store starts its file from a copy of them. The schema is still made by the
 * migrations only, by this very code, once per process: ~50 ms a fresh store saves (22 tables
 * and 66 indexes rebuilt by one migration), which a process that opens many fresh stores (a test
 * suite booting engines) pays once. The copy is taken before anything but the migrations wrote
 * to the file, so it holds no one's data; its migration times are made the copy's own.
 */
const fresh: {image: Buffer | undefined; made: number; copied: number} = {image: undefined, made: 0, copied: 0}

/** How many fresh databases were migrated and how many copied from the image in this process (tests). */
export function freshDatabases(): {made: number; copied: number} {
  return {made: fresh.made, copied: fresh.copied}
}

/** The bytes a new database file starts with: the process's migrated image, or none (empty). */
export function freshImage(): Buffer | undefined {
  return fresh.image
}

/**
 * After `migrate` on a file that did not exist: keeps its bytes for the next fresh store (the
 * first time), or, for a file started from the image, makes the migration times its own.
 */
export function freshMigrated(db: Db, fromImage: boolean): void {
  if (fromImage) {
    fresh.copied++
    db.prepare('UPDATE schema_migrations SET applied_at = ?').run(new Date().toISOString())
    return
  }
  fresh.made++
  fresh.image ??= db.serialize()
}

/** The schema version of the data (tests). */
export function schemaVersion(db: Db): number {
  return (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as {v: number}).v
}

/**
 * Migration 7 (docs/decisions.md#secrets-at-rest): stored answers that show a secret once (a new key, account or
 * webhook endpoint, stored before the engine kept them redacted) keep it redacted; how many
 * changed. Read in JavaScript: the bodies may be packed.
 */
function scrubShownOnceSecrets(db: Db): number {
  const update = db.prepare('UPDATE idempotency_keys SET body = ? WHERE rowid = ?')
  const page = db.prepare('SELECT rowid AS r, body FROM idempotency_keys WHERE body_event IS NULL AND rowid > ? ORDER BY rowid LIMIT 1000')
  let changed = 0
  for (let after = 0; ; ) {
    const rows = page.all(after) as {r: number; body: string | Buffer}[]
    if (rows.length === 0) return changed
    for (const row of rows) {
      const body = unpack(row.body)
      const scrubbed = scrubShownOnce(body)
      if (scrubbed !== body) {
        update.run(pack(scrubbed), row.r)
        changed++
      }
    }
    after = rows[rows.length - 1]!.r
  }
}

/**
 * Migration 8 (docs/decisions.md#finding-payments): the search columns of every stored payment and customer, computed as
 * every write computes them (ports/store.ts DERIVED); read in JavaScript (the JSON may be packed).
 */
function backfillSearchKeys(db: Db): void {
  for (const [table, cols] of Object.entries(SEARCH_KEYS_COLUMNS)) {
    const kind = (Object.keys(TABLE) as Kind[]).find((k) => TABLE[k] === table)!
    const update = db.prepare(`UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE seq = ?`)
    const page = db.prepare(`SELECT seq, ${SELECT[kind]} FROM ${table} WHERE seq > ? ORDER BY seq LIMIT 1000`)
    for (let after = 0; ; ) {
      const rows = page.all(after) as (Row & {seq: number})[]
      if (rows.length === 0) break
      for (const row of rows) {
        const obj = parseRow<Record<string, unknown>>(kind, row)
        update.run(...cols.map((c) => columnValue('text', fieldValue(kind, obj, c))), row.seq)
      }
      after = rows[rows.length - 1]!.seq
    }
  }
}

/** Migration 6: each stored event's object and payment, read from its bytes (which may be packed: SQL cannot read them). */
function backfillEventSubjects(db: Db): void {
  const update = db.prepare('UPDATE events SET object_id = ?, payment = ? WHERE seq = ?')
  const page = db.prepare('SELECT seq, json FROM events WHERE seq > ? ORDER BY seq LIMIT 1000')
  for (let after = 0; ; ) {
    const rows = page.all(after) as {seq: number; json: string | Buffer}[]
    if (rows.length === 0) return
    for (const row of rows) {
      const {object_id, payment} = eventSubjects(JSON.parse(unpack(row.json)) as {data?: {object?: Record<string, unknown>}})
      update.run(object_id, payment, row.seq)
    }
    after = rows[rows.length - 1]!.seq
  }
}
