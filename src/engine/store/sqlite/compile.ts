// A change set of one account as the statements the writer thread runs (writer.ts), with their
// parameters, and what it changes for the change notice. Every row written carries the account;
// every update and delete is bounded to it.
import {type AccountRows, type ChangeNotice, type ChangeSet, RESTORED_SETTINGS_SQL, type StagedRows, INTERNAL_KINDS, type Kind, KINDS, UNSNAPSHOTTED, VersionConflictError} from '../../ports/store.js'
import {columnValues, COLUMNS} from '../columns.js'
import {bodyReference} from '../idempotency-body.js'
import {ACCOUNT_TABLES, columnValue, INTERNAL} from './rows.js'
import {TABLE} from './schema.js'
import type {Narrow, Op} from './writer.js'

/** The statements that write an object of each kind, built once. */
const INSERT_SQL: Record<Kind, string> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, `INSERT INTO ${TABLE[k]} (data, internal, id, created_at, account, version${COLUMNS[k].map((c) => `, ${c}`).join('')}) VALUES (?, ?, ?, ?, ?, 1${COLUMNS[k].map(() => ', ?').join('')})`]),
) as Record<Kind, string>
const UPDATE_SQL: Record<Kind, string> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, `UPDATE ${TABLE[k]} SET data = ?, internal = ?, version = version + 1${COLUMNS[k].map((c) => `, ${c} = ?`).join('')} WHERE id = ? AND version = ? AND account = ?`]),
) as Record<Kind, string>
/** An update's typed columns, set only where they change (writer.ts, Narrow). */
const NARROW: Record<Kind, Narrow | undefined> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, COLUMNS[k].length > 0 ? {table: TABLE[k], columns: COLUMNS[k]} : undefined]),
) as Record<Kind, Narrow | undefined>
/** An object as it was (a snapshot restored): its version kept. */
const RESTORE_SQL: Record<Kind, string> = Object.fromEntries(
  (Object.keys(KINDS) as Kind[]).map((k) => [k, `INSERT INTO ${TABLE[k]} (data, internal, id, created_at, account, version${COLUMNS[k].map((c) => `, ${c}`).join('')}) VALUES (?, ?, ?, ?, ?, ?${COLUMNS[k].map(() => ', ?').join('')})`]),
) as Record<Kind, string>
const DELETE_SQL: Record<Kind, string> = Object.fromEntries((Object.keys(KINDS) as Kind[]).map((k) => [k, `DELETE FROM ${TABLE[k]} WHERE id = ? AND account = ?`])) as Record<Kind, string>
const PACK_DATA = [0]

/**
 * An idempotency record goes in over no record or an expired one (at its created_at); over a live
 * one it changes nothing (0 rows). A claim that looked holds the key with no live record behind
 * it; a deferred claim's change set requires the one row (see compile).
 */
const INSERT_IDEMPOTENCY =
  'INSERT INTO idempotency_keys (body, scope, key, request_hash, status, body_event, created_at, expires_at, account) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
  'ON CONFLICT (key, scope, account) DO UPDATE SET body = excluded.body, request_hash = excluded.request_hash, status = excluded.status, body_event = excluded.body_event, created_at = excluded.created_at, expires_at = excluded.expires_at ' +
  'WHERE idempotency_keys.expires_at <= excluded.created_at'

function withoutInternal(obj: Record<string, unknown>): Record<string, unknown> {
  if (!(INTERNAL in obj)) return obj
  const {[INTERNAL]: _drop, ...pub} = obj
  return pub
}

/** What an internal kind's columns hold (left out of its JSON). */
const IN_COLUMNS = Object.fromEntries((Object.keys(KINDS) as Kind[]).map((k) => [k, new Set<string>(['id', 'created_at', ...COLUMNS[k]])])) as Record<Kind, Set<string>>

/** The JSON kept for an object: all of its public part, or for an internal kind what its columns do not hold. */
function dataJson(kind: Kind, pub: Record<string, unknown>): string {
  if (!INTERNAL_KINDS.has(kind)) return JSON.stringify(pub)
  const rest: Record<string, unknown> = {}
  const skip = IN_COLUMNS[kind]
  for (const k of Object.keys(pub)) if (!skip.has(k)) rest[k] = pub[k]
  return JSON.stringify(rest)
}

