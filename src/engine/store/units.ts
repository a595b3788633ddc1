import type {ChangeSet, CommitOrder, StoreTx} from '../ports/store.js'

// What both adapters' units of work share (Store.transact; sqlite/units.ts, postgres/units.ts):
// the function run, its change set handed to the committer in commit order, and the unit ended
// (its locks, claims and connection released) once that is durable or the function failed.

/** An adapter's unit of work: the StoreTx its function is given, with what the unit holds. */
export interface Unit extends StoreTx {
  /** what the function passed to StoreTx.commit */
  readonly staged: ChangeSet | undefined
  /** releases what the unit holds (`committed`: its change set is durable); a promise only where there is something to wait for */
  end(committed: boolean): Promise<void> | undefined
}

/**
 * Runs `fn` in `unit`; its change set is queued on the committer after the order's earlier
 * units (synchronously, so units staged in order are written in that order), and the unit ends
 * once that is durable or `fn` has thrown.
 */
export async function runUnit<T>(committer: {enqueue(account: string, cs: ChangeSet): Promise<void>}, account: string, unit: Unit, fn: (tx: StoreTx) => Promise<T>, order: CommitOrder | undefined): Promise<T> {
  let durable: Promise<void> | undefined
  let committed = false
  try {
    const out = await fn(unit)
    if (order) await order.after
    if (unit.staged) durable = committer.enqueue(account, unit.staged)
    order?.staged()
    await durable
    committed = durable !== undefined
    return out
  } finally {
    if (order && !durable) order.staged()
    const ending = unit.end(committed)
    if (ending) await ending
  }
}
