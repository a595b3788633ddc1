import {describe, expect, it} from 'vitest'
import {propertyRuns} from '../test-support/property-runs.js'
import fc from 'fast-check'
import {shareSlots} from './slot-share.js'

type C = {account: string; endpoint: string; n: number}
/** an endpoint's candidates: `count` of them */
const ep = (account: string, endpoint: string, count: number): C[] => Array.from({length: count}, (_, n) => ({account, endpoint, n}))
const byAccount = (cs: C[]) => cs.reduce<Record<string, number>>((m, c) => ((m[c.account] = (m[c.account] ?? 0) + 1), m), {})

describe('shareSlots: accounts first, then endpoints', () => {
  it('one account alone takes every slot, round robin over its endpoints', () => {
    const eps = Array.from({length: 16}, (_, i) => ep('a', `e${i}`, 128))
    const got = shareSlots(eps, 256)
    expect(got).toHaveLength(256)
    // 16 per endpoint, taken in turn
    expect(got.slice(0, 16).map((c) => c.endpoint)).toEqual(eps.map((e) => e[0]!.endpoint))
    expect(new Set(got.map((c) => c.endpoint)).size).toBe(16)
  })

  it("an account with one endpoint gets as many slots as one with sixteen (not one seventeenth)", () => {
    const eps = [...Array.from({length: 16}, (_, i) => ep('a', `e${i}`, 128)), ep('b', 'x', 200)]
    expect(byAccount(shareSlots(eps, 256))).toEqual({a: 128, b: 128})
  })

  it('every slot held by one account: another with something due gets spare slots at once, up to its share', () => {
    const eps = [ep('a', 'e0', 128), ep('b', 'x', 3)]
    const got = shareSlots(eps, 0, {held: new Map([['a', 256]]), spare: 64})
    expect(got.map((c) => c.account)).toEqual(['b', 'b', 'b'])
    // a backlog of its own: the spare slots, and not beyond them
    expect(byAccount(shareSlots([ep('a', 'e0', 128), ep('b', 'x', 500)], 0, {held: new Map([['a', 256]]), spare: 64}))).toEqual({b: 64})
    // without spare slots it waits for a free one
    expect(shareSlots(eps, 0, {held: new Map([['a', 256]])})).toEqual([])
  })

  it('an account over its share gets no spare slot; free slots go to the accounts holding the fewest first', () => {
    expect(shareSlots([ep('a', 'e0', 10)], 0, {held: new Map([['a', 256]]), spare: 64})).toEqual([])
    const held = new Map([
      ['a', 200],
      ['b', 40],
    ])
    // b (40 held) takes the 16 free slots, then spare ones while below its share (128)
    expect(byAccount(shareSlots([ep('a', 'e0', 50), ep('b', 'x', 200)], 16, {held, spare: 64}))).toEqual({b: 80})
    // free slots are anyone's: with b's backlog taken, a gets the rest of them, but no spare one
    expect(byAccount(shareSlots([ep('a', 'e0', 50), ep('b', 'x', 10)], 16, {held, spare: 64}))).toEqual({a: 6, b: 10})
  })

  it('property: never more than limit + spare; nothing above limit to an account at or over its share; an account with candidates left holds no fewer than one that took', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({min: 0, max: 4}), fc.integer({min: 0, max: 40})), {maxLength: 12}),
        fc.array(fc.integer({min: 0, max: 60}), {minLength: 5, maxLength: 5}),
        fc.integer({min: -20, max: 80}),
        fc.integer({min: 0, max: 20}),
        (endpoints, heldBy, limit, spare) => {
          const eps = endpoints.map(([a, n], i) => ep(`a${a}`, `e${i}`, n))
          const held = new Map(heldBy.map((n, a) => [`a${a}`, n]))
          const got = shareSlots(eps, limit, {held, spare})
          expect(got.length).toBeLessThanOrEqual(Math.max(0, limit + spare))
          const took = byAccount(got)
          const level = (a: string) => (held.get(a) ?? 0) + (took[a] ?? 0)
          const left = (a: string) => eps.filter((e) => e[0]?.account === a).reduce((s, e) => s + e.length, 0) - (took[a] ?? 0)
          // max-min: an account that could have taken more is not below one that took (by more than the one taken last)
          for (const a of Object.keys(took)) for (const b of new Set(eps.flat().map((c) => c.account))) if (left(b) > 0 && b !== a) expect(level(b)).toBeGreaterThanOrEqual(level(a) - 1)
          // each endpoint's candidates in order
          for (const e of eps) expect(got.filter((c) => c.endpoint === e[0]?.endpoint).map((c) => c.n)).toEqual(e.slice(0, got.filter((c) => c.endpoint === e[0]?.endpoint).length).map((c) => c.n))
        },
      ),
      {numRuns: propertyRuns(300)},
    )
  })
})
