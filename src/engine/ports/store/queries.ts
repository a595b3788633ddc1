// Objects as the store gives them back, and the queries that read them (part of the Store port, ports/store.ts).
import type {FieldOf, Kind} from './kinds.js'

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
 * domain (docs/decisions.md#finding-payments). One query, each side read through its indexes, however many objects match.
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
