// The store contract: events and the change feed (part of storeContract, store-contract.ts).
import {beforeEach, describe, expect, it} from 'vitest'
import {type AccountStore, type ChangeNotice} from '../../ports/store.js'
import {ACCT, type Bound, type ContractHandles, iso, nextId, pay, sleep, T0} from './helpers.js'

let h: ContractHandles
let a: AccountStore
let b: AccountStore

export function feedCases(bound: () => Bound): void {
  describe('events and the change feed', () => {
    beforeEach(() => void ({h, a, b} = bound()))
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
      await b.following()
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

  describe('a change listener that throws', () => {
    beforeEach(() => void ({h, a, b} = bound()))
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
}
