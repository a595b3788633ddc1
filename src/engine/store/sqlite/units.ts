// Units of work of the SQLite adapter (Store.transact): per-key locks and idempotency claims in
// this process (one process owns the file), reads on the store's connection, and the unit's
// change set handed to the committer (committer.ts).
import type {CommitOrder, ChangeSet, FieldOf, Filter, IdempotencyClaim, IdempotencyRecord, Kind, ListQuery, StoredObject, StoreTx} from '../../ports/store.js'
import {runUnit, type Unit} from '../units.js'
import {unpack} from './codec.js'
import {idemKey} from './compile.js'
import * as reads from './reads.js'
import {dataObjectOf} from '../idempotency-body.js'
import type {SqliteStore} from './sqlite-store.js'

export function transact<T>(s: SqliteStore, account: string, fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T> {
  if (s.closed) return Promise.reject(new Error('store is closed'))
  return runUnit(s.committer, account, new SqliteUnit(s, account), fn, order)
}

/** One unit of work: its reads on the store's connection, its locks and claims in this process. */
class SqliteUnit implements Unit {
  staged: ChangeSet | undefined = undefined
  private readonly held: (() => void)[] = []
  constructor(
    private readonly s: SqliteStore,
    private readonly account: string,
  ) {}
  async get<T extends StoredObject>(kind: Kind, id: string) {
    return reads.get<T>(this.s, this.account, kind, id)
  }
  async list<T extends StoredObject, K extends Kind = Kind>(kind: K, q: ListQuery<K>) {
    return reads.list<T, K>(this.s, this.account, kind, q)
  }
  async all<T extends StoredObject, K extends Kind = Kind>(kind: K, filters?: Filter<K>[]) {
    return reads.all<T, K>(this.s, this.account, kind, filters)
  }
  async sum<K extends Kind>(kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}) {
    return reads.sum(this.s, this.account, kind, q)
  }
  async count<K extends Kind>(kind: K, filters?: Filter<K>[]) {
    return reads.count(this.s, this.account, kind, filters)
  }
  async earliest<K extends Kind>(kind: K, field: FieldOf<K>, filters?: Filter<K>[]) {
    return reads.earliest(this.s, this.account, kind, field, filters)
  }
  async lock(key: string) {
    // ids are unique across accounts; other keys (settings, provider health) are the account's own
    this.held.push(await this.s.locks.acquire(`${this.account}\u0000${key}`))
  }
  async claimIdempotency(scope: string, key: string, now: string, opts?: {defer?: boolean}) {
    return claimIdempotency(this.s, this.account, scope, key, now, this.held, opts?.defer === true)
  }
  commit(cs: ChangeSet) {
    if (this.staged) throw new Error('a unit of work commits once')
    this.staged = cs
  }
  end() {
    const held = this.held
    for (let i = held.length - 1; i >= 0; i--) held[i]!()
    return undefined
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