/** The typed columns and stored JSON of an object. */
function row(kind: Kind, obj: Record<string, unknown>, json?: string): {data: string; internalJson: string | null; colVals: (string | number | null)[]} {
  const colVals = columnValues(kind, obj, columnValue)
  const internal = obj[INTERNAL]
  const data = json !== undefined && !INTERNAL_KINDS.has(kind) ? json : dataJson(kind, withoutInternal(obj))
  return {data, internalJson: internal === undefined ? null : JSON.stringify(internal), colVals}
}

/** Statements replacing an account's rows (but its keys, account objects and the engine's settings) with a snapshot's. */
function restore(rows: AccountRows, account: number, ops: Op[], notice: {kinds: Set<Kind>; settings: string[]; dueBy: string | null; restored?: boolean}): void {
  const keep = new Set([...UNSNAPSHOTTED].map((k) => TABLE[k]))
  for (const t of ACCOUNT_TABLES) if (!keep.has(t)) ops.push({sql: `DELETE FROM ${t} WHERE account = ?${t === 'settings' ? ` AND ${RESTORED_SETTINGS_SQL}` : ''}`, params: [account]})
  insertRows(rows, account, ops, notice)
  for (const k of Object.keys(KINDS) as Kind[]) if (!UNSNAPSHOTTED.has(k)) notice.kinds.add(k)
  notice.restored = true
}

/** Statements inserting an account's rows as they are (objects with their versions): a snapshot restored, or a part of one staged. */
export function insertRows(rows: Partial<AccountRows>, account: number, ops: Op[], notice: {settings: string[]; dueBy: string | null}): void {
  for (const o of rows.objects ?? []) {
    if (UNSNAPSHOTTED.has(o.kind)) continue
    const r = row(o.kind, o.obj as unknown as Record<string, unknown>)
    ops.push({sql: RESTORE_SQL[o.kind], params: [r.data, r.internalJson, o.obj.id, o.obj.created_at, account, o.version, ...r.colVals], pack: INTERNAL_KINDS.has(o.kind) ? undefined : PACK_DATA})
  }
  for (const e of rows.events ?? [])
    ops.push({sql: 'INSERT INTO events (json, id, type, created_at, account, object_id, payment) VALUES (?, ?, ?, ?, ?, ?, ?)', params: [e.json, e.id, e.type, e.created_at, account, e.object_id ?? null, e.payment ?? null], check: 'seq', pack: [0]})
  for (const j of rows.jobs ?? []) {
    ops.push({sql: 'INSERT INTO jobs (id, kind, ref, due_at, data, account) VALUES (?, ?, ?, ?, ?, ?)', params: [j.id, j.kind, j.ref, j.due_at, j.data ? JSON.stringify(j.data) : null, account]})
    if (notice.dueBy === null || j.due_at < notice.dueBy) notice.dueBy = j.due_at
  }
  for (const r of rows.idempotency ?? [])
    ops.push({sql: 'INSERT INTO idempotency_keys (body, scope, key, request_hash, status, body_event, created_at, expires_at, account) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?)', params: [r.body, r.scope, r.key, r.request_hash, r.status, r.created_at, r.expires_at, account], pack: PACK_DATA})
  for (const st of rows.stats ?? []) ops.push({sql: 'INSERT INTO provider_stats (account, provider, day, approved, total) VALUES (?, ?, ?, ?, ?)', params: [account, st.provider, st.day, st.approved, st.total]})
  for (const [k, v] of Object.entries(rows.settings ?? {})) {
    ops.push({sql: 'INSERT INTO settings (account, key, value) VALUES (?, ?, ?)', params: [account, k, v]})
    notice.settings.push(k)
  }
}

/** What a swap needs to know of rows staged for an account (staging.ts). */
export interface StagedPart {
  /** the number the staged rows carry */
  number: number
  /** the earliest due time of the staged jobs */
  dueBy: string | null
  /** the staged settings' keys */
  settings: readonly string[]
}

