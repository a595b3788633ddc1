// A console left open with nothing new to show does next to nothing (docs/decisions.md#an-idle-console):
// its views' polls that bring the data shown already draw no frame, and neither does a second
// going by while no text on screen reads differently; what the engine changes is drawn, and so
// is a clock that moved to its next minute. Counted in frames Ink draws (the harness counts
// them), on a session clock the test moves by hand: no test here waits on time to measure it.
import {describe, expect, it} from 'vitest'
import type {Payment} from '../../api/types.js'
import {card} from '../../engine/test-support/harness.js'
import {consoleFixture, type ConsoleUnderTest} from '../test-support/harness.js'

const fx = consoleFixture()

/** the session's calls to the engine from now on (each poll of a view is one) */
function countCalls(con: ConsoleUnderTest): {n: number} {
  const calls = {n: 0}
  const call = con.session.call.bind(con.session)
  con.session.call = (fn) => {
    calls.n++
    return call(fn)
  }
  return calls
}

describe('gw console left open', () => {
  it('draws no frame while its polls bring what it shows already; draws what the engine changed', async () => {
    // the session's clock stands still (the wall's minute does not turn under the test); the
    // engine clock is read once, at the start
    const now = Date.now()
    const t = fx.engine()
    const c = await fx.open({now: () => now, refreshMs: 50, clockMs: 3_600_000})
    await c.waitFor('Needs attention now')
    await c.waitFor(/updated just now/)
    await c.settle()
    const calls = countCalls(c)
    const frames = c.renders()
    // eight polls of the home view that find nothing new
    for (let i = 0; calls.n < 8 && i < 1500; i++) await new Promise((r) => setTimeout(r, 20))
    expect(calls.n).toBeGreaterThanOrEqual(8)
    expect(c.renders() - frames).toBe(0)
    // the engine changes what the home view shows: the next poll draws it
    const paid = (await t.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card(), reference: 'IDLE-1'})).body as Payment
    await t.api('POST', '/test_helpers/disputes', {payment: paid.id, reason: 'product_not_received'})
    await c.waitFor(/Disputes due \(1\)/)
    expect(c.renders()).toBeGreaterThan(frames)
  })

  it('a second going by redraws nothing unless a text on screen reads differently: the clock shows minutes, a polled age "just now"', async () => {
    let now = Date.now()
    const c = await fx.open({now: () => now, refreshMs: 50, clockMs: 3_600_000})
    await c.waitFor(/updated just now/)
    const minuteOf = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ')
    // to 10 s into the engine clock's next minute: the status line says it at the next tick
    now += 70_000 - (c.session.engineNow().getTime() % 60_000)
    const minute = minuteOf(c.session.engineNow().getTime())
    await c.waitFor(`engine ${minute} UTC`)
    await c.waitFor(/updated just now/)
    await c.settle()
    const frames = c.renders()
    // three seconds, each seen by the frame's tick (once a second): nothing on screen reads differently
    for (let i = 0; i < 3; i++) {
      now += 1000
      await new Promise((r) => setTimeout(r, 1100))
    }
    await c.settle()
    expect(c.screen()).toContain(`engine ${minute} UTC`)
    expect(c.screen()).toContain('updated just now')
    expect(c.renders() - frames).toBe(0)
    // the next minute is drawn
    now += 60_000
    await c.waitFor(`engine ${minuteOf(c.session.engineNow().getTime())} UTC`)
    expect(c.renders()).toBeGreaterThan(frames)
  })
})
