import {randomBytes} from 'node:crypto'
import pg from 'pg'
import type {
  AccountRows,
  AccountRowsPart,
  AccountStore,
  ChangeNotice,
  Hearing,
  ChangeSet,
  ClaimedDelivery,
  ClaimedJob,
  CommitOrder,
  EventQuery,
  Filter,
  IdempotencyClaim,
  Kind,
  ListQuery,
  SlotShare,
  StatIncrement,
  Store,
  StagedRows,
  StoredObject,
  StoreCounters,
  StoreTx,
} from '../../ports/store.js'
import {STAGED_ACCOUNT_MARK} from '../../ports/store.js'
import {KeyedLock} from '../keyed-lock.js'
import {PgAccount} from './account.js'
import * as claims from './claims.js'
import {ClaimBatch} from './claim-batch.js'
import {Committer, insertAccountRows} from './committer.js'
import {ChangeFeed, FOLLOW_CHANNEL, Listeners, LOG_CHANNEL, type Notice} from './feed.js'
import {migrate} from './migrations.js'
import * as purges from './purges.js'
import * as rateLimit from './rate-limit.js'
import * as reads from './reads.js'
import {PgRequestLog} from './request-log.js'
import {TABLE} from './schema.js'
import {Sections} from './sections.js'
import * as settings from './settings.js'
import {connectClient, countingClient, freshCounters, impossibleId, isUnavailable, objOf, type PgConfig, query, type Queryable, rows, typeParsers, wrap} from './sql.js'
import {PgStaged, type PgStagingHost, purgeStale} from './staging.js'
import {UnitConnections} from './unit-connections.js'
import * as units from './units.js'

export {isUnavailable, pgText} from './sql.js'

// The PostgreSQL adapter: several engine instances on one database behave as one gateway.
//
// - Every row belongs to an account and every query is bounded to one (Store.account gives a
//   view of one account's data); ids are unique per account.
// - A unit of work takes one pooled connection at its first lock and opens a transaction on it:
//   per-key locks are `pg_advisory_xact_lock`, and the unit's reads after that go over the same
//   connection (READ COMMITTED: they see what the previous holder of the lock committed). Its
//   idempotency claim is a session try-lock on the instance's claims connection, batched with the
//   others (claim-batch.ts). The database releases both when the transaction ends or the claim is
//   unlocked — or when the instance dies and its connections close, so no lock or claim outlives
//   its instance.
// - Its change set is written by this instance's committer (committer.ts): group commit, in the
//   order staged. Only when that is durable are the units' transactions ended and their claims
//   released.
// - Event seqs are commit order across instances and accounts (the one-row counter `event_seq`).
// - The change feed (feed.ts): `pg_notify` in the committing transaction, one notice per account.
// - Job and delivery claims (claims.ts): rows locked with FOR UPDATE SKIP LOCKED, with a lease.
//   A rate-limit bucket is one row per scope (account and mode; a client address) in an UNLOGGED
//   table, updated atomically; rows untouched for 10 minutes (full) are swept now and then.
// - The database going away: every operation fails fast with StoreUnavailableError (HTTP 503
//   with Retry-After); pools open new connections once it is back.
//
// This class holds the pools and what the concerns share, and composes them, one file each as in
// the SQLite adapter: reads.ts, units.ts, committer.ts, feed.ts, claims.ts, purges.ts, settings.ts,
// rate-limit.ts, sections.ts, staging.ts (staged rows of snapshots), migrations.ts, account.ts.
// Its non-private fields are the adapter's own: the modules of this folder read them.

export interface PostgresStoreOptions {
  /** postgres://user@host:port/db */
  url: string
  /** connections units of work hold from their first lock to their commit (default 16) */
  unitConnections?: number
  /** connections for reads and claims outside units of work (default 6) */
  readConnections?: number
  /** shown in pg_stat_activity (default gw-<random>) */
  instanceId?: string
  log?: (line: string) => void
}

/** a transaction left idle (its instance stalled or cut off) is ended by the database after this long, releasing its locks */
export const IDLE_IN_TRANSACTION_MS = 60_000

const token = () => randomBytes(9).toString('base64url')

