// Units of work of the PostgreSQL adapter (Store.transact): a unit takes one pooled connection
// at its first lock or idempotency claim and opens a transaction on it; per-key locks are
// `pg_advisory_xact_lock`, the idempotency claim `pg_try_advisory_xact_lock`, and the unit's
// reads after that go over the same connection. Its change set is written by the committer
// (committer.ts); only when that is durable is the unit's transaction ended, which releases its
// locks and claims.
import type pg from 'pg'
import type {ChangeSet, CommitOrder, IdempotencyClaim, StoreTx} from '../../ports/store.js'
import type {PostgresStore} from './postgres-store.js'
import * as reads from './reads.js'
import {pgText, query, type Queryable, wrap} from './sql.js'

export async function transact<T>(s: PostgresStore, account: string, fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T> {
  if (s.closed) throw new Error('store is closed')
  let client: pg.PoolClient | undefined
  let opening: Promise<pg.PoolClient> | undefined
  let staged: ChangeSet | undefined
  const held: (() => void)[] = []
  let begun = false
  /** 'BEGIN; ' before the first statement that needs the unit's transaction */
  const begin = () => (begun ? '' : ((begun = true), 'BEGIN; '))
  // the unit's connection, opened (with BEGIN) at its first lock or claim
  const conn = () =>
    (opening ??= (async () => {
      let c: pg.PoolClient
      try {
        c = await s.unitConnect()
      } catch (e) {
        throw wrap(e)
      }
      s.checkedOut.add(c)
      client = c
      return c
    })())
  const on = (): Queryable => client ?? s.readPool
  const tx: StoreTx = {
    get: (kind, id) => reads.get(on(), account, kind, id),
    list: (kind, q) => reads.list(on(), account, kind, q),
    all: (kind, filters) => reads.all(on(), account, kind, filters),
    sum: (kind, q) => reads.sum(on(), account, kind, q),
    count: (kind, filters) => reads.count(on(), account, kind, filters),
    async lock(key) {
      const c = await conn()
      // ids are unique per account, and other keys (settings, provider health) are the account's own: the lock is the account's.
      // Units of this instance queue for a key in the order they got their connections (which
      // is the order they asked for them), so the job runner's pipeline, which commits in due
      // order, never has a later job holding a key or the last connection an earlier one waits
      // for; only the head of that queue waits for the database's lock
      const k = `k:${pgText(account)}\n${pgText(key)}`
      held.push(await s.localLocks.acquire(k))
      await query(c, `${begin()}SELECT pg_advisory_xact_lock(hashtextextended(${c.escapeLiteral(k)}, 0))`)
    },
    async claimIdempotency(scope, key, now) {
      const c = await conn()
      // one round trip: the transaction, the claim (a try-lock) and the record read after it
      const res = await query(c, `${begin()}SELECT * FROM gw_claim_idempotency(${c.escapeLiteral(pgText(account))}, ${c.escapeLiteral(pgText(scope))}, ${c.escapeLiteral(pgText(key))})`)
      const r = (Array.isArray(res) ? res[res.length - 1]! : res).rows[0] as {got: boolean; request_hash: string | null; status: number; body: string; created_at: string; expires_at: string}
      if (r.request_hash !== null && r.expires_at > now)
        return {state: 'recorded', record: {scope, key, request_hash: r.request_hash, status: r.status, body: r.body, created_at: r.created_at, expires_at: r.expires_at}}
      return r.got ? {state: 'claimed'} : ({state: 'in_flight'} as IdempotencyClaim)
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
    // ending the unit's transaction releases its locks and claims (it wrote nothing)
    if (opening) {
      const c = await opening.catch(() => undefined)
      if (c && s.checkedOut.delete(c)) {
        let broken: Error | undefined
        await c.query('ROLLBACK').catch((e: Error) => (broken = e))
        c.release(broken)
      }
    }
    for (let i = held.length - 1; i >= 0; i--) held[i]!()
  }
}
