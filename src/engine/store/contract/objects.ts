// The store contract: objects, lists and cursors (part of storeContract, store-contract.ts).
import {beforeEach, describe, expect, it} from 'vitest'
import {type AccountStore, type ChangeSet, type StoredObject, VersionConflictError} from '../../ports/store.js'
import {type Bound, type ContractHandles, iso, nextId, Pay, pay, put, sleep, T0} from './helpers.js'

let h: ContractHandles
let a: AccountStore
let b: AccountStore

export function objectsCases(bound: () => Bound): void {
  describe('objects', () => {
    beforeEach(() => void ({h, a, b} = bound()))
    it('keeps the public JSON and the internal part apart, and bumps the version per write', async () => {
      const p = pay({_x: {secret: 's1'}})
      await a.commit({puts: [{kind: 'payment', obj: p}]})
      const got = await b.get<Pay>('payment', p.id)
      expect(got).toEqual({obj: p, version: 1})
      await a.commit({puts: [put('payment', {...p, status: 'failed'}, 1)]})
      expect(await b.get<Pay>('payment', p.id)).toMatchObject({obj: {status: 'failed', _x: {secret: 's1'}}, version: 2})
      expect(await a.get('payment', 'pay_missing')).toBeUndefined()
    })

    it('a change set lands whole or not at all', async () => {
      const p = pay()
      await a.commit({puts: [{kind: 'payment', obj: p}]})
      const q = pay()
      const cs: ChangeSet = {
        puts: [{kind: 'payment', obj: q}, put('payment', {...p, status: 'x'}, 7)],
        events: [{id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0), json: '{}'}],
        addJobs: [{id: nextId('job'), kind: 'k', ref: q.id, due_at: iso(T0)}],
        settings: {atomic: 'yes'},
      }
      await expect(a.commit(cs)).rejects.toBeInstanceOf(VersionConflictError)
      expect(await b.get('payment', q.id)).toBeUndefined()
      expect((await b.listEvents({limit: 10})).data).toEqual([])
      expect(await b.claimJobs(iso(T0 + 86_400_000), 10, 60_000)).toEqual([])
      expect(await b.getSetting('atomic')).toBeUndefined()
      expect((await b.get<Pay>('payment', p.id))!.obj.status).toBe('succeeded')
    })

    it('change sets committed together: one that fails rolls back alone, the others land whole, in order', async () => {
      const p = pay()
      await a.commit({puts: [{kind: 'payment', obj: p}]})
      // large enough to be stored packed, where a store packs
      const big = (n: number) => pay({reference: `order-${n}-` + 'x'.repeat(3000)})
      const evt = (n: number) => ({id: nextId('evt'), type: 'payment.created', created_at: iso(T0), json: JSON.stringify({n, pad: 'y'.repeat(2000)})})
      const made = Array.from({length: 12}, (_, n) => big(n))
      const sets: ChangeSet[] = made.map((obj, n) => ({puts: [{kind: 'payment', obj}], events: [evt(n)]}))
      // the 4th moves p to version 2; the 8th still expects version 1 (it loses, and only it)
      sets[3]!.puts!.push(put('payment', {...p, status: 'four'}, 1))
      sets[7]!.puts!.push(put('payment', {...p, status: 'eight'}, 1))
      const results = await Promise.allSettled(sets.map((cs) => a.commit(cs)))
      expect(results.map((r) => r.status)).toEqual(made.map((_, n) => (n === 7 ? 'rejected' : 'fulfilled')))
      expect((results[7] as PromiseRejectedResult).reason).toBeInstanceOf(VersionConflictError)
      expect(await b.get<Pay>('payment', p.id)).toMatchObject({obj: {status: 'four'}, version: 2})
      for (const [n, obj] of made.entries()) expect((await b.get<Pay>('payment', obj.id))?.obj).toEqual(n === 7 ? undefined : obj)
      const events = (await b.listEvents({limit: 20})).data.reverse()
      expect(events.map((e) => JSON.parse(e.json).n)).toEqual([0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11])
      const seqs = events.map((e) => e.seq)
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i))
    })

    it('an internal kind (ledger entries) comes back exactly as it was put, nulls and all', async () => {
      const le = {id: nextId('le'), object: 'ledger_entry', type: 'refund', amount: -250, currency: 'EUR', payment: 'pay_9', source: null, provider: 'prov_x', reference: 'order-9', available_at: iso(T0 + 5), created_at: iso(T0)}
      await a.commit({puts: [put('ledger_entry', le)]})
      expect((await b.get('ledger_entry', le.id))!.obj).toEqual(le)
      expect(await b.all('ledger_entry', [{field: 'payment', op: 'eq', value: 'pay_9'}])).toEqual([le])
      expect((await b.list('ledger_entry', {limit: 5})).data).toEqual([le])
    })

    it('any string a client sends, NUL included, is stored, filtered on and looked up without an error', async () => {
      const p = pay({reference: 'ref\u0000nul\u0001', _x: {secret: 'in\u0000ternal'}})
      await a.commit({puts: [put('payment', p)]})
      expect((await b.get<Pay>('payment', p.id))!.obj).toEqual(p)
      expect((await b.all<Pay>('payment', [{field: 'reference', op: 'eq', value: 'ref\u0000nul\u0001'}])).map((x) => x.id)).toEqual([p.id])
      expect(await b.all('payment', [{field: 'reference', op: 'eq', value: 'ref'}])).toEqual([])
      expect(await b.get('payment', 'pay_\u0000')).toBeUndefined()
      expect((await b.list('payment', {limit: 1, starting_after: 'pay_\u0000'})).cursor_missing).toBe('starting_after')
      expect(await b.getEvent('evt_\u0000')).toBeUndefined()
      await b.transact(async (tx) => {
        await tx.lock('pay_\u0000')
        expect(await tx.claimIdempotency('acct:test', 'key\u0000', iso(T0))).toEqual({state: 'claimed'})
      })
    })

    it('an insert of an existing id fails', async () => {
      const p = pay()
      await a.commit({puts: [{kind: 'payment', obj: p}]})
      await expect(b.commit({puts: [{kind: 'payment', obj: p}]})).rejects.toThrow()
    })

    it('two writers of the same version: one wins, the other gets a VersionConflictError', async () => {
      const p = pay()
      await a.commit({puts: [{kind: 'payment', obj: p}]})
      const results = await Promise.allSettled([
        a.commit({puts: [put('payment', {...p, status: 'one'}, 1)]}),
        b.commit({puts: [put('payment', {...p, status: 'two'}, 1)]}),
      ])
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
      expect(lost.reason).toBeInstanceOf(VersionConflictError)
      expect((await a.get('payment', p.id))!.version).toBe(2)
    })

    it('filters on typed fields: text, bool, int and time, with eq, gte, lte, prefix, in and null', async () => {
      const ps = [pay({status: 'failed', reference: 'order-1', customer: 'cus_1'}), pay({reference: 'order-2'}), pay({reference: 'other', created_at: iso(T0 + 5000)})]
      await a.commit({puts: ps.map((obj) => put('payment', obj))})
      const ids = async (filters: Parameters<AccountStore['all']>[1] & object) => (await b.all<Pay>('payment', filters)).map((p) => p.id)
      expect(await ids([{field: 'status', op: 'eq', value: 'failed'}])).toEqual([ps[0]!.id])
      expect(await ids([{field: 'reference', op: 'prefix', value: 'order-'}])).toEqual([ps[0]!.id, ps[1]!.id])
      expect(await ids([{field: 'reference', op: 'in', value: ['other', 'order-2']}])).toEqual([ps[1]!.id, ps[2]!.id])
      expect(await ids([{field: 'customer', op: 'eq', value: null}])).toEqual([ps[1]!.id, ps[2]!.id])
      expect(await ids([{field: 'created_at', op: 'gte', value: iso(T0 + 1)}])).toEqual([ps[2]!.id])
      expect(await ids([{field: 'created_at', op: 'lte', value: iso(T0)}])).toEqual([ps[0]!.id, ps[1]!.id])
      // count: the same filters, one number
      expect(await b.count('payment', [{field: 'reference', op: 'prefix', value: 'order-'}])).toBe(2)
      expect(await b.count('payment', [{field: 'created_at', op: 'gte', value: iso(T0 + 1)}])).toBe(1)
      expect(await b.count('payment')).toBe(3)
      expect(await b.count('refund')).toBe(0)
      // earliest: the least time over the same filters, nothing when none matches
      expect(await b.earliest('payment', 'created_at')).toBe(iso(T0))
      expect(await b.earliest('payment', 'created_at', [{field: 'reference', op: 'eq', value: 'other'}])).toBe(iso(T0 + 5000))
      expect(await b.earliest('payment', 'created_at', [{field: 'created_at', op: 'gte', value: iso(T0 + 5001)}])).toBeUndefined()
      expect(await b.transact((tx) => tx.earliest('payment', 'created_at', [{field: 'created_at', op: 'gte', value: iso(T0 + 1)}]))).toBe(iso(T0 + 5000))
      await expect(b.earliest('payment', 'reference')).rejects.toThrow(/not a time field/)

      const ep = (disabled: boolean) => ({id: nextId('wh'), object: 'webhook_endpoint', disabled, created_at: iso(T0)})
      const eps = [ep(true), ep(false)]
      await a.commit({puts: eps.map((obj) => put('webhook_endpoint', obj))})
      expect((await b.all<StoredObject>('webhook_endpoint', [{field: 'disabled', op: 'eq', value: true}])).map((e) => e.id)).toEqual([eps[0]!.id])
      expect((await b.all<StoredObject>('webhook_endpoint', [{field: 'disabled', op: 'eq', value: false}])).map((e) => e.id)).toEqual([eps[1]!.id])

      const le = (amount: number, currency: string, available_at: string) => ({id: nextId('le'), object: 'ledger_entry', amount, currency, type: 'payment', payment: 'pay_1', available_at, created_at: iso(T0)})
      await a.commit({puts: [le(700, 'EUR', iso(T0)), le(-200, 'EUR', iso(T0 + 10)), le(300, 'EUR', iso(T0 + 99_000)), le(5, 'USD', iso(T0))].map((obj) => put('ledger_entry', obj))})
      expect(await b.sum('ledger_entry', {field: 'amount', groupBy: 'currency'})).toEqual([
        {group: 'EUR', sum: 800},
        {group: 'USD', sum: 5},
      ])
      expect(await b.sum('ledger_entry', {field: 'amount', groupBy: 'currency', filters: [{field: 'available_at', op: 'lte', value: iso(T0 + 10)}]})).toEqual([
        {group: 'EUR', sum: 500},
        {group: 'USD', sum: 5},
      ])
      expect(await b.all('ledger_entry', [{field: 'amount', op: 'lte', value: 0}])).toHaveLength(1)
      const gone = pay()
      await a.commit({puts: [{kind: 'payment', obj: gone}]})
      await a.commit({deletes: [{kind: 'payment', id: gone.id}]})
      expect(await b.get('payment', gone.id)).toBeUndefined()
    })
  })

  describe('lists and cursors', () => {
    beforeEach(() => void ({h, a, b} = bound()))
    it('newest first; starting_after older, ending_before newer; has_more in the paged direction; unknown cursors', async () => {
      const ps = Array.from({length: 5}, (_, i) => pay({reference: `p${i}`}))
      for (const p of ps) await a.commit({puts: [{kind: 'payment', obj: p}]})
      const refs = (page: {data: Pay[]}) => page.data.map((p) => p.reference)
      const first = await b.list<Pay>('payment', {limit: 2})
      expect(refs(first)).toEqual(['p4', 'p3'])
      expect(first.has_more).toBe(true)
      const second = await b.list<Pay>('payment', {limit: 2, starting_after: ps[3]!.id})
      expect(refs(second)).toEqual(['p2', 'p1'])
      const last = await b.list<Pay>('payment', {limit: 2, starting_after: ps[1]!.id})
      expect(refs(last)).toEqual(['p0'])
      expect(last.has_more).toBe(false)
      const back = await b.list<Pay>('payment', {limit: 2, ending_before: ps[1]!.id})
      expect(refs(back)).toEqual(['p3', 'p2'])
      expect(back.has_more).toBe(true)
      const filtered = await b.list<Pay>('payment', {limit: 10, starting_after: ps[4]!.id, filters: [{field: 'reference', op: 'in', value: ['p0', 'p3']}]})
      expect(refs(filtered)).toEqual(['p3', 'p0'])
      expect(await b.list('payment', {limit: 2, starting_after: 'pay_nope'})).toEqual({data: [], has_more: false, cursor_missing: 'starting_after'})
      expect((await b.list('payment', {limit: 2, ending_before: 'pay_nope'})).cursor_missing).toBe('ending_before')
    })

    it('paging while others insert never repeats an object and never skips one that existed', async () => {
      const before = Array.from({length: 30}, () => pay())
      for (const p of before) await a.commit({puts: [{kind: 'payment', obj: p}]})
      let inserting = true
      const writer = (async () => {
        while (inserting) {
          await a.commit({puts: [{kind: 'payment', obj: pay()}]})
          await sleep(1)
        }
      })()
      const seen: string[] = []
      let cursor: string | undefined
      for (;;) {
        const page = await b.list<Pay>('payment', {limit: 4, starting_after: cursor})
        seen.push(...page.data.map((p) => p.id))
        if (!page.has_more) break
        cursor = page.data[page.data.length - 1]!.id
        await sleep(2)
      }
      inserting = false
      await writer
      expect(new Set(seen).size).toBe(seen.length)
      for (const p of before) expect(seen).toContain(p.id)
    })
  })
}
