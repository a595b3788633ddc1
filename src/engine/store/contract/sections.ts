// The store contract: exclusive sections (part of storeContract, store-contract.ts).
import {beforeEach, describe, expect, it} from 'vitest'
import {type AccountStore} from '../../ports/store.js'
import {type Bound, type ContractHandles, OTHER, sleep} from './helpers.js'

let h: ContractHandles
let a: AccountStore
let b: AccountStore

export function sectionsCases(bound: () => Bound): void {
  describe('the fleet-wide exclusive section', () => {
    beforeEach(() => void ({h, a, b} = bound()))
    it('one holder at a time across instances; wait:false gives up while it is held; a failing holder frees it', async () => {
      let inside = 0
      let most = 0
      const hold = (s: AccountStore, i: number) =>
        s.exclusive('timeline', async () => {
          inside++
          most = Math.max(most, inside)
          await sleep(5)
          inside--
          return i
        })
      const results = await Promise.all(Array.from({length: 8}, (_, i) => hold(i % 2 ? a : b, i)))
      expect(results.map((r) => (r.ran ? r.value : -1))).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
      expect(most).toBe(1)

      let release!: () => void
      let entered!: () => void
      const held = new Promise<void>((r) => (entered = r))
      const holder = a.exclusive('timeline', () => {
        entered()
        return new Promise<void>((r) => (release = r))
      })
      await held
      expect(await b.exclusive('timeline', async () => 'no', {wait: false})).toEqual({ran: false})
      // on the holder's own instance too, at once (not after the holder)
      expect(await a.exclusive('timeline', async () => 'no', {wait: false})).toEqual({ran: false})
      expect(await b.exclusive('other', async () => 'yes', {wait: false})).toEqual({ran: true, value: 'yes'})
      const waiter = b.exclusive('timeline', async () => 'after')
      await sleep(20)
      release()
      expect(await holder).toEqual({ran: true, value: undefined})
      expect(await waiter).toEqual({ran: true, value: 'after'})

      await expect(a.exclusive('timeline', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
      expect(await b.exclusive('timeline', async () => 'free', {wait: false})).toEqual({ran: true, value: 'free'})
    })
  })

  describe('exclusive sections per account', () => {
    beforeEach(() => void ({h, a, b} = bound()))
    it("different accounts' sections are held at once on one instance; one account's section excludes on every instance", async () => {
      const o = h.a.account(OTHER)
      let release!: () => void
      let entered!: () => void
      const inside = new Promise<void>((r) => (entered = r))
      const holding = a.exclusive('timeline', () => {
        entered()
        return new Promise<void>((r) => (release = r))
      })
      await inside
      // another account's section of the same name, on the same instance: not blocked
      expect(await o.exclusive('timeline', async () => 'other', {wait: false})).toEqual({ran: true, value: 'other'})
      // this account's, on the other instance: taken
      expect(await b.exclusive('timeline', async () => 'no', {wait: false})).toEqual({ran: false})
      // a waiting one on the other instance does not hold up another account's there
      const waiting = b.exclusive('timeline', async () => 'after')
      await sleep(30)
      expect(await h.b.account(OTHER).exclusive('timeline', async () => 'free', {wait: false})).toEqual({ran: true, value: 'free'})
      release()
      await holding
      expect(await waiting).toEqual({ran: true, value: 'after'})
    })
  })
}
