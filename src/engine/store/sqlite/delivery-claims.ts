/**
 * The webhook-delivery claims a SQLite store's process holds (one process owns the file): by
 * account and id (ids are unique per account), with what a claim round asks of them kept
 * current as claims come and go — how many each endpoint holds, and which rows (by seq) are
 * claimed — instead of counted again from every claim on every round (a round runs after
 * nearly every commit under load).
 */
interface Claim {
  claim: string
  account: string
  endpoint: string
  seq: number
  /** real time (ms) when the lease runs out and the delivery may be claimed again */
  until: number
}

const key = (account: string, id: string) => `${account}\u0000${id}`

/**
 * What a claim round asks SQLite, each a seek on a range of the leading columns of an index
 * (claim-plans.test.ts holds them to that): on deliveries_due (account, endpoint,
 * next_attempt_at), the first entry after an endpoint of the same account, else of the next
 * account, gives each endpoint's earliest due; an endpoint's due rows come from the index alone.
 * Never a row value such as `(account, endpoint) > (?, ?)`: SQLite seeks it on its first column
 * and steps through every entry of the account up to the endpoint (every retrying delivery of
 * every endpoint before it), on every round (issue 34).
 */
export const CLAIM_SQL = {
  nextInAccount:
    'SELECT account, endpoint, next_attempt_at AS due FROM deliveries WHERE account = ? AND endpoint > ? AND next_attempt_at IS NOT NULL ORDER BY account, endpoint, next_attempt_at LIMIT 1',
  nextAccount: 'SELECT account, endpoint, next_attempt_at AS due FROM deliveries WHERE account > ? AND next_attempt_at IS NOT NULL ORDER BY account, endpoint, next_attempt_at LIMIT 1',
  dueSeqs: 'SELECT seq FROM deliveries WHERE account = ? AND endpoint = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at ASC, seq ASC LIMIT ?',
  bySeq: 'SELECT id, event FROM deliveries WHERE seq = ?',
} as const

export class DeliveryClaims {
  private readonly byKey = new Map<string, Claim>()
  private readonly seqs = new Set<number>()
  private readonly perEndpoint = new Map<string, number>()
  /** the earliest lease end among the claims held: no claim runs out before it */
  private nextExpiry = Infinity

  get size(): number {
    return this.byKey.size
  }

  /** Claims held on an endpoint of an account. */
  held(account: string, endpoint: string): number {
    return this.perEndpoint.get(key(account, endpoint)) ?? 0
  }

  /** Whether the delivery stored at `seq` is claimed. */
  claimed(seq: number): boolean {
    return this.seqs.has(seq)
  }

  take(account: string, id: string, c: {claim: string; endpoint: string; seq: number; until: number}): void {
    const k = key(account, id)
    if (this.byKey.has(k)) this.drop(account, id)
    this.byKey.set(k, {...c, account})
    this.seqs.add(c.seq)
    const e = key(account, c.endpoint)
    this.perEndpoint.set(e, (this.perEndpoint.get(e) ?? 0) + 1)
    if (c.until < this.nextExpiry) this.nextExpiry = c.until
  }

  /** Ends a delivery's claim (its outcome was written); with `claim`, only if that claim still holds it. */
  drop(account: string, id: string, claim?: string): void {
    const k = key(account, id)
    const c = this.byKey.get(k)
    if (!c || (claim !== undefined && c.claim !== claim)) return
    this.forget(k, c)
  }

  /** Ends every claim of an account (its data was deleted). */
  dropAccount(account: string): void {
    for (const [k, c] of this.byKey) if (c.account === account) this.forget(k, c)
  }

  /** Ends the claims whose lease ran out by `now` (real time, ms): a look at each claim only once one has. */
  expire(now: number): void {
    if (now < this.nextExpiry) return
    this.nextExpiry = Infinity
    for (const [k, c] of this.byKey) {
      if (c.until <= now) this.forget(k, c)
      else if (c.until < this.nextExpiry) this.nextExpiry = c.until
    }
  }

  private forget(k: string, c: Claim): void {
    this.byKey.delete(k)
    this.seqs.delete(c.seq)
    const e = key(c.account, c.endpoint)
    const left = (this.perEndpoint.get(e) ?? 1) - 1
    if (left > 0) this.perEndpoint.set(e, left)
    else this.perEndpoint.delete(e)
  }
}
