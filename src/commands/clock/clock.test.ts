// gw clock set (docs/decisions.md#clock-jumps-are-bounded): one request moves the engine clock at most 400 days, so an instant
// further ahead is reached in steps of 400 days, each sent only once the one before answered.
import {afterEach, beforeEach, expect, it} from 'vitest'
import type {TestClock} from '../../api/types.js'
import {at, cliEnv, json, type CliEnv} from '../../base/test-support/cli.js'
import ClockSet from './set.js'

let cli: CliEnv
beforeEach(async () => {
  cli = await cliEnv()
})
afterEach(async () => {
  await cli.cleanup()
})

const DAY = 86_400_000
const NOW = '2026-01-01T00:00:00.000Z'
const clock = (now: string, frozen = false): TestClock => ({object: 'test_clock', now, offset_seconds: 0, frozen})

/** The engine's clock as the mock keeps it: GET reads it, each POST sets it. */
function engineClock() {
  const sets: {now?: string; frozen?: boolean}[] = []
  let current = clock(NOW)
  cli.pool.intercept({path: '/v1/test_helpers/clock', method: 'GET'}).reply(() => ({statusCode: 200, data: current, responseOptions: json})).persist()
  cli.pool
    .intercept({path: '/v1/test_helpers/clock', method: 'POST'})
    .reply((o) => {
      const b = JSON.parse(String(o.body)) as {now?: string; frozen?: boolean}
      sets.push(b)
      current = clock(b.now ?? current.now, b.frozen ?? current.frozen)
      return {statusCode: 200, data: current, responseOptions: json}
    })
    .persist()
  return sets
}

it('--now more than 400 days ahead: steps of 400 days, then the instant with --freeze', async () => {
  const sets = engineClock()
  const target = '2029-06-01T12:00:00.000Z'
  const r = await cli.run<TestClock>(ClockSet, [...at(), '--now', target, '--freeze', '--json'])
  expect(r.exitCode, r.stderr).toBe(0)
  const start = Date.parse(NOW)
  expect(sets).toEqual([{now: new Date(start + 400 * DAY).toISOString()}, {now: new Date(start + 800 * DAY).toISOString()}, {now: new Date(start + 1200 * DAY).toISOString()}, {now: target, frozen: true}])
  expect(r.result).toMatchObject({now: target, frozen: true})
})

it('--now within 400 days is one request; further than 10 steps is a usage error, and nothing is sent', async () => {
  const sets = engineClock()
  expect((await cli.run(ClockSet, [...at(), '--now', '2026-06-01T00:00:00Z'])).exitCode).toBe(0)
  expect(sets).toEqual([{now: '2026-06-01T00:00:00.000Z'}])
  const far = await cli.run(ClockSet, [...at(), '--now', '2040-01-01T00:00:00Z'])
  expect(far.exitCode).toBe(2)
  expect(far.stderr).toMatch(/more than 10 steps of 400 days/)
  expect(sets).toHaveLength(1)
})
