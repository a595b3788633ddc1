// What every part of the PostgreSQL adapter shares: how values are kept in columns, how errors
// of an unreachable database are told apart, and the row shapes of objects.
import pg from 'pg'
import {type FieldType, type Kind, KINDS, type StoreCounters, type StoredObject, StoreUnavailableError} from '../../ports/store.js'
import {columnValues, COLUMNS} from '../columns.js'

export const INTERNAL = '_x'

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
export const impossibleId = (id: string) => id.includes('\u0000')

/** A member of an object as the value of a typed column. */
export function columnValue(type: FieldType, v: unknown): string | number | boolean | null {
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

export const ARRAY_TYPE: Record<FieldType, string> = {text: 'text[]', int: 'bigint[]', bool: 'boolean[]', time: 'timestamptz[]'}

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

export function wrap(e: unknown): unknown {
  if (e instanceof StoreUnavailableError || !isUnavailable(e)) return e
  return new StoreUnavailableError(`PostgreSQL is not reachable: ${(e as Error).message}`)
}

/** A connection's settings, with the client class that counts its store's round trips (countingClient). */
export type PgConfig = pg.ClientConfig & {Client?: typeof pg.Client}

/** Zeroed counters of a store (Store.counters). */
export const freshCounters = (): StoreCounters => ({roundTrips: 0, commitGroups: 0, committedChangeSets: 0, notices: 0})

/**
 * A client class whose every query (one round trip: node-postgres sends a query and waits for its
 * answer before the next) counts in `counters`; pools take it as their `Client`.
 */
export function countingClient(counters: StoreCounters): typeof pg.Client {
  class Counting extends pg.Client {}
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown
  Counting.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    counters.roundTrips++
    return query.apply(this, args)
  } as typeof pg.Client.prototype.query
  return Counting
}

/**
 * A connection of its own (not pooled), connected: its errors never reach the process, and
 * `gone` hears when it errors or ends (its holder forgets it). A failed connect ends it and
 * throws StoreUnavailableError where the database is unreachable.
 */
export async function connectClient(config: PgConfig, gone: (c: pg.Client) => void = () => {}): Promise<pg.Client> {
  const c = new (config.Client ?? pg.Client)(config)
  c.on('error', () => gone(c))
  c.on('end', () => gone(c))
  try {
    await c.connect()
  } catch (e) {
    void c.end().catch(() => {})
    throw wrap(e)
  }
  return c
}

export type Queryable = pg.Pool | pg.PoolClient | pg.Client

/** A query with the database's unavailability as StoreUnavailableError. */
export async function query<R extends pg.QueryResultRow = any>(on: Queryable, text: string | pg.QueryConfig, params?: unknown[]): Promise<pg.QueryResult<R>> {
  try {
    return await (typeof text === 'string' ? on.query<R>(text, params) : on.query<R>(text))
  } catch (e) {
    throw wrap(e)
  }
}

export async function rows<R extends pg.QueryResultRow = any>(on: Queryable, text: string | pg.QueryConfig, params?: unknown[]): Promise<R[]> {
  return (await query<R>(on, text, params)).rows
}

const parseTimestamptz = pg.types.getTypeParser(1184)
/** A timestamptz as the server sends it, as the port's ISO string. */
export const isoOf = (v: string): string => (parseTimestamptz(v) as Date).toISOString()

export function typeParsers(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: string) => {
      if (oid === 20) return (v: string) => Number(v) // int8: seqs, versions, money, counts
      if (oid === 1184) return isoOf // timestamptz: the port's ISO strings
      return pg.types.getTypeParser(oid, format as 'text')
    }) as pg.CustomTypesConfig['getTypeParser'],
  }
}

// ---------------------------------------------------------------- objects

/** The public JSON of an object, its internal part, and its typed column values. */
export function rowOf(kind: Kind, obj: StoredObject, json?: string): {data: string; internal: string | null; cols: (string | number | boolean | null)[]} {
  const o = obj as unknown as Record<string, unknown>
  const internal = o[INTERNAL]
  // the public JSON the unit of work made once, when it has it (else the object without its internal part: a copy made only then)
  return {data: json ?? publicJson(o), internal: internal === undefined ? null : JSON.stringify(internal), cols: columnValues(kind, o, columnValue)}
}

function publicJson(o: Record<string, unknown>): string {
  const {[INTERNAL]: _internal, ...pub} = o
  return JSON.stringify(pub)
}

export function objOf<T>(r: {data: Record<string, unknown>; internal: unknown}): T {
  const obj = r.data
  if (r.internal !== null && r.internal !== undefined) obj[INTERNAL] = r.internal
  return obj as T
}

/** `$n` for the next parameter. */
export const bind = (params: unknown[]) => (v: unknown) => {
  params.push(v)
  return `$${params.length}`
}
