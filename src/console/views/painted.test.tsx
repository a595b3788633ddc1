// The painted rows follow every key at once, in process (test-support/harness.tsx): a read of
// one to five Downs moves the selection that many rows, drawn before anything else happens (the
// painter paints in the commit; in a passive effect the rows showed the state before the last key
// until the next redraw, up to a second later — a key looked lost). Every key of the read reaches
// the list as the key before left it (ui/keyboard.tsx: the next key waits for the commit
// that drew the one before; handed on a turn of the event loop later instead, on a busy machine a
// key reached the handler of the state before and jjjj moved three rows).
import {afterAll, beforeAll, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../../engine/test-support/harness.js'
import {openConsoleInProcess} from '../test-support/harness.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
  for (let i = 0; i < 12; i++) await t.api('POST', '/payments', {amount: 100 + i, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference: `R-${i}`})
}, 120_000)
afterAll(async () => t?.stop())

it('draws the selection where every key of a read left it, without waiting for a later redraw', async () => {
  const c = await openConsoleInProcess(t, {initial: [{view: 'home'}, {view: 'payments'}]})
  try {
    await c.waitFor('12 payments')
    const sel = () => c.inverseRows().find((y) => y > 2)
    await c.waitFor(() => sel() !== undefined)
    const moved: number[] = []
    for (const n of [1, 2, 3, 4, 5]) {
      await c.press('g')
      await c.waitFor(() => sel() === 4, 5000)
      await c.press('j'.repeat(n))
      // where the selection stops, read frame by frame (a redraw a second later would be too late;
      // a quiet time on the clock lost a run on overloaded cores: it passed while the process was
      // not running, and the read came before the frame Ink had pending)
      moved.push((await c.settleOn(sel))! - 4)
    }
    expect(moved).toEqual([1, 2, 3, 4, 5])
  } finally {
    await c.close()
  }
}, 120_000)
