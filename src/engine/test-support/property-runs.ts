// How many random cases a property test runs. Full count in `npm test` on SQLite (what CI runs);
// a fraction of it (GW_PROPERTY_SCALE) in `npm run test:quick`, the loop run after every edit, and
// on PostgreSQL (the pg-engine project), since the store contract suite already runs every store
// operation on both stores and the property's cases exercise the engine's rules, which are the
// same code on either (docs/architecture.md, "Tests on PostgreSQL"). GW_PROPERTY_RUNS=<n> sets
// the count outright.

/** the fewest cases a scaled-down run keeps, so that a test's statistical checks still hold */
const FLOOR = 20

export function propertyRuns(full: number, env: NodeJS.ProcessEnv = process.env): number {
  const runs = env.GW_PROPERTY_RUNS
  if (runs !== undefined && runs !== '') return positive('GW_PROPERTY_RUNS', runs, true)
  const scale = env.GW_PROPERTY_SCALE
  if (scale === undefined || scale === '') return full
  const s = positive('GW_PROPERTY_SCALE', scale, false)
  if (s > 1) throw new Error(`GW_PROPERTY_SCALE=${scale}: a fraction of the full count is expected (0 < scale <= 1), e.g. 0.2`)
  return Math.max(Math.min(full, FLOOR), Math.round(full * s))
}

function positive(name: string, text: string, integer: boolean): number {
  const n = Number(text)
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new Error(`${name}=${text}: a positive ${integer ? 'whole number' : 'number'} is expected, e.g. ${integer ? '50' : '0.2'}`)
  return n
}
