// The fleet's request log on PostgreSQL (docs/decisions.md#the-fleet): every instance appends its entries in
// batches to one table, so `gw logs tail` through a load balancer shows the requests of every
// instance; others learn of an append by the change feed (LOG_CHANNEL, listened to only while
// someone here follows the log). Bounded by trimming each account's
// (and failed authentications') entries to the newest few.
import type {RequestLogStore, StoredRequestLog} from '../../ports/store.js'
import {LOG_CHANNEL} from './feed.js'
import {pgText, query, type Queryable, rows} from './sql.js'

export class PgRequestLog implements RequestLogStore {
  private readonly listeners = new Set<(seq: number) => void>()

  constructor(
    private readonly pool: Queryable,
    private readonly instanceId: string,
    /** the change feed listens to other instances' appends (or no longer) */
    private readonly want: (yes: boolean) => void = () => {},
    private readonly feedFollowing: () => Promise<void> = () => Promise.resolve(),
  ) {}

  async append(entries: readonly {account: string | null; entry: string; created_at: string}[]): Promise<void> {
    if (!entries.length) return
    // one statement: the rows (each entry's JSON read once, for the column and its id) and the
    // notice to the other instances, sent when it commits
    const got = await rows<{seq: number}>(
      this.pool,
      `WITH t AS MATERIALIZED (SELECT a, e::json AS j, c FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS t(a, e, c)),
       i AS (INSERT INTO request_logs (account, id, entry, created_at) SELECT a, j ->> 'id', j, c FROM t RETURNING seq),
       m AS (SELECT max(seq) AS seq FROM i)
       SELECT seq, pg_notify($4, $5 || seq || '}') FROM m`,
      [entries.map((e) => (e.account === null ? null : pgText(e.account))), entries.map((e) => e.entry), entries.map((e) => e.created_at), LOG_CHANNEL, `{"o":${JSON.stringify(this.instanceId)},"r":`],
    )
    this.appended(got[0]!.seq)
  }

  /** Entries appended up to `seq` (by this instance, or another: the change feed). */
  appended(seq: number): void {
    for (const l of this.listeners) l(seq)
  }

  onAppend(fn: (seq: number) => void): () => void {
    if (this.listeners.size === 0) this.want(true)
    this.listeners.add(fn)
    return () => {
      if (this.listeners.delete(fn) && this.listeners.size === 0) this.want(false)
    }
  }

  following(): Promise<void> {
    return this.feedFollowing()
  }

  async recent(account: string, withUnauthenticated: boolean, limit: number): Promise<StoredRequestLog[]> {
    const mine = await rows<StoredRequestLog & {entry: unknown}>(this.pool, 'SELECT seq, account, entry::text AS entry FROM request_logs WHERE account = $1 ORDER BY seq DESC LIMIT $2', [pgText(account), limit])
    if (!withUnauthenticated) return mine
    const nobody = await rows<StoredRequestLog>(this.pool, 'SELECT seq, account, entry::text AS entry FROM request_logs WHERE account IS NULL ORDER BY seq DESC LIMIT $1', [limit])
    return [...mine, ...nobody].sort((x, y) => y.seq - x.seq).slice(0, limit)
  }

  after(seq: number, limit: number): Promise<StoredRequestLog[]> {
    return rows<StoredRequestLog>(this.pool, 'SELECT seq, account, entry::text AS entry FROM request_logs WHERE seq > $1 ORDER BY seq ASC LIMIT $2', [seq, limit])
  }

  async last(): Promise<number> {
    return (await rows<{seq: number | null}>(this.pool, 'SELECT max(seq) AS seq FROM request_logs'))[0]!.seq ?? 0
  }

  async trim(keep: number): Promise<void> {
    // each account's (and the failed authentications') entries older than its newest `keep`
    await query(
      this.pool,
      `DELETE FROM request_logs r USING (
         SELECT a.account, (SELECT x.seq FROM request_logs x WHERE x.account IS NOT DISTINCT FROM a.account ORDER BY x.seq DESC OFFSET $1 LIMIT 1) AS cut
         FROM (SELECT DISTINCT account FROM request_logs) a) c
       WHERE r.account IS NOT DISTINCT FROM c.account AND c.cut IS NOT NULL AND r.seq <= c.cut`,
      [keep],
    )
  }
}
