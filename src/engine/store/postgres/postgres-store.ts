import {randomBytes} from 'node:crypto'
import pg from 'pg'
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
  type Kind,
  KINDS,
  type ListPage,
  type ListQuery,
  type LoggedEvent,
  type Put,
  type StatIncrement,
  type Store,
  type StoredObject,
  type StoreTx,
  StoreUnavailableError,
  VersionConflictError,
  type Versioned,
} from '../../ports/store.js'
import {KeyedLock} from '../keyed-lock.js'
import {MIGRATIONS, TABLE} from './schema.js'

// The PostgreSQL adapter: several engine instances on one database behave as one gateway.
//
// - A unit of work takes one pooled connection at its first lock or idempotency claim and opens
//   a transaction on it: per-key locks are `pg_advisory_xact_lock`, the idempotency claim is
//   `pg_try_advisory_xact_lock`, and the unit's reads after that go over the same connection
//   (READ COMMITTED: they see what the previous holder of the lock committed). The database
//   releases both when the transaction ends — or when the instance dies and its connection
//   closes, so no lock or claim outlives its instance.
// - Its change set is written by this instance's committer: one connection that writes every
//   change set staged meanwhile in one transaction (group commit: one WAL flush for many), in
//   the order staged. Only when that is durable are the units' transactions ended, which
//   releases their locks and claims. If one change set of a group fails (a version conflict),
//   the group is rolled back and each is committed alone, in order.
// - Event seqs are commit order across instances: just before a group's events are inserted,
//   the one-row counter `event_seq` is advanced; its row lock is held until that commit, so
//   event-writing commits on every instance queue there and land in seq order. Readers never
//   see a gap fill in later.
// - The change feed: `pg_notify` in the committing transaction (delivered only if it commits)
//   wakes the other instances; this instance's listeners are called at once. After the
//   listening connection is lost and back, every listener gets a notice that everything may
//   have changed, so nothing missed meanwhile stays stale.
// - Job and delivery claims are rows locked with FOR UPDATE SKIP LOCKED and marked with a
//   lease (claim_until, on the database's clock). The rate-limit bucket is one row per scope in
//   an UNLOGGED table, updated atomically. The clock offset is one atomic update.
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

const INTERNAL = '_x'
const CHANNEL = 'gw_change'
/** advisory lock keys of the store itself (the bigint form; per-key locks hash text into the same space) */
const MIGRATION_LOCK = 7_263_101
const DELIVERY_CLAIM_LOCK = 7_263_102
/** a transaction left idle (its instance stalled or cut off) is ended by the database after this long, releasing its locks */
export const IDLE_IN_TRANSACTION_MS = 60_000
const MAX_BATCH = 256
const MAX_ROWS_PER_INSERT = 1000

const ALL_KINDS = Object.keys(KINDS) as Kind[]

const token = () => randomBytes(9).toString('base64url')

/**
 * PostgreSQL text cannot hold NUL. Such characters only ever come from a client's input (a
 * reference, an id in a path): in typed columns, filters, lock keys and claims they are escaped,
 * injectively and character by character (so prefixes stay prefixes). The JSON columns hold
 * them escaped by JSON itself.
 */
export function pgText(s: string): string {
  return s.includes('\u0000') || s.includes('\u0001') ? s.replace(/\u0001/g, '\u0001\u0001').replace(/\u0000/g, '\u0001\u0002') : s
}
/** No id the engine makes holds NUL: a lookup by one finds nothing. */
const impossibleId = (id: string) => id.includes('\u0000')

/** A member of an object as the value of a typed column. */
function columnValue(type: FieldType, v: unknown): string | number | boolean | null {
  if (v === undefined || v === null) return null
  switch (type) {
    case 'bool':
      return Boolean(v)
    case 'int':
      return typeof v === 'number' ? v : null
    default:
      return typeof v === 'string' ? pgText(v) : null
  }
}

const ARRAY_TYPE: Record<FieldType, string> = {text: 'text[]', int: 'bigint[]', bool: 'boolean[]', time: 'timestamptz[]'}

// ---------------------------------------------------------------- errors

const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED'])

/** The database cannot be reached or is shutting down (not: a query it refused). */
export function isUnavailable(e: unknown): boolean {
  if (e instanceof StoreUnavailableError) return true
  const err = e as {code?: unknown; message?: unknown} | undefined
  const code = typeof err?.code === 'string' ? err.code : ''
  // class 08 connection exceptions; admin/crash shutdown, cannot connect now; too many connections
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true
  if (UNAVAILABLE_ERRNO.has(code)) return true
  const m = typeof err?.message === 'string' ? err.message : ''
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|not queryable|Connection ended/i.test(m)
}

function wrap(e: unknown): unknown {
  if (e instanceof StoreUnavailableError || !isUnavailable(e)) return e
  return new StoreUnavailableError(`PostgreSQL is not reachable: ${(e as Error).message}`)
}

// ---------------------------------------------------------------- types