/**
 * Statements putting staged rows in place of an account's, whatever their number: the account's
 * keys, the accounts it holds and the engine's settings move to the staged rows' number, which
 * becomes the account's; its old number is renamed (its rows, now nobody's, are deleted later).
 * Returns the number the rest of the change set writes with.
 */
function swapStaged(staged: StagedPart, accountId: string, old: number, ops: Op[], notice: {kinds: Set<Kind>; settings: string[]; dueBy: string | null; restored?: boolean}, retired: string): number {
  const n = staged.number
  for (const k of UNSNAPSHOTTED) ops.push({sql: `UPDATE ${TABLE[k]} SET account = ? WHERE account = ?`, params: [n, old]})
  ops.push({sql: `UPDATE settings SET account = ? WHERE account = ? AND NOT (${RESTORED_SETTINGS_SQL})`, params: [n, old]})
  ops.push({sql: 'UPDATE account_numbers SET id = ? WHERE n = ?', params: [retired, old]})
  ops.push({sql: 'UPDATE account_numbers SET id = ? WHERE n = ?', params: [accountId, n]})
  for (const k of Object.keys(KINDS) as Kind[]) if (!UNSNAPSHOTTED.has(k)) notice.kinds.add(k)
  notice.settings.push(...staged.settings)
  notice.dueBy = staged.dueBy
  notice.restored = true
  return n
}

/** What compiling needs of the store's in-process state. */
export interface CompileState {
  /** the claim a job is held by in this process, if any */
  jobClaim(account: string, id: string): string | undefined
  /** whether a unit of work holds this idempotency key with its lookup deferred to the commit */
  deferredClaim(k: string): boolean
  /** the number the account's rows carry, pushing the statement that records it while it is new */
  accountNo(account: string, ops: Op[]): number
  /** the number an account's rows carry, 0 (none) for an account never numbered */
  rowsOf(account: string): number
  /** rows staged by this store (ChangeSet.restoreStaged), numbered (the statement that records a new number pushed); the name its old number takes */
  staged(s: StagedRows, ops: Op[]): {part: StagedPart; retired: string}
  /** the account's rows are replaced (a snapshot restored): claims on its jobs are of jobs that are gone, even where a restored job has the same id */
  replaced(account: string): void
}

/** The in-process key of an idempotency claim (of an account's scope: its mode). */
export const idemKey = (account: string, scope: string, key: string) => `${account}\u0000${scope}\u0000${key}`

/**
 * A change set as statements with their parameters, and what it changes for the notice.
 * Checks that need this process's state (job claims) happen here: a failing one rejects the
 * change set before anything is written.
 */
