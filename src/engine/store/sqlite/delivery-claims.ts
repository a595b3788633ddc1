import type {CandidateQueue} from '../slot-share.js'
import {LIMIT_PARAM} from './rows.js'

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
 * every endpoint before it), on every round.
 */
export const CLAIM_SQL = {
  nextInAccount:
    'SELECT account, endpoint, next_attempt_at AS due FROM deliveries WHERE account = ? AND endpoint > ? AND next_attempt_at IS NOT NULL ORDER BY account, endpoint, next_attempt_at LIMIT 1',
  nextAccount: 'SELECT account, endpoint, next_attempt_at AS due FROM deliveries WHERE account > ? AND next_attempt_at IS NOT NULL ORDER BY account, endpoint, next_attempt_at LIMIT 1',
  dueSeqs: 'SELECT seq FROM deliveries WHERE account = ? AND endpoint = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at ASC, seq ASC ' + LIMIT_PARAM,
  /** the due time of the last row read, to go on after it: */
  dueOf: 'SELECT next_attempt_at FROM deliveries WHERE seq = ?',
  /** the rows after it, those due at the same time with a later seq, then... */
  sameDueSeqs: 'SELECT seq FROM deliveries WHERE account = ? AND endpoint = ? AND next_attempt_at = ? AND seq > ? ORDER BY seq ASC ' + LIMIT_PARAM,
  /** ...those due later, up to now */
  laterSeqs: 'SELECT seq FROM deliveries WHERE account = ? AND endpoint = ? AND next_attempt_at > ? AND next_attempt_at <= ? ORDER BY next_attempt_at ASC, seq ASC ' + LIMIT_PARAM,
  bySeq: 'SELECT id, event FROM deliveries WHERE seq = ?',
} as const

/** A row one claim round may take: found on the index, read in full once it is claimed. */
export interface Candidate {
  account: string
  endpoint: string
  seq: number
}

type Seqs = (...params: unknown[]) => number[]

/**
 * One due endpoint's candidates in a claim round, read from the index as the sharing takes them
 * (store/slot-share.ts): first the rows claims hold (they stay due until their outcome is
 * written, and come first) plus `first`, then chunks twice as large after the last row read
 * (seeks on its due time and seq, so a commit in between neither repeats nor hides a row). A
 * round that claims 16 across twenty endpoints reads about 16 rows beyond the held ones, not
 * every endpoint's whole window.
 */
export class DueQueue implements CandidateQueue<Candidate> {
  private readonly got: Candidate[] = []
  private readonly seen = new Set<number>()
  private lastSeq = -1
  private chunk: number
  private done = false

  constructor(
    private readonly reads: {due: Seqs; dueOf: (seq: number) => string | undefined; sameDue: Seqs; later: Seqs},
    private readonly claims: DeliveryClaims,
    readonly account: string,
    private readonly endpoint: string,
    /** the account's number in the store */
    private readonly no: number,
    /** the account's clock */
    private readonly now: string,
    /** candidates at most (the endpoint's room, and what the round may claim) */
    private readonly most: number,
    /** claims held on the endpoint */
    private readonly held: number,
    /** candidates to read with the held rows at first */
    first: number,
  ) {
    this.chunk = Math.max(1, Math.min(first, most))
  }

  at(i: number): Candidate | undefined {
    while (i >= this.got.length && !this.done) this.more()
    return this.got[i]
  }

  private more(): void {
    const want = this.chunk
    let rows: number[]
    if (this.lastSeq < 0) rows = this.reads.due(this.no, this.endpoint, this.now, want + this.held)
    else {
      // (only the seq of each row is read: its due time only for the last one, when more are needed)
      const due = this.reads.dueOf(this.lastSeq)
      rows = due === undefined ? [] : this.reads.sameDue(this.no, this.endpoint, due, this.lastSeq, want)
      if (due !== undefined && rows.length < want) rows = rows.concat(this.reads.later(this.no, this.endpoint, due, this.now, want - rows.length))
    }
    if (rows.length < (this.lastSeq < 0 ? want + this.held : want)) this.done = true
    this.chunk = Math.min(want * 2, 64)
    for (const seq of rows) {
      this.lastSeq = seq
      // held by a claim, or read already (its due time moved later in between)
      if (this.claims.claimed(seq) || this.seen.has(seq)) continue
      this.seen.add(seq)
      this.got.push({account: this.account, endpoint: this.endpoint, seq})
      if (this.got.length === this.most) {
        this.done = true
        return
      }
    }
    if (rows.length === 0) this.done = true
  }
}

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
