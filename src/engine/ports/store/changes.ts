// One atomic change (ChangeSet), its errors, and an account's rows as snapshots move them (part of
// the Store port, ports/store.ts).
import type {Kind} from './kinds.js'
import type {StoredObject} from './queries.js'
import type {ClaimedJob, IdempotencyRecord, Job, Put, StatIncrement, StoredEvent} from './records.js'

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
   * `api_key` and `account`) and the engine's settings (ENGINE_SETTING_PREFIX) — with these (a snapshot loaded: docs/decisions.md#snapshots). Applied before the rest
   * of the change set. Events get new seqs, in the order given.
   */
  restore?: AccountRows
  /**
   * Replaces every row of this account — as `restore` does — with rows written ahead through
   * AccountStore.stageRows (a large snapshot loaded in parts, docs/decisions.md#large-snapshots): all at once, in this
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
 * Settings of the engine as a whole (the fleet's, docs/decisions.md#the-fleet), kept with the platform account: a
 * snapshot neither holds nor replaces them (a restore keeps them).
 */
export const ENGINE_SETTING_PREFIX = 'fleet.'
/** The SQL condition (both stores) of the settings a restore replaces: every one but the engine's. */
export const RESTORED_SETTINGS_SQL = `substr(key, 1, ${ENGINE_SETTING_PREFIX.length}) <> '${ENGINE_SETTING_PREFIX}'`

/** Kinds a snapshot never holds: credentials, and the accounts a platform account manages. */
export const UNSNAPSHOTTED: ReadonlySet<Kind> = new Set(['api_key', 'account'])

/** An account's whole state as rows (docs/decisions.md#snapshots): what `exportRows` gives and `ChangeSet.restore` writes back. */
export interface AccountRows {
  /** every object with its version (internal parts included), kind by kind: in insertion order, but the ledger by time and deliveries by endpoint (each endpoint's in insertion order) */
  objects: {kind: Kind; obj: StoredObject; version: number}[]
  /** the event log, oldest first */
  events: StoredEvent[]
  /** pending timeline jobs by due time, ties in the order they were scheduled */
  jobs: Job[]
  /** idempotency records, bodies in full */
  idempotency: IdempotencyRecord[]
  stats: StatIncrement[]
  settings: Record<string, string>
}

/**
 * A part of an account's rows as `exportParts` reads them: a batch of one section's rows, in the
 * order of AccountRows (objects, events, jobs, idempotency, stats), then the settings.
 */
export type AccountRowsPart =
  | {section: 'objects'; items: AccountRows['objects']}
  | {section: 'events'; items: AccountRows['events']}
  | {section: 'jobs'; items: AccountRows['jobs']}
  | {section: 'idempotency'; items: AccountRows['idempotency']}
  | {section: 'stats'; items: AccountRows['stats']}
  | {section: 'settings'; value: AccountRows['settings']}

/**
 * Rows written ahead of the unit of work that puts them in place of an account's rows (a large
 * snapshot loaded in parts, docs/decisions.md#large-snapshots). Each `add` is a short write of its own, so other accounts'
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
