// Purges of the SQLite adapter: expired events and idempotency records of an account, and the
// rows under an account number nobody has (staged rows given up, an account's replaced rows).
import {ACCOUNT_TABLES} from './rows.js'
import {restore, writeHere} from './writer.js'
import type {SqliteStore} from './sqlite-store.js'

/** Rows a purge (expired events, idempotency records) deletes per transaction of the writer. */
const PURGE_CHUNK = 2000

export function purgeEvents(s: SqliteStore, account: string, before: string): Promise<number> {
  return purge(s, 'events', 'created_at < ?', [s.no(account), before])
}

export function purgeIdempotency(s: SqliteStore, account: string, now: string): Promise<number> {
  return purge(s, 'idempotency_keys', 'expires_at <= ?', [s.no(account), now])
}

/**
 * Deletes an account's rows of `table` matching `where`, on the writer thread and PURGE_CHUNK
 * rows per transaction: never on the event loop (a write there waits for the writer's lock and
 * for its own fsync, stopping every request meanwhile — a 400-day clock advance purged months
 * of events at once), and other units' commits go in between the chunks (docs/decisions.md#one-tenant-cannot-starve-the-others).
 */
async function purge(s: SqliteStore, table: string, where: string, params: unknown[]): Promise<number> {
  // (counted up to one more than a chunk: reading a whole backlog would be the stretch avoided here)
  const count = s.stmt(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${table} WHERE account = ? AND ${where} LIMIT ${PURGE_CHUNK + 1})`)
  const chunk = `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE account = ? AND ${where} LIMIT ${PURGE_CHUNK})`
  let removed = 0
  for (;;) {
    const n = (count.get(...params) as {n: number}).n
    if (n === 0 || s.closed) return removed
    const [r] = s.writer ? await s.writer.write([[{sql: chunk, params: [...params]}]]) : writeHere(s, [[{sql: chunk, params: [...params]}]])
    if (!r!.ok) throw restore(r!.error)
    removed += Math.min(n, PURGE_CHUNK)
    if (n <= PURGE_CHUNK) return removed
  }
}

/** Deletes every row under an account number no account has (staged rows given up, an account's replaced rows), a part at a time, then the number. */
export async function purgeNumber(s: SqliteStore, n: number): Promise<void> {
  s.purging++
  try {
    for (const t of ACCOUNT_TABLES) await purge(s, t, '1', [n])
    if (s.closed) return
    await s.committer.write([{sql: 'DELETE FROM account_numbers WHERE n = ?', params: [n]}])
    s.idsByNumber.delete(n)
  } finally {
    s.purging--
  }
}
