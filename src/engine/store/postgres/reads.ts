// The PostgreSQL adapter's reads of one account's data: objects, lists and cursors, events, and
// an account's whole state (a snapshot). Every query is bounded to the account.
import {
  type AccountRows,
  type AccountRowsPart,
  type Filter,
  type IdempotencyRecord,
  type Job,
  type Kind,
  KINDS,
  type ListPage,
  type ListQuery,
  type LoggedEvent,
  type EventQuery,
  type StatIncrement,
  type StoredObject,
  UNSNAPSHOTTED,
  type Versioned,
} from '../../ports/store.js'
import {FIELDS} from '../columns.js'
import {CURSORS, cursorMissing, type PageQuery, pageOf, seqOrder} from '../pages.js'
import {IDEMPOTENCY_BODY_SQL, TABLE} from './schema.js'
import {ARRAY_TYPE, bind, impossibleId, objOf, pgText, query, type Queryable, rows} from './sql.js'

type ObjRow = {data: Record<string, unknown>; internal: unknown}

export async function get<T extends StoredObject>(on: Queryable, account: string, kind: Kind, id: string): Promise<Versioned<T> | undefined> {
  if (impossibleId(id)) return undefined
  const r = (await rows<ObjRow & {version: number}>(on, `SELECT data, internal, version FROM ${TABLE[kind]} WHERE account = $1 AND id = $2`, [account, id]))[0]
  return r ? {obj: objOf<T>(r), version: r.version} : undefined
}

/** The WHERE clauses of a query of one account's objects: the account first (every index leads with it), then the filters. */
export function whereOf(kind: Kind, account: string, filters: readonly Filter[] | undefined, params: unknown[]): string[] {
  const types = FIELDS[kind]
  const p = bind(params)
  const clauses = [`account = ${p(account)}`]
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
      case 'of':
        // the ids of the other kind's matching objects, each alternative through its own index
        clauses.push(f.any.length === 0 ? 'false' : `${f.field} IN (${f.any.map((set) => `SELECT id FROM ${TABLE[f.kind]} WHERE ${whereOf(f.kind, account, set, params).join(' AND ')}`).join(' UNION ')})`)
        break
    }
  }
  return clauses
}

/** A page of one account's rows of a table (the clauses bound it to the account). */
export async function page<R extends Record<string, unknown>>(
  on: Queryable,
  table: string,
  account: string,
  q: PageQuery,
  whereFn: (params: unknown[]) => string[],
  cols: string,
): Promise<ListPage<R>> {
  const params: unknown[] = []
  const clauses = whereFn(params)
  for (const [name, op] of CURSORS) {
    const cursor = q[name]
    if (cursor === undefined) continue
    if (impossibleId(cursor)) return cursorMissing(name)
    // a cursor of another account is no cursor here
    const row = (await rows<{seq: number}>(on, `SELECT seq FROM ${table} WHERE account = $1 AND id = $2`, [account, cursor]))[0]
    if (!row) return cursorMissing(name)
    params.push(row.seq)
    clauses.push(`seq ${op} $${params.length}`)
  }
  params.push(q.limit + 1)
  return pageOf(await rows<R>(on, `SELECT ${cols} FROM ${table} WHERE ${clauses.join(' AND ')} ORDER BY seq ${seqOrder(q)} LIMIT $${params.length}`, params), q)
}

export async function list<T extends StoredObject, K extends Kind = Kind>(on: Queryable, account: string, kind: K, q: ListQuery<K>): Promise<ListPage<T>> {
  const p = await page<ObjRow>(on, TABLE[kind], account, q, (params) => whereOf(kind, account, q.filters as Filter[], params), 'data, internal')
  return {...p, data: p.data.map((r) => objOf<T>(r))}
}

export async function all<T extends StoredObject, K extends Kind = Kind>(on: Queryable, account: string, kind: K, filters?: Filter<K>[]): Promise<T[]> {
  const params: unknown[] = []
  const clauses = whereOf(kind, account, filters as Filter[] | undefined, params)
  return (await rows<ObjRow>(on, `SELECT data, internal FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')} ORDER BY seq ASC`, params)).map((r) => objOf<T>(r))
}

