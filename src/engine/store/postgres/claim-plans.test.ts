// The batch claim's query is planned for the tables as they are, not as they were when the claims
// connection first ran it (docs/decisions.md#several-instances-on-postgresql): on a new database
// the tables start empty and grow, and the claims connection lives as long as the instance. A plan
// kept from the empty tables read every row of idempotency_keys and events at every claim (the
// claim took 13.6 ms after 48 s of load). Counted by PostgreSQL's own statistics: once the tables
// hold rows, claims read them through their indexes, never by a sequential scan.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {iso, T0} from '../contract/helpers.js'
import {freshDatabase, sql} from '../../test-support/pg.js'
import {sleep} from '../../test-support/wait.js'
import {PostgresStore} from './postgres-store.js'

const ACCOUNT = 'acct_plans'
let url: string
let s: PostgresStore
beforeAll(async () => {
  url = await freshDatabase('plans')
  s = await PostgresStore.open({url, unitConnections: 2, readConnections: 1})
  // no ANALYZE during the test: it would make every connection plan its queries again
  await sql(url, 'ALTER TABLE idempotency_keys SET (autovacuum_enabled = off); ALTER TABLE events SET (autovacuum_enabled = off)')
})
afterAll(async () => s?.close())

/** a unit that claims `key` and ends without a record: one batch of its own when run alone */
const claim = (key: string) => s.account(ACCOUNT).transact(async (tx) => tx.claimIdempotency('acct:test', key, iso(T0)))
const scans = async () =>
  Object.fromEntries(
    (await sql<{relname: string; seq: string; idx: string}>(url, "SELECT relname, seq_scan::text AS seq, coalesce(idx_scan, 0)::text AS idx FROM pg_stat_user_tables WHERE relname IN ('idempotency_keys', 'events')")).map((r) => [
      r.relname,
      {seq: Number(r.seq), idx: Number(r.idx)},
    ]),
  )

describe('the batch claim on tables that grew after the claims connection first ran it', () => {
  it('reads the idempotency records and events through their indexes, not by reading every row', async () => {
    // the claims connection's first calls, on empty tables (PL/pgSQL keeps a generic plan after five)
    for (let i = 0; i < 10; i++) expect((await claim(`empty-${i}`)).state).toBe('claimed')
    // the tables grow, as a new database's do in its first minutes
    await sql(
      url,
      `INSERT INTO idempotency_keys (account, scope, key, request_hash, status, body, created_at, expires_at)
         SELECT '${ACCOUNT}', 'acct:test', 'grown-' || g, 'h', 201, '{}', now(), timestamptz '2031-01-01' FROM generate_series(1, 20000) g;
       INSERT INTO events (seq, id, type, created_at, json, account)
         SELECT g, 'evt_grown_' || g, 'payment.succeeded', now(), '{}', '${ACCOUNT}' FROM generate_series(1, 20000) g`,
    )
    // a backend reports its counts at the end of a transaction a second after its last report: one
    // claim after a second makes the claims connection report what came before it
    await sleep(1100)
    await claim('flush-before')
    await sleep(1100)
    const before = await scans()
    const keys = ['grown-7', 'grown-19999', 'fresh-1', 'fresh-2', 'grown-123', 'fresh-3']
    for (const key of keys) expect((await claim(key)).state).toBe(key.startsWith('grown') ? 'recorded' : 'claimed')
    await sleep(1100)
    await claim('flush-after')
    const after = await scans()
    // every claim looked its key up (the report came), and none read a table whole
    expect(after.idempotency_keys!.idx - before.idempotency_keys!.idx).toBeGreaterThanOrEqual(keys.length)
    expect({idempotency_keys: after.idempotency_keys!.seq - before.idempotency_keys!.seq, events: after.events!.seq - before.events!.seq}).toEqual({idempotency_keys: 0, events: 0})
  })
})
