// The change listeners of a store, the same in both adapters (each feed.ts emits to them).
import type {ChangeNotice} from '../ports/store.js'

/** Calls each listener with the notice, each failure to `failed` (Store.onListenerError). */
function notifyEach(listeners: Iterable<(n: ChangeNotice) => void>, n: ChangeNotice, failed: (e: unknown, account: string) => void): void {
  for (const l of listeners) {
    try {
      l(n)
    } catch (e) {
      failed(e, n.account)
    }
  }
}

/** The default of Store.onListenerError. */
const listenerErrorToStderr = (e: unknown, account: string): void => void process.stderr.write(`change listener of ${account} failed: ${(e as Error)?.stack ?? String(e)}\n`)

/** The listeners of one store (one instance): of every account's notices, and of one account's. */
export class Listeners {
  private readonly all = new Set<(n: ChangeNotice) => void>()
  private readonly byAccount = new Map<string, Set<(n: ChangeNotice) => void>>()

  onChange(fn: (n: ChangeNotice) => void): () => void {
    this.all.add(fn)
    return () => this.all.delete(fn)
  }

  onAccountChange(account: string, fn: (n: ChangeNotice) => void): () => void {
    let set = this.byAccount.get(account)
    if (!set) this.byAccount.set(account, (set = new Set()))
    set.add(fn)
    return () => {
      set.delete(fn)
      if (set.size === 0 && this.byAccount.get(account) === set) this.byAccount.delete(account)
    }
  }

  /** Where a listener's failure goes (Store.onListenerError). */
  failed: (e: unknown, account: string) => void = listenerErrorToStderr

  /** A notice for account '*' reaches every account's listeners. */
  emit(n: ChangeNotice): void {
    notifyEach(this.all, n, this.failed)
    if (n.account === '*') for (const set of this.byAccount.values()) notifyEach(set, n, this.failed)
    else notifyEach(this.byAccount.get(n.account) ?? [], n, this.failed)
  }
}
