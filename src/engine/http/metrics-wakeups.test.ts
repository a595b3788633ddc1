// What the metrics cost an idle instance: the event-loop delay histogram's timer wakes the process
// at its sampling interval whether or not anything happens, on every instance of a fleet
// (metrics.ts EVENT_LOOP_SAMPLE_MS). Counted, not timed: the resolution the sampler is started with.
import {createRequire} from 'node:module'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {bootEngine, type TestEngine} from '../test-support/harness.js'

// prom-client reads perf_hooks.monitorEventLoopDelay through require() when it starts its collectors
const perfHooks = createRequire(import.meta.url)('node:perf_hooks') as typeof import('node:perf_hooks')
const sampler = vi.spyOn(perfHooks, 'monitorEventLoopDelay')

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => {
  await t?.stop()
  sampler.mockRestore()
})

describe('the metrics of an idle instance', () => {
  it('sample the event loop at most 20 times a second, and still report its delay', async () => {
    expect(sampler).toHaveBeenCalled()
    for (const [opts] of sampler.mock.calls) expect(opts?.resolution ?? 10).toBeGreaterThanOrEqual(50)
    const res = await t.raw('GET', t.engine.baseUrl.slice(0, -'/v1'.length) + '/metrics')
    expect(res.status).toBe(200)
    expect(res.body).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m)
    expect(res.body).toMatch(/^nodejs_eventloop_lag_max_seconds \d/m)
  })
})