export async function sum<K extends Kind>(on: Queryable, account: string, kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}): Promise<{group: string; sum: number}[]> {
  const types = FIELDS[kind]
  if (types[q.field] !== 'int') throw new Error(`cannot sum ${kind}.${q.field}: not an int field`)
  if (types[q.groupBy] !== 'text') throw new Error(`cannot group ${kind} by ${q.groupBy}: not a text field`)
  const params: unknown[] = []
  const clauses = [...whereOf(kind, account, q.filters as Filter[] | undefined, params), `${q.groupBy} IS NOT NULL`]
  return rows(on, `SELECT ${q.groupBy} AS "group", COALESCE(SUM(${q.field}), 0)::bigint AS sum FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')} GROUP BY ${q.groupBy} ORDER BY ${q.groupBy}`, params)
}

export async function count<K extends Kind>(on: Queryable, account: string, kind: K, filters?: Filter<K>[]): Promise<number> {
  const params: unknown[] = []
  const clauses = whereOf(kind, account, filters as Filter[] | undefined, params)
  return Number((await rows<{n: string}>(on, `SELECT COUNT(*) AS n FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')}`, params))[0]!.n)
}

export async function earliest<K extends Kind>(on: Queryable, account: string, kind: K, field: string, filters?: Filter<K>[]): Promise<string | undefined> {
  if (FIELDS[kind][field] !== 'time') throw new Error(`cannot take the earliest ${kind}.${field}: not a time field`)
  const params: unknown[] = []
  const clauses = whereOf(kind, account, filters as Filter[] | undefined, params)
  return (await rows<{v: string | null}>(on, `SELECT MIN(${field}) AS v FROM ${TABLE[kind]} WHERE ${clauses.join(' AND ')}`, params))[0]!.v ?? undefined
}

// ---------------------------------------------------------------- events

const EVENT_COLS = 'seq, id, type, created_at, json'

export async function getEvent(on: Queryable, account: string, id: string): Promise<LoggedEvent | undefined> {
  if (impossibleId(id)) return undefined
  return (await rows<LoggedEvent>(on, `SELECT ${EVENT_COLS} FROM events WHERE account = $1 AND id = $2`, [account, id]))[0]
}

export async function listEvents(on: Queryable, account: string, q: EventQuery): Promise<ListPage<LoggedEvent>> {
  const whereFn = (params: unknown[]) => {
    const p = bind(params)
    const clauses = [`account = ${p(account)}`]
    if (q.object !== undefined && q.subject === undefined) throw new Error('an event query by object names its subject (the payment it concerns, else the object)')
    // the expression of the events_subject index
    if (q.subject !== undefined) clauses.push(`COALESCE(payment, object_id) = ${p(pgText(q.subject))}`)
    if (q.object !== undefined) clauses.push(`object_id = ${p(pgText(q.object))}`)
    const ors: string[] = []
    if (q.types?.length) ors.push(`type = ANY(${p(q.types)}::text[])`)
    for (const pre of q.typePrefixes ?? []) ors.push(`type LIKE ${p(pre.replace(/[\\%_]/g, '\\$&') + '%')}`)
    if (ors.length) clauses.push(`(${ors.join(' OR ')})`)
    if (q.created_gte) clauses.push(`created_at >= ${p(q.created_gte)}`)
    if (q.created_lte) clauses.push(`created_at <= ${p(q.created_lte)}`)
    return clauses
  }
  return page<LoggedEvent & Record<string, unknown>>(on, 'events', account, q, whereFn, EVENT_COLS)
}

export function eventsAfter(on: Queryable, account: string, afterSeq: number, limit: number): Promise<LoggedEvent[]> {
  return rows<LoggedEvent>(on, `SELECT ${EVENT_COLS} FROM events WHERE account = $1 AND seq > $2 ORDER BY seq ASC LIMIT $3`, [account, afterSeq, limit])
}

// ---------------------------------------------------------------- an account's whole state

type EventRow = {id: string; type: string; created_at: string; json: string; object_id: string | null; payment: string | null}
type JobRow = {id: string; kind: string; ref: string; due_at: string; data: Record<string, unknown> | null}

