// The store itself: its fleet-wide operations (Store), one account's (AccountStore), a unit of
// work's (StoreTx), change notices and the request log (part of the Store port, ports/store.ts).
import type {FieldOf, Kind} from './kinds.js'
import type {Filter, ListPage, ListQuery, StoredObject, Versioned} from './queries.js'
import type {ClaimedDelivery, ClaimedJob, EventQuery, IdempotencyClaim, LoggedEvent, StatIncrement} from './records.js'
import type {AccountRows, AccountRowsPart, ChangeSet, StagedRows} from './changes.js'

/** An API request-log entry kept in a shared store (the fleet's request log). */
export interface StoredRequestLog {
  /** order of appending, across instances */
  seq: number
  /** null: the request failed authentication */
  account: string | null
  /** the entry's JSON */
  entry: string
}

/**
 * The request log of every instance of a fleet (docs/decisions.md#the-fleet): entries appended in batches, read as
 * the newest of an account, and followed in order. A store that several instances share
 * provides it; one instance's own log stays in its memory.
 */
export interface RequestLogStore {
  append(entries: readonly {account: string | null; entry: string; created_at: string}[]): Promise<void>
  /** an account's newest entries (with the failed authentications too, for the platform account), newest first */
  recent(account: string, withUnauthenticated: boolean, limit: number): Promise<StoredRequestLog[]>
  /** every entry after `seq`, oldest first */
  after(seq: number, limit: number): Promise<StoredRequestLog[]>
  /** the greatest seq appended so far */
  last(): Promise<number>
  /** keeps the newest `keep` entries of each account (and of failed authentications) */
  trim(keep: number): Promise<void>
  /** Calls `fn` with the greatest seq after entries were appended, by any instance. Returns an unsubscribe. */
  onAppend(fn: (seq: number) => void): () => void
  /** Resolves once the listeners of onAppend so far hear other instances' appends (Store.following). */
  following(): Promise<void>
}

/** What a commit touched in one account, for caches and live feeds on every instance. */
export interface ChangeNotice {
  /**
   * the account whose data changed (one notice per account a group of commits touched); '*':
   * every account (PostgreSQL, after its change feed was cut off: anything may have changed)
   */
  account: string
  /** the account was deleted: everything of it is gone */
  purged?: boolean
  /** the account's rows were replaced (a snapshot loaded): every kind and setting may have changed, the clock may have moved back, events up to `eventSeq` are the snapshot's */
  restored?: boolean
  kinds: ReadonlySet<Kind>
  settings: readonly string[]
  /** greatest event seq committed (events committed by any instance up to this one are readable) */
  eventSeq: number | null
  /** a timeline job was added due at this engine-clock time (the earliest), to wake the job runner; new deliveries show as kinds `delivery` */
  dueBy: string | null
}

/**
 * The kinds whose changes an instance acts on whether or not anyone asked it to follow the
 * account: cached (keys, endpoints, routing rules) or worked on (deliveries). A change listener
 * that hears only `'shared'` notices hears every commit that touched one of these.
 */
export const SHARED_KINDS = ['api_key', 'webhook_endpoint', 'routing_rule', 'delivery'] as const satisfies readonly Kind[]
export type SharedKind = (typeof SHARED_KINDS)[number]

/**
 * What a change listener must hear of other instances' commits (of this instance's own it may
 * hear everything):
 * - `'all'` (the default): every commit.
 * - `'shared'`: the commits every instance acts on by itself: of a SHARED_KINDS kind, of
 *   settings, with a timeline job, an account purged or restored, and account '*'. A commit
 *   that only wrote other kinds and events (a payment, say) is left out: on PostgreSQL an
 *   instance is not woken for it unless one of its listeners hears `'all'` (an open event
 *   stream, say). See docs/api.md#several-instances-on-postgresql.
 */
export type Hearing = 'all' | 'shared'

/** Reads shared by the store and a unit of work. Inside a unit of work they see what it has locked as committed. */
export interface StoreReader {
  get<T extends StoredObject>(kind: Kind, id: string): Promise<Versioned<T> | undefined>
  list<T extends StoredObject, K extends Kind = Kind>(kind: K, q: ListQuery<K>): Promise<ListPage<T>>
  /** every object of a kind matching the filters, oldest first (small sets only: endpoints, rules, one payment's entries) */
  all<T extends StoredObject, K extends Kind = Kind>(kind: K, filters?: Filter<K>[]): Promise<T[]>
  /** sum of an int field per value of a text field, over the objects matching the filters, groups in ascending order */
  sum<K extends Kind>(kind: K, q: {field: FieldOf<K>; groupBy: FieldOf<K>; filters?: Filter<K>[]}): Promise<{group: string; sum: number}[]>
  /** how many objects match the filters (one indexed count, nothing read) */
  count<K extends Kind>(kind: K, filters?: Filter<K>[]): Promise<number>
  /** the least value of a time field (`created_at`, ...) over the objects matching the filters; undefined when none does (nothing read but an index where one leads with the account and the field) */
  earliest<K extends Kind>(kind: K, field: FieldOf<K>, filters?: Filter<K>[]): Promise<string | undefined>
}

