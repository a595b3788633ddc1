// The store contract: shared state: rate limit, settings, statistics (part of storeContract, store-contract.ts).
import {beforeEach, describe, expect, it} from 'vitest'
import {type AccountStore} from '../../ports/store.js'
import {type Bound, type ContractHandles} from './helpers.js'

let h: ContractHandles
let a: AccountStore
let b: AccountStore

export function sharedStateCases(bound: () => Bound): void {
  describe('shared state', () => {
    beforeEach(() => void ({h, a, b} = bound()))
    it('the rate limit is one bucket per scope for every instance', async () => {
      const started = performance.now()
      const results = await Promise.all(Array.from({length: 30}, (_, i) => (i % 2 ? h.a : h.b).takeToken('acct:test', 10, 20)))
      // the 20 of the bucket, and what refilled (10/s) while the takes ran (an instant for an in-process bucket)
      const refilled = Math.floor(((performance.now() - started) / 1000) * 10)
      const allowed = results.filter((r) => r.retryAfter === 0).length
      expect(allowed).toBeGreaterThanOrEqual(20)
      expect(allowed).toBeLessThanOrEqual(20 + refilled)
      for (const r of results.filter((x) => x.retryAfter > 0)) expect(r.retryAfter).toBeGreaterThanOrEqual(1)
      expect((await h.a.takeToken('acct:other', 10, 20)).retryAfter).toBe(0)
      expect(await h.a.takeToken('acct:off', 0, 20)).toEqual({retryAfter: 0, remaining: 20})
    })

    it('concurrent additions to a setting all count (the engine clock offset)', async () => {
      await Promise.all(Array.from({length: 20}, (_, i) => (i % 2 ? a : b).addToSetting('clock_offset_ms', 1000)))
      expect(await b.getSetting('clock_offset_ms')).toBe('20000')
      expect(await a.addToSetting('clock_offset_ms', 5)).toBe(20_005)
    })

    it('provider statistics add up per provider and day', async () => {
      await Promise.all([
        a.commit({stats: [{provider: 'prov_a', day: '2030-01-01', approved: 1, total: 2}]}),
        b.commit({stats: [{provider: 'prov_a', day: '2030-01-01', approved: 3, total: 3}, {provider: 'prov_a', day: '2029-12-01', approved: 1, total: 1}]}),
      ])
      expect(await a.statsSince('2030-01-01')).toEqual([{provider: 'prov_a', day: '2030-01-01', approved: 4, total: 5}])
    })
  })
}
