// What a unit of work and a commit group cost in round trips to PostgreSQL, counted by the store
// (Store.counters): a fleet's cost per payment must not grow with the instances, which split the
// load into smaller groups, nor with what one unit does (docs/api.md, "Several instances on
// PostgreSQL"). And what the saved round trips must not change: a retry of a key whose unit
// ended finds its record at once, on any instance; a key whose unit wrote no record is free at once;
// the claims connection lost, every claim settles and no key stays locked.
import pg from 'pg'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {type IdempotencyClaim, StoreUnavailableError, VersionConflictError} from '../../ports/store.js'
import {iso, pay, put, T0} from '../contract/helpers.js'
import {advisoryLocks, claimsBackends as claimsBackendsOf, freshDatabase, sql} from '../../test-support/pg.js'
import {waitFor} from '../../test-support/wait.js'
import {PostgresStore} from './postgres-store.js'

let url: string
let a: PostgresStore
let b: PostgresStore
beforeAll(async () => {
  url = await freshDatabase('trips')
  a = await PostgresStore.open({url, unitConnections: 4, readConnections: 2})
  b = await PostgresStore.open({url, unitConnections: 4, readConnections: 2})
  // what a store does once it is open (rows staged by a load nobody finished) is over before counting
  await new Promise((r) => setTimeout(r, 1000))
})
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
})

