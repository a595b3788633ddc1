import {describe, expect, it} from 'vitest'
import {breather} from './breather.js'

/** Synchronous work of about `ms` milliseconds. */
function work(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until);
}

describe('breather', () => {
  it('long background work in steps yields every few ms: I/O and timers waiting run before it ends', async () => {
    const order: string[] = []
    let slices = 0
    const job = (async () => {
      for (let i = 0; i < 40; i++) {
        work(0.5)
        const pause = breather()
        if (pause) {
          slices++
          await pause
        }
      }
      order.push('work done')
    })()
    setImmediate(() => order.push('another turn'))
    setTimeout(() => order.push('a timer'), 0)
    await job
    // 20 ms of work in half-millisecond steps: several turns, the others' callbacks in between
    expect(slices).toBeGreaterThanOrEqual(3)
    expect(order.indexOf('another turn')).toBeLessThan(order.indexOf('work done'))
    expect(order.indexOf('a timer')).toBeLessThan(order.indexOf('work done'))
  })
})
