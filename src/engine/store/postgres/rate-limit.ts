// Rate limits of the PostgreSQL adapter (Store.takeToken): a bucket is one row per scope (account
// and mode; a client address) in an UNLOGGED table, updated atomically, so every instance shares
// it; rows untouched for 10 minutes (full) are swept now and then.
import type {PostgresStore} from './postgres-store.js'
import {pgText, query, rows} from './sql.js'

export async function takeToken(s: PostgresStore, scope: string, rate: number, capacity: number): Promise<{retryAfter: number; remaining: number}> {
  if (rate <= 0) return {retryAfter: 0, remaining: capacity}
  // buckets untouched for minutes are full (every rate refills its bucket within seconds): swept now and then
  if (++s.tokensTaken % 4096 === 0) void query(s.readPool, "DELETE FROM rate_buckets WHERE at < clock_timestamp() - interval '10 minutes'").catch(() => {})
  // the bucket's level now: what it held plus the refill since, at most its capacity
  const level = `least($3::double precision, b.tokens + greatest(0, extract(epoch FROM clock_timestamp() - b.at)) * $2::double precision)`
  const r = (
    await rows<{tokens: number; ok: boolean}>(
      s.readPool,
      `INSERT INTO rate_buckets AS b (scope, tokens, at, ok) VALUES ($1, $3::double precision - 1, clock_timestamp(), true)
       ON CONFLICT (scope) DO UPDATE SET
         tokens = CASE WHEN ${level} >= 1 THEN ${level} - 1 ELSE ${level} END,
         ok = ${level} >= 1,
         at = clock_timestamp()
       RETURNING tokens, ok`,
      [pgText(scope), rate, capacity],
    )
  )[0]!
  if (r.ok) return {retryAfter: 0, remaining: Math.floor(r.tokens)}
  return {retryAfter: Math.max(1, Math.ceil((1 - r.tokens) / rate)), remaining: 0}
}
