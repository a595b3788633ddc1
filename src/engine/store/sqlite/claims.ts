// Job and delivery claims of the SQLite adapter. One process owns the file, so a claim is an
// entry in this process (a lease until a time), never a row: jobs in store.jobClaims, deliveries
// in the claim book of delivery-claims.ts (with the index seeks of a claim round, CLAIM_SQL).
import {randomBytes} from 'node:crypto'
import {type ClaimedDelivery, type ClaimedJob, STAGED_ACCOUNT_MARK} from '../../ports/store.js'
import {shareSlots, type SlotShare} from '../slot-share.js'
import {CLAIM_SQL, DueQueue} from './delivery-claims.js'
import {LIMIT_PARAM} from './rows.js'
import type {SqliteStore} from './sqlite-store.js'

export const token = () => randomBytes(9).toString('base64url')

/** The in-process key of an account's row (ids are unique per account, not across accounts). */
export const own = (account: string, id: string) => `${account}\u0000${id}`

/** A job claim held by this process. */
export interface JobClaim {
  claim: string
  until: number
  account: string
}

// ---------------------------------------------------------------- jobs

export function claimJobs(s: SqliteStore, account: string, now: string, limit: number, leaseMs: number): ClaimedJob[] {
  const t = Date.now()
  let mine = 0
  for (const [k, c] of s.jobClaims) {
    if (c.until <= t) s.jobClaims.delete(k)
    else if (c.account === account) mine++
  }
  const rows = s.stmt(`SELECT id, kind, ref, due_at, data FROM jobs WHERE account = ? AND due_at <= ? ORDER BY due_at ASC, rowid ASC ${LIMIT_PARAM}`).all(
    s.no(account),
    now,
    limit + mine,
  ) as {id: string; kind: string; ref: string; due_at: string; data: string | null}[]
  const out: ClaimedJob[] = []
  for (const r of rows) {
    if (out.length >= limit) break
    if (s.jobClaims.has(own(account, r.id))) continue
    const claim = token()
    s.jobClaims.set(own(account, r.id), {claim, until: t + leaseMs, account})
    out.push({id: r.id, kind: r.kind, ref: r.ref, due_at: r.due_at, claim, ...(r.data ? {data: JSON.parse(r.data) as Record<string, unknown>} : {})})
  }
  return out
}

export function releaseJobs(s: SqliteStore, account: string, jobs: readonly ClaimedJob[]): void {
  for (const j of jobs) if (s.jobClaims.get(own(account, j.id))?.claim === j.claim) s.jobClaims.delete(own(account, j.id))
}

export function nextJobDue(s: SqliteStore, account: string, from: string, except = ''): string | undefined {
  // the jobs_due index (account, due_at), from `from` on, to the first that is not `except`
  return (s.stmt('SELECT due_at FROM jobs WHERE account = ? AND due_at >= ? AND id <> ? ORDER BY due_at LIMIT 1').get(s.no(account), from, except) as {due_at: string} | undefined)?.due_at
}

export function nextJobs(s: SqliteStore): {account: string; due_at: string}[] {
  // one seek per account on (account, due_at): the first entry per account is its earliest due
  const next = s.stmt('SELECT account, due_at FROM jobs WHERE account > ? ORDER BY account, due_at LIMIT 1')
  const out: {account: string; due_at: string}[] = []
  for (let after = -1; ; ) {
    const row = next.get(after) as {account: number; due_at: string} | undefined
    if (!row) return out
    const account = s.idOf(row.account)
    if (!account.startsWith(STAGED_ACCOUNT_MARK)) out.push({account, due_at: row.due_at})
    after = row.account
  }
}

// ---------------------------------------------------------------- deliveries

