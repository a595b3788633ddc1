import {existsSync} from 'node:fs'
import Database from 'better-sqlite3'
import type {Database as Db, Statement} from 'better-sqlite3'
import {
  type AccountRows,
  type AccountRowsPart,
  type AccountStore,
  type ChangeNotice,
  type Hearing,
  type ChangeSet,
  type ClaimedDelivery,
  type ClaimedJob,
  type CommitOrder,
  type EventQuery,
  type Filter,
  type Kind,
  type ListPage,
  type ListQuery,
  type LoggedEvent,
  type StatIncrement,
  type Store,
  type StoredObject,
  type StoreTx,
  STAGED_ACCOUNT_MARK,
  type StagedRows,
  type Versioned,
} from '../../ports/store.js'
import {keepPrivate, writePrivateFile} from '../../adapters/private-files.js'
import {KeyedLock} from '../keyed-lock.js'
import type {SlotShare} from '../slot-share.js'
import {SqliteAccount} from './account.js'
import {Checkpointer} from './checkpointer.js'
import * as claims from './claims.js'
import {Committer} from './committer.js'
import type {CompileState} from './compile.js'
import {insertRows} from './compile.js'
import {DeliveryClaims} from './delivery-claims.js'
import {Listeners} from './feed.js'
import {freshImage, freshMigrated, migrate, schemaVersion} from './migrations.js'
import * as purges from './purges.js'
import {Buckets} from './rate-limit.js'
import * as reads from './reads.js'
import {dataObjectOf} from '../idempotency-body.js'
import {Sections} from './sections.js'
import * as settings from './settings.js'
import {retiredName, SqliteStaged, type StagingHost} from './staging.js'
import * as units from './units.js'
import {type Op, Writer} from './writer.js'

export interface SqliteStoreOptions {
  /** file path, or ':memory:' */
  path: string
  /** 'full' (default) fsyncs every commit; 'normal' may lose the last commits on power loss */
  durability?: 'full' | 'normal'
  /** the WAL size at which the checkpointer's thread starts (default CHECKPOINTER_START_BYTES; tests) */
  checkpointerStartBytes?: number
}

export {dataObjectOf}

/**
 * The SQLite adapter: one engine instance owns the data dir, so the locks, idempotency claims,
 * job and delivery claims and rate-limit buckets the port asks for live in this process.
 *
 * Every row carries its account, and every query of account data is bounded to one account
 * (SqliteAccount, the view Store.account gives); every index leads with the account.
 *
 * Writes happen on a writer thread (writer.ts) with its own connection; this connection only
 * reads (WAL: readers see every committed transaction, never a partial one). Commits are
 * grouped (committer.ts), made durable by one fsync on that thread (synchronous=FULL for
 * 'full'); a commit resolves after that.
 *
 * This class holds the state the concerns share and composes them, one file each as in the
 * PostgreSQL adapter: reads.ts (queries, events, exportRows), units.ts (units of work,
 * idempotency claims), committer.ts (the commit path), feed.ts (change notices), claims.ts (job
 * and delivery claims), purges.ts, settings.ts, rate-limit.ts, sections.ts, staging.ts (staged
 * rows of snapshots), migrations.ts. Its fields below are the adapter's own: the modules of
 * this folder read them, nothing outside does.
 */
export class SqliteStore implements Store {
  /** one engine instance owns the data dir */
  readonly shared = false
  readonly db: Db
  private readonly stmts = new Map<string, Statement>()
  closed = false
  /** deletions in progress (close lets them end at a part's boundary; purges.ts) */
  purging = 0
  readonly writer: Writer | undefined
  /** WAL checkpoints on a worker thread of their own */
  readonly checkpointer: Checkpointer | undefined
  readonly committer = new Committer(this)
  private readonly views = new Map<string, SqliteAccount>()

  readonly locks = new KeyedLock()
  /** keys claimed by units of work in this process, and whether the claim deferred its lookup to the commit */
  readonly idemInFlight = new Map<string, boolean>()
  /** keys whose deferred commit found a live record: their next claim looks first */
  readonly idemRecheck = new Set<string>()
  /** claims by account and id (ids are unique per account): see claims.own */
  readonly jobClaims = new Map<string, claims.JobClaim>()
  readonly deliveryClaims = new DeliveryClaims()
  readonly buckets = new Buckets()
  readonly listeners = new Listeners()
  private readonly sections = new Sections()
  get stats(): {transactions: number; changeSets: number} {
    return {transactions: this.writer?.transactions ?? this.committer.counts.transactions, changeSets: this.committer.counts.changeSets}
  }

  /**
   * Rows carry their account as a number (account_numbers): every index leads with the account,
   * and an integer compares in a fraction of the time a text takes, on every index entry written.
   * This process owns the file, so it numbers accounts itself: a number is given when an
   * account's first change set is compiled, and written with every change set of the account
   * until one commits.
   */
  readonly numbers = new Map<string, number>()
  readonly idsByNumber = new Map<number, string>()
  readonly unsaved = new Set<string>()
  private lastNumber = 0

