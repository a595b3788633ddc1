import {randomBytes} from 'node:crypto'
import {existsSync} from 'node:fs'
import Database from 'better-sqlite3'
import type {Database as Db, Statement} from 'better-sqlite3'
import {
  type AccountRows,
  type AccountStore,
  type ChangeNotice,
  type ChangeSet,
  type ClaimedDelivery,
  type ClaimedJob,
  type CommitOrder,
  type EventQuery,
  FIELDS,
  type Filter,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type Kind,
  KINDS,
  type ListPage,
  type ListQuery,
  type LoggedEvent,
  type StatIncrement,
  type Store,
  type StoredObject,
  type StoreTx,
  STAGED_ACCOUNT_MARK,
  type StagedRows,
  UNSNAPSHOTTED,
  VersionConflictError,
  type Versioned,
} from '../../ports/store.js'
import {KeyedLock} from '../keyed-lock.js'
import {Checkpointer} from './checkpointer.js'
import {CLAIM_SQL, DeliveryClaims} from './delivery-claims.js'
import {shareSlots, type SlotShare} from '../slot-share.js'
import {EVENT_SUBJECTS_MIGRATION, MIGRATIONS, SCRUB_SECRETS_MIGRATION, SEARCH_KEYS_COLUMNS, SEARCH_KEYS_MIGRATION, TABLE} from './schema.js'
import {scrubShownOnce} from '../../domain/secrets.js'
import {keepPrivate, writePrivateFile} from '../../adapters/private-files.js'
import {eventSubjects, fieldValue, listenerErrorToStderr, notifyEach} from '../../ports/store.js'
import {pack, unpack} from './codec.js'
import {compile, type CompileState, idemKey, insertRows} from './compile.js'
import {ACCOUNT_TABLES, columnValue, dataObjectOf, logged, parseRow, type Row, SELECT, type StoredRow, whereOf} from './rows.js'
import {retiredName, SqliteStaged, type StagingHost} from './staging.js'
import {Writer, type ChangeResult, type Op} from './writer.js'

export interface SqliteStoreOptions {
  /** file path, or ':memory:' */
  path: string
  /** 'full' (default) fsyncs every commit; 'normal' may lose the last commits on power loss */
  durability?: 'full' | 'normal'
}

interface Pending {
  cs: ChangeSet
  /** statements of the store's own (staged rows, and their deletion), written as they are */
  ops?: Op[]
  account: string
  resolve: () => void
  reject: (e: unknown) => void
}

const token = () => randomBytes(9).toString('base64url')

/** An error reported by the writer, as the error it was. */
function restore(e: {name: string; message: string; code?: string; kind?: string; id?: string}): Error {
  if (e.name === 'VersionConflictError') return new VersionConflictError(e.kind as Kind | 'job' | 'idempotency_key', e.id!)
  return Object.assign(new Error(e.message), {name: e.name === 'SqliteError' ? 'SqliteError' : e.name, code: e.code})
}

export {dataObjectOf}

/** Rate-limit buckets kept before the full ones are swept (then twice as many as are left). */
const BUCKETS_SWEPT_AT = 4096

/** Rows a purge (expired events, idempotency records) deletes per transaction of the writer. */
const PURGE_CHUNK = 2000

/** The in-process key of an account's row (ids are unique per account, not across accounts). */
const own = (account: string, id: string) => `${account}\u0000${id}`