export function claimDeliveries(s: SqliteStore, nowOf: (account: string) => string, q: {limit: number; perEndpoint: number; leaseMs: number; share?: SlotShare}): ClaimedDelivery[] {
  const t = Date.now()
  s.deliveryClaims.expire(t)
  // the endpoints with a delivery due on their account's clock: one seek per endpoint on
  // (account, endpoint, next_attempt_at), whose first entry per endpoint is its earliest due (a
  // loose index scan, never the backlog; see CLAIM_SQL)
  const nextInAccount = s.stmt(CLAIM_SQL.nextInAccount)
  const nextAccount = s.stmt(CLAIM_SQL.nextAccount)
  type Next = {endpoint: string; due: string; account: number}
  const found: Next[] = []
  s.reading(() => {
    for (let row = nextAccount.get(-1) as Next | undefined; row; row = (nextInAccount.get(row.account, row.endpoint) ?? nextAccount.get(row.account)) as Next | undefined) found.push(row)
  })
  // one clock reading per account (a staged account's rows are nobody's: never due), outside the read transaction
  const endpoints: {endpoint: string; account: string; no: number; now: string}[] = []
  let nowAccount = -1
  let now = ''
  let account = ''
  for (const row of found) {
    if (row.account !== nowAccount) {
      nowAccount = row.account
      account = s.idOf(row.account)
      now = account.startsWith(STAGED_ACCOUNT_MARK) ? '' : nowOf(account)
    }
    if (row.due <= now) endpoints.push({endpoint: row.endpoint, account, no: row.account, now})
  }
  if (endpoints.length === 0) return []
  // each due endpoint's earliest due rows that no claim holds, found on the index alone (their
  // seq; a claimed row stays due until its outcome is written, so up to `held` of them come
  // first), read as the sharing takes them; a row itself is read once it is claimed
  const seqs = (sql: string) => {
    const st = s.stmt(sql).pluck()
    return (...params: unknown[]) => st.all(...params) as number[]
  }
  const dueOf = s.stmt(CLAIM_SQL.dueOf).pluck()
  const reads = {due: seqs(CLAIM_SQL.dueSeqs), dueOf: (seq: number) => dueOf.get(seq) as string | undefined, sameDue: seqs(CLAIM_SQL.sameDueSeqs), later: seqs(CLAIM_SQL.laterSeqs)}
  const bySeq = s.stmt(CLAIM_SQL.bySeq)
  // no endpoint can get more than the round may claim (its free slots and the spare ones)
  const most = Math.max(0, q.limit) + Math.max(0, q.share?.spare ?? 0)
  // at first, each endpoint's share of the round's free slots (more are read if the others have fewer)
  const first = Math.ceil(Math.max(1, q.limit) / Math.max(1, endpoints.length))
  const candidates: DueQueue[] = []
  for (const e of endpoints) {
    const held = s.deliveryClaims.held(e.account, e.endpoint)
    const n = Math.min(most, Math.max(0, q.perEndpoint - held))
    if (n === 0) continue
    candidates.push(new DueQueue(reads, s.deliveryClaims, e.account, e.endpoint, e.no, e.now, n, held, first))
  }
  // accounts first, then endpoints: one account's backlog cannot take every slot, nor one endpoint's
  return s.reading(() =>
    shareSlots(candidates, q.limit, q.share).map((r) => {
      const {id, event} = bySeq.get(r.seq) as {id: string; event: string}
      const claim = token()
      s.deliveryClaims.take(r.account, id, {claim, endpoint: r.endpoint, seq: r.seq, until: t + q.leaseMs})
      return {account: r.account, id, endpoint: r.endpoint, event, claim}
    }),
  )
}

export function releaseDeliveries(s: SqliteStore, ds: readonly ClaimedDelivery[]): void {
  for (const d of ds) s.deliveryClaims.drop(d.account, d.id, d.claim)
}

export function deliveryBacklog(s: SqliteStore): {account: string; endpoint: string; pending: number; oldest_due: string}[] {
  // the pending deliveries only (the partial index on (account, endpoint, next_attempt_at))
  const rows = s
    .stmt(
      'SELECT account, endpoint, COUNT(*) AS pending, MIN(next_attempt_at) AS oldest_due FROM deliveries WHERE next_attempt_at IS NOT NULL GROUP BY account, endpoint ORDER BY account, endpoint',
    )
    .all() as {account: number; endpoint: string; pending: number; oldest_due: string}[]
  return rows.map((r) => ({...r, account: s.idOf(r.account)})).filter((r) => !r.account.startsWith(STAGED_ACCOUNT_MARK))
}
