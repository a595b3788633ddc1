// Timeline-job and webhook-delivery claims on PostgreSQL: rows locked with FOR UPDATE SKIP
// LOCKED and marked with a lease (claim_until, on the database's clock) that another instance
// may take over once it runs out (the claimer died). Accounts have their own clocks: jobs are
// claimed per account; deliveries across accounts, each due on its account's clock.
import {randomBytes} from 'node:crypto'
import type pg from 'pg'
import {type ClaimedDelivery, type ClaimedJob, STAGED_ACCOUNT_MARK} from '../../ports/store.js'
import {query, type Queryable, rows} from './sql.js'
import {shareSlots, type SlotShare} from '../slot-share.js'

/** advisory lock key under which claimers of deliveries take turns */
export const DELIVERY_CLAIM_LOCK = 7_263_102

const token = () => randomBytes(9).toString('base64url')

export async function claimJobs(on: Queryable, account: string, now: string, limit: number, leaseMs: number): Promise<ClaimedJob[]> {
  const claim = token()
  const got = await rows<{id: string; kind: string; ref: string; due_at: string; data: Record<string, unknown> | null; seq: number}>(
    on,
    `WITH c AS (
       SELECT id FROM jobs WHERE account = $1 AND due_at <= $2 AND (claim_until IS NULL OR claim_until <= clock_timestamp())
       ORDER BY due_at, seq LIMIT $3 FOR UPDATE SKIP LOCKED)
     UPDATE jobs j SET claim = $4, claim_until = clock_timestamp() + make_interval(secs => $5::double precision / 1000)
     FROM c WHERE j.account = $1 AND j.id = c.id
     RETURNING j.id, j.kind, j.ref, j.due_at, j.data, j.seq`,
    [account, now, limit, claim, leaseMs],
  )
  // earliest due first, ties in the order they were scheduled
  got.sort((x, y) => (x.due_at < y.due_at ? -1 : x.due_at > y.due_at ? 1 : x.seq - y.seq))
  return got.map((r) => ({id: r.id, kind: r.kind, ref: r.ref, due_at: r.due_at, claim, ...(r.data ? {data: r.data} : {})}))
}

export async function releaseJobs(on: Queryable, account: string, jobs: readonly ClaimedJob[]): Promise<void> {
  if (!jobs.length) return
  await query(on, 'UPDATE jobs SET claim = NULL, claim_until = NULL WHERE account = $1 AND (id, claim) IN (SELECT * FROM unnest($2::text[], $3::text[]))', [account, jobs.map((j) => j.id), jobs.map((j) => j.claim)])
}

/**
 * Each account's earliest due job: a loose index scan over (account, due_at) — one probe per
 * account with jobs, never the whole table (PostgreSQL has no skip scan of its own).
 */
export async function nextJobDue(on: Queryable, account: string, from: string, except = ''): Promise<string | undefined> {
  return (await rows<{due_at: string}>(on, 'SELECT due_at FROM jobs WHERE account = $1 AND due_at >= $2 AND id <> $3 ORDER BY due_at LIMIT 1', [account, from, except]))[0]?.due_at
}

/**
 * The fixed reads every instance runs every second or so, idle or not, are named: each connection
 * prepares one once, and a poll is an execution without a parse and plan (planning the recursive
 * scans took the database 0.6–1 ms each time).
 */
export function nextJobs(on: Queryable): Promise<{account: string; due_at: string}[]> {
  return named(
    on,
    'gw_next_jobs',
    `WITH RECURSIVE t AS (
       (SELECT account, due_at FROM jobs WHERE account < $1 ORDER BY account, due_at LIMIT 1)
       UNION ALL
       SELECT n.account, n.due_at FROM t CROSS JOIN LATERAL (SELECT account, due_at FROM jobs WHERE account > t.account AND account < $1 ORDER BY account, due_at LIMIT 1) n
     ) SELECT account, due_at FROM t`,
    [STAGED_ACCOUNT_MARK],
  )
}

/**
 * Every endpoint with a delivery due on its account's clock, and its earliest due: a loose index
 * scan over the partial index. Read before the claimers' lock (a round with nothing due is this
 * query alone); an endpoint that falls due after it is claimed by the next round.
 */
