// How objects and events are kept in SQLite rows, and the SQL of filters: shared by the store's
// reads (sqlite-store.ts) and the compilation of change sets into statements (compile.ts).
import {type FieldType, type Filter, INTERNAL_KINDS, type Kind, KINDS, type LoggedEvent} from '../../ports/store.js'
import {COLUMNS, FIELDS} from '../columns.js'
import {unpack} from './codec.js'
import {TABLE} from './schema.js'

export const INTERNAL = '_x'

/**
 * A row limit given as a parameter. Never a bare `LIMIT ?`: this SQLite (3.53) plans with the
 * limit's value, so every new binding of it expires the statement and the next run prepares it
 * again — 20–60 µs per call instead of 2–6 (a claim round did it once per due endpoint: docs/decisions.md#background-work-under-load).
 */
export const LIMIT_PARAM = 'LIMIT CAST(? AS INTEGER)'

/** A member of an object as the value of a typed column. */
export function columnValue(type: FieldType, v: unknown): string | number | null {
  if (v === undefined || v === null) return null
  switch (type) {
    case 'bool':
      return v ? 1 : 0
    case 'int':
      return typeof v === 'number' ? v : null
    default:
      return typeof v === 'string' ? v : null
  }
}

/** A filter value as a bound parameter. */
const param = (type: FieldType, v: string | number | boolean): string | number => (type === 'bool' ? (v ? 1 : 0) : (v as string | number))

export type Row = {data: string | Buffer; internal: string | Buffer | null} & Record<string, unknown>

/** The columns to read an object back: an internal kind's JSON leaves out what its columns hold. */
export const SELECT: Record<Kind, string> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, INTERNAL_KINDS.has(k) ? ['data', 'internal', 'id', 'created_at', ...COLUMNS[k]].join(', ') : 'data, internal']),
) as Record<Kind, string>

export function parseRow<T>(kind: Kind, row: Row): T {
  const obj = JSON.parse(unpack(row.data)) as Record<string, unknown>
  if (INTERNAL_KINDS.has(kind)) {
    obj.id = row.id
    obj.created_at = row.created_at
    const types = KINDS[kind] as Record<string, FieldType>
    for (const c of COLUMNS[kind]) obj[c] = types[c] === 'bool' && row[c] !== null ? row[c] === 1 : row[c]
  }
  if (row.internal !== null) obj[INTERNAL] = JSON.parse(unpack(row.internal))
  return obj as T
}

/**
 * The WHERE clauses of a query of one account's objects: the account (its number) first (every
 * index leads with it), then the filters on typed fields.
 */
export function whereOf(kind: Kind, account: number, filters: readonly Filter[] | undefined, params: unknown[]): string[] {
  const types = FIELDS[kind]
  const clauses = ['account = ?']
  params.push(account)
  for (const f of filters ?? []) {
    const type = types[f.field]
    if (type === undefined) throw new Error(`cannot filter ${kind} by ${f.field}`)
    switch (f.op) {
      case 'eq':
        if (f.value === null) clauses.push(`${f.field} IS NULL`)
        else {
          clauses.push(`${f.field} = ?`)
          params.push(param(type, f.value))
        }
        break
      case 'gte':
      case 'lte':
        clauses.push(`${f.field} ${f.op === 'gte' ? '>=' : '<='} ?`)
        params.push(f.value)
        break
      case 'prefix':
        // a range of the column's index (every string that starts with the prefix sorts in
        // [prefix, prefix + U+10FFFF)), then the exact test
        clauses.push(`${f.field} >= ? AND ${f.field} < ? AND substr(${f.field}, 1, ?) = ?`)
        params.push(f.value, f.value + '\u{10FFFF}', Array.from(f.value).length, f.value)
        break
      case 'in':
        if (f.value.length === 0) clauses.push('0')
        else {
          clauses.push(`${f.field} IN (${f.value.map(() => '?').join(',')})`)
          params.push(...f.value)
        }
        break
      case 'of':
        // the ids of the other kind's matching objects, each alternative through its own index
        if (f.any.length === 0) clauses.push('0')
        else clauses.push(`${f.field} IN (${f.any.map((set) => `SELECT id FROM ${TABLE[f.kind]} WHERE ${whereOf(f.kind, account, set, params).join(' AND ')}`).join(' UNION ')})`)
        break
    }
  }
  return clauses
}

export type StoredRow = Omit<LoggedEvent, 'json'> & {json: string | Buffer}

export function logged(r: StoredRow): LoggedEvent
export function logged(r: StoredRow | undefined): LoggedEvent | undefined
export function logged(r: StoredRow | undefined): LoggedEvent | undefined {
  return r && {seq: r.seq, id: r.id, type: r.type, created_at: r.created_at, json: unpack(r.json)}
}

/** Every table that holds rows of an account (what purging an account empties). */
export const ACCOUNT_TABLES: readonly string[] = [...Object.values(TABLE), 'events', 'jobs', 'idempotency_keys', 'provider_stats', 'settings']
