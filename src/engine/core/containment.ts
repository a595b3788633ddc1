// Failures contained to the request or account they belong to (docs/decisions.md#failures-are-contained): no value in the store
// can stop the process or another account's work. Code that runs for one request or one account
// in the background (the request log's record, a timeline job, housekeeping, a webhook attempt,
// the change feed's listeners, the clock's reading of a setting) catches what it throws and
// reports it here: the failure is counted (gw_contained_errors_total{where}) and logged once per
// account and place, not every second while the same bad value keeps failing — again at most
// once an hour, with how many were left out meanwhile.

/** Where a contained failure happened: the label of gw_contained_errors_total. */
export type ContainedWhere =
  | 'request_log'
  | 'timeline_job'
  | 'job_runner'
  | 'housekeeping'
  | 'webhook_delivery'
  | 'webhook_claim'
  | 'change_feed'
  | 'clock'
  | 'setting'

import {StoreUnavailableError} from '../ports/store.js'

/** While the store is unreachable, how often it is asked whether it is back (for the one line saying so). */
const OUTAGE_PROBE_MS = 1000

/** A place is logged again after this long, with the number of its failures left out meanwhile. */
export const CONTAINED_REPEAT_MS = 3_600_000
/** Places remembered at most (the oldest is forgotten first): a bound on memory whatever the store holds. */
const MAX_PLACES = 10_000

export class Containment {
  private readonly seen = new Map<string, {loggedAt: number; left: number}>()
  /** since when the store is unreachable (undefined: it answers) */
  private downSince: number | undefined

  constructor(
    private readonly log: (line: string) => void,
    /** counts every failure (metrics) */
    private readonly counted: (where: ContainedWhere) => void = () => {},
    private readonly repeatMs = CONTAINED_REPEAT_MS,
    /** a read of the store: resolves once it answers again (after an outage) */
    private readonly probe?: () => Promise<unknown>,
    private readonly probeMs = OUTAGE_PROBE_MS,
  ) {}

  /**
   * The store unreachable (the database stopped): one line when it goes, one when it is
   * back (asked every second meanwhile), instead of a line per place that fails while it lasts.
   */
  private outage(e: StoreUnavailableError): void {
    if (this.downSince !== undefined) return
    this.downSince = Date.now()
    this.log(`store unreachable: ${e.message}; requests that need it are answered 503 and background work waits until it is back`)
    if (!this.probe) return
    const ask = () => {
      const timer = setTimeout(() => {
        this.probe!().then(
          () => {
            this.log(`store back after ${Math.round((Date.now() - this.downSince!) / 1000)} s`)
            this.downSince = undefined
          },
          // still down: ask again; anything else (the store closed, the instance stopping): stop asking
          (err) => void (err instanceof StoreUnavailableError ? ask() : (this.downSince = undefined)),
        )
      }, this.probeMs)
      timer.unref()
    }
    ask()
  }

  /** A failure contained to `account` (null: no account, e.g. a request that failed authentication); `what` says what failed, for the log. */
  report(where: ContainedWhere, account: string | null, e: unknown, what = ''): void {
    try {
      this.counted(where)
    } catch {
      // a metric that cannot count does not turn a contained failure into another one
    }
    if (e instanceof StoreUnavailableError) return this.outage(e)
    const key = `${account ?? '-'}\u0000${where}`
    const now = Date.now()
    const s = this.seen.get(key)
    if (s && now - s.loggedAt < this.repeatMs) {
      s.left++
      return
    }
    this.seen.delete(key)
    if (this.seen.size >= MAX_PLACES) this.seen.delete(this.seen.keys().next().value!)
    this.seen.set(key, {loggedAt: now, left: 0})
    const detail = e instanceof Error ? (e.stack ?? e.message) : String(e)
    const since = s?.left ? ` (${s.left} more since the last line)` : ''
    this.log(`contained (${where}, account ${account ?? 'none'})${what ? ` ${what}` : ''}: ${detail}${since}; logged once an hour at most while it lasts`)
  }
}
