// Units of work of the SQLite adapter (Store.transact): per-key locks and idempotency claims in
// this process (one process owns the file), reads on the store's connection, and the unit's
// change set handed to the committer (committer.ts).
import type {CommitOrder, ChangeSet, IdempotencyClaim, IdempotencyRecord, StoreTx} from '../../ports/store.js'
import {unpack} from './codec.js'
import {idemKey} from './compile.js'
import * as reads from './reads.js'
import {dataObjectOf} from './rows.js'
import type {SqliteStore} from './sqlite-store.js'

export async function transact<T>(s: SqliteStore, account: string, fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T> {
  if (s.closed) throw new Error('store is closed')
  const held: (() => void)[] = []
  let staged: ChangeSet | undefined
  const tx: StoreTx = {
    get: async (kind, id) => reads.get(s, account, kind, id),
    list: async (kind, q) => reads.list(s, account, kind, q),
    all: async (kind, filters) => reads.all(s, account, kind, filters),
    sum: async (kind, q) => reads.sum(s, account, kind, q),
    count: async (kind, filters) => reads.count(s, account, kind, filters),
    async lock(key) {
      // ids are unique across accounts; other keys (settings, provider health) are the account's own
      held.push(await s.locks.acquire(`${account}\u0000${key}`))
    },
    async claimIdempotency(scope, key, now, opts) {
      return claimIdempotency(s, account, scope, key, now, held, opts?.defer === true)
    },
    commit(cs) {
      if (staged) throw new Error('a unit of work commits once')
      staged = cs
    },
  }
  let durable: Promise<void> | undefined
  try {
    const out = await fn(tx)
    if (order) await order.after
    // queued synchronously here, so units staged in order are written in that order
    if (staged) durable = s.committer.enqueue(account, staged)
    order?.staged()
    await durable
    return out
  } finally {
    if (order && !durable) order.staged()
    for (let i = held.length - 1; i >= 0; i--) held[i]!()
  }
}

/**
 * A deferred claim reads nothing: this process is the only writer of the file, so the commit of
 * the unit's record can tell whether a live one is there (an INSERT that may not replace a
 * live record; see compile). Only a key whose commit found one, or a unit that ends without a
 * record, reads it.
 */
function claimIdempotency(s: SqliteStore, account: string, scope: string, key: string, now: string, held: (() => void)[], defer: boolean): IdempotencyClaim {
  const k = idemKey(account, scope, key)
  if (s.idemInFlight.has(k)) return {state: 'in_flight'}
  const recheck = s.idemRecheck.delete(k)
  if (defer && !recheck) {
    s.idemInFlight.set(k, true)
    held.push(() => s.idemInFlight.delete(k))
    return {state: 'claimed', deferred: {lookup: async () => liveIdempotency(s, account, scope, key, now)}}
  }
  const record = liveIdempotency(s, account, scope, key, now)
  if (record) return {state: 'recorded', record}
  s.idemInFlight.set(k, false)
  held.push(() => s.idemInFlight.delete(k))
  return {state: 'claimed'}
}

function liveIdempotency(s: SqliteStore, account: string, scope: string, key: string, now: string): IdempotencyRecord | undefined {
  const record = s
    .stmt(
      'SELECT i.scope, i.key, i.request_hash, i.status, i.body, i.created_at, i.expires_at, e.json AS event_json FROM idempotency_keys i LEFT JOIN events e ON e.account = i.account AND e.id = i.body_event WHERE i.account = ? AND i.scope = ? AND i.key = ?',
    )
    .get(s.no(account), scope, key) as (Omit<IdempotencyRecord, 'body'> & {body: string | Buffer; event_json: string | Buffer | null}) | undefined
  if (!record || record.expires_at <= now) return undefined
  const {event_json, body, ...r} = record
  return {...r, body: event_json !== null ? dataObjectOf(unpack(event_json)) : unpack(body)}
}
