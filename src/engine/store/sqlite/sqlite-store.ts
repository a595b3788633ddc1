import {closeSync, fdatasync, openSync} from 'node:fs'
import Database from 'better-sqlite3'
import type {Database as Db, Statement} from 'better-sqlite3'
import {
  type ChangeSet,
  type EventQuery,
  type Filter,
  type IdempotencyRecord,
  type Job,
  type Kind,
  type ListPage,
  type ListQuery,
  type StatIncrement,
  type Store,
  type StoredEvent,
  type StoredObject,
  type Versioned,
  VersionConflictError,
} from '../../ports/store.js'
import {Checkpointer} from './checkpointer.js'
import {MIGRATIONS, TABLES} from './schema.js'

export interface SqliteStoreOptions {
  /** file path, or ':memory:' */
  path: string
  /** 'full' (default) fsyncs every commit; 'normal' may lose the last commits on power loss */
  durability?: 'full' | 'normal'
}

interface Pending {
  cs: ChangeSet
  resolve: () => void
  reject: (e: unknown) => void
}

const columnValue = (v: unknown): string | null => {
  if (v === undefined || v === null) return null
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return null
}

/**
 * SQLite adapter. Commits are grouped: every ChangeSet handed in during one turn of the
 * event loop is written in one transaction (one fsync), each inside its own savepoint, so a
 * failing ChangeSet rolls back alone and the others still land.
 */
export class SqliteStore implements Store {
  readonly db: Db
  private stmts = new Map<string, Statement>()
  private queue: Pending[] = []
  private flushScheduled = false
  private closed = false
  /** 'full' durability: the WAL file, fdatasync'ed off the event loop before commits resolve */
  private walFd: number | undefined
  private syncing = false
  /** committed to the WAL, waiting for the next fdatasync */
  private unsynced: Pending[] = []
  private synced: (() => void)[] = []
  /** 'full' durability: WAL checkpoints on a worker thread */
  private checkpointer: Checkpointer | undefined