export interface StoreTx extends StoreReader {
  /**
   * Serialises this unit of work with every other holding the same key, on every instance,
   * until it ends (after its commit is durable, or its failure). Take keys in a fixed order
   * (payment before dispute before delivery before endpoint) to rule out deadlocks.
   */
  lock(key: string): Promise<void>
  /**
   * Claims an Idempotency-Key for this unit of work (see IdempotencyClaim); records expired at
   * `now` do not count. With `defer`, an adapter whose own commit can check for a live record
   * (SQLite) may leave the lookup to that commit: a read fewer for every new key.
   */
  claimIdempotency(scope: string, key: string, now: string, opts?: {defer?: boolean}): Promise<IdempotencyClaim>
  /** Stages the change set; written when fn returns. At most once per unit of work. */
  commit(cs: ChangeSet): void
}

/** One account's data: every operation is bounded to that account. */
export interface AccountStore extends StoreReader {
  readonly account: string
  /**
   * Runs `fn` as one unit of work. What it passes to `tx.commit` is written atomically once
   * `fn` returns; `transact` resolves after that is durable, then releases the unit's locks and
   * claims. If `fn` throws, nothing is written and the error is rethrown. A commit that breaks a
   * version check rejects with VersionConflictError (nothing written).
   */
  transact<T>(fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T>
  /** Commits a change set that needs no lock or read (a unit of work of its own). */
  commit(cs: ChangeSet): Promise<void>

  getEvent(id: string): Promise<LoggedEvent | undefined>
  /** newest first by seq; cursors are event ids (see ListQuery) */
  listEvents(q: EventQuery): Promise<ListPage<LoggedEvent>>
  /** this account's events with seq greater than `afterSeq`, oldest first (seqs are shared by all accounts: commit order) */
  eventsAfter(afterSeq: number, limit: number): Promise<LoggedEvent[]>
  /** deletes events created before `before` */
  purgeEvents(before: string): Promise<number>

  /**
   * Claims up to `limit` timeline jobs due at or before `now`, earliest due first (ties in the order they were scheduled),
   * skipping jobs claimed by others. A claim lasts `leaseMs` of real time unless completed or
   * released first.
   */
  claimJobs(now: string, limit: number, leaseMs: number): Promise<ClaimedJob[]>
  /** Gives claimed jobs back (shutdown), due as they were. */
  releaseJobs(jobs: readonly ClaimedJob[]): Promise<void>
  /** The earliest due time of this account's timeline jobs due at or after `from` (claimed or not), but the job `except` (one running); undefined when there is none. */
  nextJobDue(from: string, except?: string): Promise<string | undefined>

  /** Deletes idempotency records that expired at `now`. */
  purgeIdempotency(now: string): Promise<number>

  /** Provider statistics of the given day and later. */
  statsSince(day: string): Promise<StatIncrement[]>
  getSetting(key: string): Promise<string | undefined>
  /** Adds `deltaMs` to an integer setting atomically and returns the new value (the engine clock's offset). */
  addToSetting(key: string, deltaMs: number): Promise<number>

  /** Every row of this account but its keys and account objects (UNSNAPSHOTTED), read at one moment: a snapshot's contents. */
  exportRows(): Promise<AccountRows>
  /**
   * The same rows read at one moment, a part of at most `rows` rows at a time (a snapshot of a large
   * account written out in slices): each `next()` is one short read, and that moment is held
   * (a read transaction of its own, on a connection of its own) until the reading ends — its
   * last part read, or `return()` (a `for await` left early) — so other reads and commits go on
   * meanwhile and none of them is seen.
   */
  exportParts(rows: number): AsyncGenerator<AccountRowsPart, void, undefined>
  /** Starts writing rows that a later commit puts in place of this account's (see StagedRows). */
  stageRows(): StagedRows

  /** Store.exclusive for a section of this account only (`timeline`: its job runs). */
  exclusive<T>(name: string, fn: () => Promise<T>, opts?: {wait?: boolean}): Promise<{ran: true; value: T} | {ran: false}>

  /** Calls `fn` after every commit that touched this account, by any instance (`hearing`: which of other instances'; those made after `following()` resolves). Returns an unsubscribe. */
  onChange(fn: (n: ChangeNotice) => void, hearing?: Hearing): () => void
  /** Store.following */
  following(): Promise<void>
}

/** How a delivery claim shares this instance's webhook slots between accounts (store/slot-share.ts). */
export interface SlotShare {
  /** claims this instance holds now, by account (they count towards each account's share) */
  held?: ReadonlyMap<string, number>
  /**
   * slots beyond `limit` that an account below its fair share may take when every other slot is
   * held: a newcomer is served at once, without waiting for another account's attempts (a
   * receiver that never answers holds a slot for 10 s) to end
   */
  spare?: number
}

/** The store of an engine instance: accounts' data, and what is shared by all of them. */
export interface Store {
  /** Several engine instances may serve this data at once (PostgreSQL); false: one instance owns it (SQLite). */
  readonly shared: boolean
  /** The fleet's request log, where several instances share the store; none: each instance keeps its own in memory. */
  readonly requestLog?: RequestLogStore
  /** The view of one account's data (cheap: made once per account and kept). */
  account(id: string): AccountStore

