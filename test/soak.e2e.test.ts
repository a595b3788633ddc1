// Background work under sustained load (docs/decisions.md#background-work-keeps-pace), at a
// reduced scale: `gw serve` in a child process takes payments and refunds from closed-loop
// clients while one webhook endpoint answers 204 and another always 500, and the engine clock is
// advanced every 3.5 s. The load lasts until it has made more than 1,000 payments and 3 clock
// advances (about 11 s on a quiet machine; at most 40 s, as before, on a busy one): each point
// below needs that much work, not a length of time. The rates, the memory plateau and its slope
// need minutes: the 6-minute version with its figures is `BENCH_ONLY=soak npm run bench`.
import {describe, expect, it} from 'vitest'
// @ts-expect-error plain ESM of the bench, no types
import {runSoak} from '../bench/soak.js'

describe('background work under sustained load', () => {
  it('keeps deliveries with creates, answers clock advances, settles refunds despite a failing endpoint, holds memory, and stops on SIGTERM', async () => {
    const r = await runSoak({durationMs: 40_000, enough: {creates: 1001, advances: 3}, connections: 8, refundEvery: 10, advanceEveryMs: 3_500, advanceSeconds: 60, drainLimitMs: 30_000})
    console.log(`soak: ${r.creates} payments and ${r.advances.length} clock advances in ${(r.loadMs / 1000).toFixed(1)} s of load`)
    expect(r.errors, r.firstError).toBe(0)
    expect(r.creates).toBeGreaterThan(1000)
    // 1. every payment.succeeded reaches the healthy endpoint within 10 s of the end of the load
    expect(r.missing).toBe(0)
    expect(r.drainMs).toBeLessThan(10_000)
    // 2. the failing endpoint got its attempts and delayed nothing else: every refund settled on the clock
    expect(r.failingHits).toBeGreaterThan(r.creates)
    expect(r.refundAdvanceStatus).toBe(200)
    expect(r.refundsStillPending).toBe(0)
    // 3. clock advances answer under load (state transitions committed, deliveries after)
    expect(r.advances.length).toBeGreaterThanOrEqual(3)
    expect(r.advanceFailures).toBe(0)
    expect(r.advanceP100).toBeLessThan(5_000)
    // 4. SIGTERM with the failing endpoint's backlog still due: exit 0 within 10 s
    expect(r.exitCode).toBe(0)
    expect(r.sigtermMs).toBeLessThan(10_000)
    // 5. memory bounded: nothing in memory grows with the backlog (the bench prints the slope over 3 minutes)
    expect(r.rssPeakMiB).toBeLessThan(r.rssStartMiB + 250)
  }, 180_000)
})
