// Reads of the SQLite adapter: one account's objects (get, list, all, sum, count) and events,
// an object found in any account (locate), and an account's rows at one moment (exportRows, for
// snapshots). All on the store's read connection, with statements prepared once (store.stmt).
import Database from 'better-sqlite3'
import {
  type AccountRows,
  type AccountRowsPart,
  type EventQuery,
  type Filter,
  type IdempotencyRecord,
  type Kind,
  KINDS,
  type ListPage,
  type ListQuery,
  type LoggedEvent,
  type StatIncrement,
  type StoredObject,
  STAGED_ACCOUNT_MARK,
  UNSNAPSHOTTED,
  type Versioned,
} from '../../ports/store.js'
import {FIELDS} from '../columns.js'
import {unpack} from './codec.js'
import {dataObjectOf} from '../idempotency-body.js'
import {LIMIT_PARAM, logged, parseRow, type Row, SELECT, type StoredRow, whereOf} from './rows.js'
import {CURSORS, cursorMissing, type PageQuery, pageOf, seqOrder} from '../pages.js'
import {TABLE} from './schema.js'
import type {SqliteStore} from './sqlite-store.js'

export function get<T extends StoredObject>(s: SqliteStore, account: string, kind: Kind, id: string): Versioned<T> | undefined {
  const row = s.stmt(`SELECT ${SELECT[kind]}, version FROM ${TABLE[kind]} WHERE id = ? AND account = ?`).get(id, s.no(account)) as (Row & {version: number}) | undefined
  return row ? {obj: parseRow<T>(kind, row), version: row.version} : undefined
}

export function list<T extends StoredObject, K extends Kind = Kind>(s: SqliteStore, account: string, kind: K, q: ListQuery<K>): ListPage<T> {
  const table = TABLE[kind]
  const p = page<Row>(s, table, account, q, (params) => whereOf(kind, s.no(account), q.filters as Filter[], params), SELECT[kind])
  return {...p, data: p.data.map((r) => parseRow<T>(kind, r))}
}

/** A page of one account's rows of a table; `whereFn` bounds it to the account. */
function page<R>(
  s: SqliteStore,
  table: string,
  account: string,
  q: PageQuery,
  whereFn: (params: unknown[]) => string[],
  cols: string,
): ListPage<R> {
  const params: unknown[] = []
  const clauses = whereFn(params)
  for (const [name, op] of CURSORS) {
    const cursor = q[name]
    if (cursor === undefined) continue
    // a cursor of another account is no cursor here
    const row = s.stmt(`SELECT seq FROM ${table} WHERE id = ? AND account = ?`).get(cursor, s.no(account)) as {seq: number} | undefined
    if (!row) return cursorMissing(name)
    clauses.push(`seq ${op} ?`)
    params.push(row.seq)
  }
  return pageOf(s.stmt(`SELECT ${cols} FROM ${table} WHERE ${clauses.join(' AND ')} ORDER BY seq ${seqOrder(q)} ${LIMIT_PARAM}`).all(...params, q.limit + 1) as R[], q)
}

export function all<T extends StoredObject, K extends Kind = Kind>(s: SqliteStore, account: string, kind: K, filters?: Filter<K>[]): T[] {
  const params: unknown[] = []
  const clauses = whereOf(kind, s.no(account), filters as Filter[] | undefined, params)
  const rows = s.stmt(`SELECT ${SELECT[kind]} FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')} ORDER BY seq ASC`).all(...params) as Row[]
  return rows.map((r) => parseRow<T>(kind, r))
}

export function sum<K extends Kind>(s: SqliteStore, account: string, kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}): {group: string; sum: number}[] {
  const types = FIELDS[kind]
  if (types[q.field] !== 'int') throw new Error(`cannot sum ${kind}.${q.field}: not an int field`)
  if (types[q.groupBy] !== 'text') throw new Error(`cannot group ${kind} by ${q.groupBy}: not a text field`)
  const params: unknown[] = []
  const clauses = [...whereOf(kind, s.no(account), q.filters as Filter[] | undefined, params), `${q.groupBy} IS NOT NULL`]
  return s
    .stmt(`SELECT ${q.groupBy} AS "group", COALESCE(SUM(${q.field}), 0) AS sum FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')} GROUP BY ${q.groupBy} ORDER BY ${q.groupBy}`)
    .all(...params) as {group: string; sum: number}[]
}

export function count<K extends Kind>(s: SqliteStore, account: string, kind: K, filters?: Filter<K>[]): number {
  const params: unknown[] = []
  const clauses = whereOf(kind, s.no(account), filters as Filter[] | undefined, params)
  return (s.stmt(`SELECT COUNT(*) AS n FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')}`).get(...params) as {n: number}).n
}