const trips = () => a.counters().roundTrips
const record = (key: string) => ({scope: 'acct:test', key, request_hash: 'h', status: 201, body: '{}', created_at: iso(T0), expires_at: iso(T0 + 86_400_000)})
const event = (i: number) => ({id: `evt_trips_${i}_${Math.random().toString(36).slice(2)}`, type: 'payment.succeeded', created_at: iso(T0), json: '{}'})
/** a payment's unit: its key claimed, the payment and the record committed */
const paymentUnit = (account: string, key: string) =>
  a.account(account).transact(async (tx) => {
    expect(await tx.claimIdempotency('acct:test', key, iso(T0))).toEqual({state: 'claimed'})
    tx.commit({puts: [put('payment', pay())], idempotency: record(key)})
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
const claimsBackends = (extra = '') => claimsBackendsOf(url, a.instanceId, extra)

describe('round trips to PostgreSQL', () => {
  it('a commit group is one round trip however many change sets it holds (inserts, an update, events, a record, statistics)', async () => {
    const acct = a.account('acct_trips')
    const old = pay()
    await acct.commit({puts: [put('payment', old)]})
    const before = a.counters()
    // staged in one turn: one group
    await Promise.all(
      Array.from({length: 8}, (_, i) =>
        acct.commit({
          puts: [put('payment', pay()), ...(i === 0 ? [put('payment', {...old, status: 'failed'}, 1)] : [])],
          events: [event(i)],
          idempotency: record(`group-${i}`),
          stats: [{provider: 'stripe', day: '2030-01-01', approved: 1, total: 1}],
        }),
      ),
    )
    const after = a.counters()
    expect(after.commitGroups - before.commitGroups).toBe(1)
    expect(after.committedChangeSets - before.committedChangeSets).toBe(8)
    // the update's version check needs BEGIN and COMMIT around the statement; without one it is the statement alone
    expect(after.roundTrips - before.roundTrips).toBe(3)
    expect((await acct.get('payment', old.id))!.version).toBe(2)
    const n = trips()
    await Promise.all(Array.from({length: 8}, (_, i) => acct.commit({puts: [put('payment', pay())], events: [event(10 + i)]})))
    expect(trips() - n).toBe(1)
  })

  it("a group's events get consecutive seqs in the order staged, and the other instance hears of the last one", async () => {
    const acct = a.account('acct_trips_seq')
    const heard: (number | null)[] = []
    const off = b.onAccountChange('acct_trips_seq', (notice) => heard.push(notice.eventSeq))
    await b.following()
    const es = Array.from({length: 5}, (_, i) => event(100 + i))
    await Promise.all(es.map((e) => acct.commit({events: [e]})))
    const got = await acct.eventsAfter(0, 10)
    expect(got.map((e) => e.id)).toEqual(es.map((e) => e.id))
    expect(got.map((e) => e.seq - got[0]!.seq)).toEqual([0, 1, 2, 3, 4])
    for (let i = 0; i < 100 && !heard.includes(got[4]!.seq); i++) await new Promise((r) => setTimeout(r, 20))
    off()
    expect(heard).toContain(got[4]!.seq)
  })

  it('a stale update in a group: the group rolls back, the others land, the stale one gets a VersionConflictError', async () => {
    const acct = a.account('acct_trips_conflict')
    const p = pay()
    await acct.commit({puts: [put('payment', p)]})
    const fresh = pay()
    const results = await Promise.allSettled([acct.commit({puts: [put('payment', fresh)]}), acct.commit({puts: [put('payment', {...p, status: 'x'}, 7)]})])
    expect(results[0]!.status).toBe('fulfilled')
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(VersionConflictError)
    expect(await acct.get('payment', fresh.id)).toBeDefined()
    expect((await acct.get('payment', p.id))!.version).toBe(1)
  })

  it("a unit that committed its record gives its connection to the next unit, whose claim ends the first unit's transaction in the same round trip", async () => {
    const acct = a.account('acct_trips_units')
    const unit = (key: string) => paymentUnit('acct_trips_units', key)
    await unit('warm')
    const n = trips()
    await unit('second')
    // the claim (with the first unit's ROLLBACK) and the group: no round trip of its own to end a unit
    expect(trips() - n).toBe(2)
    // meanwhile the first unit's claim may still be held: a retry of its key, here or on the other instance, replays the record
    await b.account('acct_trips_units').transact(async (tx) => {
      const c = await tx.claimIdempotency('acct:test', 'second', iso(T0))
      expect(c.state).toBe('recorded')
    })
    await acct.transact(async (tx) => {
      expect((await tx.claimIdempotency('acct:test', 'second', iso(T0))).state).toBe('recorded')
    })
  })

  it("the next unit may come tens of milliseconds later (an instance of a fleet gets a share of the load): its claim still ends the previous unit's transaction", async () => {
    const unit = (key: string) => paymentUnit('acct_trips_later', key)
    await unit('later-warm')
    const n = trips()
    for (const key of ['later-1', 'later-2', 'later-3']) {
      await new Promise((r) => setTimeout(r, 40))
      await unit(key)
    }
    // each: its claim (with the previous unit's ROLLBACK) and its group
    expect(trips() - n).toBe(6)
  })

  it("the claims of units in flight together are one round trip, on the claims' own connection", async () => {
    await paymentUnit('acct_trips_batch', 'batch-warm')
    const n = trips()
    await Promise.all(Array.from({length: 8}, (_, i) => paymentUnit('acct_trips_batch', `batch-${i}`)))
    // one batch of claims and one group (an earlier batch's releases may ride on a third)
    expect(trips() - n).toBeLessThanOrEqual(3)
  })

  it('two units of one instance claiming one key at once: one claims it, the other finds it in flight; then it is replayed', async () => {
    const acct = a.account('acct_trips_same')
    let release!: () => void
    const hold = new Promise<void>((r) => (release = r))
    const states: string[] = []
    const first = acct.transact(async (tx) => {
      states.push((await tx.claimIdempotency('acct:test', 'same', iso(T0))).state)
      await hold
      tx.commit({puts: [put('payment', pay())], idempotency: record('same')})
    })
    const second = acct.transact(async (tx) => {
      states.push((await tx.claimIdempotency('acct:test', 'same', iso(T0))).state)
    })
    await second
    release()
    await first
    expect(states.sort()).toEqual(['claimed', 'in_flight'])
    await acct.transact(async (tx) => {
      expect((await tx.claimIdempotency('acct:test', 'same', iso(T0))).state).toBe('recorded')
    })
  })

  it('a unit that ends without a record frees its key at once: the other instance claims it', async () => {
    const acct = a.account('acct_trips_free')
    await expect(
      acct.transact(async (tx) => {
        expect(await tx.claimIdempotency('acct:test', 'failed', iso(T0))).toEqual({state: 'claimed'})
        throw new Error('a 5xx: not recorded')
      }),
    ).rejects.toThrow('a 5xx')
    await b.account('acct_trips_free').transact(async (tx) => {
      expect(await tx.claimIdempotency('acct:test', 'failed', iso(T0))).toEqual({state: 'claimed'})
    })
  })

  it('a unit that took a lock frees it at once, for a unit on the other instance', async () => {
    const acct = a.account('acct_trips_lock')
    await acct.transact(async (tx) => {
      await tx.claimIdempotency('acct:test', 'locked', iso(T0))
      await tx.lock('pay_1')
      tx.commit({puts: [put('payment', pay())], idempotency: record('locked')})
    })
    const t0 = Date.now()
    await b.account('acct_trips_lock').transact(async (tx) => {
      await tx.lock('pay_1')
    })
    expect(Date.now() - t0).toBeLessThan(1000)
  })

  it('the claims connection lost while a unit holds a key: the key is free on the other instance, and the next claim here opens a new connection', async () => {
    let end!: () => void
    const held = new Promise<void>((r) => (end = r))
    let claimed!: () => void
    const got = new Promise<void>((r) => (claimed = r))
    const unit = a.account('acct_cb').transact(async (tx) => {
      expect(await tx.claimIdempotency('acct:test', 'lost', iso(T0))).toEqual({state: 'claimed'})
      claimed()
      await held
    })
    await got
    const probe = () => b.account('acct_cb').transact((tx) => tx.claimIdempotency('acct:test', 'lost', iso(T0)))
    expect(await probe()).toEqual({state: 'in_flight'})
    // the pids first, then the terminations (see the contract test's restart)
    const pids = await claimsBackends()
    expect(pids).toHaveLength(1)
    await sql(url, 'SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids])
    let state = ''
    for (let i = 0; i < 100 && state !== 'claimed'; i++) {
      state = (await probe()).state
      if (state !== 'claimed') await new Promise((r) => setTimeout(r, 20))
    }
    expect(state).toBe('claimed')
    end()
    await unit
    expect(await a.account('acct_cb').transact((tx) => tx.claimIdempotency('acct:test', 'after', iso(T0)))).toEqual({state: 'claimed'})
  })

  // the claims connection lost while a batch is out and more claims wait behind it, not yet sent:
  // held deterministically, a transaction of the test's locks the records' table, so the batch
  // waits on it, its try-locks taken, until the test ends its connection
  it('the claims connection lost with claims out and queued: every claim settles, claimed or unavailable (503); then every key is claimed again here (a new connection) and on the other instance', async () => {
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
      // 'held', and the batch's two keys (claimed in one turn: one batch)
      expect(await advisoryLocks(url, pid!)).toBe(3)
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

  it('a delivery claim round with nothing due is one round trip', async () => {
    const n = trips()
    expect(await a.claimDeliveries(() => iso(T0), {limit: 16, perEndpoint: 4, leaseMs: 60_000})).toEqual([])
    expect(trips() - n).toBe(1)
  })
})
