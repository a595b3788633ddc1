// Rate limits of the SQLite adapter (Store.takeToken): token buckets in this process (one process
// owns the file), swept of the full ones now and then.

/** Rate-limit buckets kept before the full ones are swept (then twice as many as are left). */
const BUCKETS_SWEPT_AT = 4096

export class Buckets {
  /** tokens at `at`, full again at `full` (performance.now() ms) */
  private readonly buckets = new Map<string, {tokens: number; at: number; full: number}>()
  private sweepAt = BUCKETS_SWEPT_AT

  take(scope: string, rate: number, capacity: number): {retryAfter: number; remaining: number} {
    if (rate <= 0) return {retryAfter: 0, remaining: capacity}
    const now = performance.now()
    let b = this.buckets.get(scope)
    if (!b) {
      // (one per account and mode, and per client address that failed to authenticate: full ones are swept)
      if (this.buckets.size >= this.sweepAt) this.sweep(now)
      b = {tokens: capacity, at: now, full: now}
      this.buckets.set(scope, b)
    }
    b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * rate)
    b.at = now
    const taken = b.tokens >= 1
    if (taken) b.tokens -= 1
    b.full = now + ((capacity - b.tokens) / rate) * 1000
    if (taken) return {retryAfter: 0, remaining: Math.floor(b.tokens)}
    return {retryAfter: Math.max(1, Math.ceil((1 - b.tokens) / rate)), remaining: 0}
  }

  /** Forgets a deleted account's buckets. */
  dropAccount(account: string): void {
    for (const scope of this.buckets.keys()) if (scope.startsWith(`${account}:`)) this.buckets.delete(scope)
  }

  /** Forgets buckets that have refilled (a full bucket is what a new one is). */
  private sweep(now: number): void {
    for (const [scope, b] of this.buckets) if (b.full <= now) this.buckets.delete(scope)
    this.sweepAt = Math.max(BUCKETS_SWEPT_AT, this.buckets.size * 2)
  }
}