export function earliest<K extends Kind>(s: SqliteStore, account: string, kind: K, field: string, filters?: Filter<K>[]): string | undefined {
  if (FIELDS[kind][field] !== 'time') throw new Error(`cannot take the earliest ${kind}.${field}: not a time field`)
  const params: unknown[] = []
  const clauses = whereOf(kind, s.no(account), filters as Filter[] | undefined, params)
  return (s.stmt(`SELECT MIN(${field}) AS v FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')}`).get(...params) as {v: string | null}).v ?? undefined
}

export function locate<T extends StoredObject>(s: SqliteStore, kind: Kind, field: 'id' | 'secret_hash', value: string): {account: string; obj: T} | undefined {
  if (field !== 'id' && !(kind === 'api_key' && field === 'secret_hash')) throw new Error(`cannot locate ${kind} by ${field}`)
  // (staged rows are nobody's yet)
  const row = (s.stmt(`SELECT ${SELECT[kind]}, account FROM ${TABLE[kind]} WHERE ${field} = ?`).all(value) as (Row & {account: number})[]).find((r) => !s.idOf(r.account).startsWith(STAGED_ACCOUNT_MARK))
  return row ? {account: s.idOf(row.account), obj: parseRow<T>(kind, row)} : undefined
}

// ---------------------------------------------------------------- events of one account

export function getEvent(s: SqliteStore, account: string, id: string): LoggedEvent | undefined {
  return logged(s.stmt('SELECT seq, id, type, created_at, json FROM events WHERE id = ? AND account = ?').get(id, s.no(account)) as StoredRow | undefined)
}

export function listEvents(s: SqliteStore, account: string, q: EventQuery): ListPage<LoggedEvent> {
  const whereFn = (params: unknown[]) => {
    const clauses: string[] = ['account = ?']
    params.push(s.no(account))
    if (q.object !== undefined && q.subject === undefined) throw new Error('an event query by object names its subject (the payment it concerns, else the object)')
    if (q.subject !== undefined) {
      // the expression of the events_subject index
      clauses.push('COALESCE(payment, object_id) = ?')
      params.push(q.subject)
    }
    if (q.object !== undefined) {
      clauses.push('object_id = ?')
      params.push(q.object)
    }
    const ors: string[] = []
    for (const t of q.types ?? []) {
      ors.push('type = ?')
      params.push(t)
    }
    for (const p of q.typePrefixes ?? []) {
      ors.push('substr(type, 1, ?) = ?')
      params.push(p.length, p)
    }
    if (ors.length) clauses.push(`(${ors.join(' OR ')})`)
    if (q.created_gte) {
      clauses.push('created_at >= ?')
      params.push(q.created_gte)
    }
    if (q.created_lte) {
      clauses.push('created_at <= ?')
      params.push(q.created_lte)
    }
    return clauses
  }
  // the page is chosen on the (account, type, seq) and (account, created_at) indexes; the bytes are read by seq
  const p = page<{seq: number}>(s, 'events', account, q, whereFn, 'seq')
  const bySeq = s.stmt('SELECT seq, id, type, created_at, json FROM events WHERE seq = ?')
  return {...p, data: p.data.map((r) => logged(bySeq.get(r.seq) as StoredRow))}
}

export function eventsAfter(s: SqliteStore, account: string, afterSeq: number, limit: number): LoggedEvent[] {
  return (s.stmt(`SELECT seq, id, type, created_at, json FROM events WHERE account = ? AND seq > ? ORDER BY seq ASC ${LIMIT_PARAM}`).all(s.no(account), afterSeq, limit) as StoredRow[]).map((r) => logged(r))
}

// ---------------------------------------------------------------- an account at one moment (snapshots)

type ObjectRow = Row & {version: number}
type EventRow = StoredRow & {object_id: string | null; payment: string | null}
type JobRow = {id: string; kind: string; ref: string; due_at: string; data: string | null}
type IdempotencyRow = Omit<IdempotencyRecord, 'body'> & {body: string | Buffer; event_json: string | Buffer | null}

/**
 * The order of each section's rows: one of an index that leads with the account, so that reading
 * them a part at a time never sorts them all first (one stretch of the event loop as long as the
 * account is large). Insertion order where that index has it; the ledger (never listed) by time,
 * deliveries by endpoint (each endpoint's in insertion order), jobs by due time (ties in the order
 * they were scheduled), idempotency records by expiry.
 */
const EXPORT_ORDER: Partial<Record<Kind, string>> = {ledger_entry: 'created_at, seq', delivery: 'endpoint, seq'}

/**
 * What an account's rows are read with, section by section, in AccountRows order: each query of
 * the account's number and how a row becomes what the section holds. Objects: one query per kind.
 */
