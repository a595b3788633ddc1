// The claims connection of an instance (claim-batch.ts) lost: the keys it held are free on every
// instance (as a unit's transaction's were when its connection went), and the next claim opens a
// new connection.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {iso, T0} from '../contract/helpers.js'
import {freshDatabase, sql} from '../../test-support/pg.js'
import {PostgresStore} from './postgres-store.js'

let url: string
let a: PostgresStore
let b: PostgresStore
beforeAll(async () => {
  url = await freshDatabase('claimbatch')
  a = await PostgresStore.open({url, unitConnections: 2, readConnections: 2})
  b = await PostgresStore.open({url, unitConnections: 2, readConnections: 2})
})
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
})

describe('the claims connection', () => {
  it('lost while a unit holds a key: the key is free on the other instance, and the next claim here opens a new connection', async () => {
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
    const pids = (await sql<{pid: number}>(url, "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND query LIKE '%gw_claim_idempotency_batch%'", [a.instanceId])).map((r) => r.pid)
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
})
