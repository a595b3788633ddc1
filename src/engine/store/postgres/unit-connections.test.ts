// Parked connections (unit-connections.ts): at an instance's share of a fleet's load, fewer units
// are in flight from one moment to the next; a parked connection that the next units do not take
// before PARK_MS sends its ROLLBACK alone, an extra round trip. Counted with a pool of fakes
// on fake timers: which connections end alone, and which hand their ROLLBACK to the next unit.
import type pg from 'pg'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'
import {PARK_MS, UnitConnections} from './unit-connections.js'

type Fake = pg.PoolClient & {name: string; alone: number}
function fakePool() {
  let n = 0
  const pool = {
    waitingCount: 0,
    async connect() {
      const c = {
        name: `c${++n}`,
        alone: 0,
        async query(text: string) {
          if (text === 'ROLLBACK') c.alone++
          return {rows: []}
        },
        release() {},
      }
      return c as unknown as Fake
    },
  }
  return pool as unknown as pg.Pool
}

beforeEach(() => void vi.useFakeTimers())
afterEach(() => void vi.useRealTimers())

describe('parked unit connections', () => {
  it('are taken oldest first, so a dip in the units in flight sends no ROLLBACK alone while units keep coming', async () => {
    const uc = new UnitConnections(fakePool(), () => false)
    // three units in flight end together; then one unit at a time, one every PARK_MS / 4 (each parked connection is taken 3 × PARK_MS / 4 after it was parked)
    const first = (await Promise.all([uc.connect(), uc.connect(), uc.connect()])) as Fake[]
    for (const c of first) expect(uc.giveBack(c, true)).toBe(true)
    const riding: string[] = []
    for (let i = 0; i < 9; i++) {
      await vi.advanceTimersByTimeAsync(PARK_MS / 4)
      const c = (await uc.connect()) as Fake
      // the unit's first statement carries the previous unit's ROLLBACK
      if (uc.takeUnended(c)) riding.push(c.name)
      expect(uc.giveBack(c, true)).toBe(true)
    }
    expect(first.map((c) => c.alone)).toEqual([0, 0, 0])
    expect(riding).toEqual(['c1', 'c2', 'c3', 'c1', 'c2', 'c3', 'c1', 'c2', 'c3'])
    // nobody comes: each is ended after PARK_MS, alone
    await vi.advanceTimersByTimeAsync(PARK_MS + 1)
    expect(first.map((c) => c.alone)).toEqual([1, 1, 1])
    await uc.close()
  })
})
