// The Store port: everything the engine keeps, and every concurrency decision that must hold
// across engine instances. Application code never sees SQL and never holds locks, claims,
// queues, counters or clocks in process memory: it asks the store.
//
// Adapters: store/sqlite (one instance per data dir; its locks and claims live in that one
// process, which owns the file) and store/postgres (several instances on one database). Both
// must pass the contract suite in store/contract.
//
// Accounts (issue 24): every row the store keeps belongs to one account, and everything but a
// few fleet-wide concerns is reached through `Store.account(id)`: an AccountStore whose every
// read, write, job, event, setting and statistic is bounded to that account. Ids (of objects,
// events, jobs) are unique per account: the engine makes them random, so they are unique across
// accounts too, except where a snapshot was loaded into several accounts with its ids (issue 27).
// An id of another account is simply not found.
//
// Vocabulary
// - An *object* has a kind, an id (`pay_...`), `created_at`, and a version that the store
//   increments on every write. It is stored as its public JSON (exactly the bytes the API
//   serves) plus its internal part (the `_x` member: engine-only state), plus the typed filter
//   fields its kind declares in KINDS.
// - A *unit of work* (`Store.transact`) is one atomic change: it may take per-key locks and an
//   idempotency claim, read, and commit one ChangeSet. Everything in the ChangeSet lands
//   together or not at all; locks and claims are released only once it is durable.
// - *Timeline jobs* are due at an engine-clock time (authorization expiry, refund rail answers,
//   dispute deadlines, settlement runs, payouts). They are claimed in due order and completed
//   inside the unit of work that applies them.
// - *Deliveries* (webhook attempts) are a queue of their own, claimed fairly per endpoint.

import {cardLast4, emailDomain, emailKey, nameKey, surnameKey} from './search-keys.js'

/** Type of a filter field: its values, in the store and in filters. */
export type FieldType = 'text' | 'int' | 'bool' | 'time'

/**
 * Kinds of object and their typed filter fields. Every kind can also be filtered on
 * `created_at` (time). A field not listed here cannot be filtered, summed or grouped on. The
 * store keeps each listed field in a column of its type, taken from the object's member of that
 * name on every write. `delivery.next_attempt_at` also drives the delivery queue.
 */
export const KINDS = {
  /** card_last4: derived (DERIVED) */
  payment: {status: 'text', customer: 'text', reference: 'text', merchant: 'text', card_last4: 'text'},
  /** email_key, email_domain, name_key, surname_key: derived (DERIVED), what a support agent searches by (issue 36) */
  customer: {email: 'text', email_key: 'text', email_domain: 'text', name_key: 'text', surname_key: 'text'},
  payment_method: {customer: 'text'},
  refund: {payment: 'text', status: 'text'},
  dispute: {payment: 'text', status: 'text', evidence_due_by: 'time'},
  webhook_endpoint: {disabled: 'bool'},
  delivery: {event: 'text', endpoint: 'text', status: 'text', next_attempt_at: 'time'},
  merchant: {kyb_status: 'text'},
  routing_rule: {merchant: 'text'},
  settlement_report: {provider: 'text', currency: 'text', date: 'text'},
  payout: {currency: 'text', status: 'text'},
  ledger_entry: {currency: 'text', payment: 'text', type: 'text', available_at: 'time', amount: 'int'},
  /** accounts are objects of the platform account (the engine's own, PLATFORM_ACCOUNT) */
  account: {},
  /** hosted checkout sessions (issue 28) */
  checkout_session: {status: 'text', payment: 'text'},
  /** failures switched on to rehearse (issue 29) */
  chaos_fault: {},
  /** `secret_hash` is read from the internal part (never served); looked up across accounts by Store.locate */
  api_key: {type: 'text', secret_hash: 'text'},
} as const satisfies Record<string, Record<string, FieldType>>

export type Kind = keyof typeof KINDS