type Queryable = pg.Pool | pg.PoolClient | pg.Client

function typeParsers(): pg.CustomTypesConfig {
  const ts = pg.types.getTypeParser(1184)
  return {
    getTypeParser: ((oid: number, format?: string) => {
      if (oid === 20) return (v: string) => Number(v) // int8: seqs, versions, money, counts
      if (oid === 1184) return (v: string) => (ts(v) as Date).toISOString() // timestamptz: the port's ISO strings
      return pg.types.getTypeParser(oid, format as 'text')
    }) as pg.CustomTypesConfig['getTypeParser'],
  }
}

interface Pending {
  cs: ChangeSet
  resolve: () => void
  reject: (e: unknown) => void
}

interface Notice {
  kinds: Set<Kind>
  settings: string[]
  eventSeq: number | null
  dueBy: string | null
}

const emptyNotice = (): Notice => ({kinds: new Set(), settings: [], eventSeq: null, dueBy: null})
const dueAt = (n: Notice, at: string | null | undefined) => {
  if (at && (n.dueBy === null || at < n.dueBy)) n.dueBy = at
}

/** The public JSON of an object, its internal part, and its typed column values. */
function rowOf(kind: Kind, obj: StoredObject, json?: string): {data: string; internal: string | null; cols: (string | number | boolean | null)[]} {
  const o = obj as unknown as Record<string, unknown>
  const types = KINDS[kind] as Record<string, FieldType>
  const {[INTERNAL]: internal, ...pub} = o
  // the public JSON the unit of work made once, when it has it
  return {data: json ?? JSON.stringify(pub), internal: internal === undefined ? null : JSON.stringify(internal), cols: COLUMNS[kind].map((c) => columnValue(types[c]!, o[c]))}
}

function objOf<T>(r: {data: Record<string, unknown>; internal: unknown}): T {
  const obj = r.data
  if (r.internal !== null && r.internal !== undefined) obj[INTERNAL] = r.internal
  return obj as T
}

// ---------------------------------------------------------------- the store

