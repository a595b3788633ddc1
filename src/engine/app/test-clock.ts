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
export async function advanceClock(core: Core, seconds: number): Promise<{clock: TestClock; ran: RunSummary; fired: Record<string, number>}> {
  const before = core.clock.now().toISOString()
  core.clock.observe(await core.store.addToSetting(CLOCK_OFFSET_SETTING, seconds * 1000))
  const ran = await core.jobs.runDue()
  await housekeeping(core)
  return {clock: clockView(core), ran, fired: await firedBy(core, ran, before)}
}

/**
 * What an advance set off (the additive `fired` field, docs/api.md): the events the jobs
 * committed, by type, plus payouts created (by the settlement runs) and paid (arrived).
 */
async function firedBy(core: Core, ran: RunSummary, before: string): Promise<Record<string, number>> {
  const fired: Record<string, number> = {...ran.events}
  if (ran.jobs['settlement.run']) {
    const page = await core.store.list<{id: string; created_at: string}, 'payout'>('payout', {limit: 100, filters: []})
    const created = page.data.filter((p) => p.created_at > before).length
    if (created) fired['payout.created'] = created
  }
  if (ran.jobs['payout.arrive']) fired['payout.paid'] = ran.jobs['payout.arrive']
  return fired
}