/** Each kind's filter fields and their types, `created_at` included (what a filter may name). */
export const FIELDS: Readonly<Record<Kind, Readonly<Record<string, FieldType>>>> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, {...KINDS[k], created_at: 'time'}]),
) as unknown as Record<Kind, Record<string, FieldType>>
/** Each kind's typed columns, in KINDS order, written from the object on every put (`created_at` is a column of its own). */
export const COLUMNS: Readonly<Record<Kind, readonly string[]>> = Object.fromEntries((Object.keys(KINDS) as Kind[]).map((k) => [k, Object.keys(KINDS[k])])) as Record<Kind, string[]>

/** Filter fields kept in an object's internal part (`_x`) rather than its public JSON. */
export const INTERNAL_FIELDS: Readonly<Partial<Record<Kind, ReadonlySet<string>>>> = {api_key: new Set(['secret_hash'])}

/**
 * Filter fields computed from the object rather than read from a member of that name (issue 36):
 * the forms a support agent searches by, so each search is one indexed read. The query's value is
 * put in the same form (ports/search-keys.ts) by the use case.
 */
export const DERIVED: Readonly<Partial<Record<Kind, Readonly<Record<string, (obj: Record<string, unknown>) => unknown>>>>> = {
  payment: {card_last4: cardLast4},
  customer: {email_key: (o) => emailKey(o.email), email_domain: (o) => emailDomain(o.email), name_key: (o) => nameKey(o.name), surname_key: (o) => surnameKey(o.name)},
}

/** How a typed column's value is read from an object: derived, from its internal part, or its member of that name. */
function reader(kind: Kind, field: string): (obj: Record<string, unknown>) => unknown {
  const derived = DERIVED[kind]?.[field]
  if (derived) return derived
  if (INTERNAL_FIELDS[kind]?.has(field)) return (obj) => (obj._x as Record<string, unknown> | undefined)?.[field]
  return (obj) => obj[field]
}

/** The value of a typed column of an object. */
export function fieldValue(kind: Kind, obj: Record<string, unknown>, field: string): unknown {
  return reader(kind, field)(obj)
}

/** Each kind's typed columns as [name, type, how its value is read], for the writes of every put. */
export const COLUMN_SPECS: Readonly<Record<Kind, readonly (readonly [string, FieldType, (obj: Record<string, unknown>) => unknown])[]>> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, COLUMNS[k].map((c) => [c, (KINDS[k] as Record<string, FieldType>)[c]!, reader(k, c)] as const)]),
) as unknown as Record<Kind, readonly (readonly [string, FieldType, (obj: Record<string, unknown>) => unknown])[]>

/** The typed columns' values of an object (before a store's own conversion, see `convert`). */
export function columnValues<V>(kind: Kind, obj: Record<string, unknown>, convert: (type: FieldType, v: unknown) => V): V[] {
  const specs = COLUMN_SPECS[kind]
  const out = new Array<V>(specs.length)
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!
    out[i] = convert(spec[1], spec[2](obj))
  }
  return out
}

/** The engine's own account: existing data dirs and databases open as it, and its keys manage the other accounts. */
export const PLATFORM_ACCOUNT = 'acct_default'

/** Kinds never served by the API: a store may keep them in any form, as long as it gives the same object back. */
export const INTERNAL_KINDS: ReadonlySet<Kind> = new Set(['ledger_entry'])
/** The filter fields of a kind (of any kind, for `Kind` itself). */
export type FieldOf<K extends Kind> = K extends Kind ? (keyof (typeof KINDS)[K] & string) | 'created_at' : never

export interface StoredObject {
  id: string
  created_at: string
}

export interface Versioned<T> {
  obj: T
  /** 1 after the insert, +1 per update */
  version: number
}

/**
 * A filter on a typed field. Values: text as string, int as number, bool as boolean, time as
 * an ISO 8601 UTC string (`2026-01-31T00:00:00.000Z`); `null` matches a missing value (eq only).
 * `prefix` applies to text; `in` to text and int.
 */
