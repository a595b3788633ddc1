// `gw serve --store postgres://… --import-from DIR`: copies a SQLite data dir's contents into an
// empty PostgreSQL store, in one transaction: every object (with its version), the event log in
// its order, pending jobs, idempotency records, provider statistics and settings (the clock
// offset, provider health). The data dir's secret key and TLS files stay where they are: an
// instance keeps using them with --data-dir DIR.
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {KINDS, type FieldType, type Kind, type StoredObject} from '../../ports/store.js'
import {unpack} from '../sqlite/codec.js'
import {TABLE} from '../sqlite/schema.js'
import {dataObjectOf, SqliteStore} from '../sqlite/sqlite-store.js'
import type {PostgresStore} from './postgres-store.js'

const CHUNK = 500
const INTERNAL = '_x'

export interface ImportSummary {
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
  const db = src.db
  try {
    const summary: ImportSummary = {objects: 0, events: 0, jobs: 0, idempotency: 0}
    await store.withTransaction(async (q) => {
      const busy = (await q<{n: number}>(`SELECT (SELECT last FROM event_seq) + ${(Object.keys(TABLE) as Kind[]).map((k) => `(SELECT count(*) FROM ${TABLE[k]})`).join(' + ')} + (SELECT count(*) FROM jobs) + (SELECT count(*) FROM idempotency_keys) AS n`))[0]!.n
      if (busy > 0) throw new Error('--import-from copies into an empty PostgreSQL database only, and this one already holds data. Use a new database (CREATE DATABASE ...), or start without --import-from.')
      for (const kind of Object.keys(TABLE) as Kind[]) {
        const cols = Object.keys(KINDS[kind])
        const types = KINDS[kind] as Record<string, FieldType>
        const versions = new Map((db.prepare(`SELECT id, version FROM ${TABLE[kind]}`).all() as {id: string; version: number}[]).map((r) => [r.id, r.version]))
        const objs = await src.all<StoredObject>(kind)
        for (let i = 0; i < objs.length; i += CHUNK) {
          const params: unknown[] = []
          const width = 5 + cols.length
          const values = objs.slice(i, i + CHUNK).map((o, j) => {
            const {[INTERNAL]: internal, ...pub} = o as unknown as Record<string, unknown>
            params.push(o.id, o.created_at, versions.get(o.id) ?? 1, JSON.stringify(pub), internal === undefined ? null : JSON.stringify(internal), ...cols.map((c) => typedValue(types[c]!, pub[c])))
            return `(${Array.from({length: width}, (_, k) => `$${j * width + k + 1}`).join(', ')})`
          })
          await q(`INSERT INTO ${TABLE[kind]} (id, created_at, version, data, internal${cols.map((c) => `, ${c}`).join('')}) VALUES ${values.join(', ')}`, params)
        }
        summary.objects += objs.length
      }
      let seq = 0
      for (let after = 0; ; ) {
        const events = await src.eventsAfter(after, CHUNK)
        if (!events.length) break
        const params: unknown[] = []
        const values = events.map((e, j) => {
          params.push(++seq, e.id, e.type, e.created_at, e.json)
          return `($${j * 5 + 1}, $${j * 5 + 2}, $${j * 5 + 3}, $${j * 5 + 4}, $${j * 5 + 5})`
        })
        await q(`INSERT INTO events (seq, id, type, created_at, json) VALUES ${values.join(', ')}`, params)
        after = events[events.length - 1]!.seq
      }
      await q('UPDATE event_seq SET last = $1', [seq])
      summary.events = seq
      // every pending job, with its data (the claims stay in the SQLite store, which is closed next)
      const jobs = await src.claimJobs('9999-12-31T23:59:59.999Z', 10_000_000, 60_000)
      for (const j of jobs) await q('INSERT INTO jobs (id, kind, ref, due_at, data) VALUES ($1, $2, $3, $4, $5::json)', [j.id, j.kind, j.ref, j.due_at, j.data ? JSON.stringify(j.data) : null])
      summary.jobs = jobs.length
      const keys = db
        .prepare('SELECT i.scope, i.key, i.request_hash, i.status, i.body, i.created_at, i.expires_at, e.json AS event_json FROM idempotency_keys i LEFT JOIN events e ON e.id = i.body_event')
        .all() as {scope: string; key: string; request_hash: string; status: number; body: string | Buffer; created_at: string; expires_at: string; event_json: string | Buffer | null}[]
      for (const k of keys) {
        // a body kept as a reference to its event's data.object is copied out of the event
        const body = k.event_json !== null ? dataObjectOf(unpack(k.event_json)) : unpack(k.body)
        await q('INSERT INTO idempotency_keys (scope, key, request_hash, status, body, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [k.scope, k.key, k.request_hash, k.status, body, k.created_at, k.expires_at])
      }
      summary.idempotency = keys.length
      for (const s of db.prepare('SELECT provider, day, approved, total FROM provider_stats').all() as Record<string, unknown>[])
        await q('INSERT INTO provider_stats (provider, day, approved, total) VALUES ($1, $2, $3, $4)', [s.provider, s.day, s.approved, s.total])
      for (const s of db.prepare('SELECT key, value FROM settings').all() as {key: string; value: string}[])
        await q('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [s.key, s.value])
    })
    log(`imported ${file}: ${summary.objects} objects, ${summary.events} events, ${summary.jobs} jobs, ${summary.idempotency} idempotency records`)
    return summary
  } finally {
    await src.close()
  }
}

function typedValue(type: FieldType, v: unknown): string | number | boolean | null {
  if (v === undefined || v === null) return null
  if (type === 'bool') return Boolean(v)
  if (type === 'int') return typeof v === 'number' ? v : null
  return typeof v === 'string' ? v : null
}