export class PostgresStore implements Store {
  /** several instances serve the data of one database */
  readonly shared = true
  readonly instanceId: string
  readonly requestLog: PgRequestLog
  private readonly unitPool: pg.Pool
  readonly readPool: pg.Pool
  readonly clientConfig: PgConfig
  /** round trips, commit groups, notices (Store.counters) */
  readonly counts: StoreCounters = freshCounters()
  private readonly log: (line: string) => void
  private readonly listeners = new Listeners((yes) => this.feed.want(FOLLOW_CHANNEL, yes))
  readonly committer: Committer
  private readonly feed: ChangeFeed
  private readonly views = new Map<string, PgAccount>()
  private readonly sections: Sections
  /** per-key queues of this instance's units, in front of the database's advisory locks */
  readonly localLocks = new KeyedLock()
  closed = false
  /** tokens taken from rate-limit buckets by this instance (every 4096th sweeps the full ones) */
  tokensTaken = 0
  /** how units get their connections and give them back (unit-connections.ts) */
  readonly unitConnections: UnitConnections
  /** units' connections, checked out of the pool until the unit ends */
  readonly checkedOut = new Set<pg.PoolClient>()
  /** the units' idempotency claims, batched on a connection of their own (claim-batch.ts) */
  readonly claimBatch: ClaimBatch

  private constructor(opts: PostgresStoreOptions) {
    this.instanceId = opts.instanceId ?? `gw-${token()}`
    this.log = opts.log ?? (() => {})
    const base: PgConfig = {
      Client: countingClient(this.counts),
      connectionString: opts.url,
      application_name: this.instanceId,
      types: typeParsers(),
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    }
    // the server ends a connection whose peer vanished (keepalive) or a transaction left idle
    const serverSide = `-c timezone=UTC -c datestyle=ISO -c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3 -c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`
    this.clientConfig = {...base, options: serverSide}
    this.unitPool = new pg.Pool({...this.clientConfig, max: opts.unitConnections ?? 16, idleTimeoutMillis: 30_000})
    this.unitConnections = new UnitConnections(this.unitPool, () => this.closed)
    this.claimBatch = new ClaimBatch(this.clientConfig, () => this.closed)
    // outside units of work only reads and claims commit: a claim lost to a crash of the
    // database is claimed again (at least once), so they do not wait for the WAL flush
    this.readPool = new pg.Pool({...base, options: `${serverSide} -c synchronous_commit=off`, max: opts.readConnections ?? 6, idleTimeoutMillis: 30_000})
    // an idle pooled connection that breaks (database restart) is dropped by the pool; without a listener the error would end the process
    this.unitPool.on('error', () => {})
    this.readPool.on('error', () => {})
    // a checked-out connection that breaks fails its queries (StoreUnavailableError); its 'error' event must not end the process
    this.unitPool.on('connect', (c) => void c.on('error', () => {}))
    this.readPool.on('connect', (c) => void c.on('error', () => {}))
    this.committer = new Committer(this.clientConfig, this.instanceId, (ns) => this.notifyLocal(ns), this.counts)
    this.requestLog = new PgRequestLog(this.readPool, this.instanceId, (yes) => this.feed.want(LOG_CHANNEL, yes), () => this.feed.following())
    this.sections = new Sections(this.clientConfig, () => this.closed)
    this.feed = new ChangeFeed(this.clientConfig, this.instanceId, this.listeners, this.readPool, this.log, (seq) => this.requestLog.appended(seq), this.counts)
  }

  /** Connects, applies pending migrations (once, whoever starts first), and listens for other instances' commits. */
  static async open(opts: PostgresStoreOptions): Promise<PostgresStore> {
    const s = new PostgresStore(opts)
    try {
      await migrate(s.clientConfig)
      await s.feed.start()
    } catch (e) {
      await s.close().catch(() => {})
      throw wrap(e)
    }
    // rows staged by an instance that stopped mid-load: nobody's, deleted in the background
    void purgeStale(s.readPool).then(
      (n) => n && s.log(`snapshots: deleted the staged rows of ${n} load(s) an instance left unfinished`),
      () => {},
    )
    return s
  }

