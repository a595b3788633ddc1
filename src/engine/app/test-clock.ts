// The engine clock as test helpers move it (docs/decisions.md#test-helpers).
import type {Body} from '../../api/types.js'
import {CLOCK_FROZEN_SETTING, CLOCK_OFFSET_SETTING, type ClockState} from '../core/clock.js'
import {invalid} from '../domain/errors.js'
import type {Core} from '../core/core.js'
import {housekeeping} from './events.js'
import type {RunSummary} from '../core/jobs.js'
import type {DeliveryRecord} from '../core/webhook-types.js'
import type {Filter} from '../ports/store.js'

import {MAX_ADVANCE_S} from '../../api/clock-steps.js'

export {MAX_ADVANCE_S}

export interface TestClock {
  object: 'test_clock'
  now: string
  offset_seconds: number
  /** frozen: the clock moves only when advanced or set (a test's timestamps repeat) */
  frozen: boolean
}

export function clockView(core: Core): TestClock {
  return {object: 'test_clock', now: core.clock.now().toISOString(), offset_seconds: Math.round(core.clock.offsetMs / 1000), frozen: core.clock.frozen}
}

/**
 * Freezes or unfreezes the clock, and/or sets it to a later instant (docs/decisions.md#the-engine-clock): a test suite that
 * starts from a fixed time and a frozen clock gets the same timestamps on every run. The clock
 * never moves back: `now` earlier than the engine clock is refused. Unfrozen, it ticks on from
 * where it stood (or from real time, if real time has passed it). Jobs that fell due run, as
 * after an advance.
 */
export async function setClock(core: Core, b: Body<'testSetClock'>): Promise<TestClock> {
  const current = core.clock.now().getTime()
  let target = current
  if (b.now !== undefined) {
    const t = Date.parse(b.now)
    if (!Number.isFinite(t)) throw invalid('now', `now must be a date-time such as 2030-01-01T00:00:00Z; got '${b.now}'.`)
    if (t < current) throw invalid('now', `The engine clock only moves forward: it is at ${new Date(current).toISOString()}; give that or a later time (a fresh account starts at real time).`)
    // as an advance is: every job due in between runs before the answer, so one request moves a bounded stretch (docs/decisions.md#clock-jumps-are-bounded)
    if (t - current > MAX_ADVANCE_S * 1000)
      throw invalid(
        'now',
        `now may be at most ${MAX_ADVANCE_S / 86_400} days after the engine clock (${new Date(current).toISOString()}), as an advance may: every job due in between runs before the answer. Give ${new Date(current + MAX_ADVANCE_S * 1000).toISOString()} or earlier and set it again from there (gw clock set and gw/testing's clock.freeze take such steps themselves); got '${b.now}'.`,
      )
    target = t
  }
  const frozen = b.frozen ?? core.clock.frozen
  const state: ClockState = {offsetMs: Math.max(0, target - Date.now()), frozenAtMs: frozen ? target : undefined}
  await core.run({}, async (u) => {
    await u.lock('clock')
    u.setting(CLOCK_OFFSET_SETTING, String(state.offsetMs))
    u.setting(CLOCK_FROZEN_SETTING, state.frozenAtMs === undefined ? '' : String(state.frozenAtMs))
  })
  core.clock.set(state)
  await core.jobs.runDue()
  await housekeeping(core)
  return clockView(core)
}

/**
 * Moves the engine clock forward for every instance, then runs every timeline job that became
 * due, in due order, each committed with its events (and their webhook deliveries) before this
 * returns. Webhook attempts, first ones and retries alike, are made afterwards by the delivery
 * worker: the response never waits on a receiver.
 */
/** How long `wait: true` waits for the webhook attempts an advance made due (a receiver may take 10 s per attempt). */
export const ADVANCE_WAIT_MS = 30_000

