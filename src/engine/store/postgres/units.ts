// Units of work of the PostgreSQL adapter (Store.transact): a unit takes one pooled connection
// at its first lock and opens a transaction on it; per-key locks are `pg_advisory_xact_lock`,
// and the unit's reads after that go over the same connection. Its idempotency claim is batched
// with the instance's others on a connection of their own (claim-batch.ts). Its change set is
// written by the committer (committer.ts); only when that is durable is the unit's transaction
// ended and its claim released.
import type pg from 'pg'
import type {ChangeSet, CommitOrder, FieldOf, Filter, IdempotencyClaim, Kind, ListQuery, StoredObject, StoreTx} from '../../ports/store.js'
import {runUnit, type Unit} from '../units.js'
import type {PostgresStore} from './postgres-store.js'
import * as reads from './reads.js'
import type {ClaimHold} from './claim-batch.js'
import {pgText, query, type Queryable, wrap} from './sql.js'

export function transact<T>(s: PostgresStore, account: string, fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T> {
  if (s.closed) return Promise.reject(new Error('store is closed'))
  return runUnit(s.committer, account, new PgUnit(s, account), fn, order)
}

/** One unit of work: reads on the read pool until it has a connection of its own, then on that. */
class PgUnit implements Unit {
  staged: ChangeSet | undefined = undefined
  private client: pg.PoolClient | undefined = undefined
  private opening: Promise<pg.PoolClient> | undefined = undefined
  private readonly held: (() => void)[] = []
  /** the unit's idempotency claims (claim-batch.ts), released when it ends */
  private readonly claims: ClaimHold[] = []
  private begun = false
  /** a statement of the unit's failed: its connection is ended, not given back open (unit-connections.ts) */
  private failed = false
  constructor(
    private readonly s: PostgresStore,
    private readonly account: string,
  ) {}
  /** 'BEGIN; ' before the first statement that needs the unit's transaction */
  private begin() {
    if (this.begun) return ''
    this.begun = true
    return 'BEGIN; '
  }
  /** the unit's connection, opened (with BEGIN) at its first lock */
  private conn() {
    return (this.opening ??= this.open())
  }
  private async open() {
    let c: pg.PoolClient
    try {
      c = await this.s.unitConnections.connect()
    } catch (e) {
      throw wrap(e)
    }
    this.s.checkedOut.add(c)
    this.client = c
    return c
  }
  private on(): Queryable {
    return this.client ?? this.s.readPool
  }
  get<T extends StoredObject>(kind: Kind, id: string) {
    return reads.get<T>(this.on(), this.account, kind, id)
  }
  list<T extends StoredObject, K extends Kind = Kind>(kind: K, q: ListQuery<K>) {
    return reads.list<T, K>(this.on(), this.account, kind, q)
  }
  all<T extends StoredObject, K extends Kind = Kind>(kind: K, filters?: Filter<K>[]) {
    return reads.all<T, K>(this.on(), this.account, kind, filters)
  }
  sum<K extends Kind>(kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}) {
    return reads.sum(this.on(), this.account, kind, q)
  }
  count<K extends Kind>(kind: K, filters?: Filter<K>[]) {
    return reads.count(this.on(), this.account, kind, filters)
  }
  earliest<K extends Kind>(kind: K, field: FieldOf<K>, filters?: Filter<K>[]) {
    return reads.earliest(this.on(), this.account, kind, field, filters)
  }
  async lock(key: string) {
    const c = await this.conn()
    // ids are unique per account, and other keys (settings, provider health) are the account's own: the lock is the account's.
    // Units of this instance queue for a key in the order they got their connections (which
    // is the order they asked for them), so the job runner's pipeline, which commits in due
    // order, never has a later job holding a key or the last connection an earlier one waits
    // for; only the head of that queue waits for the database's lock
    const k = `k:${pgText(this.account)}\n${pgText(key)}`
    // a previous unit's locks are not kept while this one waits for its turn here
    if (this.s.unitConnections.takeUnended(c)) await this.send(c, 'ROLLBACK')
    this.held.push(await this.s.localLocks.acquire(k))
    await this.send(c, `${this.begin()}SELECT pg_advisory_xact_lock(hashtextextended(${c.escapeLiteral(k)}, 0))`)
  }
  async claimIdempotency(scope: string, key: string, now: string): Promise<IdempotencyClaim> {
    // batched with the instance's other claims, on a connection of their own (claim-batch.ts)
    const {claim, held} = await this.s.claimBatch.claim(this.account, scope, key, now)
    if (held) this.claims.push(held)
    return claim
  }
  private async send(c: pg.PoolClient, text: string) {
    try {
      return await query(c, text)
    } catch (e) {
      this.failed = true
      throw e
    }
  }
  commit(cs: ChangeSet) {
    if (this.staged) throw new Error('a unit of work commits once')
    this.staged = cs
  }
  end(committed: boolean) {
    // ending the unit's transaction releases its locks and claims (it wrote nothing)
    if (this.opening) return this.close(this.opening, committed)
    return this.release(committed)
  }
  private async close(opening: Promise<pg.PoolClient>, committed: boolean) {
    const c = await opening.catch(() => undefined)
    if (c && this.s.checkedOut.delete(c)) {
      // given back open only to a unit waiting for a connection (unit-connections.ts)
      if (!(this.begun && !this.failed && this.s.unitConnections.giveBack(c))) await this.s.unitConnections.end(c)
    }
    await this.release(committed)
  }
  /** a promise while a claim without a record is being released (claim-batch.ts) */
  private release(committed = false): Promise<void> | undefined {
    const held = this.held
    for (let i = held.length - 1; i >= 0; i--) held[i]!()
    // a claim whose record is committed may wait for the next batch to be released
    const recorded = committed && this.staged?.idempotency !== undefined
    const unlocks = this.claims.splice(0).map((h) => this.s.claimBatch.release(h, recorded))
    return unlocks.some((u) => u) ? Promise.all(unlocks).then(() => {}) : undefined
  }
}
