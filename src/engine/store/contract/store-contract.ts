// The store contract: what every Store adapter must do, written against the port only.
// store/sqlite and store/postgres each run it from a *.test.ts of their own.
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {VersionConflictError, type AccountStore, type ChangeNotice, type ChangeSet, type Kind, type Put, type Store, type StoredObject} from '../../ports/store.js'

export interface ContractHandles {
  /** two handles on the same data: two engine instances where the adapter supports several, else the same store twice */
  a: Store
  b: Store
  /**
   * The instance behind `a` dies: its process is gone, nothing is cleaned up, what it held is
   * not released by it (PostgreSQL: its connections are cut). Returns a store to go on with on
   * the same data: `b` where the adapter runs several instances, else a new instance in place of
   * the dead one. `a` is not used afterwards (close() still closes it).
   */
  kill(): Promise<Store>
  close(): Promise<void>
}

interface Pay extends StoredObject {
  object: 'payment'
  status: string
  reference: string
  customer: string | null
  merchant: string | null
  amount: number
  _x?: {secret: string}
}

let n = 0
/** ids that sort by creation, like the engine's */
const nextId = (prefix: string) => `${prefix}_${String(Date.now()).padStart(14, '0')}${String(++n).padStart(8, '0')}`
const iso = (ms: number) => new Date(ms).toISOString()
const T0 = Date.parse('2030-01-01T00:00:00.000Z')
const ACCT = 'acct_contract'
const OTHER = 'acct_other'

function pay(over: Partial<Pay> = {}): Pay {
  return {id: nextId('pay'), object: 'payment', status: 'succeeded', reference: 'r', customer: null, merchant: null, amount: 100, created_at: iso(T0), ...over}
}

/** a Put of any object (the tests write objects of their own shapes) */
const put = (kind: Kind, obj: object, expectVersion?: number): Put => ({kind, obj: obj as StoredObject, ...(expectVersion === undefined ? {} : {expectVersion})})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** an event's data.object bytes */
const dataObject = (json: string) => json.slice(json.indexOf('"data":{"object":') + 17, -2)

