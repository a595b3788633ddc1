import {randomBytes} from 'node:crypto'
import Database from 'better-sqlite3'
import type {Database as Db, Statement} from 'better-sqlite3'
import {
  type ChangeNotice,
  type ChangeSet,
  type ClaimedDelivery,
  type ClaimedJob,
  COLUMNS,
  type CommitOrder,
  type EventQuery,
  FIELDS,
  type FieldType,
  type Filter,
  type IdempotencyClaim,
  type IdempotencyRecord,
  INTERNAL_KINDS,
  type Kind,
  KINDS,
  type ListPage,
  type ListQuery,
  type LoggedEvent,
  type StatIncrement,
  type Store,
  type StoredObject,
  type StoreTx,
  VersionConflictError,
  type Versioned,
} from '../../ports/store.js'
import {KeyedLock} from '../keyed-lock.js'
import {Checkpointer} from './checkpointer.js'
import {MIGRATIONS, TABLE} from './schema.js'
import {pack, unpack} from './codec.js'
import {Writer, type ChangeResult, type Op} from './writer.js'

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

const INTERNAL = '_x'


/** The statements that write an object of each kind, built once. */
const INSERT_SQL: Record<Kind, string> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, `INSERT INTO ${TABLE[k]} (data, internal, id, created_at, version${COLUMNS[k].map((c) => `, ${c}`).join('')}) VALUES (?, ?, ?, ?, 1${COLUMNS[k].map(() => ', ?').join('')})`]),
) as Record<Kind, string>
const UPDATE_SQL: Record<Kind, string> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, `UPDATE ${TABLE[k]} SET data = ?, internal = ?, version = version + 1${COLUMNS[k].map((c) => `, ${c} = ?`).join('')} WHERE id = ? AND version = ?`]),
) as Record<Kind, string>
const PACK_DATA = [0]

/** A member of an object as the value of a typed column. */
function columnValue(type: FieldType, v: unknown): string | number | null {
  if (v === undefined || v === null) return null
  switch (type) {
    case 'bool':
      return v ? 1 : 0
    case 'int':
      return typeof v === 'number' ? v : null
    default:
      return typeof v === 'string' ? v : null
  }
}

/** A filter value as a bound parameter. */
const param = (type: FieldType, v: string | number | boolean): string | number => (type === 'bool' ? (v ? 1 : 0) : (v as string | number))

type Row = {data: string | Buffer; internal: string | Buffer | null} & Record<string, unknown>

/** The columns to read an object back: an internal kind's JSON leaves out what its columns hold. */
const SELECT: Record<Kind, string> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, INTERNAL_KINDS.has(k) ? ['data', 'internal', 'id', 'created_at', ...COLUMNS[k]].join(', ') : 'data, internal']),
) as Record<Kind, string>

function parseRow<T>(kind: Kind, row: Row): T {
  const obj = JSON.parse(unpack(row.data)) as Record<string, unknown>
  if (INTERNAL_KINDS.has(kind)) {
    obj.id = row.id
    obj.created_at = row.created_at
    const types = KINDS[kind] as Record<string, FieldType>
    for (const c of COLUMNS[kind]) obj[c] = types[c] === 'bool' && row[c] !== null ? row[c] === 1 : row[c]
  }
  if (row.internal !== null) obj[INTERNAL] = JSON.parse(unpack(row.internal))
  return obj as T
}

function withoutInternal(obj: Record<string, unknown>): Record<string, unknown> {
  if (!(INTERNAL in obj)) return obj
  const {[INTERNAL]: _drop, ...pub} = obj
  return pub
}

/** The JSON kept for an object: all of its public part, or for an internal kind what its columns do not hold. */
function dataJson(kind: Kind, pub: Record<string, unknown>): string {
  if (!INTERNAL_KINDS.has(kind)) return JSON.stringify(pub)
  const rest: Record<string, unknown> = {}
  const skip = IN_COLUMNS[kind]
  for (const k of Object.keys(pub)) if (!skip.has(k)) rest[k] = pub[k]
  return JSON.stringify(rest)
}

