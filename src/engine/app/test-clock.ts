// The engine clock as test helpers move it (decisions.md "Test helpers").
import {CLOCK_OFFSET_SETTING} from './clock.js'
import type {Core} from './core.js'
import {housekeeping} from './events.js'
import type {RunSummary} from './jobs.js'

export const MAX_ADVANCE_S = 400 * 86_400

export interface TestClock {
  object: 'test_clock'
  now: string
  offset_seconds: number
}

export function clockView(core: Core): TestClock {
  return {object: 'test_clock', now: core.clock.now().toISOString(), offset_seconds: Math.round(core.clock.offsetMs / 1000)}
}

/**
 * Moves the engine clock forward for every instance, then runs every timeline job that became
 * due, in due order, each committed with its events (and their webhook deliveries) before this
 * returns. Webhook attempts, first ones and retries alike, are made afterwards by the delivery
 * worker: the response never waits on a receiver.
 */
export async function advanceClock(core: Core, seconds: number): Promise<{clock: TestClock; ran: RunSummary}> {
  core.clock.observe(await core.store.addToSetting(CLOCK_OFFSET_SETTING, seconds * 1000))
  const ran = await core.jobs.runDue()
  await housekeeping(core)
  return {clock: clockView(core), ran}
}
