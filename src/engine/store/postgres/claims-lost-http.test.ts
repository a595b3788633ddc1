// Payment requests whose idempotency claims were out in a batch, or queued behind it, when the
// claims connection (claim-batch.ts) was lost (docs/api.md#several-instances-on-postgresql): each
// answers 503 with Retry-After, and its retry with the same Idempotency-Key, on either instance,
// makes exactly one payment. Held deterministically as in round-trips.test.ts: a transaction of
// the test's locks the records' table, so the batch waits on it until its connection is ended.
import pg from 'pg'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, fleetSecretsKeyFile, type TestEngine} from '../../test-support/harness.js'
import {advisoryLocks, claimsBackends as claimsBackendsOf, freshDatabase, sql} from '../../test-support/pg.js'
import {waitFor} from '../../test-support/wait.js'
import {PostgresStore} from './postgres-store.js'

let url: string
let a: TestEngine
let b: TestEngine
let store!: PostgresStore
/** the Idempotency-Keys a's store has been asked to claim */
const asked: string[] = []
beforeAll(async () => {
  url = await freshDatabase('claimslosthttp')
  const secretsKeyFile = fleetSecretsKeyFile()
  a = await bootEngine({
    secretsKeyFile,
    store: async () => {
      store = await PostgresStore.open({url, unitConnections: 4, readConnections: 2})
      // (only seen: which keys were asked, to know a claim is queued before the connection goes)
      const batch = store.claimBatch
      const claim = batch.claim.bind(batch)
      batch.claim = (account, scope, key, now) => {
        asked.push(key)
        return claim(account, scope, key, now)
      }
      return store
    },
  })
  b = await bootEngine({secretsKeyFile, store: async () => PostgresStore.open({url, unitConnections: 4, readConnections: 2})})
})
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
})

const body = (reference: string) => ({amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference})
/** a's claims connection, by its batch's query */
const claimsBackends = (extra = '') => claimsBackendsOf(url, store.instanceId, extra)
const locksOf = (pid: number) => advisoryLocks(url, pid)
const pay = (t: TestEngine, key: string) => t.api('POST', '/payments', body(key), {'idempotency-key': key})

describe('the claims connection lost under payment requests', () => {
  it('a request whose claim was out or queued answers 503; its retry with the key makes one payment', async () => {
    expect((await pay(a, 'warm-claims-lost')).status).toBe(201)
    // its claim released (the unlock rides on a batch of its own within RELEASE_MS): the next batch is the request's claim
    const [idle] = await claimsBackends()
    await waitFor("the warm-up's claim released", async () => (await locksOf(idle!)) === 0)
    const blocker = new pg.Client({connectionString: url})
    await blocker.connect()
    try {
      await blocker.query('BEGIN; LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE')
      const sent = pay(a, 'claims-lost-sent')
      // the batch out: waiting for the table, the request's key try-locked
      const [pid] = await waitFor('the batch waiting for the lock', async () => {
        const p = await claimsBackends("AND wait_event_type = 'Lock'")
        return p.length ? p : undefined
      })
      expect(asked.at(-1)).toBe('claims-lost-sent')
      expect(await locksOf(pid!)).toBe(1)
      // asked while the batch is out: queued for the next one
      const queued = pay(a, 'claims-lost-queued')
      await waitFor('the second claim asked', () => asked.includes('claims-lost-queued'))
      // the connection ends under the batch (the call returns once the backend is gone), then the table is free
      expect((await sql<{ok: boolean}>(url, 'SELECT pg_terminate_backend($1, 10000) AS ok', [pid]))[0]!.ok).toBe(true)
      await blocker.query('ROLLBACK')

      for (const r of [await sent, await queued]) {
        expect(r.status, r.text).toBe(503)
        expect(r.body.error).toMatchObject({type: 'api_error', code: 'service_unavailable'})
        expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      }
    } finally {
      await blocker.end().catch(() => {})
    }

    // the retries, on the other instance and on this one (a new claims connection), then again on both: one payment each
    for (const [key, first] of [
      ['claims-lost-sent', b],
      ['claims-lost-queued', a],
    ] as const) {
      const made = await pay(first, key)
      expect(made.status, made.text).toBe(201)
      for (const t of [a, b]) {
        const again = await pay(t, key)
        expect(again.status).toBe(201)
        expect(again.text).toBe(made.text)
      }
      const listed = await a.api('GET', `/payments?reference=${key}`)
      expect(listed.body.data.map((p: {id: string}) => p.id)).toEqual([made.body.id])
    }
  })
})