  constructor(opts: SqliteStoreOptions) {
    this.db = new Database(opts.path)
    const wal = this.db.pragma('journal_mode = WAL', {simple: true}) === 'wal'
    this.db.pragma(`synchronous = ${opts.durability === 'normal' ? 'NORMAL' : 'FULL'}`)
    this.db.pragma('busy_timeout = 5000')
    this.db.pragma('foreign_keys = ON')
    this.migrate()
    if (wal && opts.durability !== 'normal') {
      // synchronous=FULL would fsync the WAL inside COMMIT, blocking the event loop for the
      // disk (1-3 ms each) while no request makes progress. Instead SQLite commits without
      // the sync (NORMAL: it still syncs around checkpoints) and the store fdatasyncs the WAL
      // on the libuv pool; a commit resolves only after a sync that covers it, so 'full'
      // keeps its promise (durable before it is acknowledged), and the commits that arrive
      // while one sync runs share the next.
      try {
        this.walFd = openSync(`${this.db.name}-wal`, 'r+')
        this.db.pragma('synchronous = NORMAL')
      } catch {
        this.walFd = undefined
      }
      // Checkpoints (copying WAL pages into the database file, with two fsyncs) ran inside
      // every 1000th-page COMMIT, about a third of the event loop's time under load. A worker
      // thread now does them; this connection's automatic checkpoint stays as the backstop,
      // less often, and then finds the WAL nearly copied already.
      if (this.walFd !== undefined) {
        this.checkpointer = new Checkpointer(this.db.name)
        this.db.pragma('wal_autocheckpoint = 10000')
      }
    }
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)')
    const row = this.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as {v: number | null}
    const current = row.v ?? 0
    for (let i = current; i < MIGRATIONS.length; i++) {
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[i]!)
        this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(i + 1, new Date().toISOString())
      })()
    }
  }

  private stmt(sql: string): Statement {
    let s = this.stmts.get(sql)
    if (!s) {
      s = this.db.prepare(sql)
      this.stmts.set(sql, s)
    }
    return s
  }

  // ---------------------------------------------------------------- objects

  async get<T extends StoredObject>(kind: Kind, id: string): Promise<Versioned<T> | undefined> {
    return this.getSync<T>(kind, id)
  }

  getSync<T extends StoredObject>(kind: Kind, id: string): Versioned<T> | undefined {
    const {table} = TABLES[kind]
    const row = this.stmt(`SELECT data, version FROM ${table} WHERE id = ?`).get(id) as
      | {data: string; version: number}
      | undefined
    return row ? {obj: JSON.parse(row.data) as T, version: row.version} : undefined
  }

  private where(kind: Kind, filters: readonly Filter[] | undefined, params: unknown[]): string[] {
    const {columns} = TABLES[kind]
    const clauses: string[] = []
    for (const f of filters ?? []) {
      if (f.field !== 'created_at' && !columns.includes(f.field)) {
        throw new Error(`cannot filter ${kind} by ${f.field}`)
      }
      switch (f.op) {
        case 'eq':
          if (f.value === null) clauses.push(`${f.field} IS NULL`)
          else {
            clauses.push(`${f.field} = ?`)
            params.push(columnValue(f.value))
          }
          break
        case 'gte':
          clauses.push(`${f.field} >= ?`)
          params.push(f.value)
          break
        case 'lte':
          clauses.push(`${f.field} <= ?`)
          params.push(f.value)
          break
        case 'prefix':
          clauses.push(`substr(${f.field}, 1, ?) = ?`)
          params.push(String(f.value).length, f.value)
          break
        case 'in': {
          const vals = f.value as readonly string[]
          if (vals.length === 0) clauses.push('0')
          else {
            clauses.push(`${f.field} IN (${vals.map(() => '?').join(',')})`)
            params.push(...vals)
          }
          break
        }
      }
    }
    return clauses
  }

  async list<T extends StoredObject>(kind: Kind, q: ListQuery): Promise<ListPage<T>> {
    const {table} = TABLES[kind]
    return this.page(table, q, (params) => this.where(kind, q.filters, params), 'data', (r) => JSON.parse(r) as T)
  }

  private page<T>(
    table: string,
    q: {limit: number; starting_after?: string; ending_before?: string},
    whereFn: (params: unknown[]) => string[],
    col: string,
    map: (raw: string) => T,
  ): ListPage<T> {
    const params: unknown[] = []
    const clauses = whereFn(params)
    let asc = false
    for (const [name, op] of [
      ['starting_after', '<'],
      ['ending_before', '>'],
    ] as const) {
      const cursor = q[name]
      if (cursor === undefined) continue
      const row = this.stmt(`SELECT seq FROM ${table} WHERE id = ?`).get(cursor) as {seq: number} | undefined
      if (!row) return {data: [], has_more: false, cursor_missing: name}
      clauses.push(`seq ${op} ?`)
      params.push(row.seq)
      if (name === 'ending_before') asc = true
    }
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''
    const sql = `SELECT ${col} AS v FROM ${table} ${where} ORDER BY seq ${asc ? 'ASC' : 'DESC'} LIMIT ?`
    const rows = this.stmt(sql).all(...params, q.limit + 1) as {v: string}[]
    const has_more = rows.length > q.limit
    const slice = rows.slice(0, q.limit)
    if (asc) slice.reverse()
    return {data: slice.map((r) => map(r.v)), has_more}
  }

  async sum(kind: Kind, q: {field: string; groupBy: string; filters?: Filter[]}): Promise<{group: string | null; sum: number}[]> {
    const {table, columns} = TABLES[kind]
    for (const f of [q.field, q.groupBy]) if (!columns.includes(f)) throw new Error(`cannot sum ${kind} by ${f}`)
    const params: unknown[] = []
    const clauses = this.where(kind, q.filters, params)
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''
    return this.stmt(`SELECT ${q.groupBy} AS "group", COALESCE(SUM(${q.field}), 0) AS sum FROM ${table} ${where} GROUP BY ${q.groupBy} ORDER BY ${q.groupBy}`).all(
      ...params,
    ) as {group: string | null; sum: number}[]
  }

  async all<T extends StoredObject>(kind: Kind, filters?: Filter[]): Promise<T[]> {
    const {table} = TABLES[kind]
    const params: unknown[] = []
    const clauses = this.where(kind, filters, params)
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''
    const rows = this.stmt(`SELECT data FROM ${table} ${where} ORDER BY seq ASC`).all(...params) as {data: string}[]
    return rows.map((r) => JSON.parse(r.data) as T)
  }

  // ---------------------------------------------------------------- commit

  commit(cs: ChangeSet): Promise<void> {
    if (this.closed) return Promise.reject(new Error('store is closed'))
    return new Promise<void>((resolve, reject) => {
      this.queue.push({cs, resolve, reject})
      // while a sync runs, commits gather for the next transaction (group commit)
      if (!this.flushScheduled && !this.syncing) {
        this.flushScheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  private flush(): void {
    this.flushScheduled = false
    const batch = this.queue
    this.queue = []
    if (batch.length === 0) return
    const failed = new Map<Pending, unknown>()
    try {
      this.db.exec('BEGIN IMMEDIATE')
      for (const p of batch) {
        this.db.exec('SAVEPOINT cs')
        try {
          this.apply(p.cs)
          this.db.exec('RELEASE cs')
        } catch (e) {
          this.db.exec('ROLLBACK TO cs')
          this.db.exec('RELEASE cs')
          failed.set(p, e)
        }
      }
      this.db.exec('COMMIT')
      this.checkpointer?.nudge()
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK')
      for (const p of batch) p.reject(e)
      this.sync()
      return
    }
    for (const p of batch) {
      const err = failed.get(p)
      if (err !== undefined) p.reject(err)
      else if (this.walFd !== undefined) this.unsynced.push(p)
      else p.resolve()
    }
    this.sync()
  }

  /**
   * One fdatasync of the WAL at a time; it covers every commit written before it started.
   * Commits that arrive meanwhile are written as one transaction when it completes.
   */
  private sync(): void {
    if (this.syncing || this.walFd === undefined) return
    if (this.unsynced.length === 0) {
      for (const f of this.synced.splice(0)) f()
      return
    }
    this.syncing = true
    const waiting = this.unsynced
    this.unsynced = []
    fdatasync(this.walFd, (err) => {
      this.syncing = false
      for (const p of waiting) {
        if (err) p.reject(err)
        else p.resolve()
      }
      if (this.queue.length > 0 && !this.flushScheduled) this.flush()
      else this.sync()
    })
  }

  private apply(cs: ChangeSet): void {
    for (const put of cs.puts ?? []) {
      const {table, columns} = TABLES[put.kind]
      const colVals = columns.map((c) => columnValue((put.obj as unknown as Record<string, unknown>)[c]))
      const data = JSON.stringify(put.obj)
      if (put.expectVersion === undefined) {
        const cols = columns.map((c) => `, ${c}`).join('')
        const qs = columns.map(() => ', ?').join('')
        this.stmt(`INSERT INTO ${table} (id, created_at, version, data${cols}) VALUES (?, ?, 1, ?${qs})`).run(
          put.obj.id,
          put.obj.created_at,
          data,
          ...colVals,
        )
      } else {
        const sets = columns.map((c) => `, ${c} = ?`).join('')
        const r = this.stmt(`UPDATE ${table} SET data = ?, version = version + 1${sets} WHERE id = ? AND version = ?`).run(
          data,
          ...colVals,
          put.obj.id,
          put.expectVersion,
        )
        if (r.changes !== 1) throw new VersionConflictError(put.kind, put.obj.id)
      }
    }
    for (const d of cs.deletes ?? []) {
      this.stmt(`DELETE FROM ${TABLES[d.kind].table} WHERE id = ?`).run(d.id)
    }
    for (const e of cs.events ?? []) {
      this.stmt('INSERT INTO events (id, type, created_at, json) VALUES (?, ?, ?, ?)').run(e.id, e.type, e.created_at, e.json)
    }
    for (const j of cs.removeJobs ?? []) {
      this.stmt('DELETE FROM jobs WHERE kind = ? AND ref = ?').run(j.kind, j.ref)
    }
    for (const id of cs.removeJobIds ?? []) {
      this.stmt('DELETE FROM jobs WHERE id = ?').run(id)
    }
    for (const j of cs.addJobs ?? []) {
      this.stmt('INSERT OR REPLACE INTO jobs (id, kind, ref, due_at, data) VALUES (?, ?, ?, ?, ?)').run(
        j.id,
        j.kind,
        j.ref,
        j.due_at,
        j.data ? JSON.stringify(j.data) : null,
      )
    }
    if (cs.idempotency) {
      const r = cs.idempotency
      this.stmt(
        'INSERT OR REPLACE INTO idempotency_keys (scope, key, request_hash, status, body, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(r.scope, r.key, r.request_hash, r.status, r.body, r.created_at, r.expires_at)
    }
    for (const s of cs.stats ?? []) {
      this.stmt(
        'INSERT INTO provider_stats (provider, day, approved, total) VALUES (?, ?, ?, ?) ON CONFLICT (provider, day) DO UPDATE SET approved = approved + excluded.approved, total = total + excluded.total',
      ).run(s.provider, s.day, s.approved, s.total)
    }
    for (const [k, v] of Object.entries(cs.settings ?? {})) {
      this.stmt('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(k, v)
    }
  }

  // ---------------------------------------------------------------- events

  async getEvent(id: string): Promise<StoredEvent | undefined> {
    return this.stmt('SELECT id, type, created_at, json FROM events WHERE id = ?').get(id) as StoredEvent | undefined
  }

  async listEvents(q: EventQuery): Promise<ListPage<StoredEvent>> {
    const whereFn = (params: unknown[]) => {
      const clauses: string[] = []
      const ors: string[] = []
      for (const t of q.types ?? []) {
        ors.push('type = ?')
        params.push(t)
      }
      for (const p of q.typePrefixes ?? []) {
        ors.push('substr(type, 1, ?) = ?')
        params.push(p.length, p)
      }
      if (ors.length) clauses.push(`(${ors.join(' OR ')})`)
      if (q.created_gte) {
        clauses.push('created_at >= ?')
        params.push(q.created_gte)
      }
      if (q.created_lte) {
        clauses.push('created_at <= ?')
        params.push(q.created_lte)
      }
      return clauses
    }
    const page = this.page<string>('events', q, whereFn, 'seq', (v) => v)
    const data = page.data.map(
      (seq) => this.stmt('SELECT id, type, created_at, json FROM events WHERE seq = ?').get(seq) as StoredEvent,
    )
    return {...page, data}
  }

  async eventsAfter(id: string | null, limit: number, sinceTime?: string): Promise<StoredEvent[]> {
    if (id) {
      const row = this.stmt('SELECT seq FROM events WHERE id = ?').get(id) as {seq: number} | undefined
      if (row) {
        return this.stmt('SELECT id, type, created_at, json FROM events WHERE seq > ? ORDER BY seq ASC LIMIT ?').all(
          row.seq,
          limit,
        ) as StoredEvent[]
      }
    }
    if (sinceTime) {
      return this.stmt('SELECT id, type, created_at, json FROM events WHERE created_at >= ? ORDER BY seq ASC LIMIT ?').all(
        sinceTime,
        limit,
      ) as StoredEvent[]
    }
    return []
  }

  async purgeEvents(before: string): Promise<number> {
    return this.stmt('DELETE FROM events WHERE created_at < ?').run(before).changes
  }

  // ---------------------------------------------------------------- jobs

  async dueJobs(now: string, limit: number): Promise<Job[]> {
    const rows = this.stmt('SELECT id, kind, ref, due_at, data FROM jobs WHERE due_at <= ? ORDER BY due_at ASC, rowid ASC LIMIT ?').all(
      now,
      limit,
    ) as {id: string; kind: string; ref: string; due_at: string; data: string | null}[]
    return rows.map((r) => ({...r, data: r.data ? (JSON.parse(r.data) as Record<string, unknown>) : undefined}))
  }

  async nextJobDue(): Promise<string | undefined> {
    const r = this.stmt('SELECT MIN(due_at) AS d FROM jobs').get() as {d: string | null}
    return r.d ?? undefined
  }

  async completeJob(id: string, cs?: ChangeSet): Promise<void> {
    await this.commit({...cs, removeJobIds: [...(cs?.removeJobIds ?? []), id]})
  }

  // ---------------------------------------------------------------- idempotency, stats, settings

  async getIdempotency(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    return this.stmt('SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?').get(scope, key) as
      | IdempotencyRecord
      | undefined
  }

  async purgeIdempotency(now: string): Promise<number> {
    return this.stmt('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(now).changes
  }

  async statsSince(day: string): Promise<StatIncrement[]> {
    return this.stmt(
      'SELECT provider, day, approved, total FROM provider_stats WHERE day >= ? ORDER BY provider, day',
    ).all(day) as StatIncrement[]
  }

  async getSetting(key: string): Promise<string | undefined> {
    const r = this.stmt('SELECT value FROM settings WHERE key = ?').get(key) as {value: string} | undefined
    return r?.value
  }

  async close(): Promise<void> {
    if (this.closed) return
    // let queued commits land first
    while (this.queue.length) this.flush()
    this.closed = true
    if (this.walFd !== undefined) {
      if (this.syncing || this.unsynced.length) await new Promise<void>((resolve) => this.synced.push(resolve))
      closeSync(this.walFd)
    }
    await this.checkpointer?.close()
    this.db.close()
  }
}
