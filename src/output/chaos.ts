// Chaos rules (issue 29) as a table: what is faulted, how often, and when it ends.
import type {ChaosRule} from '../api/types.js'
import type {Columns} from './table.js'

const date = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z')

export const chaosColumns: Columns<ChaosRule> = {
  head: ['ID', 'FAULT', 'REQUESTS', 'RATE', 'FAULTS', 'ENDS'],
  row: (r, p) => [
    r.id,
    p.yellow(r.fault === 'slow' ? `slow ${r.latency_ms} ms` : r.fault),
    `${r.method} /v1${r.path}`,
    r.rate === 1 ? 'every one' : `${Math.round(r.rate * 100)}%${r.seed !== null ? ` (seed ${r.seed})` : ''}`,
    r.count === null ? `${r.injected ?? ''}`.trim() || '-' : `${r.injected ?? 0} of ${r.count}`,
    date(r.until),
  ],
}

/** One line for a rule just switched on. */
export function describeRule(r: ChaosRule): string {
  const which = r.rate === 1 ? 'every' : `${Math.round(r.rate * 100)}% of`
  const what = r.fault === 'slow' ? `slowed by ${r.latency_ms} ms` : r.fault === 'response_lost' ? 'done, then left without a response (the connection dropped)' : `answered ${r.fault}`
  const end = r.count !== null ? `for the next ${r.count} such request${r.count === 1 ? '' : 's'}, ending at the latest ${date(r.until)}` : `until ${date(r.until)} (engine clock)`
  return `${r.id}: ${which} ${r.method === '*' ? '' : `${r.method} `}/v1${r.path} request ${what}, ${end}.`
}
