// The store contract: units of work: locks, idempotency claims, version conflicts (part of storeContract, store-contract.ts).
import {beforeEach, describe, expect, it} from 'vitest'
import {type AccountStore, VersionConflictError} from '../../ports/store.js'
import {type Bound, type ContractHandles, iso, nextId, Pay, pay, put, sleep, T0} from './helpers.js'

let h: ContractHandles
let a: AccountStore
let b: AccountStore

export function unitsCases(bound: () => Bound): void {
  describe('units of work', () => {
    beforeEach(() => void ({h, a, b} = bound()))
    it('a lock serialises units of work on the same key across instances; the next one reads the committed state', async () => {
      const p = pay({amount: 0})
      await a.commit({puts: [{kind: 'payment', obj: p}]})
      const bump = (s: AccountStore) =>
        s.transact(async (tx) => {
          await tx.lock(p.id)
          const got = (await tx.get<Pay>('payment', p.id))!
          await sleep(2)
          tx.commit({puts: [put('payment', {...got.obj, amount: got.obj.amount + 1}, got.version)]})
        })
      await Promise.all(Array.from({length: 10}, (_, i) => bump(i % 2 ? a : b)))
      expect((await a.get<Pay>('payment', p.id))!.obj.amount).toBe(10)
    })

    it('a unit of work that throws writes nothing and frees its lock', async () => {
      const p = pay()
      await expect(
        a.transact(async (tx) => {
          await tx.lock('k1')
          tx.commit({puts: [{kind: 'payment', obj: p}]})
          throw new Error('boom')
        }),
      ).rejects.toThrow('boom')
      expect(await b.get('payment', p.id)).toBeUndefined()
      await b.transact(async (tx) => tx.lock('k1')) // not held
    })

    it('idempotency: of racing claims exactly one wins; the record it commits is then replayed; an expired one is claimable', async () => {
      const now = iso(T0)
      const claims = await Promise.all(
        Array.from({length: 12}, (_, i) =>
          (i % 2 ? a : b).transact(async (tx) => {
            const c = await tx.claimIdempotency('acct:test', 'key-1', now)
            if (c.state === 'claimed') {
              await sleep(20)
              tx.commit({idempotency: {scope: 'acct:test', key: 'key-1', request_hash: 'h', status: 201, body: '{"ok":true}', created_at: now, expires_at: iso(T0 + 86_400_000)}})
            }
            return c.state
          }),
        ),
      )
      expect(claims.filter((s) => s === 'claimed')).toHaveLength(1)
      // the others met it in flight, or (arriving once it had committed) its record
      expect(claims.filter((s) => s === 'claimed' || s === 'in_flight' || s === 'recorded')).toHaveLength(12)
      const replay = await b.transact((tx) => tx.claimIdempotency('acct:test', 'key-1', now))
      expect(replay).toMatchObject({state: 'recorded', record: {status: 201, body: '{"ok":true}', request_hash: 'h'}})
      expect(await a.transact((tx) => tx.claimIdempotency('acct:test', 'key-1', iso(T0 + 86_400_000)))).toEqual({state: 'claimed'})
      expect(await a.transact((tx) => tx.claimIdempotency('acct:live', 'key-1', now))).toEqual({state: 'claimed'})
      expect(await a.purgeIdempotency(iso(T0 + 86_400_000))).toBe(1)
    })

    it('a deferred claim of a key with a live record: answered by the claim, or by its commit failing without replacing the record; the next claim looks', async () => {
      const now = iso(T0)
      const day = 86_400_000
      const rec = (hash: string, at = T0) => ({scope: 'acct:test', key: 'key-d', request_hash: hash, status: 201, body: `{"h":"${hash}"}`, created_at: iso(at), expires_at: iso(at + day)})
      await a.transact(async (tx) => {
        expect((await tx.claimIdempotency('acct:test', 'key-d', now, {defer: true})).state).toBe('claimed')
        tx.commit({idempotency: rec('first')})
      })
      const outcome = await b
        .transact(async (tx) => {
          const c = await tx.claimIdempotency('acct:test', 'key-d', now, {defer: true})
          if (c.state === 'recorded') return c.record.request_hash
          expect(c.state).toBe('claimed')
          // a deferred claim can still be asked (a unit that ends in an error that is not recorded)
          if (c.state === 'claimed') expect(await c.deferred!.lookup()).toMatchObject({request_hash: 'first', body: '{"h":"first"}'})
          tx.commit({idempotency: rec('second')})
          return 'committed'
        })
        .catch((e: unknown) => e)
      if (outcome !== 'first') expect(outcome).toBeInstanceOf(VersionConflictError)
      expect(await b.transact((tx) => tx.claimIdempotency('acct:test', 'key-d', now, {defer: true}))).toMatchObject({state: 'recorded', record: {request_hash: 'first'}})
      // once expired, a deferred claim's record takes the key
      await a.transact(async (tx) => {
        expect((await tx.claimIdempotency('acct:test', 'key-d', iso(T0 + day), {defer: true})).state).toBe('claimed')
        tx.commit({idempotency: rec('third', T0 + day)})
      })
      expect(await a.transact((tx) => tx.claimIdempotency('acct:test', 'key-d', iso(T0 + day)))).toMatchObject({state: 'recorded', record: {request_hash: 'third'}})
    })

    it("an idempotency body that is an event's data.object comes back byte for byte; a body that is not stays a copy", async () => {
      const obj = JSON.stringify({id: 'pay_1', object: 'payment', amount: 5, note: 'ü "quoted" \\n'})
      const e = {id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0), json: `{"id":"x","object":"event","type":"payment.succeeded","created_at":"${iso(T0)}","livemode":false,"request_id":null,"data":{"object":${obj}}}`}
      const rec = (key: string, body: string) => ({scope: 's', key, request_hash: 'h', status: 201, body, body_of_event: e.id, created_at: iso(T0), expires_at: iso(T0 + 60_000)})
      await a.commit({events: [e], idempotency: rec('k-ref', obj)})
      await a.commit({idempotency: rec('k-copy', obj.replace('5', '6'))})
      const ref = await b.transact((tx) => tx.claimIdempotency('s', 'k-ref', iso(T0)))
      expect(ref).toMatchObject({state: 'recorded', record: {body: obj, status: 201}})
      expect(ref.state === 'recorded' && 'body_of_event' in ref.record).toBe(false)
      const copy = await b.transact((tx) => tx.claimIdempotency('s', 'k-copy', iso(T0)))
      expect(copy).toMatchObject({state: 'recorded', record: {body: obj.replace('5', '6')}})
    })

    it('a claim without a record is free again after its unit of work ends', async () => {
      expect(await a.transact((tx) => tx.claimIdempotency('s', 'k', iso(T0)))).toEqual({state: 'claimed'})
      expect(await b.transact((tx) => tx.claimIdempotency('s', 'k', iso(T0)))).toEqual({state: 'claimed'})
    })
  })
}