/** What an internal kind's columns hold (left out of its JSON). */
const IN_COLUMNS = Object.fromEntries((Object.keys(KINDS) as Kind[]).map((k) => [k, new Set<string>(['id', 'created_at', ...COLUMNS[k]])])) as Record<Kind, Set<string>>

const token = () => randomBytes(9).toString('base64url')

type StoredRow = Omit<LoggedEvent, 'json'> & {json: string | Buffer}

function logged(r: StoredRow): LoggedEvent
function logged(r: StoredRow | undefined): LoggedEvent | undefined
function logged(r: StoredRow | undefined): LoggedEvent | undefined {
  return r && {seq: r.seq, id: r.id, type: r.type, created_at: r.created_at, json: unpack(r.json)}
}

/**
 * An idempotency record goes in over no record or an expired one (at its created_at); over a live
 * one it changes nothing (0 rows). A claim that looked holds the key with no live record behind
 * it; a deferred claim's change set requires the one row (see compile).
 */
const INSERT_IDEMPOTENCY =
  'INSERT INTO idempotency_keys (body, scope, key, request_hash, status, body_event, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ' +
  'ON CONFLICT (scope, key) DO UPDATE SET body = excluded.body, request_hash = excluded.request_hash, status = excluded.status, body_event = excluded.body_event, created_at = excluded.created_at, expires_at = excluded.expires_at ' +
  'WHERE idempotency_keys.expires_at <= excluded.created_at'

/** An error reported by the writer, as the error it was. */
function restore(e: {name: string; message: string; code?: string; kind?: string; id?: string}): Error {
  if (e.name === 'VersionConflictError') return new VersionConflictError(e.kind as Kind | 'job' | 'idempotency_key', e.id!)
  return Object.assign(new Error(e.message), {name: e.name === 'SqliteError' ? 'SqliteError' : e.name, code: e.code})
}

const DATA_OBJECT = '"data":{"object":'
/**
 * The bytes of an event's data.object: an event's JSON is `{"id":...,"request_id":...,"data":{"object":<object>}}`;
 * the members before `data` cannot hold that sequence unescaped, so its first occurrence is the envelope's.
 */
export function dataObjectOf(eventJson: string): string {
  return eventJson.slice(eventJson.indexOf(DATA_OBJECT) + DATA_OBJECT.length, -2)
}

/**
 * The SQLite adapter: one engine instance owns the data dir, so the locks, idempotency claims,
 * job and delivery claims and rate-limit buckets the port asks for live in this process.
 *
 * Writes happen on a writer thread (writer.ts) with its own connection; this connection only
 * reads (WAL: readers see every committed transaction, never a partial one). Commits are
 * grouped: the change sets staged in one turn of the event loop are compiled into statements
 * and sent to the writer at once, without waiting for its answer to the previous ones; the
 * writer joins every batch that reached it while it was busy into one transaction (a failing
 * change set rolls back alone: the transaction is rolled back and written again without it),
 * made durable by one fsync on that thread (synchronous=FULL for 'full'); a commit resolves
 * after that. An in-memory database has no second connection: it writes in this thread, with
 * the same statements.
 */
export class SqliteStore implements Store {
  readonly db: Db
  private stmts = new Map<string, Statement>()
  private queue: Pending[] = []
  private flushScheduled = false
  /** batches sent to the writer and not answered yet */
  private writing = 0
  private idle: (() => void)[] = []
  private closed = false
  private readonly writer: Writer | undefined
  /** WAL checkpoints on a worker thread of their own */
  private checkpointer: Checkpointer | undefined

  private readonly locks = new KeyedLock()
  /** keys claimed by units of work in this process, and whether the claim deferred its lookup to the commit */
  private readonly idemInFlight = new Map<string, boolean>()
  /** keys whose deferred commit found a live record: their next claim looks first */
  private readonly idemRecheck = new Set<string>()
  private readonly jobClaims = new Map<string, {claim: string; until: number}>()
  private readonly deliveryClaims = new Map<string, {claim: string; endpoint: string; until: number}>()
  private readonly buckets = new Map<string, {tokens: number; at: number}>()
  private readonly listeners = new Set<(n: ChangeNotice) => void>()
  private readonly sections = new KeyedLock()
  /** holders and waiters per section */
  private readonly sectionsBusy = new Map<string, number>()
  /** transactions written and change sets in them (tests, bench) */
  private readonly counts = {transactions: 0, changeSets: 0}
  get stats(): {transactions: number; changeSets: number} {
    return {transactions: this.writer?.transactions ?? this.counts.transactions, changeSets: this.counts.changeSets}
  }