export async function advanceClock(core: Core, seconds: number, opts: {wait?: boolean} = {}): Promise<{clock: TestClock; ran: RunSummary; fired: Record<string, number>; pending?: number}> {
  const before = core.clock.now().toISOString()
  // retries the stretch makes due, read before the clock moves (the worker takes them at once after)
  const retries = await retriesDue(core, before, new Date(Date.parse(before) + seconds * 1000).toISOString())
  // a frozen clock moves by exactly the advance, and stays frozen there
  const frozenAtMs = core.clock.frozen ? await core.store.addToSetting(CLOCK_FROZEN_SETTING, seconds * 1000) : undefined
  core.clock.observe({offsetMs: await core.store.addToSetting(CLOCK_OFFSET_SETTING, seconds * 1000), frozenAtMs})
  const ran = await core.jobs.runDue()
  await housekeeping(core)
  const fired = await firedBy(core, ran, before)
  // the deliveries the stretch made due: retries that fell due in it, and the first attempts of what the jobs fired
  const due = new Set([...retries, ...ran.deliveries])
  if (!opts.wait) {
    // each makes an attempt now; what those attempts lead to (catch-up retries) is not known yet
    if (due.size) fired['webhook.delivery_attempt'] = due.size
    return {clock: clockView(core), ran, fired}
  }
  const pending = await attemptsEnded(core, ADVANCE_WAIT_MS)
  // every attempt made at an engine time inside the stretch, catch-up retries included
  const made = await attemptsMade(core, due, before, core.clock.now().toISOString())
  if (made) fired['webhook.delivery_attempt'] = made
  return {clock: clockView(core), ran, fired, ...(pending ? {pending} : {})}
}

/** The attempts these deliveries made at engine times from `from` to `to` (each is recorded at the time it was due). */
async function attemptsMade(core: Core, ids: ReadonlySet<string>, from: string, to: string): Promise<number> {
  let n = 0
  for (const id of ids) {
    const d = (await core.store.get<DeliveryRecord>('delivery', id))?.obj
    for (const a of d?.attempts ?? []) if (a.at >= from && a.at <= to) n++
  }
  return n
}

/**
 * Waits until no delivery of the account is due any more on its engine clock: every attempt that
 * fell due (and every catch-up retry it scheduled inside the stretch) has ended and been recorded,
 * on whichever instance made it (the store, not this process, says so). Returns how many are still
 * due after `limitMs` (0 when none).
 */
async function attemptsEnded(core: Core, limitMs: number): Promise<number> {
  const deadline = Date.now() + limitMs
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    const due = await count(core, [{field: 'next_attempt_at', op: 'lte', value: core.clock.now().toISOString()}])
    if (due === 0 || Date.now() >= deadline) return due
    await new Promise((r) => setTimeout(r, pause))
  }
}

/** The ids of the deliveries waiting for an attempt that falls due after `from`, up to `to` (engine time). */
async function retriesDue(core: Core, from: string, to: string): Promise<string[]> {
  // next_attempt_at is set only while a delivery waits (null once it succeeded or gave up): the due index alone answers
  const waiting = await core.store.all<DeliveryRecord>('delivery', [
    {field: 'next_attempt_at', op: 'gte', value: from},
    {field: 'next_attempt_at', op: 'lte', value: to},
  ])
  return waiting.map((d) => d.id)
}

function count(core: Core, filters: Filter<'delivery'>[]): Promise<number> {
  return core.store.count('delivery', filters)
}

/**
 * What an advance set off (the additive `fired` field, docs/api.md): the events the jobs
 * committed, by type, plus payouts created (by the settlement runs) and paid (arrived).
 */
async function firedBy(core: Core, ran: RunSummary, before: string): Promise<Record<string, number>> {
  const fired: Record<string, number> = {...ran.events}
  if (ran.jobs['settlement.run']) {
    const created = await core.store.count('payout', [{field: 'created_at', op: 'gte', value: before}])
    if (created) fired['payout.created'] = created
  }
  if (ran.jobs['payout.arrive']) fired['payout.paid'] = ran.jobs['payout.arrive']
  return fired
}