export type Filter<K extends Kind = Kind> =
  | {field: FieldOf<K>; op: 'eq'; value: string | number | boolean | null}
  | {field: FieldOf<K>; op: 'gte' | 'lte'; value: string | number}
  | {field: FieldOf<K>; op: 'prefix'; value: string}
  | {field: FieldOf<K>; op: 'in'; value: readonly (string | number)[]}
  | OfFilter<K>

/**
 * `field` holds the id of an object of `kind` (of the same account) that matches one of the
 * filter sets of `any` (each set: all of its filters): a payment whose customer has this email
 * domain (issue 36). One query, each side read through its indexes, however many objects match.
 */
export interface OfFilter<K extends Kind = Kind> {
  field: FieldOf<K>
  op: 'of'
  kind: Kind
  any: readonly (readonly Filter[])[]
}

/**
 * One page of a list. Order: newest first, by insertion order (which is creation order: ids
 * sort by creation time, and an object is inserted when it is created). Cursors are object ids:
 * `starting_after` returns objects inserted before the cursor (older), `ending_before` objects
 * inserted after it (newer, still returned newest first). Filters compose with cursors; the
 * cursor object itself need not match them. `has_more` refers to the direction paged. Paging
 * while others insert never repeats an object and never skips one that existed when paging
 * started.
 */
export interface ListQuery<K extends Kind = Kind> {
  filters?: Filter<K>[]
  /** 1..1000 */
  limit: number
  starting_after?: string
  ending_before?: string
}

export interface ListPage<T> {
  data: T[]
  has_more: boolean
  /** set (and data empty) when a cursor names no object of this kind */
  cursor_missing?: 'starting_after' | 'ending_before'
}

export interface Put {
  kind: Kind
  obj: StoredObject
  /** the object's public JSON (without `_x`) when the caller has it already: stored as these bytes */
  json?: string
  /** the version read before the change; absent inserts a new object (an existing id fails the commit) */
  expectVersion?: number
}

/** An event of the immutable log. `json` is the exact bytes served and delivered. */
export interface StoredEvent {
  id: string
  type: string
  created_at: string
  json: string
  /** the id of its data.object */
  object_id?: string | null
  /** the payment it concerns (a payment's own events, its refunds' and disputes'); null for others */
  payment?: string | null
}

/**
 * What an event is about: its data.object's id, and the payment it concerns (a payment's, a
 * refund's or a dispute's). Its story's subject (EventQuery.subject) is the payment, else the object.
 */
export function eventSubjects(event: {data?: {object?: Record<string, unknown>}}): {object_id: string | null; payment: string | null} {
  const o = event.data?.object
  const id = typeof o?.id === 'string' ? o.id : null
  const payment = o?.object === 'payment' ? id : typeof o?.payment === 'string' ? o.payment : null
  return {object_id: id, payment}
}

/** An event as read back, with its position in the log. */
export interface LoggedEvent extends StoredEvent {
  /** commit order: an event with a greater seq was committed after; readers never see a gap fill in later */
  seq: number
}

export interface EventQuery {
  /**
   * only the events of one story: those concerning this payment (its own, its refunds' and
   * disputes'), or, for an object of no payment (a customer, a merchant), those about it
   */
  subject?: string
  /** of those, only the events whose data.object is this id (a refund of the payment); needs subject */
  object?: string
  /** exact types; OR-ed with typePrefixes */
  types?: string[]
  /** 'payment.' for 'payment.*' */
  typePrefixes?: string[]
  created_gte?: string
  created_lte?: string
  limit: number
  starting_after?: string
  ending_before?: string
}

export interface Job {
  id: string
  kind: string
  /** the object the job acts on; its handler runs under the lock of this key */
  ref: string
  /** ISO time on the engine clock */
  due_at: string
  data?: Record<string, unknown>
}

/** A job claimed by one runner: nobody else gets it until it is completed, released or its lease runs out. */
export interface ClaimedJob extends Job {
  claim: string
}

/** A delivery due for an attempt, claimed by one worker until it is written, released or its lease runs out. */
export interface ClaimedDelivery {
  account: string
  id: string
  endpoint: string
  event: string
  claim: string
}

