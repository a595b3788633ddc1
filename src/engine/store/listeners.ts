// The change listeners of a store, the same in both adapters (each feed.ts emits to them).
import type {ChangeNotice, Hearing} from '../ports/store.js'
import {SHARED_KINDS} from '../ports/store.js'

type Listener = (n: ChangeNotice) => void

/** Calls each listener with the notice, each failure to `failed` (Store.onListenerError). */
function notifyEach(listeners: Iterable<Listener>, n: ChangeNotice, failed: (e: unknown, account: string) => void): void {
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

const SHARED: ReadonlySet<string> = new Set(SHARED_KINDS)

/** Whether a listener that hears only `'shared'` notices must hear this one (ports/store Hearing). */
export function isShared(n: Pick<ChangeNotice, 'account' | 'kinds' | 'settings' | 'dueBy' | 'purged' | 'restored'>): boolean {
  if (n.account === '*' || n.settings.length > 0 || n.dueBy !== null || n.purged || n.restored) return true
  for (const k of n.kinds) if (SHARED.has(k)) return true
  return false
}

/**
 * The listeners of one store (one instance): of every account's notices, and of one account's.
 * `onFollow` hears when the first listener that hears `'all'` comes and the last one goes (the
 * PostgreSQL feed listens for the other notices only in between).
 */
export class Listeners {
  private readonly all = new Set<Listener>()
  private readonly byAccount = new Map<string, Set<Listener>>()
  /** listeners that hear 'all' */
  private followers = 0

  constructor(private readonly onFollow: (following: boolean) => void = () => {}) {}

  private count(hearing: Hearing): () => void {
    if (hearing !== 'all') return () => {}
    if (this.followers++ === 0) this.onFollow(true)
    let gone = false
    return () => {
      if (gone) return
      gone = true
      if (--this.followers === 0) this.onFollow(false)
    }
  }

  onChange(fn: Listener, hearing: Hearing = 'all'): () => void {
    this.all.add(fn)
    const uncount = this.count(hearing)
    return () => {
      this.all.delete(fn)
      uncount()
    }
  }

  onAccountChange(account: string, fn: Listener, hearing: Hearing = 'all'): () => void {
    let set = this.byAccount.get(account)
    if (!set) this.byAccount.set(account, (set = new Set()))
    set.add(fn)
    const uncount = this.count(hearing)
    return () => {
      set.delete(fn)
      if (set.size === 0 && this.byAccount.get(account) === set) this.byAccount.delete(account)
      uncount()
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