  /**
   * Finds an object by `id` or `api_key.secret_hash`, whatever account holds it: hosted pages,
   * which carry no key, and authentication. A key's hash is unique; an id held by several
   * accounts (a snapshot loaded into each) gives the first made — callers that can name the
   * account (a hosted page's URL does) ask that account instead. By id it may read every
   * account's rows (no index leads with the id): for hosted pages made before accounts only.
   */
  locate<T extends StoredObject>(kind: Kind, field: 'id' | 'secret_hash', value: string): Promise<{account: string; obj: T} | undefined>

  /** Per account with pending timeline jobs: its earliest due time (what the background job runner polls). */
  nextJobs(): Promise<{account: string; due_at: string}[]>

  /**
   * Claims deliveries whose next_attempt_at is at or before their account's engine clock
   * (`nowOf(account)`): per endpoint the earliest due first, at most `perEndpoint` claimed per endpoint at once (counting claims already held by
   * anyone), at most `limit` in all (plus `share.spare` for accounts below their fair share), shared across accounts first, then across
   * each account's endpoints (store/slot-share.ts). A claim ends when the delivery is next written, released,
   * or after `leaseMs` of real time (a worker that died: another takes the delivery).
   */
  claimDeliveries(nowOf: (account: string) => string, q: {limit: number; perEndpoint: number; leaseMs: number; share?: SlotShare}): Promise<ClaimedDelivery[]>
  releaseDeliveries(ds: readonly ClaimedDelivery[]): Promise<void>
  /** Per account and endpoint with deliveries waiting (due or retrying later): how many, and the earliest due (metrics). */
  deliveryBacklog(): Promise<{account: string; endpoint: string; pending: number; oldest_due: string}[]>

  /**
   * Token bucket per scope, in real time, shared by every instance: refills `rate` per second
   * up to `capacity`. Takes one token: retryAfter 0 when allowed, else whole seconds (>= 1).
   */
  takeToken(scope: string, rate: number, capacity: number): Promise<{retryAfter: number; remaining: number}>

  /**
   * Runs `fn` inside the fleet-wide exclusive section `name`: while it runs, no other unit of
   * this kind runs a section of that name on any instance on the same data (the timeline job
   * runner holds one per account, so that due jobs commit in due order across instances). If the instance
   * holding it dies, the store frees the section (SQLite: one process; PostgreSQL: a session
   * advisory lock, released by the database when the connection closes). With `wait: false`
   * it resolves `{ran: false}` at once while another holds the section; by default it waits.
   */
  exclusive<T>(name: string, fn: () => Promise<T>, opts?: {wait?: boolean}): Promise<{ran: true; value: T} | {ran: false}>

  /**
   * Calls `fn` after every commit, by any instance (soon after, on other instances), once per
   * account it touched (`hearing`: which of other instances'). Returns an unsubscribe. Of other
   * instances' commits, `fn` hears those made after `following()` resolves.
   */
  onChange(fn: (n: ChangeNotice) => void, hearing?: Hearing): () => void
  /**
   * Resolves once the listeners registered so far hear what they asked for (PostgreSQL: the
   * change feed listens for it). A reader that starts following from a position it reads
   * (an event stream, the request log's tail) reads that position after this, so that nothing
   * committed after it goes unheard.
   */
  following(): Promise<void>
  /**
   * Where a change listener's failure goes (docs/decisions.md#failures-are-contained): every listener hears every notice whatever
   * another one throws, and nothing a listener throws reaches the commit that caused the notice.
   * Default: a line on stderr.
   */
  onListenerError(fn: (e: unknown, account: string) => void): void

  /**
   * What this instance has asked of a database server so far (PostgreSQL: round trips, commit
   * groups and the change sets in them, change notices from other instances), for the metrics
   * (gw_store_*_total); none where the store is in process (SQLite).
   */
  counters?(): StoreCounters

  close(): Promise<void>
}

/** Counters of a store's work with its database server (Store.counters), each since the instance started. */
export interface StoreCounters {
  /** requests sent that waited for their answer (a statement, or several sent as one) */
  roundTrips: number
  /** transactions the committer wrote (each one WAL flush for its change sets) */
  commitGroups: number
  /** change sets in those transactions */
  committedChangeSets: number
  /** change notices received from other instances */
  notices: number
}

/**
 * Orders the commits of units of work that run concurrently: the unit's change set is staged
 * only once `after` has resolved, and `staged` is called as soon as it is (or once the unit
 * failed), so the next unit can follow. Change sets staged in order are committed in that order
 * (their events get ascending seqs). The timeline job runner pipelines jobs this way.
 */
export interface CommitOrder {
  after: Promise<void>
  staged: () => void
}

/** Makes the store an engine instance runs on; called once at start. */
export type StoreFactory = () => Promise<Store>