export function storeContract(name: string, open: () => Promise<ContractHandles>): void {
  describe(`Store contract: ${name}`, () => {
    let h: ContractHandles
    /** one account's data through the two handles */
    let a: AccountStore
    let b: AccountStore
    beforeEach(async () => {
      h = await open()
      a = h.a.account(ACCT)
      b = h.b.account(ACCT)
    })
    afterEach(async () => h.close())

    describe('objects', () => {
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

    describe('units of work', () => {
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

    describe('timeline jobs', () => {
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

    describe('events and the change feed', () => {
      it('events get a seq in commit order; listEvents filters by type, prefix and time; eventsAfter resumes', async () => {
        const ev = (type: string, at: number) => ({id: nextId('evt'), type, created_at: iso(T0 + at), json: JSON.stringify({type})})
        const es = [ev('payment.succeeded', 0), ev('payment.failed', 1), ev('refund.failed', 2), ev('dispute.created', 3)]
        for (const e of es) await a.commit({events: [e]})
        const logged = await Promise.all(es.map((e) => b.getEvent(e.id)))
        const seqs = logged.map((e) => e!.seq)
        expect([...seqs].sort((x, y) => x - y)).toEqual(seqs)
        expect(logged[0]!.json).toBe(es[0]!.json)
        expect((await b.listEvents({limit: 10})).data.map((e) => e.type)).toEqual(['dispute.created', 'refund.failed', 'payment.failed', 'payment.succeeded'])
        expect((await b.listEvents({limit: 10, typePrefixes: ['payment.'], types: ['refund.failed']})).data).toHaveLength(3)
        expect((await b.listEvents({limit: 10, created_gte: iso(T0 + 2)})).data.map((e) => e.type)).toEqual(['dispute.created', 'refund.failed'])
        const page = await b.listEvents({limit: 1, starting_after: es[2]!.id})
        expect(page.data.map((e) => e.id)).toEqual([es[1]!.id])
        expect(page.has_more).toBe(true)
        expect((await b.eventsAfter(seqs[1]!, 10)).map((e) => e.id)).toEqual([es[2]!.id, es[3]!.id])
        expect(await b.purgeEvents(iso(T0 + 2))).toBe(2)
        expect(await b.getEvent(es[0]!.id)).toBeUndefined()
      })

      it('a seq is never given twice: after every event was purged the next one still comes after them (readers resume by seq)', async () => {
        const ev = (at: number) => ({id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0 + at), json: '{}'})
        const first = [ev(0), ev(1)]
        for (const e of first) await a.commit({events: [e]})
        const high = (await b.getEvent(first[1]!.id))!.seq
        expect(await b.purgeEvents(iso(T0 + 10))).toBe(2)
        const later = ev(20)
        await a.commit({events: [later]})
        expect((await b.getEvent(later.id))!.seq).toBeGreaterThan(high)
        expect((await b.eventsAfter(high, 10)).map((e) => e.id)).toEqual([later.id])
      })

      it('events committed concurrently by two instances are read back in seq order without gaps filling in later', async () => {
        const seen: number[] = []
        let last = 0
        let reading = true
        const reader = (async () => {
          while (reading) {
            const got = await b.eventsAfter(last, 100)
            for (const e of got) seen.push(e.seq)
            if (got.length) last = got[got.length - 1]!.seq
            await sleep(1)
          }
        })()
        await Promise.all(Array.from({length: 60}, (_, i) => (i % 2 ? a : b).commit({events: [{id: nextId('evt'), type: 't.x', created_at: iso(T0), json: '{}'}]})))
        await sleep(20)
        reading = false
        await reader
        const final = await a.eventsAfter(0, 1000)
        expect(seen).toEqual(final.map((e) => e.seq))
      })

      it('notifies every instance after a commit is durable: kinds, settings, event seq, earliest due', async () => {
        const notices: ChangeNotice[] = []
        const off = b.onChange((n) => notices.push(n))
        const p = pay()
        const e = {id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0), json: '{}'}
        await a.commit({puts: [{kind: 'payment', obj: p}], events: [e], settings: {clock_offset_ms: '5'}, addJobs: [{id: nextId('job'), kind: 'k', ref: 'r', due_at: iso(T0 + 7)}]})
        for (let i = 0; i < 200 && !notices.some((x) => x.eventSeq !== null); i++) await sleep(5)
        off()
        const n = notices.find((x) => x.eventSeq !== null)!
        expect(n.kinds.has('payment')).toBe(true)
        expect(n.settings).toContain('clock_offset_ms')
        expect(n.eventSeq).toBe((await a.getEvent(e.id))!.seq)
        expect(n.dueBy).toBe(iso(T0 + 7))
      })
    })

    describe('a change listener that throws (issue 33)', () => {
      it('the other listeners still hear every notice, the commit is not failed by it, and the failure goes to onListenerError with the account', async () => {
        const failures: {account: string; message: string}[] = []
        h.a.onListenerError((e, account) => failures.push({account, message: (e as Error).message}))
        const offBad = h.a.onChange(() => {
          throw new Error('a listener that cannot take this value')
        })
        const heard: ChangeNotice[] = []
        const offGood = h.a.onChange((n) => heard.push(n))
        await a.commit({settings: {clock_offset_ms: '7'}})
        for (let i = 0; i < 200 && !heard.some((n) => n.settings.includes('clock_offset_ms')); i++) await sleep(5)
        offBad()
        offGood()
        expect(heard.some((n) => n.account === ACCT && n.settings.includes('clock_offset_ms'))).toBe(true)
        expect(failures.some((f) => f.account === ACCT && f.message.includes('cannot take'))).toBe(true)
        expect(await a.getSetting('clock_offset_ms')).toBe('7')
      })
    })

    describe('the fleet-wide exclusive section', () => {
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

    describe('an instance that dies', () => {
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

    describe('accounts', () => {
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

    describe('snapshots and event subjects', () => {
      it("events can be listed by their story's subject (the payment they concern, else their object), and by object within it", async () => {
        const ev = (type: string, object_id: string, payment: string | null) => ({id: nextId('evt'), type, created_at: iso(T0), json: '{}', object_id, payment})
        const es = [ev('payment.succeeded', 'pay_s', 'pay_s'), ev('refund.succeeded', 'rf_s', 'pay_s'), ev('dispute.created', 'dp_s', 'pay_s'), ev('payment.succeeded', 'pay_t', 'pay_t'), ev('merchant.updated', 'mer_s', null)]
        for (const e of es) await a.commit({events: [e]})
        expect((await b.listEvents({limit: 10, subject: 'pay_s'})).data.map((e) => e.type)).toEqual(['dispute.created', 'refund.succeeded', 'payment.succeeded'])
        expect((await b.listEvents({limit: 10, subject: 'pay_s', object: 'rf_s'})).data.map((e) => e.id)).toEqual([es[1]!.id])
        expect((await b.listEvents({limit: 10, subject: 'pay_s', object: 'pay_s'})).data.map((e) => e.id)).toEqual([es[0]!.id])
        expect((await b.listEvents({limit: 10, subject: 'rf_s'})).data).toEqual([])
        expect((await b.listEvents({limit: 10, subject: 'mer_s', types: ['merchant.updated']})).data).toHaveLength(1)
        expect((await h.b.account(OTHER).listEvents({limit: 10, subject: 'pay_s'})).data).toEqual([])
        await expect(b.listEvents({limit: 10, object: 'rf_s'})).rejects.toThrow(/subject/)
      })

      it("an account's rows come out whole (not its keys or the accounts it holds) and go back in, replacing what was there, into the same account or another", async () => {
        const p = pay({reference: 'snap', _x: {secret: 'kept'}})
        const le = {id: nextId('le'), object: 'ledger_entry', type: 'payment', amount: 700, currency: 'EUR', payment: p.id, source: null, provider: 'prov_x', reference: 'snap', available_at: iso(T0), created_at: iso(T0)}
        const e = {id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0), json: `{"id":"x","data":{"object":${JSON.stringify({id: p.id})}}}`, object_id: p.id, payment: p.id}
        const key = {id: nextId('key'), object: 'api_key', type: 'secret', created_at: iso(T0), _x: {secret_hash: `hash-snap-${p.id}`}}
        await a.commit({
          puts: [put('payment', p), put('ledger_entry', le), put('api_key', key)],
          events: [e],
          addJobs: [{id: nextId('job'), kind: 'k', ref: p.id, due_at: iso(T0 + 5), data: {n: 1}}],
          idempotency: {scope: `${ACCT}:test`, key: 'k-snap', request_hash: 'h', status: 201, body: dataObject(e.json), body_of_event: e.id, created_at: iso(T0), expires_at: iso(T0 + 60_000)},
          stats: [{provider: 'prov_a', day: '2030-01-01', approved: 2, total: 3}],
          settings: {clock_offset_ms: '5000'},
        })
        await a.commit({puts: [put('payment', {...p, status: 'refunded-ish'}, 1)]})
        const rows = await b.exportRows()
        expect(rows.objects.map((o) => [o.kind, o.obj.id, o.version])).toEqual([
          ['payment', p.id, 2],
          ['ledger_entry', le.id, 1],
        ])
        expect(rows.objects[0]!.obj).toMatchObject({_x: {secret: 'kept'}, status: 'refunded-ish'})
        expect(rows.events.map((x) => [x.id, x.json, x.object_id, x.payment])).toEqual([[e.id, e.json, p.id, p.id]])
        expect(rows.jobs).toMatchObject([{kind: 'k', ref: p.id, data: {n: 1}}])
        expect(rows.idempotency).toMatchObject([{key: 'k-snap', status: 201, body: dataObject(e.json)}])
        expect(rows.stats).toEqual([{provider: 'prov_a', day: '2030-01-01', approved: 2, total: 3}])
        expect(rows.settings).toEqual({clock_offset_ms: '5000'})

        // into another account that holds things of its own: they go, its keys stay
        const o = h.a.account(OTHER)
        const theirs = pay()
        const theirKey = {id: nextId('key'), object: 'api_key', type: 'secret', created_at: iso(T0), _x: {secret_hash: `hash-their-${theirs.id}`}}
        await o.commit({puts: [put('payment', theirs), put('api_key', theirKey)], settings: {other: '1'}})
        const notices: ChangeNotice[] = []
        const off = h.b.account(OTHER).onChange((n) => notices.push(n))
        await o.commit({restore: rows})
        const r = h.b.account(OTHER)
        expect(await r.get('payment', theirs.id)).toBeUndefined()
        expect(await r.get('payment', p.id)).toEqual({obj: {...p, status: 'refunded-ish'}, version: 2})
        expect((await r.get('ledger_entry', le.id))!.obj).toEqual(le)
        expect((await r.get('api_key', theirKey.id))!.obj).toEqual(theirKey)
        expect(await r.get('api_key', key.id)).toBeUndefined()
        expect((await r.getEvent(e.id))!.json).toBe(e.json)
        expect((await r.listEvents({limit: 5, subject: p.id})).data).toHaveLength(1)
        expect((await r.claimJobs(iso(T0 + 5), 5, 60_000)).map((j) => j.ref)).toEqual([p.id])
        expect(await r.transact((tx) => tx.claimIdempotency(`${ACCT}:test`, 'k-snap', iso(T0)))).toMatchObject({state: 'recorded', record: {body: dataObject(e.json)}})
        expect(await r.statsSince('2030-01-01')).toEqual(rows.stats)
        expect(await r.getSetting('clock_offset_ms')).toBe('5000')
        expect(await r.getSetting('other')).toBeUndefined()
        // the source is untouched
        expect((await b.get('payment', p.id))!.version).toBe(2)
        for (let i = 0; i < 200 && !notices.some((n) => n.restored); i++) await sleep(5)
        off()
        const n = notices.find((x) => x.restored)!
        expect(n.kinds.has('payment')).toBe(true)
        expect(n.settings).toContain('clock_offset_ms')
        expect(n.eventSeq).toBe((await r.getEvent(e.id))!.seq)
        // and back into the same account, over what it became since
        await a.commit({puts: [put('payment', pay({reference: 'later'}))]})
        await a.commit({restore: rows})
        expect((await b.list<Pay>('payment', {limit: 10})).data.map((x) => x.reference)).toEqual(['snap'])
        expect((await b.get('api_key', key.id))!.obj).toEqual(key)
      })

      it('rows staged in parts are nobody\'s until a commit puts them in place of the account\'s, all at once (issue 33)', async () => {
        const o = h.a.account(OTHER)
        const mine = pay({reference: 'mine'})
        const key = {id: nextId('key'), object: 'api_key', type: 'secret', created_at: iso(T0), _x: {secret_hash: `hash-staged-${mine.id}`}}
        await o.commit({puts: [put('payment', mine), put('api_key', key)], settings: {'fleet.rate_limit': '7', clock_offset_ms: '1'}})
        const staged = o.stageRows()
        const ps = Array.from({length: 5}, (_, i) => pay({reference: `staged-${i}`}))
        const e = {id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0), json: `{"id":"x","data":{"object":${JSON.stringify({id: ps[0]!.id})}}}`, object_id: ps[0]!.id, payment: ps[0]!.id}
        const d = {id: nextId('whd'), object: 'webhook_delivery', event: e.id, endpoint: 'wh_1', status: 'pending', next_attempt_at: iso(T0), created_at: iso(T0)}
        await staged.add({objects: ps.slice(0, 3).map((x) => ({kind: 'payment' as Kind, obj: x, version: 2}))})
        await staged.add({objects: [...ps.slice(3).map((x) => ({kind: 'payment' as Kind, obj: x, version: 1})), {kind: 'delivery', obj: d, version: 1}], events: [e]})
        await staged.add({jobs: [{id: nextId('job'), kind: 'k', ref: ps[0]!.id, due_at: iso(T0 + 1)}], idempotency: [{scope: 'test', key: 'k-staged', request_hash: 'h', status: 200, body: '{}', created_at: iso(T0), expires_at: iso(T0 + 60_000)}], stats: [{provider: 'prov_a', day: '2030-01-02', approved: 1, total: 1}], settings: {clock_offset_ms: '9'}})
        // nobody sees them yet: not the account, not a job or delivery claim across accounts, not locate
        const r = h.b.account(OTHER)
        expect(await r.get('payment', ps[0]!.id)).toBeUndefined()
        expect((await r.list<Pay>('payment', {limit: 10})).data.map((x) => x.reference)).toEqual(['mine'])
        expect(await r.getSetting('clock_offset_ms')).toBe('1')
        expect((await h.b.nextJobs()).some((j) => j.due_at === iso(T0 + 1))).toBe(false)
        expect(await h.b.claimDeliveries(() => iso(T0 + 10), {limit: 10, perEndpoint: 10, leaseMs: 60_000})).toEqual([])
        expect(await h.b.locate('payment', 'id', ps[0]!.id)).toBeUndefined()
        const notices: ChangeNotice[] = []
        const off = h.b.account(OTHER).onChange((n) => notices.push(n))
        await o.commit({restoreStaged: staged, settings: {after: 'x'}})
        expect((await r.list<Pay>('payment', {limit: 10})).data.map((x) => x.reference)).toEqual(['staged-4', 'staged-3', 'staged-2', 'staged-1', 'staged-0'])
        expect((await r.get('payment', ps[0]!.id))!.version).toBe(2)
        expect(await r.get('payment', mine.id)).toBeUndefined()
        expect((await r.get('api_key', key.id))!.obj).toEqual(key)
        expect(await r.getSetting('fleet.rate_limit')).toBe('7')
        expect(await r.getSetting('clock_offset_ms')).toBe('9')
        expect(await r.getSetting('after')).toBe('x')
        expect((await r.getEvent(e.id))!.json).toBe(e.json)
        expect((await r.listEvents({limit: 5, subject: ps[0]!.id})).data).toHaveLength(1)
        expect(await r.statsSince('2030-01-02')).toEqual([{provider: 'prov_a', day: '2030-01-02', approved: 1, total: 1}])
        expect(await r.transact((tx) => tx.claimIdempotency('test', 'k-staged', iso(T0)))).toMatchObject({state: 'recorded'})
        expect((await h.b.locate('payment', 'id', ps[0]!.id))?.account).toBe(OTHER)
        expect((await h.b.nextJobs()).find((j) => j.account === OTHER)?.due_at).toBe(iso(T0 + 1))
        expect((await r.claimJobs(iso(T0 + 5), 5, 60_000)).map((j) => j.ref)).toEqual([ps[0]!.id])
        for (let i = 0; i < 200 && !notices.some((n) => n.restored); i++) await sleep(5)
        off()
        expect(notices.find((n) => n.restored)).toMatchObject({account: OTHER, dueBy: iso(T0 + 1)})
        // the account writes on as usual; staged rows given up change nothing
        await o.commit({puts: [put('payment', pay({reference: 'after'}))]})
        const given = o.stageRows()
        await given.add({objects: [{kind: 'payment', obj: pay({reference: 'given up'}), version: 1}]})
        await given.discard()
        await given.discard()
        expect((await r.list<Pay>('payment', {limit: 10})).data.map((x) => x.reference)).toEqual(['after', 'staged-4', 'staged-3', 'staged-2', 'staged-1', 'staged-0'])
        await expect(o.commit({restoreStaged: given})).rejects.toThrow()
        // an empty staging replaces everything but the keys
        const empty = o.stageRows()
        await o.commit({restoreStaged: empty})
        expect((await r.list<Pay>('payment', {limit: 10})).data).toEqual([])
        expect((await r.get('api_key', key.id))!.obj).toEqual(key)
      })
    })

    describe('shared state', () => {
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
  })
}
