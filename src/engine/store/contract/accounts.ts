// The store contract: accounts (part of storeContract, store-contract.ts).
import {beforeEach, describe, expect, it} from 'vitest'
import {type AccountStore, type ChangeNotice, VersionConflictError} from '../../ports/store.js'
import {ACCT, type Bound, type ContractHandles, iso, nextId, OTHER, Pay, pay, put, sleep, T0} from './helpers.js'

let h: ContractHandles
let a: AccountStore
let b: AccountStore

export function accountsCases(bound: () => Bound): void {
  describe('accounts', () => {
    beforeEach(() => void ({h, a, b} = bound()))
    it("one account never sees another's objects, lists, cursors, events, jobs, settings, statistics or idempotency records", async () => {
      const o = h.b.account(OTHER)
      const p = pay({reference: 'same-ref'})
      const e = {id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0), json: '{"a":1}'}
      await a.commit({
        puts: [put('payment', p), put('customer', {id: nextId('cus'), object: 'customer', email: 'ada@example.com', created_at: iso(T0)})],
        events: [e],
        addJobs: [{id: nextId('job'), kind: 'k', ref: p.id, due_at: iso(T0)}],
        settings: {clock_offset_ms: '1000'},
        stats: [{provider: 'prov_a', day: '2030-01-01', approved: 1, total: 1}],
        idempotency: {scope: `${ACCT}:test`, key: 'k', request_hash: 'h', status: 201, body: '{}', created_at: iso(T0), expires_at: iso(T0 + 60_000)},
      })
      expect(await o.get('payment', p.id)).toBeUndefined()
      expect((await o.list('payment', {limit: 10})).data).toEqual([])
      expect(await o.all('payment', [{field: 'reference', op: 'eq', value: 'same-ref'}])).toEqual([])
      expect(await o.all('customer', [{field: 'email', op: 'eq', value: 'ada@example.com'}])).toEqual([])
      // a cursor naming another account's object is no cursor: the same answer as an unknown id
      expect(await o.list('payment', {limit: 5, starting_after: p.id})).toEqual({data: [], has_more: false, cursor_missing: 'starting_after'})
      expect(await o.getEvent(e.id)).toBeUndefined()
      expect((await o.listEvents({limit: 10})).data).toEqual([])
      expect(await o.eventsAfter(0, 10)).toEqual([])
      expect(await o.claimJobs(iso(T0 + 1000), 10, 60_000)).toEqual([])
      expect(await o.getSetting('clock_offset_ms')).toBeUndefined()
      expect(await o.statsSince('2030-01-01')).toEqual([])
      expect(await o.sum('ledger_entry', {field: 'amount', groupBy: 'currency'})).toEqual([])
      expect(await o.purgeEvents(iso(T0 + 1000))).toBe(0)
      expect(await o.purgeIdempotency(iso(T0 + 120_000))).toBe(0)
      // an update or delete of another account's object through this account changes nothing
      await expect(o.commit({puts: [put('payment', {...p, status: 'hijacked'}, 1)]})).rejects.toBeInstanceOf(VersionConflictError)
      await o.commit({deletes: [{kind: 'payment', id: p.id}]})
      expect((await b.get<Pay>('payment', p.id))!.obj.status).toBe('succeeded')
      // and the account itself still sees all of it
      expect((await b.list('payment', {limit: 10})).data).toHaveLength(1)
      expect((await b.listEvents({limit: 10})).data.map((x) => x.id)).toEqual([e.id])
      expect(await b.getSetting('clock_offset_ms')).toBe('1000')
    })

    it('ids are unique per account: the same id in two accounts is two objects, two events, two jobs', async () => {
      const o = h.b.account(OTHER)
      const p = pay({reference: 'mine'})
      const e = {id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0), json: '{"mine":true}'}
      const j = {id: nextId('job'), kind: 'k', ref: p.id, due_at: iso(T0)}
      await a.commit({puts: [put('payment', p)], events: [e], addJobs: [j]})
      await o.commit({puts: [put('payment', {...p, reference: 'theirs'})], events: [{...e, json: '{"mine":false}'}], addJobs: [j]})
      expect((await b.get<Pay>('payment', p.id))!.obj.reference).toBe('mine')
      expect((await o.get<Pay>('payment', p.id))!.obj.reference).toBe('theirs')
      expect((await b.getEvent(e.id))!.json).toBe('{"mine":true}')
      expect((await o.getEvent(e.id))!.json).toBe('{"mine":false}')
      // an update in one account leaves the other's object alone
      await o.commit({puts: [put('payment', {...p, reference: 'theirs', status: 'failed'}, 1)]})
      expect((await b.get<Pay>('payment', p.id))!.obj.status).toBe('succeeded')
      const [mine] = await b.claimJobs(iso(T0), 5, 60_000)
      const [theirs] = await o.claimJobs(iso(T0), 5, 60_000)
      expect([mine?.id, theirs?.id]).toEqual([j.id, j.id])
      await b.commit({completeJobs: [mine!]})
      await o.releaseJobs([theirs!])
      expect((await o.claimJobs(iso(T0), 5, 60_000)).map((x) => x.id)).toEqual([j.id])
      // a delivery of the same id and endpoint in both: claimed once each
      const d = {id: nextId('whd'), object: 'webhook_delivery', event: e.id, endpoint: 'wh_same', status: 'pending', next_attempt_at: iso(T0), created_at: iso(T0)}
      await a.commit({puts: [put('delivery', d)]})
      await o.commit({puts: [put('delivery', d)]})
      const claimed = await h.a.claimDeliveries(() => iso(T0), {limit: 10, perEndpoint: 1, leaseMs: 60_000})
      expect(claimed.map((c) => c.account).sort()).toEqual([ACCT, OTHER].sort())
    })

    it('locks and settings of the same name are per account', async () => {
      const o = h.b.account(OTHER)
      let release!: () => void
      const holding = a.transact(async (tx) => {
        await tx.lock('setting:clock_offset_ms')
        await new Promise<void>((r) => (release = r))
      })
      await sleep(10)
      // not blocked by the same key in another account
      await o.transact(async (tx) => tx.lock('setting:clock_offset_ms'))
      expect(await o.addToSetting('clock_offset_ms', 5)).toBe(5)
      release()
      await holding
      expect(await a.addToSetting('clock_offset_ms', 7)).toBe(7)
    })

    it('locate finds an object by id (or a key by its hash) whatever account holds it', async () => {
      const p = pay()
      await h.a.account(OTHER).commit({puts: [put('payment', p), put('api_key', {id: nextId('key'), object: 'api_key', type: 'secret', created_at: iso(T0), _x: {secret_hash: 'hash-1'}})]})
      expect(await h.b.locate('payment', 'id', p.id)).toEqual({account: OTHER, obj: p})
      expect(await h.b.locate('payment', 'id', 'pay_missing')).toBeUndefined()
      expect(await h.b.locate('api_key', 'secret_hash', 'hash-1')).toMatchObject({account: OTHER, obj: {type: 'secret', _x: {secret_hash: 'hash-1'}}})
      // the internal part is never in the public JSON, though its field is a column
      expect((await h.b.account(OTHER).all('api_key', [{field: 'secret_hash', op: 'eq', value: 'hash-1'}])).length).toBe(1)
    })

    it('nextJobs gives each account its earliest due job; claims follow each account', async () => {
      await a.commit({addJobs: [{id: nextId('job'), kind: 'k', ref: 'a1', due_at: iso(T0 + 5000)}, {id: nextId('job'), kind: 'k', ref: 'a2', due_at: iso(T0 + 1000)}]})
      await h.a.account(OTHER).commit({addJobs: [{id: nextId('job'), kind: 'k', ref: 'o1', due_at: iso(T0 + 3000)}]})
      const next = await h.b.nextJobs()
      expect(next.filter((n) => n.account === ACCT || n.account === OTHER).sort((x, y) => x.account.localeCompare(y.account))).toEqual([
        {account: ACCT, due_at: iso(T0 + 1000)},
        {account: OTHER, due_at: iso(T0 + 3000)},
      ])
      expect((await b.claimJobs(iso(T0 + 10_000), 10, 60_000)).map((j) => j.ref)).toEqual(['a2', 'a1'])
    })

    it("deliveries are due on their own account's clock", async () => {
      const d = (endpoint: string) => ({id: nextId('whd'), object: 'webhook_delivery', event: 'evt_1', endpoint, status: 'pending', next_attempt_at: iso(T0 + 60_000), created_at: iso(T0)})
      const mine = d('wh_mine')
      const theirs = d('wh_theirs')
      await a.commit({puts: [put('delivery', mine)]})
      await h.a.account(OTHER).commit({puts: [put('delivery', theirs)]})
      // the other account's clock has been advanced past the due time, this one's has not
      const nowOf = (account: string) => (account === OTHER ? iso(T0 + 120_000) : iso(T0))
      const got = await h.a.claimDeliveries(nowOf, {limit: 10, perEndpoint: 10, leaseMs: 60_000})
      expect(got.map((x) => [x.account, x.id])).toEqual([[OTHER, theirs.id]])
    })

    it('change notices name their account; an account view hears only its own', async () => {
      const all: ChangeNotice[] = []
      const own: ChangeNotice[] = []
      const offAll = h.b.onChange((n) => all.push(n))
      const offOwn = b.onChange((n) => own.push(n))
      // (other instances' commits are heard from when following() resolves)
      await h.b.following()
      await h.a.account(OTHER).commit({puts: [put('payment', pay())]})
      await a.commit({puts: [put('customer', {id: nextId('cus'), object: 'customer', created_at: iso(T0)})]})
      for (let i = 0; i < 200 && !(all.some((n) => n.account === OTHER) && own.length); i++) await sleep(5)
      offAll()
      offOwn()
      expect(all.find((n) => n.account === OTHER)!.kinds.has('payment')).toBe(true)
      expect(own.every((n) => n.account === ACCT)).toBe(true)
      expect(own.some((n) => n.kinds.has('customer'))).toBe(true)
    })

    it("a change set may write another account's objects, jobs and settings in the same transaction (creating an account)", async () => {
      const acct = {id: nextId('acct'), object: 'account', created_at: iso(T0)}
      const key = {id: nextId('key'), object: 'api_key', type: 'secret', created_at: iso(T0), _x: {secret_hash: `hash-${acct.id}`}}
      const notices: ChangeNotice[] = []
      const off = h.b.onChange((n) => notices.push(n))
      await h.b.following()
      await a.commit({
        puts: [put('account', acct)],
        also: [{account: OTHER, changes: {puts: [put('api_key', key)], addJobs: [{id: nextId('job'), kind: 'settlement.run', ref: 'settlement', due_at: iso(T0)}], settings: {scheduled: '1'}}}],
      })
      expect((await b.get('account', acct.id))?.obj).toEqual(acct)
      const o = h.b.account(OTHER)
      expect(await o.get('account', acct.id)).toBeUndefined()
      expect((await o.get('api_key', key.id))?.obj).toEqual(key)
      expect(await b.get('api_key', key.id)).toBeUndefined()
      expect(await o.getSetting('scheduled')).toBe('1')
      expect((await o.claimJobs(iso(T0), 5, 60_000)).map((j) => j.kind)).toEqual(['settlement.run'])
      expect(await h.b.locate('api_key', 'secret_hash', `hash-${acct.id}`)).toMatchObject({account: OTHER})
      for (let i = 0; i < 200 && !(notices.some((n) => n.account === OTHER) && notices.some((n) => n.account === ACCT)); i++) await sleep(5)
      off()
      expect(notices.find((n) => n.account === OTHER)).toMatchObject({dueBy: iso(T0)})
      expect(notices.find((n) => n.account === OTHER)!.kinds.has('api_key')).toBe(true)
      expect(notices.find((n) => n.account === ACCT)!.kinds.has('account')).toBe(true)
      // all of it, or none of it
      const clash = {id: nextId('acct'), object: 'account', created_at: iso(T0)}
      await expect(a.commit({puts: [put('account', clash)], also: [{account: OTHER, changes: {puts: [put('api_key', key)]}}]})).rejects.toThrow()
      expect(await b.get('account', clash.id)).toBeUndefined()
    })

    it('purging an account deletes everything of it, in one commit of the platform account, and nothing of another', async () => {
      const victim = h.a.account(OTHER)
      const p = pay()
      await victim.commit({
        puts: [put('payment', p), put('delivery', {id: nextId('whd'), object: 'webhook_delivery', event: 'e', endpoint: 'wh_v', status: 'pending', next_attempt_at: iso(T0), created_at: iso(T0)})],
        events: [{id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0), json: '{}'}],
        addJobs: [{id: nextId('job'), kind: 'k', ref: p.id, due_at: iso(T0)}],
        settings: {clock_offset_ms: '5'},
        stats: [{provider: 'prov_a', day: '2030-01-01', approved: 1, total: 1}],
        idempotency: {scope: `${OTHER}:test`, key: 'k', request_hash: 'h', status: 201, body: '{}', created_at: iso(T0), expires_at: iso(T0 + 60_000)},
      })
      const keep = pay()
      await a.commit({puts: [put('payment', keep)]})
      const notices: ChangeNotice[] = []
      const off = h.b.onChange((n) => notices.push(n))
      await h.b.following()
      await a.commit({purgeAccount: OTHER})
      const v = h.b.account(OTHER)
      expect(await v.get('payment', p.id)).toBeUndefined()
      expect((await v.listEvents({limit: 5})).data).toEqual([])
      expect(await v.claimJobs(iso(T0), 5, 60_000)).toEqual([])
      expect(await v.getSetting('clock_offset_ms')).toBeUndefined()
      expect(await v.statsSince('2000-01-01')).toEqual([])
      expect(await v.transact((tx) => tx.claimIdempotency(`${OTHER}:test`, 'k', iso(T0)))).toEqual({state: 'claimed'})
      expect(await h.b.claimDeliveries(() => iso(T0 + 1), {limit: 10, perEndpoint: 10, leaseMs: 60_000})).toEqual([])
      expect((await b.get('payment', keep.id))?.obj).toEqual(keep)
      for (let i = 0; i < 200 && !notices.some((n) => n.purged); i++) await sleep(5)
      off()
      expect(notices.find((n) => n.purged)?.account).toBe(OTHER)
    })
  })
}
