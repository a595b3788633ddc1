// Migration 5 (docs/decisions.md#storage-per-payment): indexes on a reference made at about the same time lead with it, then the
// account; deliveries lose their status and account indexes. From a database as migration 4 left
// it, with two accounts' rows: each account still finds exactly its own, and the lookups seek on
// the reference and the account together (never another account's rows).
import {rmSync} from 'node:fs'
import pg from 'pg'
import {describe, expect, it} from 'vitest'
import {bootEngine, card} from '../../test-support/harness.js'
import {freshDatabase, sql} from '../../test-support/pg.js'
import {MIGRATIONS} from './schema.js'

/** migration 5's indexes as migration 2 made them */
const BEFORE = `DROP INDEX deliveries_event; DROP INDEX deliveries_endpoint; DROP INDEX ledger_entries_payment; DROP INDEX refunds_payment;
DROP INDEX disputes_payment; DROP INDEX checkout_sessions_payment; DROP INDEX events_subject;
CREATE INDEX deliveries_event ON deliveries (account, event, seq) WHERE event IS NOT NULL;
CREATE INDEX deliveries_endpoint ON deliveries (account, endpoint, seq) WHERE endpoint IS NOT NULL;
CREATE INDEX deliveries_status ON deliveries (account, status, seq) WHERE status IS NOT NULL;
CREATE INDEX deliveries_account ON deliveries (account, seq);
CREATE INDEX ledger_entries_payment ON ledger_entries (account, payment, seq) WHERE payment IS NOT NULL;
CREATE INDEX refunds_payment ON refunds (account, payment, seq) WHERE payment IS NOT NULL;
CREATE INDEX disputes_payment ON disputes (account, payment, seq) WHERE payment IS NOT NULL;
CREATE INDEX checkout_sessions_payment ON checkout_sessions (account, payment, seq) WHERE payment IS NOT NULL;
CREATE INDEX events_subject ON events (account, (COALESCE(payment, object_id)), seq);`

describe('PostgreSQL migration 5: index keys of rows stored before it', () => {
  it("re-keys the reference indexes; each account finds its own deliveries, refunds and events, seeking on the reference and the account", async () => {
    const url = await freshDatabase('indexkeys')
    const first = await bootEngine({storeUrl: url})
    const other = await first.account('other')
    const made: {payment: string; event: string}[] = []
    for (const who of [first, other]) {
      expect((await who.api('POST', '/webhook_endpoints', {url: 'https://127.0.0.1:9/hook', enabled_events: ['*']})).status).toBe(201)
      const p = await who.api('POST', '/payments', {amount: 1500, currency: 'EUR', payment_method: 'card', payment_method_data: card()})
      expect((await who.api('POST', '/refunds', {payment: p.body.id, amount: 500})).status).toBe(201)
      const events = (await who.api('GET', `/events?limit=100`)).body.data as {id: string; type: string}[]
      made.push({payment: p.body.id, event: events.find((e) => e.type === 'payment.succeeded')!.id})
    }
    await first.agent.close()
    await first.engine.close()
    await sql(url, BEFORE)
    await sql(url, 'DELETE FROM gw_schema_migrations WHERE version >= 5')

    const again = await bootEngine({storeUrl: url, dataDir: first.dataDir})
    try {
      expect((await sql(url, 'SELECT max(version) AS v FROM gw_schema_migrations'))[0].v).toBe(MIGRATIONS.length)
      const defs = Object.fromEntries((await sql<{indexname: string; indexdef: string}>(url, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()")).map((r) => [r.indexname, r.indexdef]))
      expect(defs.deliveries_status).toBeUndefined()
      expect(defs.deliveries_account).toBeUndefined()
      expect(defs.deliveries_event).toMatch(/\(event, account, seq\)/)
      expect(defs.refunds_payment).toMatch(/\(payment, account, seq\)/)
      const keys = [again.key, other.key]
      for (const [i, m] of made.entries()) {
        const who = again.as(keys[i]!)
        const refunds = (await who.api('GET', `/refunds?payment=${m.payment}`)).body.data as {payment: string}[]
        expect(refunds.map((r) => r.payment)).toEqual([m.payment])
        const deliveries = (await who.api('GET', `/events/${m.event}/deliveries`)).body.data as {event: string}[]
        expect(deliveries.map((d) => d.event)).toEqual([m.event])
        // the other account's payment is not this one's
        expect((await who.api('GET', `/refunds?payment=${made[1 - i]!.payment}`)).body.data).toEqual([])
      }
      // the plans, with sequential scans priced out (a small table would be scanned whole)
      const c = new pg.Client({connectionString: url})
      await c.connect()
      await c.query('SET enable_seqscan = off')
      await c.query('SET enable_bitmapscan = off')
      const explain = async (q: string, params: unknown[]) => (await c.query<{'QUERY PLAN': string}>(`EXPLAIN ${q}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n')
      expect(await explain('SELECT seq FROM deliveries WHERE account = $1 AND event = $2 ORDER BY seq DESC LIMIT 11', ['acct_x', 'evt_x'])).toMatch(/deliveries_event[\s\S]*Index Cond: \(\(event = [^)]+\) AND \(account = [^)]+\)\)/)
      expect(await explain('SELECT seq FROM deliveries WHERE account = $1 ORDER BY seq', ['acct_x'])).toMatch(/deliveries_endpoint[\s\S]*Index Cond: \(account = [^)]+\)/)
      expect(await explain('SELECT seq FROM ledger_entries WHERE account = $1 AND payment = $2 ORDER BY seq', ['acct_x', 'pay_x'])).toMatch(/ledger_entries_payment[\s\S]*Index Cond: \(\(payment = [^)]+\) AND \(account = [^)]+\)\)/)
      await c.end()
    } finally {
      await again.stop()
      rmSync(first.dataDir, {recursive: true, force: true})
    }
  })
})