  readonly compileState: CompileState = {
    jobClaim: (account: string, id: string) => this.jobClaims.get(claims.own(account, id))?.claim,
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
    replaced: (account: string) => {
      // (a unit running a job of the old rows then fails its completion, as on PostgreSQL, whose restored job rows carry no claim)
      for (const [k, c] of this.jobClaims) if (c.account === account) this.jobClaims.delete(k)
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
      await this.committer.write(ops)
    },
    purge: (n) => purges.purgeNumber(this, n),
  }

  /** Starts rows for an account that a later commit puts in place of its own (StagedRows, staging.ts). */
  stageRows(account: string): StagedRows {
    if (this.closed) throw new Error('store is closed')
    return new SqliteStaged(this.staging, account)
  }

  /** The number an account's rows carry; 0, which no rows carry, for an account that has none. */
  no(account: string): number {
    return this.numbers.get(account) ?? 0
  }

  /** The account of a number of account_numbers. */
  idOf(n: number): string {
    const id = this.idsByNumber.get(n)
    if (id === undefined) throw new Error(`account number ${n} is not in account_numbers`)
    return id
  }

  constructor(opts: SqliteStoreOptions) {
    const file = opts.path !== '' && opts.path !== ':memory:' && !opts.path.startsWith('file:') ? opts.path : undefined
    // the database is 0600 before SQLite opens it: SQLite makes its -wal and -shm with the database's mode;
    // a new one starts as the migrations made the process's first (migrations.ts, freshImage)
    const fresh = file !== undefined && !existsSync(file)
    const image = fresh ? freshImage() : undefined
    if (fresh) writePrivateFile(file, image ?? '')
    if (file !== undefined) keepPrivate(file)
    this.db = new Database(opts.path)
    const wal = this.db.pragma('journal_mode = WAL', {simple: true}) === 'wal'
    // (an older gw's -wal and -shm may have another mode)
    if (file !== undefined) for (const f of [`${file}-wal`, `${file}-shm`]) keepPrivate(f)
    this.db.pragma(`synchronous = ${opts.durability === 'normal' ? 'NORMAL' : 'FULL'}`)
    this.db.pragma('busy_timeout = 5000')
    this.db.pragma('foreign_keys = ON')
    migrate(this.db)
    if (fresh) freshMigrated(this.db, image !== undefined)
    for (const r of this.db.prepare('SELECT n, id FROM account_numbers').all() as {n: number; id: string}[]) {
      this.numbers.set(r.id, r.n)
      this.idsByNumber.set(r.n, r.id)
      this.lastNumber = Math.max(this.lastNumber, r.n)
    }
    if (wal) {
      this.writer = new Writer(this.db.name, opts.durability ?? 'full')
      // checkpoints (copying WAL pages into the database file, with their fsyncs) on a thread of
      // their own, started once the WAL has grown (checkpointer.ts); the writer's automatic checkpoint,
      // every 10000 pages, is the backstop
      this.checkpointer = new Checkpointer(this.db.name, undefined, opts.checkpointerStartBytes)
    }
    // rows a stopped process staged or replaced: nobody's, deleted in the background
    for (const [n, id] of this.idsByNumber) if (id.startsWith(STAGED_ACCOUNT_MARK)) setImmediate(() => void purges.purgeNumber(this, n).catch(() => {}))
  }

  /** The schema version of the data (tests). */
  schemaVersion(): number {
    return schemaVersion(this.db)
  }

  /** The statement of `sql`, prepared once. */
  stmt(sql: string): Statement {
    let s = this.stmts.get(sql)
    if (!s) {
      s = this.db.prepare(sql)
      this.stmts.set(sql, s)
    }
    return s
  }