/**
 * The SQLite adapter: one engine instance owns the data dir, so the locks, idempotency claims,
 * job and delivery claims and rate-limit buckets the port asks for live in this process.
 *
 * Every row carries its account, and every query of account data is bounded to one account
 * (SqliteAccount, the view Store.account gives); every index leads with the account.
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
  /** one engine instance owns the data dir */
  readonly shared = false
  readonly db: Db
  private stmts = new Map<string, Statement>()
  private queue: Pending[] = []
  private flushScheduled = false
  /** a swap of staged rows is being written: nothing more is compiled until its numbers are known (staging.ts) */
  private holding = false
  /** batches sent to the writer and not answered yet */
  private writing = 0
  private idle: (() => void)[] = []
  private closed = false
  private readonly writer: Writer | undefined
  /** WAL checkpoints on a worker thread of their own */
  private checkpointer: Checkpointer | undefined
  private readonly views = new Map<string, SqliteAccount>()

  private readonly locks = new KeyedLock()
  /** keys claimed by units of work in this process, and whether the claim deferred its lookup to the commit */
  private readonly idemInFlight = new Map<string, boolean>()
  /** keys whose deferred commit found a live record: their next claim looks first */
  private readonly idemRecheck = new Set<string>()
  /** claims by account and id (ids are unique per account): see `own` */
  private readonly jobClaims = new Map<string, {claim: string; until: number; account: string}>()
  private readonly deliveryClaims = new DeliveryClaims()
  /** rate-limit buckets: tokens at `at`, full again at `full` (performance.now() ms) */
  private readonly buckets = new Map<string, {tokens: number; at: number; full: number}>()
  private bucketSweepAt = BUCKETS_SWEPT_AT
  private readonly listeners = new Set<(n: ChangeNotice) => void>()
  /** listeners of one account's notices */
  private readonly accountListeners = new Map<string, Set<(n: ChangeNotice) => void>>()
  private readonly sections = new KeyedLock()
  /** holders and waiters per section */
  private readonly sectionsBusy = new Map<string, number>()
  /** transactions written and change sets in them (tests, bench) */
  private readonly counts = {transactions: 0, changeSets: 0}
  get stats(): {transactions: number; changeSets: number} {
    return {transactions: this.writer?.transactions ?? this.counts.transactions, changeSets: this.counts.changeSets}
  }

  /**
   * Rows carry their account as a number (account_numbers): every index leads with the account,
   * and an integer compares in a fraction of the time a text takes, on every index entry written.
   * This process owns the file, so it numbers accounts itself: a number is given when an
   * account's first change set is compiled, and written with every change set of the account
   * until one commits.
   */
  private readonly numbers = new Map<string, number>()
  private readonly idsByNumber = new Map<number, string>()
  private readonly unsaved = new Set<string>()
  private lastNumber = 0

  private readonly compileState: CompileState = {
    jobClaim: (account: string, id: string) => this.jobClaims.get(own(account, id))?.claim,
    deferredClaim: (k: string) => this.idemInFlight.get(k) === true,
    accountNo: (account: string, ops: Op[]) => {
      let n = this.numbers.get(account)
      if (n === undefined) {
        n = ++this.lastNumber
        this.numbers.set(account, n)
        this.idsByNumber.set(n, account)
        this.unsaved.add(account)
      }
      if (this.unsaved.has(account)) ops.push({sql: 'INSERT OR IGNORE INTO account_numbers (n, id) VALUES (?, ?)', params: [n, account]})
      return n
    },
    rowsOf: (account: string) => this.no(account),
    staged: (s: StagedRows, ops: Op[]) => {
      if (!(s instanceof SqliteStaged) || s.state !== 'open') throw new Error('these staged rows are not open rows of this store')
      s.number ??= this.newNumber(s.name, ops)
      return {part: {...s.part, number: s.number}, retired: retiredName(s.account)}
    },
  }

  /** A number for rows that belong to no account yet (staged rows), recorded with these statements. */
  private newNumber(name: string, ops: Op[]): number {
    const n = ++this.lastNumber
    this.idsByNumber.set(n, name)
    ops.push({sql: 'INSERT INTO account_numbers (n, id) VALUES (?, ?)', params: [n, name]})
    return n
  }

  private readonly staging: StagingHost = {
    stage: async (s, rows) => {
      const ops: Op[] = []
      s.number ??= this.newNumber(s.name, ops)
      const notice = {settings: s.part.settings, dueBy: s.part.dueBy}
      insertRows(rows, s.number, ops, notice)
      s.part.dueBy = notice.dueBy
      await this.write(ops)
    },
    purge: (n) => this.purgeNumber(n),
  }

  /** Starts rows for an account that a later commit puts in place of its own (StagedRows, staging.ts). */
  stageRows(account: string): StagedRows {
    if (this.closed) throw new Error('store is closed')
    return new SqliteStaged(this.staging, account)
  }

  /** The store's own statements, written in order with the change sets. */
  private write(ops: Op[]): Promise<void> {
    if (this.closed && !this.purging) return Promise.reject(new Error('store is closed'))
    return new Promise<void>((resolve, reject) => {
      this.queue.push({cs: {}, ops, account: '', resolve, reject})
      if (!this.flushScheduled && !this.holding) {
        this.flushScheduled = true
        setImmediate(() => void this.flush())
      }
    })
  }

  /** deletions in progress (close lets them end at a part's boundary) */
  private purging = 0

  /** Deletes every row under an account number no account has (staged rows given up, an account's replaced rows), a part at a time, then the number. */
  private async purgeNumber(n: number): Promise<void> {
    this.purging++
    try {
      for (const t of ACCOUNT_TABLES) await this.purge(t, '1', [n])
      if (this.closed) return
      await this.write([{sql: 'DELETE FROM account_numbers WHERE n = ?', params: [n]}])
      this.idsByNumber.delete(n)
    } finally {
      this.purging--
    }
  }

  /** The number an account's rows carry; 0, which no rows carry, for an account that has none. */
  no(account: string): number {
    return this.numbers.get(account) ?? 0
  }

  private idOf(n: number): string {
    const id = this.idsByNumber.get(n)
    if (id === undefined) throw new Error(`account number ${n} is not in account_numbers`)
    return id
  }

  constructor(opts: SqliteStoreOptions) {
    const file = opts.path !== '' && opts.path !== ':memory:' && !opts.path.startsWith('file:') ? opts.path : undefined
    // the database is 0600 before SQLite opens it: SQLite makes its -wal and -shm with the database's mode
    if (file !== undefined && !existsSync(file)) writePrivateFile(file, '')
    if (file !== undefined) keepPrivate(file)
    this.db = new Database(opts.path)
    const wal = this.db.pragma('journal_mode = WAL', {simple: true}) === 'wal'
    // (an older gw's -wal and -shm may have another mode)
    if (file !== undefined) for (const f of [`${file}-wal`, `${file}-shm`]) keepPrivate(f)
    this.db.pragma(`synchronous = ${opts.durability === 'normal' ? 'NORMAL' : 'FULL'}`)
    this.db.pragma('busy_timeout = 5000')
    this.db.pragma('foreign_keys = ON')
    this.migrate()
    for (const r of this.db.prepare('SELECT n, id FROM account_numbers').all() as {n: number; id: string}[]) {
      this.numbers.set(r.id, r.n)
      this.idsByNumber.set(r.n, r.id)
      this.lastNumber = Math.max(this.lastNumber, r.n)
    }
    if (wal) {
      this.writer = new Writer(this.db.name, opts.durability ?? 'full')
      // checkpoints (copying WAL pages into the database file, with their fsyncs) on a thread of
      // their own; the writer's automatic checkpoint, every 10000 pages, is the backstop
      this.checkpointer = new Checkpointer(this.db.name)
    }
    // rows a stopped process staged or replaced: nobody's, deleted in the background
    for (const [n, id] of this.idsByNumber) if (id.startsWith(STAGED_ACCOUNT_MARK)) setImmediate(() => void this.purgeNumber(n).catch(() => {}))
  }

  private migrate(): void {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)')
    const row = this.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as {v: number | null}
    const current = row.v ?? 0
    if (current > MIGRATIONS.length)
      throw new Error(`this data dir was written by a newer gw (schema ${current}; this one knows ${MIGRATIONS.length}): upgrade gw to open it`)
    let scrubbed = false
    const secureDelete = this.db.pragma('secure_delete', {simple: true}) as number
    for (let i = current; i < MIGRATIONS.length; i++) {
      // what a migration rewrites to drop a secret leaves no copy in the free space of the file's pages
      if (i + 1 === SCRUB_SECRETS_MIGRATION) this.db.pragma('secure_delete = ON')
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[i]!)
        if (i + 1 === EVENT_SUBJECTS_MIGRATION) this.backfillEventSubjects()
        if (i + 1 === SCRUB_SECRETS_MIGRATION) scrubbed = this.scrubShownOnceSecrets() > 0
        if (i + 1 === SEARCH_KEYS_MIGRATION) this.backfillSearchKeys()
        this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(i + 1, new Date().toISOString())
      })()
      if (i + 1 === SCRUB_SECRETS_MIGRATION) this.db.pragma(`secure_delete = ${secureDelete}`)
    }
    // ... nor in the write-ahead log: its frames are copied into the file and it is emptied
    if (scrubbed) this.db.pragma('wal_checkpoint(TRUNCATE)')
  }

  /**
   * Migration 7 (issue 33): stored answers that show a secret once (a new key, account or
   * webhook endpoint, stored before the engine kept them redacted) keep it redacted; how many
   * changed. Read in JavaScript: the bodies may be packed.
   */
  private scrubShownOnceSecrets(): number {
    const update = this.db.prepare('UPDATE idempotency_keys SET body = ? WHERE rowid = ?')
    const page = this.db.prepare('SELECT rowid AS r, body FROM idempotency_keys WHERE body_event IS NULL AND rowid > ? ORDER BY rowid LIMIT 1000')
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
   * Migration 8 (issue 36): the search columns of every stored payment and customer, computed as
   * every write computes them (ports/store.ts DERIVED); read in JavaScript (the JSON may be packed).
   */
  private backfillSearchKeys(): void {
    for (const [table, cols] of Object.entries(SEARCH_KEYS_COLUMNS)) {
      const kind = (Object.keys(TABLE) as Kind[]).find((k) => TABLE[k] === table)!
      const update = this.db.prepare(`UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE seq = ?`)
      const page = this.db.prepare(`SELECT seq, ${SELECT[kind]} FROM ${table} WHERE seq > ? ORDER BY seq LIMIT 1000`)
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

  /** Migration 7: each stored event's object and payment, read from its bytes (which may be packed: SQL cannot read them). */
  private backfillEventSubjects(): void {
    const update = this.db.prepare('UPDATE events SET object_id = ?, payment = ? WHERE seq = ?')
    const page = this.db.prepare('SELECT seq, json FROM events WHERE seq > ? ORDER BY seq LIMIT 1000')
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

  /** The schema version of the data (tests). */
  schemaVersion(): number {
    return (this.db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as {v: number}).v
  }

  stmt(sql: string): Statement {
    let s = this.stmts.get(sql)
    if (!s) {
      s = this.db.prepare(sql)
      this.stmts.set(sql, s)
    }
    return s
  }

  account(id: string): AccountStore {
    let v = this.views.get(id)
    if (!v) this.views.set(id, (v = new SqliteAccount(this, id)))
    return v
  }

  // ---------------------------------------------------------------- reads of one account

  async get<T extends StoredObject>(account: string, kind: Kind, id: string): Promise<Versioned<T> | undefined> {
    const row = this.stmt(`SELECT ${SELECT[kind]}, version FROM ${TABLE[kind]} WHERE id = ? AND account = ?`).get(id, this.no(account)) as (Row & {version: number}) | undefined
    return row ? {obj: parseRow<T>(kind, row), version: row.version} : undefined
  }

  async list<T extends StoredObject, K extends Kind = Kind>(account: string, kind: K, q: ListQuery<K>): Promise<ListPage<T>> {
    const table = TABLE[kind]
    const page = this.page<Row>(table, account, q, (params) => whereOf(kind, this.no(account), q.filters as Filter[], params), SELECT[kind])
    return {...page, data: page.data.map((r) => parseRow<T>(kind, r))}
  }

  /** A page of one account's rows of a table; `whereFn` bounds it to the account. */
  private page<R>(
    table: string,
    account: string,
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
      // a cursor of another account is no cursor here
      const row = this.stmt(`SELECT seq FROM ${table} WHERE id = ? AND account = ?`).get(cursor, this.no(account)) as {seq: number} | undefined
      if (!row) return {data: [], has_more: false, cursor_missing: name}
      clauses.push(`seq ${op} ?`)
      params.push(row.seq)
      if (name === 'ending_before') asc = true
    }
    const rows = this.stmt(`SELECT ${cols} FROM ${table} WHERE ${clauses.join(' AND ')} ORDER BY seq ${asc ? 'ASC' : 'DESC'} LIMIT ?`).all(...params, q.limit + 1) as R[]
    const has_more = rows.length > q.limit
    const data = rows.slice(0, q.limit)
    if (asc) data.reverse()
    return {data, has_more}
  }

  async all<T extends StoredObject, K extends Kind = Kind>(account: string, kind: K, filters?: Filter<K>[]): Promise<T[]> {
    const params: unknown[] = []
    const clauses = whereOf(kind, this.no(account), filters as Filter[] | undefined, params)
    const rows = this.stmt(`SELECT ${SELECT[kind]} FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')} ORDER BY seq ASC`).all(...params) as Row[]
    return rows.map((r) => parseRow<T>(kind, r))
  }

  async sum<K extends Kind>(account: string, kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}): Promise<{group: string; sum: number}[]> {
    const types = FIELDS[kind]
    if (types[q.field] !== 'int') throw new Error(`cannot sum ${kind}.${q.field}: not an int field`)
    if (types[q.groupBy] !== 'text') throw new Error(`cannot group ${kind} by ${q.groupBy}: not a text field`)
    const params: unknown[] = []
    const clauses = [...whereOf(kind, this.no(account), q.filters as Filter[] | undefined, params), `${q.groupBy} IS NOT NULL`]
    return this.stmt(
      `SELECT ${q.groupBy} AS "group", COALESCE(SUM(${q.field}), 0) AS sum FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')} GROUP BY ${q.groupBy} ORDER BY ${q.groupBy}`,
    ).all(...params) as {group: string; sum: number}[]
  }

  async count<K extends Kind>(account: string, kind: K, filters?: Filter<K>[]): Promise<number> {
    const params: unknown[] = []
    const clauses = whereOf(kind, this.no(account), filters as Filter[] | undefined, params)
    return (this.stmt(`SELECT COUNT(*) AS n FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')}`).get(...params) as {n: number}).n
  }

  async locate<T extends StoredObject>(kind: Kind, field: 'id' | 'secret_hash', value: string): Promise<{account: string; obj: T} | undefined> {
    if (field !== 'id' && !(kind === 'api_key' && field === 'secret_hash')) throw new Error(`cannot locate ${kind} by ${field}`)
    // (staged rows are nobody's yet)
    const row = (this.stmt(`SELECT ${SELECT[kind]}, account FROM ${TABLE[kind]} WHERE ${field} = ?`).all(value) as (Row & {account: number})[]).find((r) => !this.idOf(r.account).startsWith(STAGED_ACCOUNT_MARK))
    return row ? {account: this.idOf(row.account), obj: parseRow<T>(kind, row)} : undefined
  }

  // ---------------------------------------------------------------- units of work

  async transact<T>(account: string, fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T> {
    if (this.closed) throw new Error('store is closed')
    const held: (() => void)[] = []
    let staged: ChangeSet | undefined
    const store = this
    const tx: StoreTx = {
      get: (kind, id) => store.get(account, kind, id),
      list: (kind, q) => store.list(account, kind, q),
      all: (kind, filters) => store.all(account, kind, filters),
      sum: (kind, q) => store.sum(account, kind, q),
      count: (kind, filters) => store.count(account, kind, filters),
      async lock(key) {
        // ids are unique across accounts; other keys (settings, provider health) are the account's own
        held.push(await store.locks.acquire(`${account}\u0000${key}`))
      },
      async claimIdempotency(scope, key, now, opts) {
        return store.claimIdempotency(account, scope, key, now, held, opts?.defer === true)
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
      if (staged) durable = this.enqueue(account, staged)
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
  private claimIdempotency(account: string, scope: string, key: string, now: string, held: (() => void)[], defer: boolean): IdempotencyClaim {
    const k = idemKey(account, scope, key)
    if (this.idemInFlight.has(k)) return {state: 'in_flight'}
    const recheck = this.idemRecheck.delete(k)
    if (defer && !recheck) {
      this.idemInFlight.set(k, true)
      held.push(() => this.idemInFlight.delete(k))
      return {state: 'claimed', deferred: {lookup: async () => this.liveIdempotency(account, scope, key, now)}}
    }
    const record = this.liveIdempotency(account, scope, key, now)
    if (record) return {state: 'recorded', record}
    this.idemInFlight.set(k, false)
    held.push(() => this.idemInFlight.delete(k))
    return {state: 'claimed'}
  }

  private liveIdempotency(account: string, scope: string, key: string, now: string): IdempotencyRecord | undefined {
    const record = this.stmt(
      'SELECT i.scope, i.key, i.request_hash, i.status, i.body, i.created_at, i.expires_at, e.json AS event_json FROM idempotency_keys i LEFT JOIN events e ON e.account = i.account AND e.id = i.body_event WHERE i.account = ? AND i.scope = ? AND i.key = ?',
    ).get(this.no(account), scope, key) as (Omit<IdempotencyRecord, 'body'> & {body: string | Buffer; event_json: string | Buffer | null}) | undefined
    if (!record || record.expires_at <= now) return undefined
    const {event_json, body, ...r} = record
    return {...r, body: event_json !== null ? dataObjectOf(unpack(event_json)) : unpack(body)}
  }

  commit(account: string, cs: ChangeSet): Promise<void> {
    if (this.closed) return Promise.reject(new Error('store is closed'))
    return this.enqueue(account, cs)
  }

  private enqueue(account: string, cs: ChangeSet): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({cs, account, resolve, reject})
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
    // the change sets after a swap of staged rows wait for it: they write with the number it gives the account
    if (this.holding) return
    let batch = this.queue
    this.queue = []
    const swap = batch.findIndex((p) => p.cs.restoreStaged !== undefined)
    if (swap >= 0) {
      this.holding = true
      this.queue = batch.slice(swap + 1)
      batch = batch.slice(0, swap + 1)
    }
    if (batch.length === 0) return
    this.writing++
    const compiled: {p: Pending; ops: Op[]; notices: ChangeNotice[]}[] = []
    for (const p of batch) {
      if (p.ops) {
        compiled.push({p, ops: p.ops, notices: []})
        continue
      }
      try {
        const c = compile(p.cs, p.account, this.compileState)
        compiled.push({p, ops: c.ops, notices: [c.notice, ...c.others]})
      } catch (e) {
        p.reject(e)
      }
    }
    let results: ChangeResult[]
    try {
      // the store's own statements alone (rows staged, rows nobody has deleted) need no fsync of their own
      const relaxed = compiled.every((c) => c.p.ops !== undefined)
      results = this.writer ? await this.writer.write(compiled.map((c) => c.ops), relaxed) : this.writeHere(compiled.map((c) => c.ops))
    } catch (e) {
      results = compiled.map(() => ({ok: false, error: {name: 'Error', message: (e as Error).message}}))
    }
    this.counts.changeSets += compiled.length
    if (!this.writer) this.counts.transactions++
    // one notice per account the batch touched
    const notices = new Map<string, {account: string; kinds: Set<Kind>; settings: string[]; eventSeq: number | null; dueBy: string | null}>()
    const purged: string[] = []
    compiled.forEach((c, i) => {
      const r = results[i]!
      if (!r.ok) {
        // a deferred claim's commit met a live record: the unit runs again, and its claim looks
        if (r.error.kind === 'idempotency_key' && r.error.id !== undefined) this.idemRecheck.add(r.error.id)
        return c.p.reject(restore(r.error))
      }
      this.settle(c.p.account, c.p.cs)
      if (c.p.cs.restoreStaged) this.swapped(c.p.account, c.p.cs.restoreStaged as SqliteStaged)
      if (this.unsaved.size) for (const part of c.notices) this.unsaved.delete(part.account)
      if (c.p.cs.purgeAccount !== undefined) purged.push(c.p.cs.purgeAccount)
      for (const [i, part] of c.notices.entries()) {
        let notice = notices.get(part.account)
        if (!notice) notices.set(part.account, (notice = {account: part.account, kinds: new Set<Kind>(), settings: [], eventSeq: null, dueBy: null}))
        for (const k of part.kinds) notice.kinds.add(k)
        notice.settings.push(...part.settings)
        if (i === 0 && r.seq !== null) notice.eventSeq = r.seq
        if (part.restored) (notice as ChangeNotice & {restored?: boolean}).restored = true
        if (part.dueBy && (notice.dueBy === null || part.dueBy < notice.dueBy)) notice.dueBy = part.dueBy
      }
      c.p.resolve()
    })
    this.checkpointer?.nudge()
    for (const n of notices.values()) this.notify(n)
    for (const account of purged) this.notify({account, purged: true, kinds: new Set(), settings: [], eventSeq: null, dueBy: null})
    this.writing--
    if (swap >= 0) {
      this.holding = false
      if (this.queue.length && !this.flushScheduled) {
        this.flushScheduled = true
        setImmediate(() => void this.flush())
      }
    }
    if (this.writing === 0 && this.queue.length === 0 && !this.flushScheduled) for (const f of this.idle.splice(0)) f()
  }

  /** Staged rows became the account's (their commit is durable): its number is theirs now, and its old rows are deleted in the background. */
  private swapped(account: string, s: SqliteStaged): void {
    const old = this.numbers.get(account)
    s.state = 'swapped'
    this.numbers.set(account, s.number!)
    this.idsByNumber.set(s.number!, account)
    this.unsaved.delete(account)
    if (old !== undefined) {
      this.idsByNumber.set(old, retiredName(account))
      void this.purgeNumber(old).catch(() => {}) // (closing: the next start deletes them)
    }
  }

  private notify(n: ChangeNotice): void {
    notifyEach(this.listeners, n, this.listenerFailed)
    const own = this.accountListeners.get(n.account)
    if (own) notifyEach(own, n, this.listenerFailed)
  }

  private listenerFailed: (e: unknown, account: string) => void = listenerErrorToStderr

  onListenerError(fn: (e: unknown, account: string) => void): void {
    this.listenerFailed = fn
  }

  /**
   * What a commit changes in this process once it is durable: claims that ended. A delivery's
   * claim ends with a write of that delivery (its outcome), never with the insert that created
   * it: the read connection sees a commit before its answer is back here, so a claim may
   * already have been taken on a delivery this commit inserted (ending it would let a second
   * claim attempt the delivery twice at once).
   */
  private settle(account: string, cs: ChangeSet): void {
    for (const j of cs.completeJobs ?? []) this.jobClaims.delete(own(account, j.id))
    for (const put of cs.puts ?? []) if (put.kind === 'delivery' && put.expectVersion !== undefined) this.deliveryClaims.drop(account, put.obj.id)
    const gone = cs.purgeAccount
    if (gone !== undefined) {
      for (const [id, c] of this.jobClaims) if (c.account === gone) this.jobClaims.delete(id)
      this.deliveryClaims.dropAccount(gone)
      for (const scope of this.buckets.keys()) if (scope.startsWith(`${gone}:`)) this.buckets.delete(scope)
    }
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

  /** Every row of an account but its keys and account objects, read in one read transaction (one moment). */
  exportRows(id: string): AccountRows {
    const account = this.no(id)
    return this.db.transaction((): AccountRows => {
      const objects: AccountRows['objects'] = []
      for (const kind of Object.keys(KINDS) as Kind[]) {
        if (UNSNAPSHOTTED.has(kind)) continue
        for (const r of this.stmt(`SELECT ${SELECT[kind]}, version FROM ${TABLE[kind]} WHERE account = ? ORDER BY seq`).all(account) as (Row & {version: number})[])
          objects.push({kind, obj: parseRow<StoredObject>(kind, r), version: r.version})
      }
      const events = (this.stmt('SELECT id, type, created_at, json, object_id, payment FROM events WHERE account = ? ORDER BY seq').all(account) as (StoredRow & {object_id: string | null; payment: string | null})[]).map(
        (r) => ({id: r.id, type: r.type, created_at: r.created_at, json: unpack(r.json), object_id: r.object_id, payment: r.payment}),
      )
      const jobs = (this.stmt('SELECT id, kind, ref, due_at, data FROM jobs WHERE account = ? ORDER BY rowid').all(account) as {id: string; kind: string; ref: string; due_at: string; data: string | null}[]).map((r) => ({
        id: r.id,
        kind: r.kind,
        ref: r.ref,
        due_at: r.due_at,
        ...(r.data ? {data: JSON.parse(r.data) as Record<string, unknown>} : {}),
      }))
      const idempotency = (
        this.stmt(
          'SELECT i.scope, i.key, i.request_hash, i.status, i.body, i.created_at, i.expires_at, e.json AS event_json FROM idempotency_keys i LEFT JOIN events e ON e.account = i.account AND e.id = i.body_event WHERE i.account = ? ORDER BY i.created_at',
        ).all(account) as (Omit<IdempotencyRecord, 'body'> & {body: string | Buffer; event_json: string | Buffer | null})[]
      ).map(({event_json, body, ...r}) => ({...r, body: event_json !== null ? dataObjectOf(unpack(event_json)) : unpack(body)}))
      const stats = this.stmt('SELECT provider, day, approved, total FROM provider_stats WHERE account = ? ORDER BY provider, day').all(account) as StatIncrement[]
      const settings: Record<string, string> = {}
      for (const r of this.stmt('SELECT key, value FROM settings WHERE account = ? ORDER BY key').all(account) as {key: string; value: string}[]) settings[r.key] = r.value
      return {objects, events, jobs, idempotency, stats, settings}
    })()
  }

  // ---------------------------------------------------------------- events of one account

  async getEvent(account: string, id: string): Promise<LoggedEvent | undefined> {
    return logged(this.stmt('SELECT seq, id, type, created_at, json FROM events WHERE id = ? AND account = ?').get(id, this.no(account)) as StoredRow | undefined)
  }

  async listEvents(account: string, q: EventQuery): Promise<ListPage<LoggedEvent>> {
    const whereFn = (params: unknown[]) => {
      const clauses: string[] = ['account = ?']
      params.push(this.no(account))
      if (q.object !== undefined && q.subject === undefined) throw new Error('an event query by object names its subject (the payment it concerns, else the object)')
      if (q.subject !== undefined) {
        // the expression of the events_subject index
        clauses.push('COALESCE(payment, object_id) = ?')
        params.push(q.subject)
      }
      if (q.object !== undefined) {
        clauses.push('object_id = ?')
        params.push(q.object)
      }
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
    // the page is chosen on the (account, type, seq) and (account, created_at) indexes; the bytes are read by seq
    const page = this.page<{seq: number}>('events', account, q, whereFn, 'seq')
    const bySeq = this.stmt('SELECT seq, id, type, created_at, json FROM events WHERE seq = ?')
    return {...page, data: page.data.map((r) => logged(bySeq.get(r.seq) as StoredRow))}
  }

  async eventsAfter(account: string, afterSeq: number, limit: number): Promise<LoggedEvent[]> {
    return (this.stmt('SELECT seq, id, type, created_at, json FROM events WHERE account = ? AND seq > ? ORDER BY seq ASC LIMIT ?').all(this.no(account), afterSeq, limit) as StoredRow[]).map((r) => logged(r))
  }

  async purgeEvents(account: string, before: string): Promise<number> {
    return this.purge('events', 'created_at < ?', [this.no(account), before])
  }

  // ---------------------------------------------------------------- jobs and deliveries

  async claimJobs(account: string, now: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    const t = Date.now()
    let mine = 0
    for (const [k, c] of this.jobClaims) {
      if (c.until <= t) this.jobClaims.delete(k)
      else if (c.account === account) mine++
    }
    const rows = this.stmt('SELECT id, kind, ref, due_at, data FROM jobs WHERE account = ? AND due_at <= ? ORDER BY due_at ASC, rowid ASC LIMIT ?').all(
      this.no(account),
      now,
      limit + mine,
    ) as {id: string; kind: string; ref: string; due_at: string; data: string | null}[]
    const out: ClaimedJob[] = []
    for (const r of rows) {
      if (out.length >= limit) break
      if (this.jobClaims.has(own(account, r.id))) continue
      const claim = token()
      this.jobClaims.set(own(account, r.id), {claim, until: t + leaseMs, account})
      out.push({id: r.id, kind: r.kind, ref: r.ref, due_at: r.due_at, claim, ...(r.data ? {data: JSON.parse(r.data) as Record<string, unknown>} : {})})
    }
    return out
  }

  async releaseJobs(account: string, jobs: readonly ClaimedJob[]): Promise<void> {
    for (const j of jobs) if (this.jobClaims.get(own(account, j.id))?.claim === j.claim) this.jobClaims.delete(own(account, j.id))
  }

  async nextJobs(): Promise<{account: string; due_at: string}[]> {
    // one seek per account on (account, due_at): the first entry per account is its earliest due
    const next = this.stmt('SELECT account, due_at FROM jobs WHERE account > ? ORDER BY account, due_at LIMIT 1')
    const out: {account: string; due_at: string}[] = []
    for (let after = -1; ; ) {
      const row = next.get(after) as {account: number; due_at: string} | undefined
      if (!row) return out
      const account = this.idOf(row.account)
      if (!account.startsWith(STAGED_ACCOUNT_MARK)) out.push({account, due_at: row.due_at})
      after = row.account
    }
  }

  async claimDeliveries(nowOf: (account: string) => string, q: {limit: number; perEndpoint: number; leaseMs: number; share?: SlotShare}): Promise<ClaimedDelivery[]> {
    const t = Date.now()
    this.deliveryClaims.expire(t)
    // the endpoints with a delivery due on their account's clock: one seek per endpoint on
    // (account, endpoint, next_attempt_at), whose first entry per endpoint is its earliest due (a
    // loose index scan, never the backlog; see CLAIM_SQL)
    const endpoints: {endpoint: string; account: string; no: number; now: string}[] = []
    const nextInAccount = this.stmt(CLAIM_SQL.nextInAccount)
    const nextAccount = this.stmt(CLAIM_SQL.nextAccount)
    type Next = {endpoint: string; due: string; account: number} | undefined
    let nowAccount = -1
    let now = ''
    for (let row = nextAccount.get(-1) as Next; row; row = (nextInAccount.get(row.account, row.endpoint) ?? nextAccount.get(row.account)) as Next) {
      const account = this.idOf(row.account)
      // one clock reading per account (a staged account's rows are nobody's: never due)
      if (row.account !== nowAccount) {
        nowAccount = row.account
        now = account.startsWith(STAGED_ACCOUNT_MARK) ? '' : nowOf(account)
      }
      if (row.due <= now) endpoints.push({endpoint: row.endpoint, account, no: row.account, now})
    }
    // each due endpoint's earliest due rows that no claim holds, found on the index alone (their
    // seq; a claimed row stays due until its outcome is written, so up to `held` of them come
    // first); a row itself is read once it is claimed, not for every candidate
    const dueSeqs = this.stmt(CLAIM_SQL.dueSeqs).pluck()
    const bySeq = this.stmt(CLAIM_SQL.bySeq)
    // no endpoint can get more than the round may claim (its free slots and the spare ones)
    const most = Math.max(0, q.limit) + Math.max(0, q.share?.spare ?? 0)
    const candidates = new Map<string, {account: string; endpoint: string; seq: number}[]>()
    for (const e of endpoints) {
      const held = this.deliveryClaims.held(e.account, e.endpoint)
      const n = Math.min(most, Math.max(0, q.perEndpoint - held))
      if (n === 0) continue
      const rows: {account: string; endpoint: string; seq: number}[] = []
      for (const seq of dueSeqs.all(e.no, e.endpoint, e.now, n + held) as number[]) {
        if (this.deliveryClaims.claimed(seq)) continue
        rows.push({account: e.account, endpoint: e.endpoint, seq})
        if (rows.length === n) break
      }
      candidates.set(own(e.account, e.endpoint), rows)
    }
    // accounts first, then endpoints: one account's backlog cannot take every slot, nor one endpoint's
    return shareSlots(candidates.values(), q.limit, q.share).map((r) => {
      const {id, event} = bySeq.get(r.seq) as {id: string; event: string}
      const claim = token()
      this.deliveryClaims.take(r.account, id, {claim, endpoint: r.endpoint, seq: r.seq, until: t + q.leaseMs})
      return {account: r.account, id, endpoint: r.endpoint, event, claim}
    })
  }

  async releaseDeliveries(ds: readonly ClaimedDelivery[]): Promise<void> {
    for (const d of ds) this.deliveryClaims.drop(d.account, d.id, d.claim)
  }

  async deliveryBacklog(): Promise<{account: string; endpoint: string; pending: number; oldest_due: string}[]> {
    // the pending deliveries only (the partial index on (account, endpoint, next_attempt_at))
    const rows = this.stmt(
      'SELECT account, endpoint, COUNT(*) AS pending, MIN(next_attempt_at) AS oldest_due FROM deliveries WHERE next_attempt_at IS NOT NULL GROUP BY account, endpoint ORDER BY account, endpoint',
    ).all() as {account: number; endpoint: string; pending: number; oldest_due: string}[]
    return rows.map((r) => ({...r, account: this.idOf(r.account)})).filter((r) => !r.account.startsWith(STAGED_ACCOUNT_MARK))
  }

  // ---------------------------------------------------------------- idempotency, rate limit, stats, settings

  async purgeIdempotency(account: string, now: string): Promise<number> {
    return this.purge('idempotency_keys', 'expires_at <= ?', [this.no(account), now])
  }

  /**
   * Deletes an account's rows of `table` matching `where`, on the writer thread and PURGE_CHUNK
   * rows per transaction: never on the event loop (a write there waits for the writer's lock and
   * for its own fsync, stopping every request meanwhile — a 400-day clock advance purged months
   * of events at once), and other units' commits go in between the chunks (issue 33).
   */
  private async purge(table: string, where: string, params: unknown[]): Promise<number> {
    // (counted up to one more than a chunk: reading a whole backlog would be the stretch avoided here)
    const count = this.stmt(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${table} WHERE account = ? AND ${where} LIMIT ${PURGE_CHUNK + 1})`)
    const chunk = `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE account = ? AND ${where} LIMIT ${PURGE_CHUNK})`
    let removed = 0
    for (;;) {
      const n = (count.get(...params) as {n: number}).n
      if (n === 0 || this.closed) return removed
      const [r] = this.writer ? await this.writer.write([[{sql: chunk, params: [...params]}]]) : this.writeHere([[{sql: chunk, params: [...params]}]])
      if (!r!.ok) throw restore(r!.error)
      removed += Math.min(n, PURGE_CHUNK)
      if (n <= PURGE_CHUNK) return removed
    }
  }

  async takeToken(scope: string, rate: number, capacity: number): Promise<{retryAfter: number; remaining: number}> {
    if (rate <= 0) return {retryAfter: 0, remaining: capacity}
    const now = performance.now()
    let b = this.buckets.get(scope)
    if (!b) {
      // (one per account and mode, and per client address that failed to authenticate: full ones are swept)
      if (this.buckets.size >= this.bucketSweepAt) this.sweepBuckets(now)
      b = {tokens: capacity, at: now, full: now}
      this.buckets.set(scope, b)
    }
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * rate)
    b.at = now
    const taken = b.tokens >= 1
    if (taken) b.tokens -= 1
    b.full = now + ((capacity - b.tokens) / rate) * 1000
    if (taken) return {retryAfter: 0, remaining: Math.floor(b.tokens)}
    return {retryAfter: Math.max(1, Math.ceil((1 - b.tokens) / rate)), remaining: 0}
  }

  /** Forgets buckets that have refilled (a full bucket is what a new one is). */
  private sweepBuckets(now: number): void {
    for (const [scope, b] of this.buckets) if (b.full <= now) this.buckets.delete(scope)
    this.bucketSweepAt = Math.max(BUCKETS_SWEPT_AT, this.buckets.size * 2)
  }

  async statsSince(account: string, day: string): Promise<StatIncrement[]> {
    return this.stmt('SELECT provider, day, approved, total FROM provider_stats WHERE account = ? AND day >= ? ORDER BY provider, day').all(this.no(account), day) as StatIncrement[]
  }

  async getSetting(account: string, key: string): Promise<string | undefined> {
    const r = this.stmt('SELECT value FROM settings WHERE account = ? AND key = ?').get(this.no(account), key) as {value: string} | undefined
    return r?.value
  }

  async addToSetting(account: string, key: string, delta: number): Promise<number> {
    return this.transact(account, async (tx) => {
      await tx.lock(`setting:${key}`)
      const next = Number((await this.getSetting(account, key)) ?? '0') + delta
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

  onAccountChange(account: string, fn: (n: ChangeNotice) => void): () => void {
    let set = this.accountListeners.get(account)
    if (!set) this.accountListeners.set(account, (set = new Set()))
    set.add(fn)
    return () => {
      set.delete(fn)
      if (set.size === 0 && this.accountListeners.get(account) === set) this.accountListeners.delete(account)
    }
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

/** One account's data in a SQLite store: every operation bounded to the account. */
class SqliteAccount implements AccountStore {
  constructor(
    private readonly s: SqliteStore,
    readonly account: string,
  ) {}
  get<T extends StoredObject>(kind: Kind, id: string) {
    return this.s.get<T>(this.account, kind, id)
  }
  list<T extends StoredObject, K extends Kind = Kind>(kind: K, q: ListQuery<K>) {
    return this.s.list<T, K>(this.account, kind, q)
  }
  all<T extends StoredObject, K extends Kind = Kind>(kind: K, filters?: Filter<K>[]) {
    return this.s.all<T, K>(this.account, kind, filters)
  }
  sum<K extends Kind>(kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}) {
    return this.s.sum(this.account, kind, q)
  }
  count<K extends Kind>(kind: K, filters?: Filter<K>[]) {
    return this.s.count(this.account, kind, filters)
  }
  transact<T>(fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder) {
    return this.s.transact(this.account, fn, order)
  }
  commit(cs: ChangeSet) {
    return this.s.commit(this.account, cs)
  }
  getEvent(id: string) {
    return this.s.getEvent(this.account, id)
  }
  listEvents(q: EventQuery) {
    return this.s.listEvents(this.account, q)
  }
  eventsAfter(afterSeq: number, limit: number) {
    return this.s.eventsAfter(this.account, afterSeq, limit)
  }
  purgeEvents(before: string) {
    return this.s.purgeEvents(this.account, before)
  }
  claimJobs(now: string, limit: number, leaseMs: number) {
    return this.s.claimJobs(this.account, now, limit, leaseMs)
  }
  releaseJobs(jobs: readonly ClaimedJob[]) {
    return this.s.releaseJobs(this.account, jobs)
  }
  purgeIdempotency(now: string) {
    return this.s.purgeIdempotency(this.account, now)
  }
  statsSince(day: string) {
    return this.s.statsSince(this.account, day)
  }
  getSetting(key: string) {
    return this.s.getSetting(this.account, key)
  }
  addToSetting(key: string, deltaMs: number) {
    return this.s.addToSetting(this.account, key, deltaMs)
  }
  exclusive<T>(name: string, fn: () => Promise<T>, opts?: {wait?: boolean}) {
    return this.s.exclusive(`${this.account}:${name}`, fn, opts)
  }
  async exportRows() {
    return this.s.exportRows(this.account)
  }
  stageRows() {
    return this.s.stageRows(this.account)
  }
  onChange(fn: (n: ChangeNotice) => void) {
    return this.s.onAccountChange(this.account, fn)
  }
}