export function compile(cs: ChangeSet, accountId: string, state: CompileState): {ops: Op[]; notice: ChangeNotice; others: ChangeNotice[]} {
  const ops: Op[] = []
  const others: ChangeNotice[] = []
  let account = state.accountNo(accountId, ops)
  for (const o of cs.also ?? []) {
    if (o.account === accountId || o.changes.also || o.changes.events || o.changes.idempotency || o.changes.purgeAccount) throw new Error('a nested change set writes another account\'s objects, jobs, statistics and settings only')
    const c = compile(o.changes, o.account, state)
    ops.push(...c.ops)
    others.push(c.notice)
  }
  const notice: {account: string; kinds: Set<Kind>; settings: string[]; eventSeq: null; dueBy: string | null; restored?: boolean} = {account: accountId, kinds: new Set<Kind>(), settings: [], eventSeq: null, dueBy: null}
  if (cs.restore || cs.restoreStaged) state.replaced(accountId)
  if (cs.restore) restore(cs.restore, account, ops, notice)
  if (cs.restoreStaged) {
    const {part, retired} = state.staged(cs.restoreStaged, ops)
    account = swapStaged(part, accountId, account, ops, notice, retired)
  }
  if (cs.purgeAccount !== undefined) {
    if (cs.purgeAccount === accountId) throw new Error('an account cannot purge itself: the platform account deletes accounts')
    // its number stays in account_numbers: numbers are never given twice
    const gone = state.rowsOf(cs.purgeAccount)
    for (const t of ACCOUNT_TABLES) ops.push({sql: `DELETE FROM ${t} WHERE account = ?`, params: [gone]})
  }
  for (const put of cs.puts ?? []) {
    const {data, internalJson, colVals} = row(put.kind, put.obj as unknown as Record<string, unknown>, put.json)
    // the public JSON may be packed (codec.ts); internal state is small and internal kinds are summed over: they stay plain
    const packed = INTERNAL_KINDS.has(put.kind) ? undefined : PACK_DATA
    if (put.expectVersion === undefined) {
      ops.push({sql: INSERT_SQL[put.kind], params: [data, internalJson, put.obj.id, put.obj.created_at, account, ...colVals], pack: packed})
    } else {
      ops.push({
        sql: UPDATE_SQL[put.kind],
        params: [data, internalJson, ...colVals, put.obj.id, put.expectVersion, account],
        check: 'one',
        kind: put.kind,
        id: put.obj.id,
        pack: packed,
        narrow: NARROW[put.kind],
      })
    }
    notice.kinds.add(put.kind)
  }
  for (const d of cs.deletes ?? []) {
    ops.push({sql: DELETE_SQL[d.kind], params: [d.id, account]})
    notice.kinds.add(d.kind)
  }
  for (const e of cs.events ?? [])
    ops.push({sql: 'INSERT INTO events (json, id, type, created_at, account, object_id, payment) VALUES (?, ?, ?, ?, ?, ?, ?)', params: [e.json, e.id, e.type, e.created_at, account, e.object_id ?? null, e.payment ?? null], check: 'seq', pack: [0]})
  for (const j of cs.completeJobs ?? []) {
    if (state.jobClaim(accountId, j.id) !== j.claim) throw new VersionConflictError('job', j.id)
    ops.push({sql: 'DELETE FROM jobs WHERE id = ? AND account = ?', params: [j.id, account], check: 'one', kind: 'job', id: j.id})
  }
  for (const j of cs.removeJobs ?? []) ops.push({sql: 'DELETE FROM jobs WHERE account = ? AND kind = ? AND ref = ?', params: [account, j.kind, j.ref]})
  for (const j of cs.addJobs ?? []) {
    ops.push({sql: 'INSERT INTO jobs (id, kind, ref, due_at, data, account) VALUES (?, ?, ?, ?, ?, ?)', params: [j.id, j.kind, j.ref, j.due_at, j.data ? JSON.stringify(j.data) : null, account]})
    if (notice.dueBy === null || j.due_at < notice.dueBy) notice.dueBy = j.due_at
  }
  if (cs.idempotency) {
    const r = cs.idempotency
    // a body that is an event's data.object (a created payment) is kept as a reference to the event
    const ref = bodyReference(cs)
    const k = idemKey(accountId, r.scope, r.key)
    const op: Op = {sql: INSERT_IDEMPOTENCY, params: [ref ? '' : r.body, r.scope, r.key, r.request_hash, r.status, ref, r.created_at, r.expires_at, account], pack: ref ? undefined : PACK_DATA}
    // the claim did not look: a live record there fails the change set
    if (state.deferredClaim(k)) {
      op.check = 'one'
      op.kind = 'idempotency_key'
      op.id = k
    }
    ops.push(op)
  }
  for (const st of cs.stats ?? [])
    ops.push({
      sql: 'INSERT INTO provider_stats (account, provider, day, approved, total) VALUES (?, ?, ?, ?, ?) ON CONFLICT (account, provider, day) DO UPDATE SET approved = approved + excluded.approved, total = total + excluded.total',
      params: [account, st.provider, st.day, st.approved, st.total],
    })
  for (const [k, v] of Object.entries(cs.settings ?? {})) {
    ops.push({sql: 'INSERT OR REPLACE INTO settings (account, key, value) VALUES (?, ?, ?)', params: [account, k, v]})
    notice.settings.push(k)
  }
  return {ops, notice, others}
}