  /**
   * Runs synchronous reads in one read transaction: each statement outside one starts and ends
   * its own (the WAL's locks and snapshot: 10–15 µs here, more than most of these reads), and a
   * claim round makes a few per due endpoint (docs/decisions.md#background-work-under-load). Nothing here may write.
   */
  reading<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn()
    this.stmt('BEGIN').run()
    try {
      return fn()
    } finally {
      this.stmt('COMMIT').run()
    }
  }

  account(id: string): AccountStore {
    let v = this.views.get(id)
    if (!v) this.views.set(id, (v = new SqliteAccount(this, id)))
    return v
  }

  // ---------------------------------------------------------------- reads (reads.ts)

  async get<T extends StoredObject>(account: string, kind: Kind, id: string): Promise<Versioned<T> | undefined> {
    return reads.get<T>(this, account, kind, id)
  }

  async list<T extends StoredObject, K extends Kind = Kind>(account: string, kind: K, q: ListQuery<K>): Promise<ListPage<T>> {
    return reads.list<T, K>(this, account, kind, q)
  }

  async all<T extends StoredObject, K extends Kind = Kind>(account: string, kind: K, filters?: Filter<K>[]): Promise<T[]> {
    return reads.all<T, K>(this, account, kind, filters)
  }

  async sum<K extends Kind>(account: string, kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}): Promise<{group: string; sum: number}[]> {
    return reads.sum(this, account, kind, q)
  }

  async count<K extends Kind>(account: string, kind: K, filters?: Filter<K>[]): Promise<number> {
    return reads.count(this, account, kind, filters)
  }

  async earliest<K extends Kind>(account: string, kind: K, field: string, filters?: Filter<K>[]): Promise<string | undefined> {
    return reads.earliest(this, account, kind, field, filters)
  }

  async locate<T extends StoredObject>(kind: Kind, field: 'id' | 'secret_hash', value: string): Promise<{account: string; obj: T} | undefined> {
    return reads.locate<T>(this, kind, field, value)
  }

  async getEvent(account: string, id: string): Promise<LoggedEvent | undefined> {
    return reads.getEvent(this, account, id)
  }

  async listEvents(account: string, q: EventQuery): Promise<ListPage<LoggedEvent>> {
    return reads.listEvents(this, account, q)
  }

  async eventsAfter(account: string, afterSeq: number, limit: number): Promise<LoggedEvent[]> {
    return reads.eventsAfter(this, account, afterSeq, limit)
  }

  /** Every row of an account but its keys and account objects, read in one read transaction (one moment). */
  exportRows(id: string): AccountRows {
    return reads.exportRows(this, id)
  }

  /** The same, a part at a time, on a connection of its own holding the moment (AccountStore.exportParts). */
  exportParts(id: string, rows: number): AsyncGenerator<AccountRowsPart, void, undefined> {
    if (this.closed) throw new Error('store is closed')
    return reads.exportParts(this, id, rows)
  }

  // ---------------------------------------------------------------- units of work (units.ts) and commits (committer.ts)

  transact<T>(account: string, fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T> {
    return units.transact(this, account, fn, order)
  }

  commit(account: string, cs: ChangeSet): Promise<void> {
    if (this.closed) return Promise.reject(new Error('store is closed'))
    return this.committer.enqueue(account, cs)
  }

  // ---------------------------------------------------------------- jobs and deliveries (claims.ts)

  async claimJobs(account: string, now: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    return claims.claimJobs(this, account, now, limit, leaseMs)
  }

  async releaseJobs(account: string, jobs: readonly ClaimedJob[]): Promise<void> {
    claims.releaseJobs(this, account, jobs)
  }

  async nextJobs(): Promise<{account: string; due_at: string}[]> {
    return claims.nextJobs(this)
  }

  async nextJobDue(account: string, from: string, except?: string): Promise<string | undefined> {
    return claims.nextJobDue(this, account, from, except)
  }

  async claimDeliveries(nowOf: (account: string) => string, q: {limit: number; perEndpoint: number; leaseMs: number; share?: SlotShare}): Promise<ClaimedDelivery[]> {
    return claims.claimDeliveries(this, nowOf, q)
  }

  async releaseDeliveries(ds: readonly ClaimedDelivery[]): Promise<void> {
    claims.releaseDeliveries(this, ds)
  }

  async deliveryBacklog(): Promise<{account: string; endpoint: string; pending: number; oldest_due: string}[]> {
    return claims.deliveryBacklog(this)
  }

  // ---------------------------------------------------------------- purges (purges.ts), settings and stats (settings.ts)

  purgeEvents(account: string, before: string): Promise<number> {
    return purges.purgeEvents(this, account, before)
  }

  purgeIdempotency(account: string, now: string): Promise<number> {
    return purges.purgeIdempotency(this, account, now)
  }

  async statsSince(account: string, day: string): Promise<StatIncrement[]> {
    return settings.statsSince(this, account, day)
  }

  async getSetting(account: string, key: string): Promise<string | undefined> {
    return settings.getSetting(this, account, key)
  }

  addToSetting(account: string, key: string, delta: number): Promise<number> {
    return settings.addToSetting(this, account, key, delta)
  }

  // ---------------------------------------------------------------- rate limit (rate-limit.ts), sections (sections.ts)

  async takeToken(scope: string, rate: number, capacity: number): Promise<{retryAfter: number; remaining: number}> {
    return this.buckets.take(scope, rate, capacity)
  }

  /** One process owns the data dir: an exclusive section is an in-process lock. */
  exclusive<T>(name: string, fn: () => Promise<T>, opts: {wait?: boolean} = {}): Promise<{ran: true; value: T} | {ran: false}> {
    return this.sections.exclusive(name, fn, opts)
  }

  // ---------------------------------------------------------------- change notices (feed.ts)

  onChange(fn: (n: ChangeNotice) => void, hearing?: Hearing): () => void {
    return this.listeners.onChange(fn, hearing)
  }

  onAccountChange(account: string, fn: (n: ChangeNotice) => void, hearing?: Hearing): () => void {
    return this.listeners.onAccountChange(account, fn, hearing)
  }

  /** Every commit is this process's own: its listeners hear each at once. */
  following(): Promise<void> {
    return Promise.resolve()
  }

  onListenerError(fn: (e: unknown, account: string) => void): void {
    this.listeners.failed = fn
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    // let staged commits land first
    await this.committer.drained()
    await this.writer?.close()
    await this.checkpointer?.close()
    this.db.close()
  }
}
