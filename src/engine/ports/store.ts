// The Store port. Async throughout so that a PostgreSQL adapter can drop in next to the
// SQLite one. Domain and services never see SQL: they read objects by kind and id, list
// them with declarative filters and cursors, and commit a ChangeSet atomically.

export type Kind =
  | 'payment'
  | 'customer'
  | 'payment_method'
  | 'refund'
  | 'dispute'
  | 'webhook_endpoint'
  | 'delivery'
  | 'merchant'
  | 'routing_rule'
  | 'settlement_report'
  | 'payout'
  | 'ledger_entry'

export interface StoredObject {
  id: string
  created_at: string
}

export interface Versioned<T> {
  obj: T
  version: number
}

export type FilterOp = 'eq' | 'gte' | 'lte' | 'prefix' | 'in'

export interface Filter {
  field: string
  op: FilterOp
  value: string | number | boolean | null | readonly string[]
}

export interface ListQuery {
  filters?: Filter[]
  limit: number
  starting_after?: string
  ending_before?: string
}

export interface ListPage<T> {
  data: T[]
  has_more: boolean
  /** set when a cursor id does not exist in the filtered set's table */
  cursor_missing?: 'starting_after' | 'ending_before'
}

export interface Put {
  kind: Kind
  obj: StoredObject
  /** version read before the change; undefined inserts a new object */
  expectVersion?: number
}

export interface StoredEvent {
  id: string
  type: string
  created_at: string
  /** exact JSON bytes of the event object, as served and as delivered */
  json: string
}

export interface Job {
  id: string
  kind: string
  ref: string
  due_at: string
  data?: Record<string, unknown>
}

export interface IdempotencyRecord {
  scope: string
  key: string
  request_hash: string
  status: number
  body: string
  created_at: string
  expires_at: string
}

export interface StatIncrement {
  provider: string
  day: string // YYYY-MM-DD
  approved: number
  total: number
}

export interface ChangeSet {
  puts?: Put[]
  deletes?: {kind: Kind; id: string}[]
  events?: StoredEvent[]
  addJobs?: Job[]
  /** removes jobs by (kind, ref) */
  removeJobs?: {kind: string; ref: string}[]
  /** removes jobs by id (a job that ran) */
  removeJobIds?: string[]
  idempotency?: IdempotencyRecord
  stats?: StatIncrement[]
  settings?: Record<string, string>
  /** in-process callbacks run once the change set has been written (or failed); never stored */
  settled?: (() => void)[]
}

export class VersionConflictError extends Error {
  constructor(
    readonly kind: Kind,
    readonly id: string,
  ) {
    super(`${kind} ${id} was changed concurrently`)
  }
}

export interface EventQuery {
  types?: string[] // exact types
  typePrefixes?: string[] // 'payment.' for 'payment.*'
  created_gte?: string
  created_lte?: string
  limit: number
  starting_after?: string
  ending_before?: string
}

export interface Store {
  get<T extends StoredObject>(kind: Kind, id: string): Promise<Versioned<T> | undefined>
  list<T extends StoredObject>(kind: Kind, q: ListQuery): Promise<ListPage<T>>
  /** all objects of a kind matching the filters, oldest first (small sets: endpoints, rules) */
  all<T extends StoredObject>(kind: Kind, filters?: Filter[]): Promise<T[]>
  commit(cs: ChangeSet): Promise<void>
  /** Sum of a numeric indexed field per value of another, over the objects matching the filters. */
  sum(kind: Kind, q: {field: string; groupBy: string; filters?: Filter[]}): Promise<{group: string | null; sum: number}[]>

  getEvent(id: string): Promise<StoredEvent | undefined>
  listEvents(q: EventQuery): Promise<ListPage<StoredEvent>>
  /** events strictly after the given event id (or all since a time), oldest first, for SSE resume */
  eventsAfter(id: string | null, limit: number, sinceTime?: string): Promise<StoredEvent[]>
  purgeEvents(before: string): Promise<number>

  /** jobs due at or before `now`, earliest due first; jobs due at the same time in the order they were added */
  dueJobs(now: string, limit: number): Promise<Job[]>
  nextJobDue(): Promise<string | undefined>
  completeJob(id: string, cs?: ChangeSet): Promise<void>

  getIdempotency(scope: string, key: string): Promise<IdempotencyRecord | undefined>
  purgeIdempotency(now: string): Promise<number>

  statsSince(day: string): Promise<StatIncrement[]>
  getSetting(key: string): Promise<string | undefined>

  close(): Promise<void>
}
