// One account's view of a SQLite store (Store.account): every operation bounded to the account,
// forwarded to the store.
import type {AccountStore, ChangeNotice, ChangeSet, ClaimedJob, CommitOrder, EventQuery, Filter, Kind, ListQuery, StoredObject, StoreTx} from '../../ports/store.js'
import type {SqliteStore} from './sqlite-store.js'

/** One account's data in a SQLite store: every operation bounded to the account. */
export class SqliteAccount implements AccountStore {
  constructor(
    private readonly s: SqliteStore,
    readonly account: string,
  ) {}
  get<T extends StoredObject>(kind: Kind, id: string) {
    return this.s.get<T>(this.account, kind, id)
  }
  list<T extends StoredObject, K extends Kind = Kind>(kind: K, q: ListQuery<K>) {
    return this.s.list<T, K>(this.account, kind, q)
  }
  all<T extends StoredObject, K extends Kind = Kind>(kind: K, filters?: Filter<K>[]) {
    return this.s.all<T, K>(this.account, kind, filters)
  }
  sum<K extends Kind>(kind: K, q: {field: string; groupBy: string; filters?: Filter<K>[]}) {
    return this.s.sum(this.account, kind, q)
  }
  count<K extends Kind>(kind: K, filters?: Filter<K>[]) {
    return this.s.count(this.account, kind, filters)
  }
  transact<T>(fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder) {
    return this.s.transact(this.account, fn, order)
  }
  commit(cs: ChangeSet) {
    return this.s.commit(this.account, cs)
  }
  getEvent(id: string) {
    return this.s.getEvent(this.account, id)
  }
  listEvents(q: EventQuery) {
    return this.s.listEvents(this.account, q)
  }
  eventsAfter(afterSeq: number, limit: number) {
    return this.s.eventsAfter(this.account, afterSeq, limit)
  }
  purgeEvents(before: string) {
    return this.s.purgeEvents(this.account, before)
  }
  claimJobs(now: string, limit: number, leaseMs: number) {
    return this.s.claimJobs(this.account, now, limit, leaseMs)
  }
  releaseJobs(jobs: readonly ClaimedJob[]) {
    return this.s.releaseJobs(this.account, jobs)
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
  exclusive<T>(name: string, fn: () => Promise<T>, opts?: {wait?: boolean}) {
    return this.s.exclusive(`${this.account}:${name}`, fn, opts)
  }
  async exportRows() {
    return this.s.exportRows(this.account)
  }
  stageRows() {
    return this.s.stageRows(this.account)
  }
  onChange(fn: (n: ChangeNotice) => void) {
    return this.s.onAccountChange(this.account, fn)
  }
}
