// The store contract: snapshots and event subjects (part of storeContract, store-contract.ts).
import {beforeEach, describe, expect, it} from 'vitest'
import {type AccountStore, type ChangeNotice, type Kind} from '../../ports/store.js'
import {ACCT, type Bound, type ContractHandles, dataObject, iso, nextId, OTHER, Pay, pay, put, sleep, T0} from './helpers.js'

let h: ContractHandles
let a: AccountStore
let b: AccountStore

export function snapshotsCases(bound: () => Bound): void {
  describe('snapshots and event subjects', () => {
    beforeEach(() => void ({h, a, b} = bound()))
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
      await h.b.following()
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

    it('an account\'s rows read a part at a time are the rows at the moment the reading began, whatever commits meanwhile; a reading left early ends', async () => {
      const ps = Array.from({length: 7}, (_, i) => pay({reference: `part-${i}`}))
      const es = ps.map((p) => ({id: nextId('evt'), type: 'payment.succeeded', created_at: iso(T0), json: `{"id":"x","data":{"object":${JSON.stringify({id: p.id})}}}`, object_id: p.id, payment: p.id}))
      await a.commit({puts: ps.map((p) => put('payment', p)), events: es, addJobs: [{id: nextId('job'), kind: 'k', ref: ps[0]!.id, due_at: iso(T0 + 5)}], stats: [{provider: 'prov_a', day: '2030-01-01', approved: 1, total: 1}], settings: {clock_offset_ms: '7'}})
      const whole = await b.exportRows()
      const reading = b.exportParts(3)
      const first = await reading.next()
      // what commits now is not part of the reading (nor is a snapshot loaded meanwhile)
      await a.commit({puts: [put('payment', pay({reference: 'later'})), put('payment', {...ps[1]!, status: 'changed'}, 1)], settings: {clock_offset_ms: '8'}})
      await a.commit({restore: {objects: [], events: [], jobs: [], idempotency: [], stats: [], settings: {}}})
      const parts = [first.value!]
      for await (const part of {[Symbol.asyncIterator]: () => reading}) parts.push(part)
      expect(parts.every((p) => p.section === 'settings' || (p.items.length > 0 && p.items.length <= 3))).toBe(true)
      const got = {objects: [], events: [], jobs: [], idempotency: [], stats: [], settings: {}} as Record<string, unknown>
      for (const p of parts) if (p.section === 'settings') got.settings = p.value
      else (got[p.section] as unknown[]).push(...p.items)
      expect(got).toEqual(whole)
      expect(parts.map((p) => p.section)).toEqual(['objects', 'objects', 'objects', 'events', 'events', 'events', 'jobs', 'stats', 'settings'])
      // a reading left after its first part ends (its moment let go), and the next one reads what is there now
      for await (const part of b.exportParts(2)) {
        expect(part.section).toBe('settings')
        break
      }
      const early = b.exportParts(2)
      await early.next()
      await early.return()
      await a.commit({puts: [put('payment', pay({reference: 'now'}))]})
      const now: string[] = []
      for await (const p of b.exportParts(2)) if (p.section === 'objects') now.push(...p.items.map((o) => (o.obj as Pay).reference))
      expect(now).toEqual(['now'])
    })

    it('rows staged in parts are nobody\'s until a commit puts them in place of the account\'s, all at once', async () => {
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
      await h.b.following()
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
}