export class PostgresStore implements Store {
  readonly instanceId: string
  private readonly unitPool: pg.Pool
  private readonly readPool: pg.Pool
  private readonly clientConfig: pg.ClientConfig
  private readonly log: (line: string) => void
  private readonly listeners = new Set<(n: ChangeNotice) => void>()
  private readonly committer: Committer
  private readonly sections = new KeyedLock()
  /** per-key queues of this instance's units, in front of the database's advisory locks */
  private readonly localLocks = new KeyedLock()
  private connectTail: Promise<unknown> = Promise.resolve()
  private sectionClient: pg.Client | undefined
  private sectionConnecting: Promise<pg.Client> | undefined
  private listener: pg.Client | undefined
  private listenerRetry: NodeJS.Timeout | undefined
  private listenerBackoff = 0
  private closed = false
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
    this.committer = new Committer(this, this.clientConfig)
  }

  /** Connects, applies pending migrations (once, whoever starts first), and listens for other instances' commits. */
  static async open(opts: PostgresStoreOptions): Promise<PostgresStore> {
    const s = new PostgresStore(opts)
    try {
      await s.migrate()
      await s.listen()
    } catch (e) {
      await s.close().catch(() => {})
      throw wrap(e)
    }
    return s
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
    return Number((await this.read<{v: number}>('SELECT max(version) AS v FROM gw_schema_migrations'))[0]!.v)
  }

  // ---------------------------------------------------------------- queries

  /** A query over a queryable, with the database's unavailability as StoreUnavailableError. */
  async q<R extends pg.QueryResultRow = any>(on: Queryable, text: string, params?: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await on.query<R>(text, params)
    } catch (e) {
      throw wrap(e)
    }
  }

  private async read<R extends pg.QueryResultRow = any>(text: string, params?: unknown[], on: Queryable = this.readPool): Promise<R[]> {
    return (await this.q<R>(on, text, params)).rows
  }

  /** Runs fn in a transaction on a connection of the read pool. */
  private async inTx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    let c: pg.PoolClient
    try {
      c = await this.readPool.connect()
    } catch (e) {
      throw wrap(e)
    }
    let broken: unknown
    try {
      await this.q(c, 'BEGIN')
      const out = await fn(c)
      await this.q(c, 'COMMIT')
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
      await this.q(c, 'SET LOCAL synchronous_commit = on')
      return fn((text, params) => this.read(text, params, c))
    })
  }

  // ---------------------------------------------------------------- reads

  async get<T extends StoredObject>(kind: Kind, id: string, on: Queryable = this.readPool): Promise<Versioned<T> | undefined> {
    if (impossibleId(id)) return undefined
    const rows = await this.read<{data: Record<string, unknown>; internal: unknown; version: number}>(`SELECT data, internal, version FROM ${TABLE[kind]} WHERE id = $1`, [id], on)
    const r = rows[0]
    return r ? {obj: objOf<T>(r), version: r.version} : undefined
  }

  private where(kind: Kind, filters: readonly Filter[] | undefined, params: unknown[]): string[] {
    const types = FIELDS[kind]
    const clauses: string[] = []
    const p = (v: unknown) => {
      params.push(v)
      return `$${params.length}`
    }
    for (const f of filters ?? []) {
      const type = types[f.field]
      if (type === undefined) throw new Error(`cannot filter ${kind} by ${f.field}`)
      switch (f.op) {
        case 'eq':
          clauses.push(f.value === null ? `${f.field} IS NULL` : `${f.field} = ${p(typeof f.value === 'string' ? pgText(f.value) : f.value)}`)
          break
        case 'gte':
        case 'lte':
          clauses.push(`${f.field} ${f.op === 'gte' ? '>=' : '<='} ${p(f.value)}`)
          break
        case 'prefix':
          clauses.push(`${f.field} LIKE ${p(pgText(f.value).replace(/[\\%_]/g, '\\$&') + '%')}`)
          break
        case 'in':
          clauses.push(f.value.length === 0 ? 'false' : `${f.field} = ANY(${p(f.value.map((v) => (typeof v === 'string' ? pgText(v) : v)))}::${ARRAY_TYPE[type]})`)
          break
      }
    }
    return clauses
  }

  async list<T extends StoredObject, K extends Kind = Kind>(kind: K, q: ListQuery<K>, on: Queryable = this.readPool): Promise<ListPage<T>> {
    const page = await this.page<{data: Record<string, unknown>; internal: unknown}>(TABLE[kind], q, (params) => this.where(kind, q.filters as Filter[], params), 'data, internal', on)
    return {...page, data: page.data.map((r) => objOf<T>(r))}
  }

  private async page<R extends pg.QueryResultRow>(
    table: string,
    q: {limit: number; starting_after?: string; ending_before?: string},
    whereFn: (params: unknown[]) => string[],
    cols: string,
    on: Queryable,
  ): Promise<ListPage<R>> {
    const params: unknown[] = []
    const clauses = whereFn(params)
    let asc = false
    for (const [name, op] of [
      ['starting_after', '<'],
      ['ending_before', '>'],
    ] as const) {
      const cursor = q[name]
      if (cursor === undefined) continue
      if (impossibleId(cursor)) return {data: [], has_more: false, cursor_missing: name}
      const row = (await this.read<{seq: number}>(`SELECT seq FROM ${table} WHERE id = $1`, [cursor], on))[0]
      if (!row) return {data: [], has_more: false, cursor_missing: name}
      params.push(row.seq)
      clauses.push(`seq ${op} $${params.length}`)
      if (name === 'ending_before') asc = true
    }
    params.push(q.limit + 1)
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''
    const rows = await this.read<R>(`SELECT ${cols} FROM ${table} ${where} ORDER BY seq ${asc ? 'ASC' : 'DESC'} LIMIT $${params.length}`, params, on)
    const has_more = rows.length > q.limit
    const data = rows.slice(0, q.limit)
    if (asc) data.reverse()
    return {data, has_more}
  }

  async all<T extends StoredObject, K extends Kind = Kind>(kind: K, filters?: Filter<K>[], on: Queryable = this.readPool): Promise<T[]> {
    const params: unknown[] = []
    const clauses = this.where(kind, filters as Filter[] | undefined, params)
    const where = clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''
    const rows = await this.read<{data: Record<string, unknown>; internal: unknown}>(`SELECT data, internal FROM ${TABLE[kind]} ${where} ORDER BY seq ASC`, params, on)
    return rows.map((r) => objOf<T>(r))
  }

  async sum<K extends Kind>(kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}, on: Queryable = this.readPool): Promise<{group: string; sum: number}[]> {
    const types = FIELDS[kind]
    if (types[q.field] !== 'int') throw new Error(`cannot sum ${kind}.${q.field}: not an int field`)
    if (types[q.groupBy] !== 'text') throw new Error(`cannot group ${kind} by ${q.groupBy}: not a text field`)
    const params: unknown[] = []
    const clauses = [...this.where(kind, q.filters as Filter[] | undefined, params), `${q.groupBy} IS NOT NULL`]
    return this.read(
      `SELECT ${q.groupBy} AS "group", COALESCE(SUM(${q.field}), 0)::bigint AS sum FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')} GROUP BY ${q.groupBy} ORDER BY ${q.groupBy}`,
      params,
      on,
    )
  }

  // ---------------------------------------------------------------- units of work

  async transact<T>(fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T> {
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
        // the transaction begins with the unit's first lock or claim, in the same round trip
        client = c
        return c
      })())
    const on = (): Queryable => client ?? store.readPool
    const tx: StoreTx = {
      get: (kind, id) => store.get(kind, id, on()),
      list: (kind, q) => store.list(kind, q, on()),
      all: (kind, filters) => store.all(kind, filters, on()),
      sum: (kind, q) => store.sum(kind, q, on()),
      async lock(key) {
        const c = await conn()
        // units of this instance queue for a key in the order they got their connections (which
        // is the order they asked for them), so the job runner's pipeline, which commits in due
        // order, never has a later job holding a key or the last connection an earlier one waits
        // for; only the head of that queue waits for the database's lock
        held.push(await store.localLocks.acquire(key))
        await store.q(c, `${begin()}SELECT pg_advisory_xact_lock(hashtextextended(${c.escapeLiteral(`k:${pgText(key)}`)}, 0))`)
      },
      async claimIdempotency(scope, key, now) {
        const c = await conn()
        // one round trip: the transaction, the claim (a try-lock) and the record read after it
        const res = await store.q(c, `${begin()}SELECT * FROM gw_claim_idempotency(${c.escapeLiteral(pgText(scope))}, ${c.escapeLiteral(pgText(key))})`)
        const r = (Array.isArray(res) ? res[res.length - 1]! : res).rows[0] as {got: boolean; request_hash: string | null; status: number; body: string; created_at: string; expires_at: string}
        if (r.request_hash !== null && r.expires_at > now)
          return {state: 'recorded', record: {scope, key, request_hash: r.request_hash, status: r.status, body: r.body, created_at: r.created_at, expires_at: r.expires_at}}
        return r.got ? {state: 'claimed'} : {state: 'in_flight'}
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
      if (staged) durable = this.committer.enqueue(staged)
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

  commit(cs: ChangeSet): Promise<void> {
    if (this.closed) return Promise.reject(new Error('store is closed'))
    return this.committer.enqueue(cs)
  }

  /** Called by the committer once a group is durable. */
  notifyLocal(n: Notice): void {
    if (n.kinds.size === 0 && n.settings.length === 0 && n.eventSeq === null && n.dueBy === null) return
    for (const l of this.listeners) l(n)
  }

  /** The NOTIFY payload of a commit for the other instances, or undefined when it changed nothing they watch. */
  noticePayload(n: Notice): string | undefined {
    if (n.kinds.size === 0 && n.settings.length === 0 && n.eventSeq === null && n.dueBy === null) return undefined
    const full = JSON.stringify({o: this.instanceId, k: [...n.kinds], s: n.settings, e: n.eventSeq, d: n.dueBy})
    // NOTIFY payloads are limited to 8000 bytes: too much to say means "everything may have changed"
    return full.length < 7900 ? full : JSON.stringify({o: this.instanceId, all: true})
  }

  // ---------------------------------------------------------------- change feed

  private async listen(): Promise<void> {
    const c = new pg.Client(this.clientConfig)
    const lost = (why: string) => {
      if (this.listener !== c) return
      this.listener = undefined
      c.removeAllListeners('notification')
      void c.end().catch(() => {})
      if (!this.closed) {
        this.log(`store: lost the change feed's connection (${why}); reconnecting`)
        this.scheduleListen()
      }
    }
    c.on('error', (e) => lost(e.message))
    c.on('end', () => lost('closed'))
    c.on('notification', (m) => {
      if (m.channel !== CHANNEL || !m.payload) return
      let p: {o?: string; k?: Kind[]; s?: string[]; e?: number | null; d?: string | null; all?: boolean}
      try {
        p = JSON.parse(m.payload)
      } catch {
        return
      }
      if (p.o === this.instanceId) return // this instance's own commits were announced locally at once
      if (p.all) return void this.resync()
      const n: ChangeNotice = {kinds: new Set(p.k ?? []), settings: p.s ?? [], eventSeq: p.e ?? null, dueBy: p.d ?? null}
      for (const l of this.listeners) l(n)
    })
    await c.connect()
    await c.query(`LISTEN ${CHANNEL}`)
    this.listener = c
  }

  private scheduleListen(): void {
    if (this.closed || this.listenerRetry) return
    this.listenerBackoff = Math.min(2000, this.listenerBackoff ? this.listenerBackoff * 2 : 100)
    this.listenerRetry = setTimeout(() => {
      this.listenerRetry = undefined
      this.listen().then(
        () => {
          this.listenerBackoff = 0
          this.log('store: change feed reconnected')
          void this.resync()
        },
        () => this.scheduleListen(),
      )
    }, this.listenerBackoff)
    this.listenerRetry.unref()
  }

  /** Tells every listener that anything may have changed (after notifications may have been missed). */
  private async resync(): Promise<void> {
    try {
      const settings = (await this.read<{key: string}>('SELECT key FROM settings')).map((r) => r.key)
      const seq = (await this.read<{last: number}>('SELECT last FROM event_seq'))[0]?.last ?? null
      const due = (await this.read<{d: string | null}>('SELECT min(due_at) AS d FROM jobs'))[0]?.d ?? null
      const n: ChangeNotice = {kinds: new Set(ALL_KINDS), settings, eventSeq: seq, dueBy: due}
      for (const l of this.listeners) l(n)
    } catch (e) {
      this.log(`store: resync after reconnecting failed: ${(e as Error).message}`)
    }
  }

  onChange(fn: (n: ChangeNotice) => void): () => void {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  // ---------------------------------------------------------------- events

  async getEvent(id: string): Promise<LoggedEvent | undefined> {
    if (impossibleId(id)) return undefined
    return (await this.read<LoggedEvent>('SELECT seq, id, type, created_at, json FROM events WHERE id = $1', [id]))[0]
  }

  async listEvents(q: EventQuery): Promise<ListPage<LoggedEvent>> {
    const whereFn = (params: unknown[]) => {
      const clauses: string[] = []
      const ors: string[] = []
      const p = (v: unknown) => {
        params.push(v)
        return `$${params.length}`
      }
      if (q.types?.length) ors.push(`type = ANY(${p(q.types)}::text[])`)
      for (const pre of q.typePrefixes ?? []) ors.push(`type LIKE ${p(pre.replace(/[\\%_]/g, '\\$&') + '%')}`)
      if (ors.length) clauses.push(`(${ors.join(' OR ')})`)
      if (q.created_gte) clauses.push(`created_at >= ${p(q.created_gte)}`)
      if (q.created_lte) clauses.push(`created_at <= ${p(q.created_lte)}`)
      return clauses
    }
    return this.page<LoggedEvent>('events', q, whereFn, 'seq, id, type, created_at, json', this.readPool)
  }

  async eventsAfter(afterSeq: number, limit: number): Promise<LoggedEvent[]> {
    return this.read<LoggedEvent>('SELECT seq, id, type, created_at, json FROM events WHERE seq > $1 ORDER BY seq ASC LIMIT $2', [afterSeq, limit])
  }

  async purgeEvents(before: string): Promise<number> {
    return (await this.q(this.readPool, 'DELETE FROM events WHERE created_at < $1', [before])).rowCount ?? 0
  }

  // ---------------------------------------------------------------- jobs and deliveries

  async claimJobs(now: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    const claim = token()
    const rows = await this.read<{id: string; kind: string; ref: string; due_at: string; data: Record<string, unknown> | null; seq: number}>(
      `WITH c AS (
         SELECT id FROM jobs WHERE due_at <= $1 AND (claim_until IS NULL OR claim_until <= clock_timestamp())
         ORDER BY due_at, seq LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE jobs j SET claim = $3, claim_until = clock_timestamp() + make_interval(secs => $4::double precision / 1000)
       FROM c WHERE j.id = c.id
       RETURNING j.id, j.kind, j.ref, j.due_at, j.data, j.seq`,
      [now, limit, claim, leaseMs],
    )
    // earliest due first, ties in the order they were scheduled
    rows.sort((x, y) => (x.due_at < y.due_at ? -1 : x.due_at > y.due_at ? 1 : x.seq - y.seq))
    return rows.map((r) => ({id: r.id, kind: r.kind, ref: r.ref, due_at: r.due_at, claim, ...(r.data ? {data: r.data} : {})}))
  }

  async releaseJobs(jobs: readonly ClaimedJob[]): Promise<void> {
    if (!jobs.length) return
    await this.q(this.readPool, 'UPDATE jobs SET claim = NULL, claim_until = NULL WHERE (id, claim) IN (SELECT * FROM unnest($1::text[], $2::text[]))', [
      jobs.map((j) => j.id),
      jobs.map((j) => j.claim),
    ])
  }

  async claimDeliveries(now: string, q: {limit: number; perEndpoint: number; leaseMs: number}): Promise<ClaimedDelivery[]> {
    if (q.limit <= 0 || q.perEndpoint <= 0) return []
    return this.inTx(async (c) => {
      // claimers take turns, so the per-endpoint cap counts every instance's claims
      await this.q(c, 'SELECT pg_advisory_xact_lock($1)', [DELIVERY_CLAIM_LOCK])
      const held = new Map(
        (await this.read<{endpoint: string; n: number}>('SELECT endpoint, count(*) AS n FROM deliveries WHERE claim_until > clock_timestamp() GROUP BY endpoint', [], c)).map((r) => [r.endpoint, r.n]),
      )
      const rows = await this.read<{id: string; endpoint: string; event: string}>(
        `SELECT x.id, x.endpoint, x.event FROM (SELECT DISTINCT endpoint FROM deliveries WHERE next_attempt_at <= $1) e
         CROSS JOIN LATERAL (
           SELECT d.id, d.endpoint, d.event FROM deliveries d
           WHERE d.endpoint = e.endpoint AND d.next_attempt_at <= $1 AND (d.claim_until IS NULL OR d.claim_until <= clock_timestamp())
           ORDER BY d.next_attempt_at, d.seq LIMIT $2 FOR UPDATE SKIP LOCKED) x`,
        [now, q.perEndpoint],
      )
      const candidates = new Map<string, {id: string; endpoint: string; event: string}[]>()
      for (const r of rows) {
        const free = q.perEndpoint - (held.get(r.endpoint) ?? 0)
        const list = candidates.get(r.endpoint) ?? []
        if (list.length < free) list.push(r)
        candidates.set(r.endpoint, list)
      }
      // round robin over endpoints, so one endpoint's backlog cannot take every slot
      const out: ClaimedDelivery[] = []
      const claim = token()
      for (let i = 0; out.length < q.limit; i++) {
        let any = false
        for (const list of candidates.values()) {
          const r = list[i]
          if (!r) continue
          any = true
          out.push({...r, claim})
          if (out.length >= q.limit) break
        }
        if (!any) break
      }
      if (out.length)
        await this.q(c, 'UPDATE deliveries SET claim = $1, claim_until = clock_timestamp() + make_interval(secs => $2::double precision / 1000) WHERE id = ANY($3::text[])', [
          claim,
          q.leaseMs,
          out.map((d) => d.id),
        ])
      return out
    })
  }

  async releaseDeliveries(ds: readonly ClaimedDelivery[]): Promise<void> {
    if (!ds.length) return
    await this.q(this.readPool, 'UPDATE deliveries SET claim = NULL, claim_until = NULL WHERE (id, claim) IN (SELECT * FROM unnest($1::text[], $2::text[]))', [
      ds.map((d) => d.id),
      ds.map((d) => d.claim),
    ])
  }

  // ---------------------------------------------------------------- idempotency, rate limit, stats, settings

  async purgeIdempotency(now: string): Promise<number> {
    return (await this.q(this.readPool, 'DELETE FROM idempotency_keys WHERE expires_at <= $1', [now])).rowCount ?? 0
  }

  async takeToken(scope: string, rate: number, capacity: number): Promise<{retryAfter: number; remaining: number}> {
    if (rate <= 0) return {retryAfter: 0, remaining: capacity}
    // the bucket's level now: what it held plus the refill since, at most its capacity
    const level = `least($3::double precision, b.tokens + greatest(0, extract(epoch FROM clock_timestamp() - b.at)) * $2::double precision)`
    const r = (
      await this.read<{tokens: number; ok: boolean}>(
        `INSERT INTO rate_buckets AS b (scope, tokens, at, ok) VALUES ($1, $3::double precision - 1, clock_timestamp(), true)
         ON CONFLICT (scope) DO UPDATE SET
           tokens = CASE WHEN ${level} >= 1 THEN ${level} - 1 ELSE ${level} END,
           ok = ${level} >= 1,
           at = clock_timestamp()
         RETURNING tokens, ok`,
        [scope, rate, capacity],
      )
    )[0]!
    if (r.ok) return {retryAfter: 0, remaining: Math.floor(r.tokens)}
    return {retryAfter: Math.max(1, Math.ceil((1 - r.tokens) / rate)), remaining: 0}
  }

  async statsSince(day: string): Promise<StatIncrement[]> {
    return this.read<StatIncrement>('SELECT provider, day, approved, total FROM provider_stats WHERE day >= $1 ORDER BY provider, day', [day])
  }

  async getSetting(key: string): Promise<string | undefined> {
    return (await this.read<{value: string}>('SELECT value FROM settings WHERE key = $1', [key]))[0]?.value
  }

  async addToSetting(key: string, delta: number): Promise<number> {
    const next = await this.inTx(async (c) => {
      await this.q(c, 'SET LOCAL synchronous_commit = on')
      const v = Number(
        (
          await this.read<{value: string}>(
            `INSERT INTO settings AS s (key, value) VALUES ($1, $2::bigint::text)
             ON CONFLICT (key) DO UPDATE SET value = (s.value::bigint + $2::bigint)::text RETURNING value`,
            [key, delta],
            c,
          )
        )[0]!.value,
      )
      const n: Notice = {...emptyNotice(), settings: [key]}
      await this.q(c, 'SELECT pg_notify($1, $2)', [CHANNEL, this.noticePayload(n)])
      return v
    })
    this.notifyLocal({...emptyNotice(), settings: [key]})
    return next
  }

  // ---------------------------------------------------------------- the fleet-wide exclusive section

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

  async exclusive<T>(name: string, fn: () => Promise<T>, opts: {wait?: boolean} = {}): Promise<{ran: true; value: T} | {ran: false}> {
    const wait = opts.wait ?? true
    const release = await this.sections.acquire(name)
    try {
      if (this.closed) throw new Error('store is closed')
      const c = await this.section()
      const key = `x:${name}`
      if (wait) await this.q(c, 'SELECT pg_advisory_lock(hashtextextended($1, 0))', [key])
      else if (!(await this.read<{ok: boolean}>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [key], c))[0]!.ok) return {ran: false}
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
    clearTimeout(this.listenerRetry)
    const l = this.listener
    this.listener = undefined
    // a unit still open now never ends by itself (its instance is stopping): its connection goes, which ends its transaction
    for (const c of this.checkedOut) c.release(new Error('store closed'))
    this.checkedOut.clear()
    await Promise.allSettled([l?.end(), this.sectionClient?.end(), this.committer.end(), this.unitPool.end(), this.readPool.end()])
  }
}

// ---------------------------------------------------------------- the committer

/**
 * Writes change sets in the order they are staged, as few transactions as possible: every
 * change set staged while a group commits forms the next group (one WAL flush for them all).
 */
class Committer {
  private queue: Pending[] = []
  private running: Promise<void> | undefined
  private client: pg.Client | undefined

  constructor(
    private readonly store: PostgresStore,
    private readonly config: pg.ClientConfig,
  ) {}

  enqueue(cs: ChangeSet): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({cs, resolve, reject})
      this.running ??= new Promise<void>((r) => setImmediate(r)).then(() => this.loop())
    })
  }

  private async loop(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH)
        await this.commitGroup(batch)
      }
    } finally {
      this.running = undefined
      if (this.queue.length) this.running = this.loop()
    }
  }

  async drain(): Promise<void> {
    while (this.running) await this.running
  }

  async end(): Promise<void> {
    const c = this.client
    this.client = undefined
    await c?.end()
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client
    const c = new pg.Client(this.config)
    c.on('error', () => {
      if (this.client === c) this.client = undefined
    })
    c.on('end', () => {
      if (this.client === c) this.client = undefined
    })
    try {
      await c.connect()
    } catch (e) {
      void c.end().catch(() => {})
      throw wrap(e)
    }
    this.client = c
    return c
  }

  private drop(c: pg.Client): void {
    if (this.client === c) this.client = undefined
    void c.end().catch(() => {})
  }

  private async commitGroup(batch: Pending[]): Promise<void> {
    let c: pg.Client
    try {
      c = await this.connection()
    } catch (e) {
      for (const p of batch) p.reject(wrap(e))
      return
    }
    const notice = emptyNotice()
    try {
      await this.store.q(c, 'BEGIN')
      try {
        await this.apply(c, batch.map((p) => p.cs), notice)
        const payload = this.store.noticePayload(notice)
        if (payload) await this.store.q(c, 'SELECT pg_notify($1, $2)', [CHANNEL, payload])
        await this.store.q(c, 'COMMIT')
      } catch (e) {
        if (!isUnavailable(e)) await c.query('ROLLBACK').catch(() => this.drop(c))
        throw e
      }
    } catch (e) {
      if (isUnavailable(e)) {
        // the outcome of a COMMIT cut off is unknown: the requests get 503 and are retried with their keys
        this.drop(c)
        for (const p of batch) p.reject(wrap(e))
        return
      }
      if (batch.length === 1) return batch[0]!.reject(e)
      // one change set broke the group: each alone, in order
      for (const p of batch) await this.commitGroup([p])
      return
    }
    for (const p of batch) p.resolve()
    this.store.notifyLocal(notice)
  }

  /** Writes change sets in order; throws (and the caller rolls back) on any conflict. */
  private async apply(c: pg.Client, sets: ChangeSet[], notice: Notice): Promise<void> {
    const q = (text: string, params?: unknown[]) => this.store.q(c, text, params)
    // new objects first, several rows per statement (ids are new: no change set of the group can depend on another's insert)
    const inserts = new Map<Kind, Put[]>()
    for (const cs of sets)
      for (const p of cs.puts ?? [])
        if (p.expectVersion === undefined) {
          const l = inserts.get(p.kind)
          if (l) l.push(p)
          else inserts.set(p.kind, [p])
        }
    for (const [kind, puts] of inserts) {
      const cols = COLUMNS[kind]
      const width = 4 + cols.length
      for (let i = 0; i < puts.length; i += MAX_ROWS_PER_INSERT) {
        const chunk = puts.slice(i, i + MAX_ROWS_PER_INSERT)
        const params: unknown[] = []
        const rows = chunk.map(({obj, json}, j) => {
          const r = rowOf(kind, obj, json)
          params.push(obj.id, obj.created_at, r.data, r.internal, ...r.cols)
          return `(${Array.from({length: width}, (_, k) => `$${j * width + k + 1}`).join(', ')}, 1)`
        })
        await q(`INSERT INTO ${TABLE[kind]} (id, created_at, data, internal${cols.map((x) => `, ${x}`).join('')}, version) VALUES ${rows.join(', ')}`, params)
        notice.kinds.add(kind)
      }
    }
    const stats = new Map<string, StatIncrement>()
    const settings = new Map<string, string>()
    const idem = new Map<string, IdempotencyRecord>()
    const events: {id: string; type: string; created_at: string; json: string}[] = []
    for (const cs of sets) {
      for (const p of cs.puts ?? []) {
        if (p.expectVersion === undefined) continue
        const cols = COLUMNS[p.kind]
        const r = rowOf(p.kind, p.obj, p.json)
        // a write of a delivery ends its claim
        const claimReset = p.kind === 'delivery' ? ', claim = NULL, claim_until = NULL' : ''
        const res = await q(
          `UPDATE ${TABLE[p.kind]} SET data = $1, internal = $2, version = version + 1${cols.map((x, i) => `, ${x} = $${i + 3}`).join('')}${claimReset} WHERE id = $${cols.length + 3} AND version = $${cols.length + 4}`,
          [r.data, r.internal, ...r.cols, p.obj.id, p.expectVersion],
        )
        if (res.rowCount !== 1) throw new VersionConflictError(p.kind, p.obj.id)
        notice.kinds.add(p.kind)
      }
      for (const d of cs.deletes ?? []) {
        await q(`DELETE FROM ${TABLE[d.kind]} WHERE id = $1`, [d.id])
        notice.kinds.add(d.kind)
      }
      for (const j of cs.completeJobs ?? []) {
        // removed meanwhile (removeJobs by another unit): done all the same; claimed by someone else since: lost
        const res = await this.store.q<{lost: number}>(
          c,
          'WITH d AS (DELETE FROM jobs WHERE id = $1 AND claim = $2 RETURNING 1) SELECT count(*) AS lost FROM jobs WHERE id = $1 AND claim IS DISTINCT FROM $2 AND NOT EXISTS (SELECT 1 FROM d)',
          [j.id, j.claim],
        )
        if (res.rows[0]!.lost > 0) throw new VersionConflictError('job', j.id)
      }
      for (const j of cs.removeJobs ?? []) await q('DELETE FROM jobs WHERE kind = $1 AND ref = $2', [j.kind, j.ref])
      if (cs.addJobs?.length) {
        const params: unknown[] = []
        const rows = cs.addJobs.map((j, i) => {
          params.push(j.id, j.kind, j.ref, j.due_at, j.data ? JSON.stringify(j.data) : null)
          dueAt(notice, j.due_at)
          return `($${i * 5 + 1}, $${i * 5 + 2}, $${i * 5 + 3}, $${i * 5 + 4}, $${i * 5 + 5}::json)`
        })
        await q(`INSERT INTO jobs (id, kind, ref, due_at, data) VALUES ${rows.join(', ')}`, params)
      }
      if (cs.idempotency) idem.set(JSON.stringify([cs.idempotency.scope, cs.idempotency.key]), cs.idempotency)
      for (const s of cs.stats ?? []) {
        const k = `${s.provider}\n${s.day}`
        const prev = stats.get(k)
        stats.set(k, prev ? {...prev, approved: prev.approved + s.approved, total: prev.total + s.total} : {...s})
      }
      for (const [k, v] of Object.entries(cs.settings ?? {})) {
        settings.set(k, v)
        if (!notice.settings.includes(k)) notice.settings.push(k)
      }
      for (const e of cs.events ?? []) events.push(e)
    }
    if (idem.size) {
      const params: unknown[] = []
      const rows = [...idem.values()].map((r, i) => {
        params.push(r.scope, r.key, r.request_hash, r.status, r.body, r.created_at, r.expires_at)
        return `(${Array.from({length: 7}, (_, k) => `$${i * 7 + k + 1}`).join(', ')})`
      })
      await q(
        `INSERT INTO idempotency_keys (scope, key, request_hash, status, body, created_at, expires_at) VALUES ${rows.join(', ')}
         ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status, body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at`,
        params,
      )
    }
    if (stats.size) {
      const ss = [...stats.values()]
      await q(
        `INSERT INTO provider_stats AS p (provider, day, approved, total) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[])
         ON CONFLICT (provider, day) DO UPDATE SET approved = p.approved + excluded.approved, total = p.total + excluded.total`,
        [ss.map((s) => s.provider), ss.map((s) => s.day), ss.map((s) => s.approved), ss.map((s) => s.total)],
      )
    }
    if (settings.size)
      await q('INSERT INTO settings (key, value) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
        [...settings.keys()],
        [...settings.values()],
      ])
    if (events.length) {
      // last: from here to COMMIT the counter's row lock orders this commit among every instance's
      const last = (await q('UPDATE event_seq SET last = last + $1 RETURNING last', [events.length])).rows[0].last as number
      const first = last - events.length + 1
      for (let i = 0; i < events.length; i += MAX_ROWS_PER_INSERT) {
        const chunk = events.slice(i, i + MAX_ROWS_PER_INSERT)
        const params: unknown[] = []
        const rows = chunk.map((e, j) => {
          params.push(first + i + j, e.id, e.type, e.created_at, e.json)
          return `($${j * 5 + 1}, $${j * 5 + 2}, $${j * 5 + 3}, $${j * 5 + 4}, $${j * 5 + 5})`
        })
        await q(`INSERT INTO events (seq, id, type, created_at, json) VALUES ${rows.join(', ')}`, params)
      }
      notice.eventSeq = last
    }
  }
}

/** The store factory of `gw serve --store postgres://…`. */
export const postgresStore = (url: string, opts: Omit<PostgresStoreOptions, 'url'> = {}) => async () => PostgresStore.open({url, ...opts})
