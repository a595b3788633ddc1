// The store contract: timeline jobs and the delivery queue (part of storeContract, store-contract.ts).
import {beforeEach, describe, expect, it} from 'vitest'
import {type AccountStore, type Store, type StoredObject, VersionConflictError} from '../../ports/store.js'
import {type Bound, type ContractHandles, iso, nextId, put, sleep, T0} from './helpers.js'

let h: ContractHandles
let a: AccountStore
let b: AccountStore

export function claimsCases(bound: () => Bound): void {
  describe('timeline jobs', () => {
    beforeEach(() => void ({h, a, b} = bound()))
    it('claims in due order, never hands a job to two claimers, and completes it in the unit of work', async () => {
      const jobs = Array.from({length: 40}, (_, i) => ({id: nextId('job'), kind: 'k', ref: `r${i}`, due_at: iso(T0 + (40 - i) * 1000)}))
      await a.commit({addJobs: [...jobs, {id: nextId('job'), kind: 'k', ref: 'later', due_at: iso(T0 + 10_000_000)}]})
      const first = await a.claimJobs(iso(T0 + 5000), 100, 60_000)
      expect(first.map((j) => j.due_at)).toEqual([1, 2, 3, 4, 5].map((s) => iso(T0 + s * 1000)))
      const batches = await Promise.all(Array.from({length: 6}, (_, i) => (i % 2 ? a : b).claimJobs(iso(T0 + 100_000), 7, 60_000)))
      const ids = [...first, ...batches.flat()].map((j) => j.id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids.sort()).toEqual(jobs.map((j) => j.id).sort())
      const [j0] = first
      await a.transact(async (tx) => tx.commit({completeJobs: [j0!]}))
      await expect(b.commit({completeJobs: [{...first[1]!, claim: 'not-mine'}]})).rejects.toBeInstanceOf(VersionConflictError)
      await a.releaseJobs(first.slice(1))
      const again = await b.claimJobs(iso(T0 + 5000), 100, 60_000)
      expect(again.map((j) => j.id)).toEqual(first.slice(1).map((j) => j.id))
      expect(await a.claimJobs(iso(T0 + 100_000), 100, 60_000)).toEqual([])
    })

    it("the next job due from a moment on, claimed or not, but one (the job running); none after the last", async () => {
      const js = [T0 + 5000, T0 + 1000, T0 + 9000].map((t, i) => ({id: nextId('job'), kind: 'k', ref: `n${i}`, due_at: iso(t)}))
      await a.commit({addJobs: js})
      await h.a.account('acct_other').commit({addJobs: [{id: nextId('job'), kind: 'k', ref: 'theirs', due_at: iso(T0 + 2000)}]})
      expect(await b.nextJobDue(iso(T0))).toBe(iso(T0 + 1000))
      expect(await b.nextJobDue(iso(T0 + 1000), js[1]!.id)).toBe(iso(T0 + 5000))
      expect(await b.nextJobDue(iso(T0 + 1001))).toBe(iso(T0 + 5000))
      // a claimed job is still pending
      expect((await a.claimJobs(iso(T0 + 5000), 10, 60_000)).map((j) => j.ref)).toEqual(['n1', 'n0'])
      expect(await b.nextJobDue(iso(T0))).toBe(iso(T0 + 1000))
      expect(await b.nextJobDue(iso(T0 + 9001))).toBeUndefined()
    })

    it('jobs due at the same moment are claimed in the order they were scheduled', async () => {
      // ids that sort the other way round than they were scheduled
      const ids = ['job_zzz', 'job_mmm', 'job_aaa', 'job_ggg']
      for (const id of ids) await a.commit({addJobs: [{id, kind: 'k', ref: id, due_at: iso(T0)}]})
      await a.commit({addJobs: [{id: 'job_early', kind: 'k', ref: 'e', due_at: iso(T0 - 1)}]})
      expect((await b.claimJobs(iso(T0), 10, 60_000)).map((j) => j.id)).toEqual(['job_early', ...ids])
    })

    it('a claim runs out after its lease; removeJobs drops pending jobs by kind and ref', async () => {
      await a.commit({addJobs: [{id: nextId('job'), kind: 'k', ref: 'x', due_at: iso(T0)}, {id: nextId('job'), kind: 'other', ref: 'x', due_at: iso(T0)}]})
      const [c] = await a.claimJobs(iso(T0), 1, 50)
      expect(c!.data).toBeUndefined()
      await sleep(80)
      const [c2] = await b.claimJobs(iso(T0), 1, 60_000)
      expect(c2!.id).toBe(c!.id)
      await a.commit({removeJobs: [{kind: 'other', ref: 'x'}]})
      expect(await b.claimJobs(iso(T0), 10, 60_000)).toEqual([])
      await b.commit({completeJobs: [c2!], addJobs: [{id: nextId('job'), kind: 'k', ref: 'x', due_at: iso(T0 + 1), data: {n: 1}}]})
      expect((await a.claimJobs(iso(T0 + 1), 10, 60_000))[0]!.data).toEqual({n: 1})
    })
  })

  describe('delivery queue', () => {
    beforeEach(() => void ({h, a, b} = bound()))
    const delivery = (endpoint: string, due: string | null) => ({id: nextId('whd'), object: 'webhook_delivery', event: 'evt_1', endpoint, status: due ? 'pending' : 'succeeded', next_attempt_at: due, created_at: iso(T0)})

    it('claims due deliveries fairly per endpoint up to a per-endpoint cap; a write ends the claim; claims do not repeat', async () => {
      const busy = Array.from({length: 20}, () => delivery('wh_busy', iso(T0)))
      const quiet = Array.from({length: 3}, () => delivery('wh_quiet', iso(T0)))
      await a.commit({puts: [...busy, ...quiet, delivery('wh_quiet', null), delivery('wh_quiet', iso(T0 + 60_000))].map((obj) => put('delivery', obj))})
      const got = await h.a.claimDeliveries(() => iso(T0), {limit: 8, perEndpoint: 4, leaseMs: 60_000})
      expect(got.filter((d) => d.endpoint === 'wh_quiet')).toHaveLength(3)
      expect(got.filter((d) => d.endpoint === 'wh_busy')).toHaveLength(4)
      // every endpoint at its cap, or nothing left due
      expect(await h.b.claimDeliveries(() => iso(T0), {limit: 8, perEndpoint: 4, leaseMs: 60_000})).toEqual([])
      const done = got.find((d) => d.endpoint === 'wh_busy')!
      const obj = (await a.get<StoredObject>('delivery', done.id))!
      await a.commit({puts: [put('delivery', {...obj.obj, status: 'succeeded', next_attempt_at: null}, obj.version)]})
      const next = await h.b.claimDeliveries(() => iso(T0), {limit: 8, perEndpoint: 4, leaseMs: 60_000})
      expect(next.map((d) => d.endpoint)).toEqual(['wh_busy'])
      expect(got.map((d) => d.id)).not.toContain(next[0]!.id)
      await h.a.releaseDeliveries(got)
      const after = await h.b.claimDeliveries(() => iso(T0), {limit: 100, perEndpoint: 100, leaseMs: 60_000})
      expect(after.filter((d) => d.endpoint === 'wh_quiet')).toHaveLength(3)
    })

    it('a claim runs out after its lease (a worker that died)', async () => {
      // a lease long enough that a busy machine answers the second claim within it
      const LEASE = 1000
      await a.commit({puts: [{kind: 'delivery', obj: delivery('wh_1', iso(T0))}]})
      const claimedAt = performance.now()
      expect(await h.a.claimDeliveries(() => iso(T0), {limit: 1, perEndpoint: 1, leaseMs: LEASE})).toHaveLength(1)
      expect(await h.b.claimDeliveries(() => iso(T0), {limit: 1, perEndpoint: 1, leaseMs: LEASE})).toHaveLength(0)
      let again: Awaited<ReturnType<Store['claimDeliveries']>> = []
      while (again.length === 0 && performance.now() - claimedAt < LEASE + 10_000) {
        again = await h.b.claimDeliveries(() => iso(T0), {limit: 1, perEndpoint: 1, leaseMs: LEASE})
        if (!again.length) await sleep(25)
      }
      expect(again).toHaveLength(1)
      expect(performance.now() - claimedAt).toBeGreaterThanOrEqual(LEASE - 50)
    })
  })
}
