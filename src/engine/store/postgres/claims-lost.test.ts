// The claims connection (claim-batch.ts) lost while a batch of idempotency claims is out and more
// wait behind it, not yet sent (docs/api.md#several-instances-on-postgresql): every claim settles,
// each claimed or failed as unavailable (the 503 a client retries with the same key), and no key
// stays locked — neither in the database nor in what the instance thinks its connection holds.
// The batch is held deterministically: a transaction of the test's locks the records' table, so
// the batch waits on it, its try-locks taken, until the test ends its connection.
import pg from 'pg'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {type IdempotencyClaim, StoreUnavailableError} from '../../ports/store.js'
import {iso, T0} from '../contract/helpers.js'
import {freshDatabase, sql} from '../../test-support/pg.js'
import {waitFor} from '../../test-support/wait.js'
import {PostgresStore} from './postgres-store.js'

let url: string
let a: PostgresStore
let b: PostgresStore
beforeAll(async () => {
  url = await freshDatabase('claimslost')
  a = await PostgresStore.open({url, unitConnections: 4, readConnections: 2})
  b = await PostgresStore.open({url, unitConnections: 4, readConnections: 2})
})
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
})

const ACCOUNT = 'acct_claims_lost'
/** a unit that claims `key` and ends without a record (its claim released at once); `asked` once the claim is asked */
const claimOn = (s: PostgresStore, key: string, asked: () => void = () => {}) =>
  s.account(ACCOUNT).transact(async (tx): Promise<IdempotencyClaim> => {
    const claim = tx.claimIdempotency('acct:test', key, iso(T0))
    asked()
    return claim
  })
/** what a claim came to: its state, 'unavailable' (a 503), else the error */
const outcome = (p: Promise<IdempotencyClaim>) =>
  p.then(
    (c) => c.state as string,
    (e: unknown) => (e instanceof StoreUnavailableError ? 'unavailable' : String(e)),
  )
/** starts units claiming `keys` on `a`; resolves, once every claim is asked (in a batch, or queued for the next), with their outcomes */
async function start(keys: string[]): Promise<Promise<string>[]> {
  const asked: Promise<void>[] = []
  const units = keys.map((key) => {
    let done!: () => void
    asked.push(new Promise<void>((r) => (done = r)))
    return outcome(claimOn(a, key, done))
  })
  await Promise.all(asked)
  return units
}
/** a's claims connection, by its batch's query */
const claimsBackends = async (extra = '') =>
  (await sql<{pid: number}>(url, `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE '%gw_claim_idempotency_batch%' ${extra}`, [a.instanceId])).map((r) => r.pid)

describe('the claims connection lost with claims in flight and queued', () => {
  it('every claim settles, claimed or unavailable; then every key is claimed again here (a new connection) and on the other instance', async () => {
    await claimOn(a, 'warm')
    // a unit holding a key, to end (without a record) while the batch is out: its unlock waits for the next batch
    let end!: () => void
    const ended = new Promise<void>((r) => (end = r))
    const holding = a.account(ACCOUNT).transact(async (tx) => {
      expect(await tx.claimIdempotency('acct:test', 'held', iso(T0))).toEqual({state: 'claimed'})
      await ended
    })
    const blocker = new pg.Client({connectionString: url})
    await blocker.connect()
    try {
      await blocker.query('BEGIN; LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE')
      const sentKeys = ['sent-1', 'sent-2']
      const sent = await start(sentKeys)
      // the batch out: waiting for the table, after its try-locks
      const [pid] = await waitFor('the batch waiting for the lock', async () => {
        const p = await claimsBackends("AND wait_event_type = 'Lock'")
        return p.length ? p : undefined
      })
      const locked = await sql<{n: number}>(url, "SELECT count(*)::int AS n FROM pg_locks WHERE pid = $1 AND locktype = 'advisory' AND granted", [pid])
      // 'held', and the batch's two keys (claimed in one turn: one batch)
      expect(locked[0]!.n).toBe(3)
      // asked while that batch is out: queued for the next one, not sent
      const queuedKeys = ['queued-1', 'queued-2', 'queued-3']
      const queued = await start(queuedKeys)
      end()
      // the connection ends under the batch (the call returns once the backend is gone), then the table is free
      expect((await sql<{ok: boolean}>(url, 'SELECT pg_terminate_backend($1, 10000) AS ok', [pid]))[0]!.ok).toBe(true)
      await blocker.query('ROLLBACK')

      const outcomes = await Promise.all([...sent, ...queued])
      // the unit whose unlock was queued ends too (its lock went with the connection)
      await holding
      for (const o of outcomes) expect(['claimed', 'unavailable']).toContain(o)
      // the batch out failed with its connection
      expect(outcomes.slice(0, sentKeys.length)).toEqual(sentKeys.map(() => 'unavailable'))

      const keys = [...sentKeys, ...queuedKeys, 'held']
      // no lock left in the database: the other instance claims every key (and frees it)
      for (const key of keys) expect(await claimOn(b, key)).toEqual({state: 'claimed'})
      // nor in the instance: it claims every key again, on a new connection
      const again = await Promise.all(keys.map((key) => claimOn(a, key)))
      expect(again).toEqual(keys.map(() => ({state: 'claimed'})))
      const now = await claimsBackends()
      expect(now).toHaveLength(1)
      expect(now[0]).not.toBe(pid)
      for (const key of keys) expect(await claimOn(b, key)).toEqual({state: 'claimed'})
    } finally {
      await blocker.end().catch(() => {})
    }
  })
})
