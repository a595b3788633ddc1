// One account's view of a PostgreSQL store (Store.account): every operation bounded to the
// account; reads go to the read pool, the rest to the store (account-view.ts).
import type {AccountStore, ClaimedJob, EventQuery, FieldOf, Filter, Kind, ListQuery, StoredObject} from '../../ports/store.js'
import {AccountView} from '../account-view.js'
import * as claims from './claims.js'
import type {PostgresStore} from './postgres-store.js'
import * as reads from './reads.js'

/** One account's data in a PostgreSQL store: every operation bounded to the account. */
export class PgAccount extends AccountView<PostgresStore> implements AccountStore {
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
  earliest<K extends Kind>(kind: K, field: FieldOf<K>, filters?: Filter<K>[]) {
    return reads.earliest(this.s.reader, this.account, kind, field, filters)
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
  claimJobs(now: string, limit: number, leaseMs: number) {
    return claims.claimJobs(this.s.reader, this.account, now, limit, leaseMs)
  }
  releaseJobs(jobs: readonly ClaimedJob[]) {
    return claims.releaseJobs(this.s.reader, this.account, jobs)
  }
  nextJobDue(from: string, except?: string) {
    return claims.nextJobDue(this.s.reader, this.account, from, except)
  }
}
