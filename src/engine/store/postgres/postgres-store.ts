import {randomBytes} from 'node:crypto'
import pg from 'pg'
import type {
  AccountRows,
  AccountStore,
  ChangeNotice,
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
  StoreTx,
} from '../../ports/store.js'
import {fieldValue, STAGED_ACCOUNT_MARK} from '../../ports/store.js'
import {KeyedLock} from '../keyed-lock.js'
import * as claims from './claims.js'
import {Committer, insertAccountRows} from './committer.js'
import {PgStaged, type PgStagingHost, purgeStale} from './staging.js'
import {CHANNEL, ChangeFeed, emptyNotice, Listeners, type Notice, payload} from './feed.js'
import * as reads from './reads.js'
import {PgRequestLog} from './request-log.js'
import {MIGRATIONS, SEARCH_KEYS_COLUMNS, SEARCH_KEYS_MIGRATION, TABLE} from './schema.js'
import {columnValue, impossibleId, isUnavailable, objOf, pgText, query, type Queryable, rows, typeParsers, wrap} from './sql.js'

export {isUnavailable, pgText} from './sql.js'

// The PostgreSQL adapter: several engine instances on one database behave as one gateway.
//
// - Every row belongs to an account and every query is bounded to one (Store.account gives a
//   view of one account's data); ids are unique per account.
// - A unit of work takes one pooled connection at its first lock or idempotency claim and opens
//   a transaction on it: per-key locks are `pg_advisory_xact_lock`, the idempotency claim is
//   `pg_try_advisory_xact_lock`, and the unit's reads after that go over the same connection
//   (READ COMMITTED: they see what the previous holder of the lock committed). The database
//   releases both when the transaction ends — or when the instance dies and its connection
//   closes, so no lock or claim outlives its instance.
// - Its change set is written by this instance's committer (committer.ts): group commit, in the
//   order staged. Only when that is durable are the units' transactions ended, which releases
//   their locks and claims.
// - Event seqs are commit order across instances and accounts (the one-row counter `event_seq`).
// - The change feed (feed.ts): `pg_notify` in the committing transaction, one notice per account.
// - Job and delivery claims (claims.ts): rows locked with FOR UPDATE SKIP LOCKED, with a lease.
//   A rate-limit bucket is one row per scope (account and mode; a client address) in an UNLOGGED
//   table, updated atomically; rows untouched for 10 minutes (full) are swept now and then.
// - The database going away: every operation fails fast with StoreUnavailableError (HTTP 503
//   with Retry-After); pools open new connections once it is back.

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

/** advisory lock key of the migrations (the bigint form; per-key locks hash text into the same space) */
const MIGRATION_LOCK = 7_263_101
/** a transaction left idle (its instance stalled or cut off) is ended by the database after this long, releasing its locks */
export const IDLE_IN_TRANSACTION_MS = 60_000
/** how often a waiting exclusive section asks again (try-locks: the section connection never blocks) */
const SECTION_POLL_MS = 25

const token = () => randomBytes(9).toString('base64url')

export class PostgresStore implements Store {
  /** several instances serve the data of one database */
  readonly shared = true
  readonly instanceId: string
  readonly requestLog: PgRequestLog
  private readonly unitPool: pg.Pool
  private readonly readPool: pg.Pool
  private readonly clientConfig: pg.ClientConfig
  private readonly log: (line: string) => void
  private readonly listeners = new Listeners()
  private readonly committer: Committer
  private readonly feed: ChangeFeed
  private readonly views = new Map<string, PgAccount>()
  private readonly sections = new KeyedLock()
  /** per-key queues of this instance's units, in front of the database's advisory locks */
  private readonly localLocks = new KeyedLock()
  private connectTail: Promise<unknown> = Promise.resolve()
  private sectionClient: pg.Client | undefined
  private sectionConnecting: Promise<pg.Client> | undefined
  private closed = false
  /** tokens taken from rate-limit buckets by this instance (every 4096th sweeps the full ones) */
  private tokensTaken = 0
  /** units' connections, checked out of the pool until the unit ends */
  private readonly checkedOut = new Set<pg.PoolClient>()

