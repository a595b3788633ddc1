// What the store keeps besides objects: events, jobs, deliveries' claims, idempotency records and
// statistics (part of the Store port, ports/store.ts).
import type {Kind} from './kinds.js'
import type {StoredObject} from './queries.js'

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