/** The order of each section's rows: the SQLite adapter's (its reads.ts EXPORT_ORDER says why). */
const EXPORT_ORDER: Partial<Record<Kind, string>> = {ledger_entry: 'created_at, seq', delivery: 'endpoint, seq'}

/** What an account's rows are read with, section by section, in AccountRows order, and how a row becomes what the section holds. */
function exportQueries(): {section: Exclude<AccountRowsPart['section'], 'settings'>; sql: string; row: (r: never) => unknown}[] {
  const objects = (Object.keys(KINDS) as Kind[])
    .filter((kind) => !UNSNAPSHOTTED.has(kind))
    .map((kind) => ({
      section: 'objects' as const,
      sql: `SELECT data, internal, version FROM ${TABLE[kind]} WHERE account = $1 ORDER BY ${EXPORT_ORDER[kind] ?? 'seq'}`,
      row: (r: ObjRow & {version: number}) => ({kind, obj: objOf<StoredObject>(r), version: r.version}),
    }))
  return [
    ...objects,
    {section: 'events', sql: 'SELECT id, type, created_at, json, object_id, payment FROM events WHERE account = $1 ORDER BY seq', row: (e: EventRow) => ({...e})},
    {section: 'jobs', sql: 'SELECT id, kind, ref, due_at, data FROM jobs WHERE account = $1 ORDER BY due_at, seq', row: (j: JobRow): Job => ({id: j.id, kind: j.kind, ref: j.ref, due_at: j.due_at, ...(j.data ? {data: j.data} : {})})},
    {
      section: 'idempotency',
      // a body kept as a reference to its event comes back as the event's data.object (schema.ts IDEMPOTENCY_BODY_SQL)
      sql: `SELECT i.scope, i.key, i.request_hash, i.status, ${IDEMPOTENCY_BODY_SQL('i', 'e')} AS body, i.created_at, i.expires_at FROM idempotency_keys i LEFT JOIN events e ON i.body IS NULL AND e.account = i.account AND e.id = i.body_event WHERE i.account = $1 ORDER BY i.expires_at, i.created_at, i.key`,
      row: (r: IdempotencyRecord) => r,
    },
    {section: 'stats', sql: 'SELECT provider, day, approved, total FROM provider_stats WHERE account = $1 ORDER BY provider, day', row: (r: StatIncrement) => r},
  ]
}
const SETTINGS_SQL = 'SELECT key, value FROM settings WHERE account = $1 ORDER BY key'

async function settingsOf(on: Queryable, account: string): Promise<Record<string, string>> {
  const settings: Record<string, string> = {}
  for (const r of await rows<{key: string; value: string}>(on, SETTINGS_SQL, [account])) settings[r.key] = r.value
  return settings
}

/** Every row of an account but its keys and account objects; `on` is a connection in a REPEATABLE READ transaction (one moment). */
export async function exportRows(on: Queryable, account: string): Promise<AccountRows> {
  const out: AccountRows = {objects: [], events: [], jobs: [], idempotency: [], stats: [], settings: {}}
  for (const q of exportQueries()) for (const r of await rows(on, q.sql, [account])) (out[q.section] as unknown[]).push(q.row(r as never))
  out.settings = await settingsOf(on, account)
  return out
}

/**
 * The same a part at a time (AccountStore.exportParts): `on` is a connection of the reading's own
 * in a REPEATABLE READ transaction; each section is read through a cursor, `size` rows a fetch.
 */
export async function* exportParts(on: Queryable, account: string, size: number): AsyncGenerator<AccountRowsPart, void, undefined> {
  for (const q of exportQueries()) {
    await query(on, `DECLARE gw_export NO SCROLL CURSOR FOR ${q.sql}`, [account])
    for (;;) {
      const batch = await rows(on, `FETCH ${size} FROM gw_export`)
      if (batch.length > 0) yield {section: q.section, items: batch.map((r) => q.row(r as never))} as AccountRowsPart
      if (batch.length < size) break
    }
    await query(on, 'CLOSE gw_export')
  }
  yield {section: 'settings', value: await settingsOf(on, account)}
}