  /** Starts rows for an account that a later commit puts in place of its own (StagedRows, staging.ts). */
  stageRows(account: string): StagedRows {
    return new PgStaged(this.staging, account)
  }

  /** loads' and snapshot readings' own connections, ended at close if one is still open */
  private readonly ownClients = new Set<pg.Client>()

  private readonly staging: PgStagingHost = {
    connect: async () => {
      const c = await connectClient({...this.clientConfig, options: `${this.clientConfig.options} -c synchronous_commit=off`})
      this.ownClients.add(c)
      return c
    },
    release: (c) => {
      this.ownClients.delete(c)
      void c.end().catch(() => {})
    },
    insert: (q, owner, part, n) => insertAccountRows(q, owner, {objects: [], events: [], jobs: [], idempotency: [], stats: [], settings: {}, ...part}, n),
  }

  /** The schema version the database is at. */
  async schemaVersion(): Promise<number> {
    return Number((await rows<{v: number}>(this.readPool, 'SELECT max(version) AS v FROM gw_schema_migrations'))[0]!.v)
  }

  account(id: string): AccountStore {
    let v = this.views.get(id)
    if (!v) this.views.set(id, (v = new PgAccount(this, id)))
    return v
  }

  /** The read pool (reads outside units of work). */
  get reader(): Queryable {
    return this.readPool
  }

  // ---------------------------------------------------------------- reads across accounts

  async locate<T extends StoredObject>(kind: Kind, field: 'id' | 'secret_hash', value: string): Promise<{account: string; obj: T} | undefined> {
    if (field !== 'id' && !(kind === 'api_key' && field === 'secret_hash')) throw new Error(`cannot locate ${kind} by ${field}`)
    if (impossibleId(value)) return undefined
    // (staged rows are nobody's yet: their owner sorts after every account)
    const r = (await rows<{account: string; data: Record<string, unknown>; internal: unknown}>(this.readPool, `SELECT account, data, internal FROM ${TABLE[kind]} WHERE ${field} = $1 AND account < $2 ORDER BY seq LIMIT 1`, [value, STAGED_ACCOUNT_MARK]))[0]
    return r ? {account: r.account, obj: objOf<T>(r)} : undefined
  }

  nextJobs(): Promise<{account: string; due_at: string}[]> {
    return claims.nextJobs(this.readPool)
  }

