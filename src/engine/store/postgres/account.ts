// One account's view of a PostgreSQL store (Store.account): every operation bounded to the
// account; reads go to the read pool, the rest to the store.
import type {AccountStore, ChangeNotice, ChangeSet, ClaimedJob, CommitOrder, EventQuery, Filter, Kind, ListQuery, StoredObject, StoreTx} from '../../ports/store.js'
import * as claims from './claims.js'
import type {PostgresStore} from './postgres-store.js'
import * as reads from './reads.js'

/** One account's data in a PostgreSQL store: every operation bounded to the account. */
export class PgAccount implements AccountStore {
  constructor(
    private readonly s: PostgresStore,
    readonly account: string,
  ) {}
  get<T extends StoredObject>(kind: Kind, id: string) {
    return reads.get<T>(this.s.reader, this.account, kind, id)
  }
  list<T extends StoredObject, K extends Kind = Kind>(kind: K, q: ListQuery<K>) {
    return reads.list<T, K>(this.s.reader, this.account, kind, q)
  }
  all<T extends StoredObject, K extends Kind = Kind>(kind: K, filters?: Filter<K>[]) {
    return reads.all<T, K>(this.s.reader, this.account, kind, filters)
  }
  sum<K extends Kind>(kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}) {
    return reads.sum(this.s.reader, this.account, kind, q)
  }
  count<K extends Kind>(kind: K, filters?: Filter<K>[]) {
    return reads.count(this.s.reader, this.account, kind, filters)
  }
  transact<T>(fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder) {
    return this.s.transact(this.account, fn, order)
  }
  commit(cs: ChangeSet) {
    return this.s.commit(this.account, cs)
  }
  getEvent(id: string) {
    return reads.getEvent(this.s.reader, this.account, id)
  }
  listEvents(q: EventQuery) {
    return reads.listEvents(this.s.reader, this.account, q)
  }
  eventsAfter(afterSeq: number, limit: number) {
    return reads.eventsAfter(this.s.reader, this.account, afterSeq, limit)
  }
  purgeEvents(before: string) {
    return this.s.purgeEvents(this.account, before)
  }
  claimJobs(now: string, limit: number, leaseMs: number) {
    return claims.claimJobs(this.s.reader, this.account, now, limit, leaseMs)
  }
  releaseJobs(jobs: readonly ClaimedJob[]) {
    return claims.releaseJobs(this.s.reader, this.account, jobs)
  }
  purgeIdempotency(now: string) {
    return this.s.purgeIdempotency(this.account, now)
  }
  statsSince(day: string) {
    return this.s.statsSince(this.account, day)
  }
  getSetting(key: string) {
    return this.s.getSetting(this.account, key)
  }
  addToSetting(key: string, deltaMs: number) {
    return this.s.addToSetting(this.account, key, deltaMs)
  }
  exportRows() {
    return this.s.exportRows(this.account)
  }
  stageRows() {
    return this.s.stageRows(this.account)
  }
  exclusive<T>(name: string, fn: () => Promise<T>, opts?: {wait?: boolean}) {
    return this.s.exclusive(`${this.account}:${name}`, fn, opts)
  }
  onChange(fn: (n: ChangeNotice) => void) {
    return this.s.onAccountChange(this.account, fn)
  }
}
