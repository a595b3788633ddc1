// Long background work (a clock advance's catch-up: hundreds of settlement days and every job due
// in between) hands the event loop back every few milliseconds, so other accounts' requests are
// answered meanwhile (docs/decisions.md#one-tenant-cannot-starve-the-others). On SQLite a job's reads are synchronous: without this, the job
// runner starts dozens of jobs in one turn of the loop.
import {performance} from 'node:perf_hooks'

/** The longest stretch of background work in one turn of the event loop before it yields. */
export const BREATHER_BUDGET_MS = 2

/** when the current turn's background work began (undefined: none yet in this turn) */
let turnBegan: number | undefined
const turnEnded = () => {
  turnBegan = undefined
}

/**
 * How long background work has run in this turn of the event loop: from the first call in the
 * turn (a setImmediate, run once the turn's callbacks are done, starts the next count).
 */
export function turnElapsedMs(): number {
  const now = performance.now()
  if (turnBegan === undefined) {
    turnBegan = now
    setImmediate(turnEnded)
  }
  return now - turnBegan
}

/**
 * Yields to the event loop (I/O first: requests waiting are read and answered) once background
 * work has run BREATHER_BUDGET_MS in this turn; otherwise resolves at once (a microtask).
 */
export function breather(budgetMs = BREATHER_BUDGET_MS): Promise<void> | undefined {
  if (turnElapsedMs() < budgetMs) return undefined
  return new Promise<void>((resolve) => setImmediate(resolve))
}