  constructor(opts: SqliteStoreOptions) {
    this.db = new Database(opts.path)
    const wal = this.db.pragma('journal_mode = WAL', {simple: true}) === 'wal'
    this.db.pragma(`synchronous = ${opts.durability === 'normal' ? 'NORMAL' : 'FULL'}`)
    this.db.pragma('busy_timeout = 5000')
    this.db.pragma('foreign_keys = ON')
    this.migrate()
    if (wal) {
      this.writer = new Writer(this.db.name, opts.durability ?? 'full')
      // checkpoints (copying WAL pages into the database file, with their fsyncs) on a thread of
      // their own; the writer's automatic checkpoint, every 10000 pages, is the backstop
      this.checkpointer = new Checkpointer(this.db.name)
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

  // ---------------------------------------------------------------- reads

  async get<T extends StoredObject>(kind: Kind, id: string): Promise<Versioned<T> | undefined> {
    const row = this.stmt(`SELECT ${SELECT[kind]}, version FROM ${TABLE[kind]} WHERE id = ?`).get(id) as (Row & {version: number}) | undefined
    return row ? {obj: parseRow<T>(kind, row), version: row.version} : undefined
  }

  private where(kind: Kind, filters: readonly Filter[] | undefined, params: unknown[]): string[] {
    const types = FIELDS[kind]
    const clauses: string[] = []
    for (const f of filters ?? []) {
      const type = types[f.field]
      if (type === undefined) throw new Error(`cannot filter ${kind} by ${f.field}`)
      switch (f.op) {
        case 'eq':
          if (f.value === null) clauses.push(`${f.field} IS NULL`)
          else {
            clauses.push(`${f.field} = ?`)
            params.push(param(type, f.value))
          }
          break
        case 'gte':
        case 'lte':
          clauses.push(`${f.field} ${f.op === 'gte' ? '>=' : '<='} ?`)
          params.push(f.value)
          break
        case 'prefix':
          clauses.push(`substr(${f.field}, 1, ?) = ?`)
          params.push(f.value.length, f.value)
          break
        case 'in':
          if (f.value.length === 0) clauses.push('0')
          else {
            clauses.push(`${f.field} IN (${f.value.map(() => '?').join(',')})`)
            params.push(...f.value)
          }
          break
      }
    }
    return clauses
  }

  async list<T extends StoredObject, K extends Kind = Kind>(kind: K, q: ListQuery<K>): Promise<ListPage<T>> {
    const table = TABLE[kind]
    const page = this.page<Row>(table, q, (params) => this.where(kind, q.filters as Filter[], params), SELECT[kind])
    return {...page, data: page.data.map((r) => parseRow<T>(kind, r))}
  }

  private page<R>(
    table: string,
    q: {limit: number; starting_after?: string; ending_before?: string},
    whereFn: (params: unknown[]) => string[],
    cols: string,
  ): ListPage<R> {
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
    const rows = this.stmt(`SELECT ${cols} FROM ${table} ${where} ORDER BY seq ${asc ? 'ASC' : 'DESC'} LIMIT ?`).all(...params, q.limit + 1) as R[]
    const has_more = rows.length > q.limit
    const data = rows.slice(0, q.limit)
    if (asc) data.reverse()
    return {data, has_more}
  }

  async all<T extends StoredObject, K extends Kind = Kind>(kind: K, filters?: Filter<K>[]): Promise<T[]> {
    const params: unknown[] = []
    const clauses = this.where(kind, filters as Filter[] | undefined, params)
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''
    const rows = this.stmt(`SELECT ${SELECT[kind]} FROM ${TABLE[kind]} ${where} ORDER BY seq ASC`).all(...params) as Row[]
    return rows.map((r) => parseRow<T>(kind, r))
  }

  async sum<K extends Kind>(kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}): Promise<{group: string; sum: number}[]> {
    const types = FIELDS[kind]
    if (types[q.field] !== 'int') throw new Error(`cannot sum ${kind}.${q.field}: not an int field`)
    if (types[q.groupBy] !== 'text') throw new Error(`cannot group ${kind} by ${q.groupBy}: not a text field`)
    const params: unknown[] = []
    const clauses = [...this.where(kind, q.filters as Filter[] | undefined, params), `${q.groupBy} IS NOT NULL`]
    return this.stmt(
      `SELECT ${q.groupBy} AS "group", COALESCE(SUM(${q.field}), 0) AS sum FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')} GROUP BY ${q.groupBy} ORDER BY ${q.groupBy}`,
    ).all(...params) as {group: string; sum: number}[]
  }

  // ---------------------------------------------------------------- units of work

  async transact<T>(fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T> {
    if (this.closed) throw new Error('store is closed')
    const held: (() => void)[] = []
    let staged: ChangeSet | undefined
    const store = this
    const tx: StoreTx = {
      get: (kind, id) => store.get(kind, id),
      list: (kind, q) => store.list(kind, q),
      all: (kind, filters) => store.all(kind, filters),
      sum: (kind, q) => store.sum(kind, q),
      async lock(key) {
        held.push(await store.locks.acquire(key))
      },
      async claimIdempotency(scope, key, now, opts) {
        return store.claimIdempotency(scope, key, now, held, opts?.defer === true)
      },
      commit(cs) {
        if (staged) throw new Error('a unit of work commits once')
        staged = cs
      },
    }
    let durable: Promise<void> | undefined
    try {
      const out = await fn(tx)
      if (order) await order.after
      // queued synchronously here, so units staged in order are written in that order
      if (staged) durable = this.enqueue(staged)
      order?.staged()
      await durable
      return out
    } finally {
      if (order && !durable) order.staged()
      for (let i = held.length - 1; i >= 0; i--) held[i]!()
    }
  }

  /**
   * A deferred claim reads nothing: this process is the only writer of the file, so the commit of
   * the unit's record can tell whether a live one is there (an INSERT that may not replace a
   * live record; see compile). Only a key whose commit found one, or a unit that ends without a
   * record, reads it.
   */
  private claimIdempotency(scope: string, key: string, now: string, held: (() => void)[], defer: boolean): IdempotencyClaim {
    const k = `${scope}\u0000${key}`
    if (this.idemInFlight.has(k)) return {state: 'in_flight'}
    const recheck = this.idemRecheck.delete(k)
    if (defer && !recheck) {
      this.idemInFlight.set(k, true)
      held.push(() => this.idemInFlight.delete(k))
      return {state: 'claimed', deferred: {lookup: async () => this.liveIdempotency(scope, key, now)}}
    }
    const record = this.liveIdempotency(scope, key, now)
    if (record) return {state: 'recorded', record}
    this.idemInFlight.set(k, false)
    held.push(() => this.idemInFlight.delete(k))
    return {state: 'claimed'}
  }

  private liveIdempotency(scope: string, key: string, now: string): IdempotencyRecord | undefined {
    const record = this.stmt(
      'SELECT i.scope, i.key, i.request_hash, i.status, i.body, i.created_at, i.expires_at, e.json AS event_json FROM idempotency_keys i LEFT JOIN events e ON e.id = i.body_event WHERE i.scope = ? AND i.key = ?',
    ).get(scope, key) as (Omit<IdempotencyRecord, 'body'> & {body: string | Buffer; event_json: string | Buffer | null}) | undefined
    if (!record || record.expires_at <= now) return undefined
    const {event_json, body, ...r} = record
    return {...r, body: event_json !== null ? dataObjectOf(unpack(event_json)) : unpack(body)}
  }

  commit(cs: ChangeSet): Promise<void> {
    if (this.closed) return Promise.reject(new Error('store is closed'))
    return this.enqueue(cs)
  }

  private enqueue(cs: ChangeSet): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({cs, resolve, reject})
      // the commits of one turn of the event loop go to the writer together; the writer joins
      // whatever reached it while it was busy into its next transaction (group commit)
      if (!this.flushScheduled) {
        this.flushScheduled = true
        setImmediate(() => void this.flush())
      }
    })
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false
    const batch = this.queue
    this.queue = []
    if (batch.length === 0) return
    this.writing++
    const compiled: {p: Pending; ops: Op[]; notice: ChangeNotice}[] = []
    for (const p of batch) {
      try {
        const c = this.compile(p.cs)
        compiled.push({p, ops: c.ops, notice: c.notice})
      } catch (e) {
        p.reject(e)
      }
    }
    let results: ChangeResult[]
    try {
      results = this.writer ? await this.writer.write(compiled.map((c) => c.ops)) : this.writeHere(compiled.map((c) => c.ops))
    } catch (e) {
      results = compiled.map(() => ({ok: false, error: {name: 'Error', message: (e as Error).message}}))
    }
    this.counts.changeSets += compiled.length
    if (!this.writer) this.counts.transactions++
    const notice = {kinds: new Set<Kind>(), settings: [] as string[], eventSeq: null as number | null, dueBy: null as string | null}
    compiled.forEach((c, i) => {
      const r = results[i]!
      if (!r.ok) {
        // a deferred claim's commit met a live record: the unit runs again, and its claim looks
        if (r.error.kind === 'idempotency_key' && r.error.id !== undefined) this.idemRecheck.add(r.error.id)
        return c.p.reject(restore(r.error))
      }
      this.settle(c.p.cs)
      for (const k of c.notice.kinds) notice.kinds.add(k)
      notice.settings.push(...c.notice.settings)
      if (r.seq !== null) notice.eventSeq = r.seq
      if (c.notice.dueBy && (notice.dueBy === null || c.notice.dueBy < notice.dueBy)) notice.dueBy = c.notice.dueBy
      c.p.resolve()
    })
    this.checkpointer?.nudge()
    if (compiled.some((_, i) => results[i]!.ok)) for (const l of this.listeners) l(notice)
    this.writing--
    if (this.writing === 0 && this.queue.length === 0 && !this.flushScheduled) for (const f of this.idle.splice(0)) f()
  }

  /**
   * What a commit changes in this process once it is durable: claims that ended. A delivery's
   * claim ends with a write of that delivery (its outcome), never with the insert that created
   * it: the read connection sees a commit before its answer is back here, so a claim may
   * already have been taken on a delivery this commit inserted (ending it would let a second
   * claim attempt the delivery twice at once).
   */
  private settle(cs: ChangeSet): void {
    for (const j of cs.completeJobs ?? []) this.jobClaims.delete(j.id)
    for (const put of cs.puts ?? []) if (put.kind === 'delivery' && put.expectVersion !== undefined) this.deliveryClaims.delete(put.obj.id)
  }

  /** The in-memory database's writer: the same statements, in this thread (savepoints cost nothing on disk there). */
  private writeHere(batch: Op[][]): ChangeResult[] {
    const results: ChangeResult[] = []
    this.db.exec('BEGIN IMMEDIATE')
    for (const ops of batch) {
      this.db.exec('SAVEPOINT cs')
      try {
        let seq: number | null = null
        for (const op of ops) {
          if (op.pack) for (const i of op.pack) op.params[i] = pack(op.params[i] as string)
          const r = this.stmt(op.sql!).run(op.params)
          if (op.check === 'one' && r.changes !== 1) throw new VersionConflictError(op.kind as Kind, op.id!)
          if (op.check === 'seq') seq = Number(r.lastInsertRowid)
        }
        this.db.exec('RELEASE cs')
        results.push({ok: true, seq})
      } catch (e) {
        this.db.exec('ROLLBACK TO cs')
        this.db.exec('RELEASE cs')
        const err = e as VersionConflictError & {code?: string}
        results.push({ok: false, error: {name: err.name, message: err.message, code: err.code, kind: err.kind, id: err.id}})
      }
    }
    this.db.exec('COMMIT')
    return results
  }

  /**
   * A change set as statements with their parameters, and what it changes for the notice.
   * Checks that need this process's state (job claims) happen here: a failing one rejects the
   * change set before anything is written.
   */
  private compile(cs: ChangeSet): {ops: Op[]; notice: ChangeNotice} {
    const ops: Op[] = []
    const notice = {kinds: new Set<Kind>(), settings: [] as string[], eventSeq: null, dueBy: null as string | null}
    for (const put of cs.puts ?? []) {
      const types = KINDS[put.kind] as Record<string, FieldType>
      const cols = COLUMNS[put.kind]
      const obj = put.obj as unknown as Record<string, unknown>
      const colVals = cols.map((c) => columnValue(types[c]!, obj[c]))
      const internal = obj[INTERNAL]
      const data = put.json !== undefined && !INTERNAL_KINDS.has(put.kind) ? put.json : dataJson(put.kind, withoutInternal(obj))
      const internalJson = internal === undefined ? null : JSON.stringify(internal)
      // the public JSON may be packed (codec.ts); internal state is small and internal kinds are summed over: they stay plain
      const packed = INTERNAL_KINDS.has(put.kind) ? undefined : PACK_DATA
      if (put.expectVersion === undefined) {
        ops.push({sql: INSERT_SQL[put.kind], params: [data, internalJson, put.obj.id, put.obj.created_at, ...colVals], pack: packed})
      } else {
        ops.push({
          sql: UPDATE_SQL[put.kind],
          params: [data, internalJson, ...colVals, put.obj.id, put.expectVersion],
          check: 'one',
          kind: put.kind,
          id: put.obj.id,
          pack: packed,
        })
      }
      notice.kinds.add(put.kind)
    }
    for (const d of cs.deletes ?? []) {
      ops.push({sql: `DELETE FROM ${TABLE[d.kind]} WHERE id = ?`, params: [d.id]})
      notice.kinds.add(d.kind)
    }
    for (const e of cs.events ?? []) ops.push({sql: 'INSERT INTO events (json, id, type, created_at) VALUES (?, ?, ?, ?)', params: [e.json, e.id, e.type, e.created_at], check: 'seq', pack: [0]})
    for (const j of cs.completeJobs ?? []) {
      if (this.jobClaims.get(j.id)?.claim !== j.claim) throw new VersionConflictError('job', j.id)
      ops.push({sql: 'DELETE FROM jobs WHERE id = ?', params: [j.id], check: 'one', kind: 'job', id: j.id})
    }
    for (const j of cs.removeJobs ?? []) ops.push({sql: 'DELETE FROM jobs WHERE kind = ? AND ref = ?', params: [j.kind, j.ref]})
    for (const j of cs.addJobs ?? []) {
      ops.push({sql: 'INSERT INTO jobs (id, kind, ref, due_at, data) VALUES (?, ?, ?, ?, ?)', params: [j.id, j.kind, j.ref, j.due_at, j.data ? JSON.stringify(j.data) : null]})
      if (notice.dueBy === null || j.due_at < notice.dueBy) notice.dueBy = j.due_at
    }
    if (cs.idempotency) {
      const r = cs.idempotency
      // a body that is an event's data.object (a created payment) is kept as a reference to the event
      const ref = r.body_of_event !== undefined && cs.events?.some((e) => e.id === r.body_of_event && dataObjectOf(e.json) === r.body) ? r.body_of_event : null
      const k = `${r.scope}\u0000${r.key}`
      const op: Op = {sql: INSERT_IDEMPOTENCY, params: [ref ? '' : r.body, r.scope, r.key, r.request_hash, r.status, ref, r.created_at, r.expires_at], pack: ref ? undefined : PACK_DATA}
      // the claim did not look: a live record there fails the change set
      if (this.idemInFlight.get(k) === true) {
        op.check = 'one'
        op.kind = 'idempotency_key'
        op.id = k
      }
      ops.push(op)
    }
    for (const st of cs.stats ?? [])
      ops.push({sql: 'INSERT INTO provider_stats (provider, day, approved, total) VALUES (?, ?, ?, ?) ON CONFLICT (provider, day) DO UPDATE SET approved = approved + excluded.approved, total = total + excluded.total', params: [st.provider, st.day, st.approved, st.total]})
    for (const [k, v] of Object.entries(cs.settings ?? {})) {
      ops.push({sql: 'INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)', params: [k, v]})
      notice.settings.push(k)
    }
    return {ops, notice}
  }

  // ---------------------------------------------------------------- events

  async getEvent(id: string): Promise<LoggedEvent | undefined> {
    return logged(this.stmt('SELECT seq, id, type, created_at, json FROM events WHERE id = ?').get(id) as StoredRow | undefined)
  }

  async listEvents(q: EventQuery): Promise<ListPage<LoggedEvent>> {
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
    // the page is chosen on the (type, seq) and created_at indexes; the bytes are read by seq
    const page = this.page<{seq: number}>('events', q, whereFn, 'seq')
    const bySeq = this.stmt('SELECT seq, id, type, created_at, json FROM events WHERE seq = ?')
    return {...page, data: page.data.map((r) => logged(bySeq.get(r.seq) as StoredRow))}
  }

  async eventsAfter(afterSeq: number, limit: number): Promise<LoggedEvent[]> {
    return (this.stmt('SELECT seq, id, type, created_at, json FROM events WHERE seq > ? ORDER BY seq ASC LIMIT ?').all(afterSeq, limit) as StoredRow[]).map((r) => logged(r))
  }

  async purgeEvents(before: string): Promise<number> {
    return this.stmt('DELETE FROM events WHERE created_at < ?').run(before).changes
  }

  // ---------------------------------------------------------------- jobs and deliveries

  async claimJobs(now: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    const t = Date.now()
    for (const [id, c] of this.jobClaims) if (c.until <= t) this.jobClaims.delete(id)
    const rows = this.stmt('SELECT id, kind, ref, due_at, data FROM jobs WHERE due_at <= ? ORDER BY due_at ASC, rowid ASC LIMIT ?').all(
      now,
      limit + this.jobClaims.size,
    ) as {id: string; kind: string; ref: string; due_at: string; data: string | null}[]
    const out: ClaimedJob[] = []
    for (const r of rows) {
      if (out.length >= limit) break
      if (this.jobClaims.has(r.id)) continue
      const claim = token()
      this.jobClaims.set(r.id, {claim, until: t + leaseMs})
      out.push({id: r.id, kind: r.kind, ref: r.ref, due_at: r.due_at, claim, ...(r.data ? {data: JSON.parse(r.data) as Record<string, unknown>} : {})})
    }
    return out
  }

  async releaseJobs(jobs: readonly ClaimedJob[]): Promise<void> {
    for (const j of jobs) if (this.jobClaims.get(j.id)?.claim === j.claim) this.jobClaims.delete(j.id)
  }

  async claimDeliveries(now: string, q: {limit: number; perEndpoint: number; leaseMs: number}): Promise<ClaimedDelivery[]> {
    const t = Date.now()
    const held = new Map<string, number>()
    for (const [id, c] of this.deliveryClaims) {
      if (c.until <= t) this.deliveryClaims.delete(id)
      else held.set(c.endpoint, (held.get(c.endpoint) ?? 0) + 1)
    }
    // the endpoints with a delivery due: one seek per endpoint on (endpoint, next_attempt_at),
    // whose first entry per endpoint is its earliest due (a loose index scan, never the backlog)
    const endpoints: string[] = []
    const nextEndpoint = this.stmt('SELECT endpoint, next_attempt_at AS due FROM deliveries WHERE endpoint > ? AND next_attempt_at IS NOT NULL ORDER BY endpoint, next_attempt_at LIMIT 1')
    for (let after = ''; ; ) {
      const row = nextEndpoint.get(after) as {endpoint: string; due: string} | undefined
      if (!row) break
      if (row.due <= now) endpoints.push(row.endpoint)
      after = row.endpoint
    }
    const out: ClaimedDelivery[] = []
    const perEndpoint = this.stmt(
      'SELECT id, endpoint, event FROM deliveries WHERE endpoint = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at ASC, seq ASC LIMIT ?',
    )
    // round robin over endpoints, so one endpoint's backlog cannot take every slot
    const free = new Map(endpoints.map((e) => [e, Math.max(0, q.perEndpoint - (held.get(e) ?? 0))]))
    const candidates = new Map<string, {id: string; endpoint: string; event: string}[]>()
    for (const e of endpoints) {
      const n = free.get(e)!
      if (n === 0) continue
      // this endpoint's claimed deliveries are the only rows to skip: they stay due until their outcome is written
      const rows = perEndpoint.all(e, now, n + (held.get(e) ?? 0)) as {id: string; endpoint: string; event: string}[]
      candidates.set(e, rows.filter((r) => !this.deliveryClaims.has(r.id)).slice(0, n))
    }
    for (let i = 0; out.length < q.limit; i++) {
      let any = false
      for (const rows of candidates.values()) {
        const r = rows[i]
        if (!r) continue
        any = true
        const claim = token()
        this.deliveryClaims.set(r.id, {claim, endpoint: r.endpoint, until: t + q.leaseMs})
        out.push({...r, claim})
        if (out.length >= q.limit) break
      }
      if (!any) break
    }
    return out
  }

  async releaseDeliveries(ds: readonly ClaimedDelivery[]): Promise<void> {
    for (const d of ds) if (this.deliveryClaims.get(d.id)?.claim === d.claim) this.deliveryClaims.delete(d.id)
  }

  // ---------------------------------------------------------------- idempotency, rate limit, stats, settings

  async purgeIdempotency(now: string): Promise<number> {
    return this.stmt('DELETE FROM idempotency_keys WHERE expires_at <= ?').run(now).changes
  }

  async takeToken(scope: string, rate: number, capacity: number): Promise<{retryAfter: number; remaining: number}> {
    if (rate <= 0) return {retryAfter: 0, remaining: capacity}
    const now = performance.now()
    let b = this.buckets.get(scope)
    if (!b) {
      b = {tokens: capacity, at: now}
      this.buckets.set(scope, b)
    }
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * rate)
    b.at = now
    if (b.tokens >= 1) {
      b.tokens -= 1
      return {retryAfter: 0, remaining: Math.floor(b.tokens)}
    }
    return {retryAfter: Math.max(1, Math.ceil((1 - b.tokens) / rate)), remaining: 0}
  }

  async statsSince(day: string): Promise<StatIncrement[]> {
    return this.stmt('SELECT provider, day, approved, total FROM provider_stats WHERE day >= ? ORDER BY provider, day').all(day) as StatIncrement[]
  }

  async getSetting(key: string): Promise<string | undefined> {
    const r = this.stmt('SELECT value FROM settings WHERE key = ?').get(key) as {value: string} | undefined
    return r?.value
  }

  async addToSetting(key: string, delta: number): Promise<number> {
    return this.transact(async (tx) => {
      await tx.lock(`setting:${key}`)
      const next = Number((await this.getSetting(key)) ?? '0') + delta
      tx.commit({settings: {[key]: String(next)}})
      return next
    })
  }

  /** One process owns the data dir: an exclusive section is an in-process lock. */
  async exclusive<T>(name: string, fn: () => Promise<T>, opts: {wait?: boolean} = {}): Promise<{ran: true; value: T} | {ran: false}> {
    const busy = this.sectionsBusy.get(name) ?? 0
    if (opts.wait === false && busy > 0) return {ran: false}
    this.sectionsBusy.set(name, busy + 1)
    const release = await this.sections.acquire(name)
    try {
      return {ran: true, value: await fn()}
    } finally {
      release()
      const left = this.sectionsBusy.get(name)! - 1
      if (left) this.sectionsBusy.set(name, left)
      else this.sectionsBusy.delete(name)
    }
  }

  onChange(fn: (n: ChangeNotice) => void): () => void {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    // let staged commits land first
    if (this.queue.length || this.writing || this.flushScheduled) await new Promise<void>((resolve) => this.idle.push(resolve))
    await this.writer?.close()
    await this.checkpointer?.close()
    this.db.close()
  }
}
