// One account's view of a SQLite store (Store.account): every operation bounded to the account,
// forwarded to the store (what both adapters' views forward: account-view.ts).
import type {AccountStore, ClaimedJob, EventQuery, FieldOf, Filter, Kind, ListQuery, StoredObject} from '../../ports/store.js'
import {AccountView} from '../account-view.js'
import type {SqliteStore} from './sqlite-store.js'

/** One account's data in a SQLite store: every operation bounded to the account. */
export class SqliteAccount extends AccountView<SqliteStore> implements AccountStore {
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
  earliest<K extends Kind>(kind: K, field: FieldOf<K>, filters?: Filter<K>[]) {
    return this.s.earliest(this.account, kind, field, filters)
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
  claimJobs(now: string, limit: number, leaseMs: number) {
    return this.s.claimJobs(this.account, now, limit, leaseMs)
  }
  releaseJobs(jobs: readonly ClaimedJob[]) {
    return this.s.releaseJobs(this.account, jobs)
  }
  nextJobDue(from: string, except?: string) {
    return this.s.nextJobDue(this.account, from, except)
  }
}
