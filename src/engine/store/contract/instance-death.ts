// The store contract: an instance that dies (part of storeContract, store-contract.ts).
import {beforeEach, describe, expect, it} from 'vitest'
import {type AccountStore, type Store} from '../../ports/store.js'
import {ACCT, type Bound, type ContractHandles, iso, nextId, pay, put, sleep, T0} from './helpers.js'

let h: ContractHandles
let a: AccountStore
let b: AccountStore

export function instanceDeathCases(bound: () => Bound): void {
  describe('an instance that dies', () => {
    beforeEach(() => void ({h, a, b} = bound()))
    it('leaves no lock, idempotency claim or exclusive section behind, commits nothing it had not committed, and its job and delivery claims are taken over after their lease', async () => {
      const LEASE = 300
      const now = iso(T0)
      const job = {id: nextId('job'), kind: 'k', ref: 'r-dies', due_at: now}
      const d = {id: nextId('whd'), object: 'webhook_delivery', event: 'evt_1', endpoint: 'wh_dies', status: 'pending', next_attempt_at: now, created_at: now}
      await a.commit({addJobs: [job], puts: [put('delivery', d)]})
      expect((await a.claimJobs(now, 10, LEASE)).map((j) => j.id)).toEqual([job.id])
      expect((await h.a.claimDeliveries(() => now, {limit: 10, perEndpoint: 10, leaseMs: LEASE})).map((x) => x.id)).toEqual([d.id])
      const p = pay()
      let entered!: () => void
      const inUnit = new Promise<void>((r) => (entered = r))
      void a
        .transact(async (tx) => {
          await tx.lock('held-by-the-dead')
          expect(await tx.claimIdempotency('acct:test', 'key-of-the-dead', now)).toEqual({state: 'claimed'})
          tx.commit({puts: [{kind: 'payment', obj: p}]})
          entered()
          await new Promise(() => {}) // the process dies in here
        })
        .catch(() => {})
      let inSection!: () => void
      const sectionHeld = new Promise<void>((r) => (inSection = r))
      void a
        .exclusive('timeline', async () => {
          inSection()
          await new Promise(() => {})
        })
        .catch(() => {})
      await Promise.all([inUnit, sectionHeld])
      const killedAt = Date.now()
      const store = await h.kill()
      const s = store.account(ACCT)

      await s.transact((tx) => tx.lock('held-by-the-dead'))
      expect(await s.transact((tx) => tx.claimIdempotency('acct:test', 'key-of-the-dead', now))).toEqual({state: 'claimed'})
      expect(await s.exclusive('timeline', async () => 'mine', {wait: false})).toEqual({ran: true, value: 'mine'})
      expect(await s.get('payment', p.id)).toBeUndefined()

      const until = killedAt + LEASE + 10_000
      let jobs: Awaited<ReturnType<AccountStore['claimJobs']>> = []
      while (jobs.length === 0 && Date.now() < until) {
        jobs = await s.claimJobs(now, 10, 60_000)
        if (!jobs.length) await sleep(25)
      }
      expect(jobs.map((j) => j.id)).toEqual([job.id])
      let ds: Awaited<ReturnType<Store['claimDeliveries']>> = []
      while (ds.length === 0 && Date.now() < until) {
        ds = await store.claimDeliveries(() => now, {limit: 10, perEndpoint: 10, leaseMs: 60_000})
        if (!ds.length) await sleep(25)
      }
      expect(ds.map((x) => x.id)).toEqual([d.id])
      await s.commit({completeJobs: jobs})
    })
  })
}
