// Purges of the PostgreSQL adapter: expired events and idempotency records of an account.
// (Staged rows given up, and an account's replaced rows, are deleted by staging.ts.)
import type {PostgresStore} from './postgres-store.js'
import {query} from './sql.js'

export async function purgeEvents(s: PostgresStore, account: string, before: string): Promise<number> {
  return (await query(s.readPool, 'DELETE FROM events WHERE account = $1 AND created_at < $2', [account, before])).rowCount ?? 0
}

export async function purgeIdempotency(s: PostgresStore, account: string, now: string): Promise<number> {
  return (await query(s.readPool, 'DELETE FROM idempotency_keys WHERE account = $1 AND expires_at <= $2', [account, now])).rowCount ?? 0
}