export async function dueEndpoints(on: Queryable, nowOf: (account: string) => string): Promise<{account: string; endpoint: string; due: string; now: string}[]> {
  const endpoints = await named<{account: string; endpoint: string; due: string}>(
    on,
    'gw_due_endpoints',
    `WITH RECURSIVE t AS (
       (SELECT account, endpoint, next_attempt_at AS due FROM deliveries WHERE next_attempt_at IS NOT NULL AND account < $1 ORDER BY account, endpoint, next_attempt_at LIMIT 1)
       UNION ALL
       SELECT n.* FROM t CROSS JOIN LATERAL (
         SELECT account, endpoint, next_attempt_at AS due FROM deliveries
         WHERE next_attempt_at IS NOT NULL AND (account, endpoint) > (t.account, t.endpoint) AND account < $1 ORDER BY account, endpoint, next_attempt_at LIMIT 1) n
     ) SELECT account, endpoint, due FROM t`,
    [STAGED_ACCOUNT_MARK],
  )
  return endpoints.map((e) => ({...e, now: nowOf(e.account)})).filter((e) => e.due <= e.now)
}

/** The claimers' turn, taken by the transaction that claims (with its BEGIN: one round trip). */
export const CLAIMERS_TURN = `BEGIN; SELECT pg_advisory_xact_lock(${DELIVERY_CLAIM_LOCK})`

/**
 * In a transaction of `c` begun with CLAIMERS_TURN (claimers take turns, so the per-endpoint cap
 * counts every instance's claims): claims the due endpoints' deliveries fairly per endpoint (see
 * Store.claimDeliveries).
 */
export async function claimDeliveries(
  c: pg.PoolClient,
  due: {account: string; endpoint: string; now: string}[],
  q: {limit: number; perEndpoint: number; leaseMs: number; share?: SlotShare},
): Promise<ClaimedDelivery[]> {
  const key = (account: string, endpoint: string) => `${account}\u0000${endpoint}`
  const held = new Map(
    (await rows<{account: string; endpoint: string; n: number}>(c, 'SELECT account, endpoint, count(*) AS n FROM deliveries WHERE claim_until > clock_timestamp() GROUP BY account, endpoint')).map((r) => [
      key(r.account, r.endpoint),
      r.n,
    ]),
  )
  const got = await rows<{account: string; id: string; endpoint: string; event: string}>(
    c,
    `SELECT x.account, x.id, x.endpoint, x.event FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS e(account, endpoint, now)
     CROSS JOIN LATERAL (
       SELECT d.account, d.id, d.endpoint, d.event FROM deliveries d
       WHERE d.account = e.account AND d.endpoint = e.endpoint AND d.next_attempt_at <= e.now AND (d.claim_until IS NULL OR d.claim_until <= clock_timestamp())
       ORDER BY d.next_attempt_at, d.seq LIMIT $4 FOR UPDATE SKIP LOCKED) x`,
    [due.map((e) => e.account), due.map((e) => e.endpoint), due.map((e) => e.now), q.perEndpoint],
  )
  const candidates = new Map<string, {account: string; id: string; endpoint: string; event: string}[]>()
  for (const r of got) {
    const k = key(r.account, r.endpoint)
    const free = q.perEndpoint - (held.get(k) ?? 0)
    const list = candidates.get(k) ?? []
    if (list.length < free) list.push(r)
    candidates.set(k, list)
  }
  // accounts first, then endpoints: one account's backlog cannot take every slot, nor one endpoint's
  const claim = token()
  const out: ClaimedDelivery[] = shareSlots(candidates.values(), q.limit, q.share).map((r) => ({...r, claim}))
  if (out.length)
    await query(
      c,
      'UPDATE deliveries SET claim = $1, claim_until = clock_timestamp() + make_interval(secs => $2::double precision / 1000) WHERE (account, id) IN (SELECT * FROM unnest($3::text[], $4::text[]))',
      [claim, q.leaseMs, out.map((d) => d.account), out.map((d) => d.id)],
    )
  return out
}

export async function releaseDeliveries(on: Queryable, ds: readonly ClaimedDelivery[]): Promise<void> {
  if (!ds.length) return
  await query(on, 'UPDATE deliveries SET claim = NULL, claim_until = NULL WHERE (account, id, claim) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))', [
    ds.map((d) => d.account),
    ds.map((d) => d.id),
    ds.map((d) => d.claim),
  ])
}

export function deliveryBacklog(on: Queryable): Promise<{account: string; endpoint: string; pending: number; oldest_due: string}[]> {
  return named(on, 'gw_delivery_backlog', 'SELECT account, endpoint, count(*) AS pending, min(next_attempt_at) AS oldest_due FROM deliveries WHERE next_attempt_at IS NOT NULL AND account < $1 GROUP BY account, endpoint ORDER BY account, endpoint', [STAGED_ACCOUNT_MARK])
}

/** A fixed read as a named statement (see nextJobs). */
function named<R extends pg.QueryResultRow>(on: Queryable, name: string, text: string, values: unknown[]): Promise<R[]> {
  return rows<R>(on, {name, text, values})
}
