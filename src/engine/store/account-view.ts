import type {AccountRows, AccountRowsPart, ChangeNotice, ChangeSet, CommitOrder, Hearing, StagedRows, StatIncrement, StoreTx} from '../ports/store.js'

// What both adapters' account views share (Store.account; sqlite/account.ts, postgres/account.ts):
// the operations they forward to their store with the account's id. Each adapter's view adds
// its reads and job claims.

/** The store-wide operations an account's view forwards, the account given. */
export interface AccountHost {
  transact<T>(account: string, fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder): Promise<T>
  commit(account: string, cs: ChangeSet): Promise<void>
  purgeEvents(account: string, before: string): Promise<number>
  purgeIdempotency(account: string, now: string): Promise<number>
  statsSince(account: string, day: string): Promise<StatIncrement[]>
  getSetting(account: string, key: string): Promise<string | undefined>
  addToSetting(account: string, key: string, delta: number): Promise<number>
  exportRows(account: string): AccountRows | Promise<AccountRows>
  exportParts(account: string, rows: number): AsyncGenerator<AccountRowsPart, void, undefined>
  stageRows(account: string): StagedRows
  exclusive<T>(name: string, fn: () => Promise<T>, opts?: {wait?: boolean}): Promise<{ran: true; value: T} | {ran: false}>
  onAccountChange(account: string, fn: (n: ChangeNotice) => void, hearing?: Hearing): () => void
  following(): Promise<void>
}

/** One account's view of a store: every operation bounded to the account. */
export abstract class AccountView<S extends AccountHost> {
  constructor(
    protected readonly s: S,
    readonly account: string,
  ) {}
  transact<T>(fn: (tx: StoreTx) => Promise<T>, order?: CommitOrder) {
    return this.s.transact(this.account, fn, order)
  }
  commit(cs: ChangeSet) {
    return this.s.commit(this.account, cs)
  }
  purgeEvents(before: string) {
    return this.s.purgeEvents(this.account, before)
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
  async exportRows() {
    return this.s.exportRows(this.account)
  }
  exportParts(rows: number) {
    return this.s.exportParts(this.account, rows)
  }
  stageRows() {
    return this.s.stageRows(this.account)
  }
  exclusive<T>(name: string, fn: () => Promise<T>, opts?: {wait?: boolean}) {
    return this.s.exclusive(`${this.account}:${name}`, fn, opts)
  }
  onChange(fn: (n: ChangeNotice) => void, hearing?: Hearing) {
    return this.s.onAccountChange(this.account, fn, hearing)
  }
  following() {
    return this.s.following()
  }
}