export interface IdempotencyRecord {
  /** within the account (the engine uses the mode: test or live) */
  scope: string
  key: string
  request_hash: string
  status: number
  /** the exact response body */
  body: string
  /**
   * When writing: the body is exactly the `data.object` of this event, committed in the same
   * change set — the store keeps a reference instead of a copy, and gives the body back on read.
   */
  body_of_event?: string
  created_at: string
  expires_at: string
}

export type IdempotencyClaim =
  /**
   * no live record: this unit of work owns the key until it ends; commit its record in the
   * ChangeSet. `deferred` (only when the claim allowed it): the adapter has not looked for a live
   * record. Committing the unit's record then fails with a VersionConflictError of kind
   * 'idempotency_key' if one is there (core.run runs the unit again, and that claim looks); and a
   * unit that ends without a record (an error that is not recorded) asks `lookup` before it answers.
   */
  | {state: 'claimed'; deferred?: {lookup(): Promise<IdempotencyRecord | undefined>}}
  /** a live record: replay it (when the hash matches) */
  | {state: 'recorded'; record: IdempotencyRecord}
  /** another unit of work, on this or another instance, holds the key right now */
  | {state: 'in_flight'}

export interface StatIncrement {
  provider: string
  /** YYYY-MM-DD on the engine clock */
  day: string
  approved: number
  total: number
}

/** One atomic change. */
export interface ChangeSet {
  puts?: Put[]
  deletes?: {kind: Kind; id: string}[]
  events?: StoredEvent[]
  addJobs?: Job[]
  /** removes pending jobs by (kind, ref) */
  removeJobs?: {kind: string; ref: string}[]
  /** completes claimed jobs: they are removed; a job whose claim was lost fails the commit */
  completeJobs?: ClaimedJob[]
  idempotency?: IdempotencyRecord
  stats?: StatIncrement[]
  settings?: Record<string, string>
  /** deletes every row of that account (its objects, events, jobs, deliveries, keys, idempotency records, statistics and settings) */
  purgeAccount?: string
  /**
   * Replaces every row of this account — but its keys, the account objects it holds (kinds
   * `api_key` and `account`) and the engine's settings (ENGINE_SETTING_PREFIX) — with these (a snapshot loaded: issue 27). Applied before the rest
   * of the change set. Events get new seqs, in the order given.
   */
  restore?: AccountRows
  /**
   * Replaces every row of this account — as `restore` does — with rows written ahead through
   * AccountStore.stageRows (a large snapshot loaded in parts, issue 33): all at once, in this
   * commit, however many rows were staged. Applied before the rest of the change set.
   */
  restoreStaged?: StagedRows
  /**
   * Changes to other accounts in the same transaction: the platform account creating an account
   * writes the account object in its own rows and the new account's keys and first jobs in the
   * new account's (no events, no idempotency record, no further nesting there).
   */
  also?: {account: string; changes: ChangeSet}[]
}

export class VersionConflictError extends Error {
  constructor(
    readonly kind: Kind | 'job' | 'idempotency_key',
    readonly id: string,
  ) {
    super(`${kind} ${id} was changed concurrently`)
  }
}

/** The store cannot be reached (database restarting, connection lost): the request may be retried. */
export class StoreUnavailableError extends Error {}

/**
 * Settings of the engine as a whole (the fleet's, issue 25), kept with the platform account: a
 * snapshot neither holds nor replaces them (a restore keeps them).
 */
export const ENGINE_SETTING_PREFIX = 'fleet.'
/** The SQL condition (both stores) of the settings a restore replaces: every one but the engine's. */
export const RESTORED_SETTINGS_SQL = `substr(key, 1, ${ENGINE_SETTING_PREFIX.length}) <> '${ENGINE_SETTING_PREFIX}'`

/** Kinds a snapshot never holds: credentials, and the accounts a platform account manages. */
export const UNSNAPSHOTTED: ReadonlySet<Kind> = new Set(['api_key', 'account'])