function exportQueries(): {section: Exclude<AccountRowsPart['section'], 'settings'>; sql: string; row: (r: never) => unknown}[] {
  const objects = (Object.keys(KINDS) as Kind[])
    .filter((kind) => !UNSNAPSHOTTED.has(kind))
    .map((kind) => ({
      section: 'objects' as const,
      sql: `SELECT ${SELECT[kind]}, version FROM ${TABLE[kind]} WHERE account = ? ORDER BY ${EXPORT_ORDER[kind] ?? 'seq'}`,
      row: (r: ObjectRow) => ({kind, obj: parseRow<StoredObject>(kind, r), version: r.version}),
    }))
  return [
    ...objects,
    {
      section: 'events',
      sql: 'SELECT id, type, created_at, json, object_id, payment FROM events WHERE account = ? ORDER BY seq',
      row: (r: EventRow) => ({id: r.id, type: r.type, created_at: r.created_at, json: unpack(r.json), object_id: r.object_id, payment: r.payment}),
    },
    {
      section: 'jobs',
      sql: 'SELECT id, kind, ref, due_at, data FROM jobs WHERE account = ? ORDER BY due_at, rowid',
      row: (r: JobRow) => ({id: r.id, kind: r.kind, ref: r.ref, due_at: r.due_at, ...(r.data ? {data: JSON.parse(r.data) as Record<string, unknown>} : {})}),
    },
    {
      section: 'idempotency',
      sql: 'SELECT i.scope, i.key, i.request_hash, i.status, i.body, i.created_at, i.expires_at, e.json AS event_json FROM idempotency_keys i LEFT JOIN events e ON e.account = i.account AND e.id = i.body_event WHERE i.account = ? ORDER BY i.expires_at, i.rowid',
      row: ({event_json, body, ...r}: IdempotencyRow) => ({...r, body: event_json !== null ? dataObjectOf(unpack(event_json)) : unpack(body)}),
    },
    {section: 'stats', sql: 'SELECT provider, day, approved, total FROM provider_stats WHERE account = ? ORDER BY provider, day', row: (r: StatIncrement) => r},
  ]
}
const SETTINGS_SQL = 'SELECT key, value FROM settings WHERE account = ? ORDER BY key'

/** Every row of an account but its keys and account objects, read in one read transaction (one moment). */
export function exportRows(s: SqliteStore, id: string): AccountRows {
  const account = s.no(id)
  return s.db.transaction((): AccountRows => {
    const rows: AccountRows = {objects: [], events: [], jobs: [], idempotency: [], stats: [], settings: {}}
    for (const q of exportQueries()) for (const r of s.stmt(q.sql).all(account)) (rows[q.section] as unknown[]).push(q.row(r as never))
    for (const r of s.stmt(SETTINGS_SQL).all(account) as {key: string; value: string}[]) rows.settings[r.key] = r.value
    return rows
  })()
}

/**
 * exportRows a part at a time (AccountStore.exportParts): on a read-only connection of its own,
 * whose one read transaction holds the moment however long the reading takes (the WAL keeps it;
 * other reads and the writer go on), each `next()` the steps of at most `size` rows. The account's
 * number is read in that transaction, so a snapshot load swapped in meanwhile is not half seen.
 * A database without a WAL (in memory: tests) is read at once and handed out in parts.
 */
export async function* exportParts(s: SqliteStore, id: string, size: number): AsyncGenerator<AccountRowsPart, void, undefined> {
  if (!s.writer) {
    const all = exportRows(s, id)
    for (const section of ['objects', 'events', 'jobs', 'idempotency', 'stats'] as const)
      for (let i = 0; i < all[section].length; i += size) yield {section, items: all[section].slice(i, i + size)} as AccountRowsPart
    yield {section: 'settings', value: all.settings}
    return
  }
  const db = new Database(s.db.name, {readonly: true, fileMustExist: true})
  try {
    db.pragma('busy_timeout = 5000')
    db.prepare('BEGIN').run()
    const account = (db.prepare('SELECT n FROM account_numbers WHERE id = ?').get(id) as {n: number} | undefined)?.n ?? 0
    let part: {section: AccountRowsPart['section']; items: unknown[]} | undefined
    for (const q of exportQueries()) {
      if (part && part.section !== q.section) {
        yield part as AccountRowsPart
        part = undefined
      }
      // (leaving early returns the statement's iterator, which ends its step)
      for (const r of db.prepare(q.sql).iterate(account)) {
        ;(part ??= {section: q.section, items: []}).items.push(q.row(r as never))
        if (part.items.length >= size) {
          yield part as AccountRowsPart
          part = undefined
        }
      }
    }
    if (part) yield part as AccountRowsPart
    const settings: Record<string, string> = {}
    for (const r of db.prepare(SETTINGS_SQL).all(account) as {key: string; value: string}[]) settings[r.key] = r.value
    yield {section: 'settings', value: settings}
  } finally {
    if (db.inTransaction) db.prepare('COMMIT').run()
    db.close()
  }
}