  private constructor(opts: PostgresStoreOptions) {
    this.instanceId = opts.instanceId ?? `gw-${token()}`
    this.log = opts.log ?? (() => {})
    const base: pg.ClientConfig = {
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
    // outside units of work only reads and claims commit: a claim lost to a crash of the
    // database is claimed again (at least once), so they do not wait for the WAL flush
    this.readPool = new pg.Pool({...base, options: `${serverSide} -c synchronous_commit=off`, max: opts.readConnections ?? 6, idleTimeoutMillis: 30_000})
    // an idle pooled connection that breaks (database restart) is dropped by the pool; without a listener the error would end the process
    this.unitPool.on('error', () => {})
    this.readPool.on('error', () => {})
    // a checked-out connection that breaks fails its queries (StoreUnavailableError); its 'error' event must not end the process
    this.unitPool.on('connect', (c) => void c.on('error', () => {}))
    this.readPool.on('connect', (c) => void c.on('error', () => {}))
    this.committer = new Committer(this.clientConfig, this.instanceId, (ns) => this.notifyLocal(ns))
    this.requestLog = new PgRequestLog(this.readPool, this.instanceId)
    this.feed = new ChangeFeed(this.clientConfig, this.instanceId, this.listeners, this.readPool, this.log, (seq) => this.requestLog.appended(seq))
  }

  /** Connects, applies pending migrations (once, whoever starts first), and listens for other instances' commits. */
  static async open(opts: PostgresStoreOptions): Promise<PostgresStore> {
    const s = new PostgresStore(opts)
    try {
      await s.migrate()
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

  /** loads' own connections, ended at close if a load is still open */
  private readonly stagingClients = new Set<pg.Client>()

  private readonly staging: PgStagingHost = {
    connect: async () => {
      const c = new pg.Client({...this.clientConfig, options: `${this.clientConfig.options} -c synchronous_commit=off`})
      c.on('error', () => {})
      try {
        await c.connect()
      } catch (e) {
        void c.end().catch(() => {})
        throw wrap(e)
      }
      this.stagingClients.add(c)
      return c
    },
    release: (c) => {
      this.stagingClients.delete(c)
      void c.end().catch(() => {})
    },
    insert: (q, owner, part, n) => insertAccountRows(q, owner, {objects: [], events: [], jobs: [], idempotency: [], stats: [], settings: {}, ...part}, n),
  }

  private async migrate(): Promise<void> {
    const c = new pg.Client(this.clientConfig)
    c.on('error', () => {})
    await c.connect()
    try {
      await c.query('BEGIN')
      await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
      await c.query('CREATE TABLE IF NOT EXISTS gw_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)')
      const current = Number((await c.query<{v: number | null}>('SELECT max(version) AS v FROM gw_schema_migrations')).rows[0]!.v ?? 0)
      if (current > MIGRATIONS.length)
        throw new Error(`The database's schema is version ${current}, newer than this gw knows (${MIGRATIONS.length}): upgrade gw on this instance.`)
      for (let i = current; i < MIGRATIONS.length; i++) {
        await c.query(MIGRATIONS[i]!)
        if (i + 1 === SEARCH_KEYS_MIGRATION) await backfillSearchKeys(c)
        await c.query('INSERT INTO gw_schema_migrations (version, applied_at) VALUES ($1, now())', [i + 1])
      }
      await c.query('COMMIT')
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {})
      throw e
    } finally {
      await c.end().catch(() => {})
    }
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
    if (q.limit + (q.share?.spare ?? 0) <= 0 || q.perEndpoint <= 0) return Promise.resolve([])
    return this.inTx((c) => claims.claimDeliveries(c, nowOf, q))
  }

  releaseDeliveries(ds: readonly ClaimedDelivery[]): Promise<void> {
    return claims.releaseDeliveries(this.readPool, ds)
  }

  deliveryBacklog() {
    return claims.deliveryBacklog(this.readPool)
  }

  // ---------------------------------------------------------------- units of work

  async transact<T>(account: string, fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T> {
    if (this.closed) throw new Error('store is closed')
    const store = this
    let client: pg.PoolClient | undefined
    let opening: Promise<pg.PoolClient> | undefined
    let staged: ChangeSet | undefined
    const held: (() => void)[] = []
    let begun = false
    /** 'BEGIN; ' before the first statement that needs the unit's transaction */
    const begin = () => (begun ? '' : ((begun = true), 'BEGIN; '))
    // the unit's connection, opened (with BEGIN) at its first lock or claim
    const conn = () =>
      (opening ??= (async () => {
        let c: pg.PoolClient
        try {
          c = await store.unitConnect()
        } catch (e) {
          throw wrap(e)
        }
        store.checkedOut.add(c)
        client = c
        return c
      })())
    const on = (): Queryable => client ?? store.readPool
    const tx: StoreTx = {
      get: (kind, id) => reads.get(on(), account, kind, id),
      list: (kind, q) => reads.list(on(), account, kind, q),
      all: (kind, filters) => reads.all(on(), account, kind, filters),
      sum: (kind, q) => reads.sum(on(), account, kind, q),
      count: (kind, filters) => reads.count(on(), account, kind, filters),
      async lock(key) {
        const c = await conn()
        // ids are unique per account, and other keys (settings, provider health) are the account's own: the lock is the account's.
        // Units of this instance queue for a key in the order they got their connections (which
        // is the order they asked for them), so the job runner's pipeline, which commits in due
        // order, never has a later job holding a key or the last connection an earlier one waits
        // for; only the head of that queue waits for the database's lock
        const k = `k:${pgText(account)}\n${pgText(key)}`
        held.push(await store.localLocks.acquire(k))
        await query(c, `${begin()}SELECT pg_advisory_xact_lock(hashtextextended(${c.escapeLiteral(k)}, 0))`)
      },
      async claimIdempotency(scope, key, now) {
        const c = await conn()
        // one round trip: the transaction, the claim (a try-lock) and the record read after it
        const res = await query(c, `${begin()}SELECT * FROM gw_claim_idempotency(${c.escapeLiteral(pgText(account))}, ${c.escapeLiteral(pgText(scope))}, ${c.escapeLiteral(pgText(key))})`)
        const r = (Array.isArray(res) ? res[res.length - 1]! : res).rows[0] as {got: boolean; request_hash: string | null; status: number; body: string; created_at: string; expires_at: string}
        if (r.request_hash !== null && r.expires_at > now)
          return {state: 'recorded', record: {scope, key, request_hash: r.request_hash, status: r.status, body: r.body, created_at: r.created_at, expires_at: r.expires_at}}
        return r.got ? {state: 'claimed'} : ({state: 'in_flight'} as IdempotencyClaim)
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
      if (staged) durable = this.committer.enqueue(account, staged)
      order?.staged()
      await durable
      return out
    } finally {
      if (order && !durable) order.staged()
      // ending the unit's transaction releases its locks and claims (it wrote nothing)
      if (opening) {
        const c = await opening.catch(() => undefined)
        if (c && this.checkedOut.delete(c)) {
          let broken: Error | undefined
          await c.query('ROLLBACK').catch((e: Error) => (broken = e))
          c.release(broken)
        }
      }
      for (let i = held.length - 1; i >= 0; i--) held[i]!()
    }
  }

  /**
   * A connection for a unit of work, handed out strictly in the order asked for (the pool alone
   * may hand a newly opened connection to a later asker), so that units that take their locks
   * in order keep that order.
   */
  private unitConnect(): Promise<pg.PoolClient> {
    const p = this.connectTail.then(() => this.unitPool.connect())
    this.connectTail = p.catch(() => {})
    return p
  }

  commit(account: string, cs: ChangeSet): Promise<void> {
    if (this.closed) return Promise.reject(new Error('store is closed'))
    return this.committer.enqueue(account, cs)
  }

  /** Called once a commit is durable: this instance's listeners hear of it at once. */
  private notifyLocal(notices: readonly Notice[]): void {
    for (const n of notices) this.listeners.emit(n)
  }

  onChange(fn: (n: ChangeNotice) => void): () => void {
    return this.listeners.onChange(fn)
  }

  onListenerError(fn: (e: unknown, account: string) => void): void {
    this.listeners.failed = fn
  }

  onAccountChange(account: string, fn: (n: ChangeNotice) => void): () => void {
    return this.listeners.onAccountChange(account, fn)
  }

  // ---------------------------------------------------------------- one account's events, idempotency, stats, settings

  async purgeEvents(account: string, before: string): Promise<number> {
    return (await query(this.readPool, 'DELETE FROM events WHERE account = $1 AND created_at < $2', [account, before])).rowCount ?? 0
  }

  async purgeIdempotency(account: string, now: string): Promise<number> {
    return (await query(this.readPool, 'DELETE FROM idempotency_keys WHERE account = $1 AND expires_at <= $2', [account, now])).rowCount ?? 0
  }

  statsSince(account: string, day: string): Promise<StatIncrement[]> {
    return rows<StatIncrement>(this.readPool, 'SELECT provider, day, approved, total FROM provider_stats WHERE account = $1 AND day >= $2 ORDER BY provider, day', [account, day])
  }

  async getSetting(account: string, key: string): Promise<string | undefined> {
    return (await rows<{value: string}>(this.readPool, 'SELECT value FROM settings WHERE account = $1 AND key = $2', [account, key]))[0]?.value
  }

  async addToSetting(account: string, key: string, delta: number): Promise<number> {
    const n: Notice = {...emptyNotice(account), settings: [key]}
    const next = await this.inTx(async (c) => {
      await query(c, 'SET LOCAL synchronous_commit = on')
      const v = Number(
        (
          await rows<{value: string}>(
            c,
            `INSERT INTO settings AS s (account, key, value) VALUES ($1, $2, $3::bigint::text)
             ON CONFLICT (account, key) DO UPDATE SET value = (s.value::bigint + $3::bigint)::text RETURNING value`,
            [account, key, delta],
          )
        )[0]!.value,
      )
      await query(c, 'SELECT pg_notify($1, $2)', [CHANNEL, payload(this.instanceId, [n])])
      return v
    })
    this.notifyLocal([n])
    return next
  }

  /** Every row of an account but its keys and account objects, read at one moment (REPEATABLE READ). */
  exportRows(account: string): Promise<AccountRows> {
    return this.inTx((c) => reads.exportRows(c, account), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
  }

  // ---------------------------------------------------------------- rate limit

  async takeToken(scope: string, rate: number, capacity: number): Promise<{retryAfter: number; remaining: number}> {
    if (rate <= 0) return {retryAfter: 0, remaining: capacity}
    // buckets untouched for minutes are full (every rate refills its bucket within seconds): swept now and then
    if (++this.tokensTaken % 4096 === 0) void query(this.readPool, "DELETE FROM rate_buckets WHERE at < clock_timestamp() - interval '10 minutes'").catch(() => {})
    // the bucket's level now: what it held plus the refill since, at most its capacity
    const level = `least($3::double precision, b.tokens + greatest(0, extract(epoch FROM clock_timestamp() - b.at)) * $2::double precision)`
    const r = (
      await rows<{tokens: number; ok: boolean}>(
        this.readPool,
        `INSERT INTO rate_buckets AS b (scope, tokens, at, ok) VALUES ($1, $3::double precision - 1, clock_timestamp(), true)
         ON CONFLICT (scope) DO UPDATE SET
           tokens = CASE WHEN ${level} >= 1 THEN ${level} - 1 ELSE ${level} END,
           ok = ${level} >= 1,
           at = clock_timestamp()
         RETURNING tokens, ok`,
        [pgText(scope), rate, capacity],
      )
    )[0]!
    if (r.ok) return {retryAfter: 0, remaining: Math.floor(r.tokens)}
    return {retryAfter: Math.max(1, Math.ceil((1 - r.tokens) / rate)), remaining: 0}
  }

  // ---------------------------------------------------------------- exclusive sections

  private async section(): Promise<pg.Client> {
    if (this.sectionClient) return this.sectionClient
    this.sectionConnecting ??= (async () => {
      const c = new pg.Client(this.clientConfig)
      c.on('error', () => {
        if (this.sectionClient === c) this.sectionClient = undefined
      })
      c.on('end', () => {
        if (this.sectionClient === c) this.sectionClient = undefined
      })
      try {
        await c.connect()
      } catch (e) {
        throw wrap(e)
      }
      this.sectionClient = c
      return c
    })().finally(() => (this.sectionConnecting = undefined))
    return this.sectionConnecting
  }

  /**
   * Sections are session advisory locks on one connection of this instance, several names held
   * at once (one per account's job runs). A waiting section asks with a try-lock every few ms
   * rather than blocking: a blocking lock would hold the connection, and every other section of
   * this instance (other accounts') would wait behind it.
   */
  async exclusive<T>(name: string, fn: () => Promise<T>, opts: {wait?: boolean} = {}): Promise<{ran: true; value: T} | {ran: false}> {
    const wait = opts.wait ?? true
    const release = await this.sections.acquire(name)
    try {
      const key = `x:${pgText(name)}`
      let c: pg.Client
      for (;;) {
        if (this.closed) throw new Error('store is closed')
        c = await this.section()
        if ((await rows<{ok: boolean}>(c, 'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [key]))[0]!.ok) break
        if (!wait) return {ran: false}
        await new Promise((r) => setTimeout(r, SECTION_POLL_MS))
      }
      try {
        return {ran: true, value: await fn()}
      } finally {
        // a connection lost meanwhile took the lock with it
        if (this.sectionClient === c) await c.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => {})
      }
    } finally {
      release()
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.committer.drain()
    // a unit still open now never ends by itself (its instance is stopping): its connection goes, which ends its transaction
    for (const c of this.checkedOut) c.release(new Error('store closed'))
    this.checkedOut.clear()
    for (const c of this.stagingClients) void c.end().catch(() => {})
    await Promise.allSettled([this.feed.close(), this.sectionClient?.end(), this.committer.end(), this.unitPool.end(), this.readPool.end()])
  }
}

/** One account's data in a PostgreSQL store: every operation bounded to the account. */
class PgAccount implements AccountStore {
  constructor(
    private readonly s: PostgresStore,
    readonly account: string,
  ) {}
  get<T extends StoredObject>(kind: Kind, id: string) {
    return reads.get<T>(this.s.reader, this.account, kind, id)
  }
  list<T extends StoredObject, K extends Kind = Kind>(kind: K, q: ListQuery<K>) {
    return reads.list<T, K>(this.s.reader, this.account, kind, q)
  }
  all<T extends StoredObject, K extends Kind = Kind>(kind: K, filters?: Filter<K>[]) {
    return reads.all<T, K>(this.s.reader, this.account, kind, filters)
  }
  sum<K extends Kind>(kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}) {
    return reads.sum(this.s.reader, this.account, kind, q)
  }
  count<K extends Kind>(kind: K, filters?: Filter<K>[]) {
    return reads.count(this.s.reader, this.account, kind, filters)
  }
  transact<T>(fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder) {
    return this.s.transact(this.account, fn, order)
  }
  commit(cs: ChangeSet) {
    return this.s.commit(this.account, cs)
  }
  getEvent(id: string) {
    return reads.getEvent(this.s.reader, this.account, id)
  }
  listEvents(q: EventQuery) {
    return reads.listEvents(this.s.reader, this.account, q)
  }
  eventsAfter(afterSeq: number, limit: number) {
    return reads.eventsAfter(this.s.reader, this.account, afterSeq, limit)
  }
  purgeEvents(before: string) {
    return this.s.purgeEvents(this.account, before)
  }
  claimJobs(now: string, limit: number, leaseMs: number) {
    return claims.claimJobs(this.s.reader, this.account, now, limit, leaseMs)
  }
  releaseJobs(jobs: readonly ClaimedJob[]) {
    return claims.releaseJobs(this.s.reader, this.account, jobs)
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
  exportRows() {
    return this.s.exportRows(this.account)
  }
  stageRows() {
    return this.s.stageRows(this.account)
  }
  exclusive<T>(name: string, fn: () => Promise<T>, opts?: {wait?: boolean}) {
    return this.s.exclusive(`${this.account}:${name}`, fn, opts)
  }
  onChange(fn: (n: ChangeNotice) => void) {
    return this.s.onAccountChange(this.account, fn)
  }
}

/** The store factory of `gw serve --store postgres://…`. */
export const postgresStore = (url: string, opts: Omit<PostgresStoreOptions, 'url'> = {}) => async () => PostgresStore.open({url, ...opts})

/**
 * Migration 4 (issue 36): the search columns of every stored payment and customer, computed as
 * every write computes them (ports/store.ts DERIVED), a page of rows at a time.
 */
async function backfillSearchKeys(c: pg.Client): Promise<void> {
  for (const [table, cols] of Object.entries(SEARCH_KEYS_COLUMNS)) {
    const kind = (Object.keys(TABLE) as Kind[]).find((k) => TABLE[k] === table)!
    for (let after = 0; ; ) {
      const page = (await c.query<{seq: number; data: Record<string, unknown>; internal: unknown}>(`SELECT seq, data, internal FROM ${table} WHERE seq > $1 ORDER BY seq LIMIT 1000`, [after])).rows
      if (page.length === 0) break
      for (const r of page) {
        const obj = objOf<Record<string, unknown>>(r)
        await c.query(`UPDATE ${table} SET ${cols.map((col, j) => `${col} = $${j + 2}`).join(', ')} WHERE seq = $1`, [r.seq, ...cols.map((col) => columnValue('text', fieldValue(kind, obj, col)))])
      }
      after = Number(page[page.length - 1]!.seq)
    }
  }
}
