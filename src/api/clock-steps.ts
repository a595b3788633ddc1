// How far one request may move an account's engine clock (docs/decisions.md#clock-jumps-are-bounded): an advance, or a set to a
// later `now`, runs every job due in between before it answers, so each request is bounded.
// Clients that set the clock further (gw clock set --now, gw/testing's clock.freeze(at)) get there
// in steps of at most that much.

/** The most one request moves an account's engine clock: 400 days. */
export const MAX_ADVANCE_S = 400 * 86_400

/** Steps a client takes at most to reach a `now` far ahead (10 x 400 days: about 11 years). */
export const MAX_CLOCK_STEPS = 10

/**
 * The instants (ms) a clock at `fromMs` is set to, in order, to reach `targetMs`: each at most
 * MAX_ADVANCE_S after the one before, the last one `targetMs` (a target not ahead: that alone).
 */
export function clockSteps(fromMs: number, targetMs: number): number[] {
  const steps: number[] = []
  for (let at = fromMs; targetMs - at > MAX_ADVANCE_S * 1000; ) steps.push((at += MAX_ADVANCE_S * 1000))
  steps.push(targetMs)
  return steps
}