  /** Runs fn in a transaction on a connection of the read pool. */
  async inTx<T>(fn: (c: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    let c: pg.PoolClient
    try {
      c = await this.readPool.connect()
    } catch (e) {
      throw wrap(e)
    }
    let broken: unknown
    try {
      await query(c, begin)
      const out = await fn(c)
      await query(c, 'COMMIT')
      return out
    } catch (e) {
      if (isUnavailable(e)) broken = e
      else await c.query('ROLLBACK').catch((err: unknown) => (broken = err))
      throw wrap(e)
    } finally {
      c.release(broken ? (broken as Error) : undefined)
    }
  }

  /** Runs fn in one durable transaction of its own (the import of a SQLite data dir). */
  async withTransaction<T>(fn: (q: <R extends pg.QueryResultRow = any>(text: string, params?: unknown[]) => Promise<R[]>) => Promise<T>): Promise<T> {
    return this.inTx(async (c) => {
      await query(c, 'SET LOCAL synchronous_commit = on')
      return fn((text, params) => rows(c, text, params))
    })
  }

  claimDeliveries(nowOf: (account: string) => string, q: {limit: number; perEndpoint: number; leaseMs: number; share?: SlotShare}): Promise<ClaimedDelivery[]> {
    // a round with nothing due is one query; one with deliveries due takes the claimers' turn and claims them
    if (q.limit + (q.share?.spare ?? 0) <= 0 || q.perEndpoint <= 0) return Promise.resolve([])
    return claims.dueEndpoints(this.readPool, nowOf).then((due) => (due.length ? this.inTx((c) => claims.claimDeliveries(c, due, q), claims.CLAIMERS_TURN) : []), (e) => Promise.reject(wrap(e)))
  }

  releaseDeliveries(ds: readonly ClaimedDelivery[]): Promise<void> {
    return claims.releaseDeliveries(this.readPool, ds)
  }

  deliveryBacklog() {
    return claims.deliveryBacklog(this.readPool)
  }

  // ---------------------------------------------------------------- units of work

  transact<T>(account: string, fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T> {
    return units.transact(this, account, fn, order)
  }

  commit(account: string, cs: ChangeSet): Promise<void> {
    if (this.closed) return Promise.reject(new Error('store is closed'))
    return this.committer.enqueue(account, cs)
  }

  /** Called once a commit is durable: this instance's listeners hear of it at once. */
  notifyLocal(notices: readonly Notice[]): void {
    for (const n of notices) this.listeners.emit(n)
  }

  counters(): StoreCounters {
    return {...this.counts}
  }

  onChange(fn: (n: ChangeNotice) => void, hearing?: Hearing): () => void {
    return this.listeners.onChange(fn, hearing)
  }

  following(): Promise<void> {
    return this.feed.following()
  }

  onListenerError(fn: (e: unknown, account: string) => void): void {
    this.listeners.failed = fn
  }

  onAccountChange(account: string, fn: (n: ChangeNotice) => void, hearing?: Hearing): () => void {
    return this.listeners.onAccountChange(account, fn, hearing)
  }

  // ---------------------------------------------------------------- purges (purges.ts), settings and stats (settings.ts), snapshots

  purgeEvents(account: string, before: string): Promise<number> {
    return purges.purgeEvents(this, account, before)
  }

  purgeIdempotency(account: string, now: string): Promise<number> {
    return purges.purgeIdempotency(this, account, now)
  }

  statsSince(account: string, day: string): Promise<StatIncrement[]> {
    return settings.statsSince(this, account, day)
  }

  getSetting(account: string, key: string): Promise<string | undefined> {
    return settings.getSetting(this, account, key)
  }

  addToSetting(account: string, key: string, delta: number): Promise<number> {
    return settings.addToSetting(this, account, key, delta)
  }

  /** Every row of an account but its keys and account objects, read at one moment (REPEATABLE READ). */
  exportRows(account: string): Promise<AccountRows> {
    return this.inTx((c) => reads.exportRows(c, account), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
  }

  /**
   * The same a part at a time (AccountStore.exportParts), on a connection of its own (not the read
   * pool's: a large account's reading holds it for seconds) in one REPEATABLE READ transaction.
   */
  async *exportParts(account: string, size: number): AsyncGenerator<AccountRowsPart, void, undefined> {
    if (this.closed) throw new Error('store is closed')
    const c = await connectClient(this.clientConfig)
    this.ownClients.add(c)
    try {
      await query(c, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      yield* reads.exportParts(c, account, size)
      await query(c, 'COMMIT')
    } finally {
      this.ownClients.delete(c)
      void c.end().catch(() => {})
    }
  }

  // ---------------------------------------------------------------- rate limit (rate-limit.ts)

  takeToken(scope: string, rate: number, capacity: number): Promise<{retryAfter: number; remaining: number}> {
    return rateLimit.takeToken(this, scope, rate, capacity)
  }

  // ---------------------------------------------------------------- exclusive sections (sections.ts)

  exclusive<T>(name: string, fn: () => Promise<T>, opts: {wait?: boolean} = {}): Promise<{ran: true; value: T} | {ran: false}> {
    return this.sections.exclusive(name, fn, opts)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.committer.drain()
    // a unit still open now never ends by itself (its instance is stopping): its connection goes, which ends its transaction
    for (const c of this.checkedOut) c.release(new Error('store closed'))
    this.checkedOut.clear()
    await this.claimBatch.close()
    for (const c of this.ownClients) void c.end().catch(() => {})
    await Promise.allSettled([this.feed.close(), this.sections.end(), this.committer.end(), this.unitPool.end(), this.readPool.end()])
  }
}

/** The store factory of `gw serve --store postgres://…`. */
export const postgresStore = (url: string, opts: Omit<PostgresStoreOptions, 'url'> = {}) => async () => PostgresStore.open({url, ...opts})