/** An account's whole state as rows (issue 27 snapshots): what `exportRows` gives and `ChangeSet.restore` writes back. */
export interface AccountRows {
  /** every object with its version, each kind in insertion order (internal parts included) */
  objects: {kind: Kind; obj: StoredObject; version: number}[]
  /** the event log, oldest first */
  events: StoredEvent[]
  /** pending timeline jobs, in the order they were scheduled */
  jobs: Job[]
  /** idempotency records, bodies in full */
  idempotency: IdempotencyRecord[]
  stats: StatIncrement[]
  settings: Record<string, string>
}

/**
 * Rows written ahead of the unit of work that puts them in place of an account's rows (a large
 * snapshot loaded in parts, issue 33). Each `add` is a short write of its own, so other accounts'
 * commits go on between them; what is staged is seen by nobody — no read of any account, no job
 * or delivery claim, no `locate` — until a unit commits `ChangeSet.restoreStaged` with it, which
 * then replaces the account's rows in that one commit (all or nothing). Staged rows a process
 * left behind (it stopped mid-load) are removed by the store later.
 */
export interface StagedRows {
  /** Writes more rows (objects keep their versions, events get new seqs in order). */
  add(rows: Partial<AccountRows>): Promise<void>
  /** Deletes what was staged, unless a commit took it (a load refused or failed); harmless twice. */
  discard(): Promise<void>
}

/** The first character of the names stores give staged rows' owners: no account id starts with it (ids are acct_...), and it sorts after them. */
export const STAGED_ACCOUNT_MARK = '~'

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
 * The request log of every instance of a fleet (issue 25): entries appended in batches, read as
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
  /** Calls `fn` with the greatest seq after entries were appended, by any instance. */
  onAppend(fn: (seq: number) => void): () => void
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

  /** Deletes idempotency records that expired at `now`. */
  purgeIdempotency(now: string): Promise<number>

  /** Provider statistics of the given day and later. */
  statsSince(day: string): Promise<StatIncrement[]>
  getSetting(key: string): Promise<string | undefined>
  /** Adds `deltaMs` to an integer setting atomically and returns the new value (the engine clock's offset). */
  addToSetting(key: string, deltaMs: number): Promise<number>

  /** Every row of this account but its keys and account objects (UNSNAPSHOTTED), read at one moment: a snapshot's contents. */
  exportRows(): Promise<AccountRows>
  /** Starts writing rows that a later commit puts in place of this account's (see StagedRows). */
  stageRows(): StagedRows

  /** Store.exclusive for a section of this account only (`timeline`: its job runs). */
  exclusive<T>(name: string, fn: () => Promise<T>, opts?: {wait?: boolean}): Promise<{ran: true; value: T} | {ran: false}>

  /** Calls `fn` after every commit that touched this account, by any instance. Returns an unsubscribe. */
  onChange(fn: (n: ChangeNotice) => void): () => void
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

  /** Calls `fn` after every commit, by any instance (soon after, on other instances), once per account it touched. Returns an unsubscribe. */
  onChange(fn: (n: ChangeNotice) => void): () => void
  /**
   * Where a change listener's failure goes (issue 33): every listener hears every notice whatever
   * another one throws, and nothing a listener throws reaches the commit that caused the notice.
   * Default: a line on stderr.
   */
  onListenerError(fn: (e: unknown, account: string) => void): void

  close(): Promise<void>
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

/** Calls each listener with the notice, each failure to `failed` (Store.onListenerError). */
export function notifyEach(listeners: Iterable<(n: ChangeNotice) => void>, n: ChangeNotice, failed: (e: unknown, account: string) => void): void {
  for (const l of listeners) {
    try {
      l(n)
    } catch (e) {
      failed(e, n.account)
    }
  }
}

/** The default of Store.onListenerError. */
export const listenerErrorToStderr = (e: unknown, account: string): void => void process.stderr.write(`change listener of ${account} failed: ${(e as Error)?.stack ?? String(e)}\n`)

/** Makes the store an engine instance runs on; called once at start. */
export type StoreFactory = () => Promise<Store>
