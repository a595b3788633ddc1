// What a delivery claim round costs does not grow with the backlog (docs/decisions.md#background-work-under-load): each of its
// queries is a seek on a range of an index's leading columns. A row value such as
// `(account, endpoint) > (?, ?)` read as a SEARCH too, yet SQLite seeked it on the account
// alone and stepped through every retrying delivery of the account on every round, so the plan
// is held to the constraints it may use, and a claim is checked to find every endpoint behind
// another's backlog.
import {join} from 'node:path'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {propertyRuns} from '../../test-support/property-runs.js'
import {tempDirs} from '../../test-support/tmp.js'
import {CLAIM_SQL} from './delivery-claims.js'
import {SqliteStore} from './sqlite-store.js'

const dir = tempDirs('gw-claim-plans-')
const T0 = Date.parse('2030-01-01T00:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()
let n = 0
const delivery = (endpoint: string, due: number) => ({
  kind: 'delivery' as const,
  obj: {id: `whd_${String(++n).padStart(8, '0')}`, object: 'webhook_delivery', event: `evt_${n}`, endpoint, status: 'failed_retrying', next_attempt_at: iso(due), created_at: iso(T0)},
})

/** The constraints each query may seek with: equality or range on the index's leading columns, never a row value. */
const EXPECTED: Record<keyof typeof CLAIM_SQL, RegExp> = {
  nextInAccount: /^SEARCH deliveries USING COVERING INDEX deliveries_due \(account=\? AND endpoint>\?\)$/,
  nextAccount: /^SEARCH deliveries USING COVERING INDEX deliveries_due \(account>\?\)$/,
  dueSeqs: /^SEARCH deliveries USING COVERING INDEX deliveries_due \(account=\? AND endpoint=\? AND next_attempt_at>\? AND next_attempt_at<\?\)$/,
  sameDueSeqs: /^SEARCH deliveries USING COVERING INDEX deliveries_due \(account=\? AND endpoint=\? AND next_attempt_at=\? AND rowid>\?\)$/,
  laterSeqs: /^SEARCH deliveries USING COVERING INDEX deliveries_due \(account=\? AND endpoint=\? AND next_attempt_at>\? AND next_attempt_at<\?\)$/,
  dueOf: /^SEARCH deliveries USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
  bySeq: /^SEARCH deliveries USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
}

describe('SQLite delivery claims', () => {
  it('seek ranges of the due index, never a row value, and find every endpoint of every account behind another endpoint\'s backlog', async () => {
    const store = new SqliteStore({path: join(dir(), 'gw.db'), durability: 'normal'})
    try {
      // two accounts; in each, an endpoint with a backlog of retries due later sorts before the endpoints with something due
      for (const account of ['acct_one', 'acct_two']) {
        const backlog = Array.from({length: 500}, () => delivery('wh_a_backlog', T0 + 3_600_000))
        await store.account(account).commit({puts: [...backlog, delivery('wh_b', T0), delivery('wh_b', T0), delivery('wh_c', T0 - 1000)]})
      }
      for (const [name, sql] of Object.entries(CLAIM_SQL) as [keyof typeof CLAIM_SQL, string][]) {
        const plan = (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({length: (sql.match(/\?/g) ?? []).length}, () => 1)) as {detail: string}[]).map((r) => r.detail)
        expect(plan, name).toHaveLength(1)
        expect(plan[0], name).toMatch(EXPECTED[name])
      }
      const got = await store.claimDeliveries(() => iso(T0), {limit: 100, perEndpoint: 10, leaseMs: 60_000})
      expect(got.map((d) => `${d.account} ${d.endpoint}`).sort()).toEqual(['acct_one wh_b', 'acct_one wh_b', 'acct_one wh_c', 'acct_two wh_b', 'acct_two wh_b', 'acct_two wh_c'])
      // claimed rows stay due until their outcome is written: the next round skips them
      expect(await store.claimDeliveries(() => iso(T0), {limit: 100, perEndpoint: 10, leaseMs: 60_000})).toEqual([])
      await store.releaseDeliveries(got.filter((d) => d.endpoint === 'wh_c'))
      expect((await store.claimDeliveries(() => iso(T0), {limit: 100, perEndpoint: 10, leaseMs: 60_000})).map((d) => d.id).sort()).toEqual(got.filter((d) => d.endpoint === 'wh_c').map((d) => d.id).sort())
    } finally {
      await store.close()
    }
  })

  it("reads an endpoint's candidates in chunks as they are taken: the earliest unclaimed, in due order then seq, none twice", async () => {
    const store = new SqliteStore({path: join(dir(), 'gw.db'), durability: 'normal'})
    try {
      // one endpoint: 30 due at the same instant, 30 due a second apart after them; four other endpoints with one due each
      const same = Array.from({length: 30}, () => delivery('wh_big', T0 - 60_000))
      const later = Array.from({length: 30}, (_, i) => delivery('wh_big', T0 - 30_000 + i * 1000))
      const others = ['wh_o1', 'wh_o2', 'wh_o3', 'wh_o4'].map((e) => delivery(e, T0))
      await store.account('acct_one').commit({puts: [...same, ...later, ...others]})
      const order = [...same, ...later].map((d) => d.obj.id)
      const q = {limit: 12, perEndpoint: 100, leaseMs: 60_000}
      // the first round's first read is a few rows per endpoint; the big endpoint gets most of the 12 and is read on
      const first = await store.claimDeliveries(() => iso(T0), q)
      expect(first).toHaveLength(12)
      const big1 = first.filter((d) => d.endpoint === 'wh_big').map((d) => d.id)
      expect(big1).toEqual(order.slice(0, big1.length))
      // the held rows come first and are skipped; the next rounds go on across the same-instant rows into the later ones
      const seen = new Set(big1)
      for (let round = 0; round < 6; round++) {
        const got = (await store.claimDeliveries(() => iso(T0), q)).filter((d) => d.endpoint === 'wh_big').map((d) => d.id)
        for (const id of got) {
          expect(seen.has(id)).toBe(false)
          seen.add(id)
        }
      }
      expect([...seen]).toEqual(order.slice(0, seen.size))
      expect(seen.size).toBe(60)
      // every due row is held now (the other endpoints' too): nothing more to claim
      expect(await store.claimDeliveries(() => iso(T0), q)).toEqual([])
    } finally {
      await store.close()
    }
  })

  it("across endpoints and accounts, with backlogs around a claim's reading sizes: each endpoint's due rows are claimed in due order up to its cap, never twice, none missed", async () => {
    const store = new SqliteStore({path: join(dir(), 'gw.db'), durability: 'normal'})
    let run = 0
    try {
      // per account: its clock (seconds after T0) and endpoints, each with rows due at offsets (seconds) around it;
      // sizes around the candidates read at first (a round's share) and the chunks read after them
      const endpointRows = fc.array(fc.integer({min: -5, max: 5}), {maxLength: 40})
      const account = fc.record({clock: fc.integer({min: -2, max: 2}), endpoints: fc.array(endpointRows, {minLength: 1, maxLength: 5})})
      await fc.assert(
        fc.asyncProperty(fc.array(account, {minLength: 1, maxLength: 4}), fc.integer({min: 1, max: 40}), fc.integer({min: 1, max: 12}), async (accounts, limit, cap) => {
          run++
          const clocks = new Map<string, string>()
          const expected = new Map<string, string[]>() // account endpoint -> due ids in claim order
          for (const [i, a] of accounts.entries()) {
            const id = `acct_r${run}_${i}`
            clocks.set(id, iso(T0 + a.clock * 1000))
            const puts = a.endpoints.flatMap((dues, e) => dues.map((d) => delivery(`wh_${e}`, T0 + d * 1000)))
            if (puts.length) await store.account(id).commit({puts})
            for (const [e, dues] of a.endpoints.entries()) {
              const mine = puts.filter((p) => p.obj.endpoint === `wh_${e}`)
              const due = mine.map((p, k) => ({id: p.obj.id, at: dues[k]!})).filter((r) => r.at <= a.clock)
              due.sort((x, y) => x.at - y.at) // stable: seq order among rows due at the same time
              expected.set(`${id} wh_${e}`, due.map((r) => r.id).slice(0, cap))
            }
          }
          const nowOf = (acct: string) => clocks.get(acct) ?? ''
          const claimed = new Map<string, string[]>()
          for (let round = 0; round < 200; round++) {
            const got = await store.claimDeliveries(nowOf, {limit, perEndpoint: cap, leaseMs: 600_000})
            expect(got.length).toBeLessThanOrEqual(limit)
            if (got.length === 0) break
            for (const d of got) {
              const k = `${d.account} ${d.endpoint}`
              if (!claimed.has(k)) claimed.set(k, [])
              claimed.get(k)!.push(d.id)
            }
          }
          for (const [k, ids] of expected) expect(claimed.get(k) ?? [], k).toEqual(ids)
          for (const k of claimed.keys()) if (k.includes(`acct_r${run}_`)) expect(expected.has(k), k).toBe(true)
        }),
        {numRuns: propertyRuns(40)},
      )
    } finally {
      await store.close()
    }
  })
})
