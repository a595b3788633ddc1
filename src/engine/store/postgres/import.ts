// `gw serve --store postgres://… --import-from DIR`: copies a SQLite data dir's contents into an
// empty PostgreSQL store, in one transaction: every object (with its version), the event log in
// its order, pending jobs, idempotency records, provider statistics and settings (the clock
// offset, provider health). The data dir's secret key and TLS files stay where they are: an
// instance keeps using them with --data-dir DIR.
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import Database from 'better-sqlite3'
import {KINDS, type FieldType, type Kind} from '../../ports/store.js'
import {TABLE} from '../sqlite/schema.js'
import type {PostgresStore} from './postgres-store.js'

const CHUNK = 500

export interface ImportSummary {
  objects: number
  events: number
  jobs: number
  idempotency: number
}

/** Copies the SQLite database of a data dir (DIR/gw.db, or a .db file) into `store`, which must be empty. */
export async function importSqliteDir(store: PostgresStore, dirOrFile: string, log: (line: string) => void = () => {}): Promise<ImportSummary> {
  const file = existsSync(join(dirOrFile, 'gw.db')) ? join(dirOrFile, 'gw.db') : dirOrFile
  if (!existsSync(file)) throw new Error(`--import-from: no engine database at ${join(dirOrFile, 'gw.db')}. Point it at a gw serve data dir (the one with gw.db).`)
  let db: Database.Database
  try {
    db = new Database(file, {readonly: true, fileMustExist: true})
  } catch (e) {
    throw new Error(`--import-from: cannot open ${file}: ${(e as Error).message}`)
  }
  try {
    const version = (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as {v: number | null}).v ?? 0
    if (version < 3) throw new Error(`--import-from: ${file} is at schema version ${version}; start gw serve on it once (without --store) to upgrade it, then import.`)
    const summary: ImportSummary = {objects: 0, events: 0, jobs: 0, idempotency: 0}
    await store.withTransaction(async (q) => {
      const busy = (await q<{n: number}>(`SELECT (SELECT last FROM event_seq) + ${(Object.keys(TABLE) as Kind[]).map((k) => `(SELECT count(*) FROM ${TABLE[k]})`).join(' + ')} + (SELECT count(*) FROM jobs) + (SELECT count(*) FROM idempotency_keys) AS n`))[0]!.n
      if (busy > 0) throw new Error('--import-from copies into an empty PostgreSQL database only, and this one already holds data. Use a new database (CREATE DATABASE ...), or start without --import-from.')
      for (const kind of Object.keys(TABLE) as Kind[]) {
        const cols = Object.keys(KINDS[kind])
        const types = KINDS[kind] as Record<string, FieldType>
        const rows = db.prepare(`SELECT id, created_at, version, data, internal FROM ${TABLE[kind]} ORDER BY seq`).all() as {id: string; created_at: string; version: number; data: string; internal: string | null}[]
        for (let i = 0; i < rows.length; i += CHUNK) {
          const params: unknown[] = []
          const width = 5 + cols.length
          const values = rows.slice(i, i + CHUNK).map((r, j) => {
            const obj = JSON.parse(r.data) as Record<string, unknown>
            params.push(r.id, r.created_at, r.version, r.data, r.internal, ...cols.map((c) => typedValue(types[c]!, obj[c])))
            return `(${Array.from({length: width}, (_, k) => `$${j * width + k + 1}`).join(', ')})`
          })
          await q(`INSERT INTO ${TABLE[kind]} (id, created_at, version, data, internal${cols.map((c) => `, ${c}`).join('')}) VALUES ${values.join(', ')}`, params)
        }
        summary.objects += rows.length
      }
      const events = db.prepare('SELECT id, type, created_at, json FROM events ORDER BY seq').all() as {id: string; type: string; created_at: string; json: string}[]
      for (let i = 0; i < events.length; i += CHUNK) {
        const params: unknown[] = []
        const values = events.slice(i, i + CHUNK).map((e, j) => {
          params.push(i + j + 1, e.id, e.type, e.created_at, e.json)
          return `($${j * 5 + 1}, $${j * 5 + 2}, $${j * 5 + 3}, $${j * 5 + 4}, $${j * 5 + 5})`
        })
        await q(`INSERT INTO events (seq, id, type, created_at, json) VALUES ${values.join(', ')}`, params)
      }
      await q('UPDATE event_seq SET last = $1', [events.length])
      summary.events = events.length
      const jobs = db.prepare('SELECT id, kind, ref, due_at, data FROM jobs').all() as {id: string; kind: string; ref: string; due_at: string; data: string | null}[]
      for (const j of jobs) await q('INSERT INTO jobs (id, kind, ref, due_at, data) VALUES ($1, $2, $3, $4, $5::jsonb)', [j.id, j.kind, j.ref, j.due_at, j.data])
      summary.jobs = jobs.length
      const keys = db.prepare('SELECT scope, key, request_hash, status, body, created_at, expires_at FROM idempotency_keys').all() as Record<string, unknown>[]
      for (const k of keys)
        await q('INSERT INTO idempotency_keys (scope, key, request_hash, status, body, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
          k.scope,
          k.key,
          k.request_hash,
          k.status,
          k.body,
          k.created_at,
          k.expires_at,
        ])
      summary.idempotency = keys.length
      for (const s of db.prepare('SELECT provider, day, approved, total FROM provider_stats').all() as Record<string, unknown>[])
        await q('INSERT INTO provider_stats (provider, day, approved, total) VALUES ($1, $2, $3, $4)', [s.provider, s.day, s.approved, s.total])
      for (const s of db.prepare('SELECT key, value FROM settings').all() as {key: string; value: string}[])
        await q('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [s.key, s.value])
    })
    log(`imported ${file}: ${summary.objects} objects, ${summary.events} events, ${summary.jobs} jobs, ${summary.idempotency} idempotency records`)
    return summary
  } finally {
    db.close()
  }
}

function typedValue(type: FieldType, v: unknown): string | number | boolean | null {
  if (v === undefined || v === null) return null
  if (type === 'bool') return Boolean(v)
  if (type === 'int') return typeof v === 'number' ? v : null
  return typeof v === 'string' ? v : null
}
