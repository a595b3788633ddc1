// A dispute's status in words, as the payment's view and the disputes' own views show it.
// Apart from ./display.ts so that `gw payments get` loads no more than this.
import type {Dispute} from '../../../api/types.js'
import {paintStatus, type Painter} from '../../../output/color.js'

/** What closed a dispute, in words: a missed deadline reads differently from a ruling. */
export const CLOSED_BY: Readonly<Record<string, string>> = {deadline: 'deadline missed', ruling: 'ruling', merchant: 'accepted'}

/** The status, with what closed it once lost (`lost (deadline missed)`, `lost (ruling)`). */
export function disputeStatus(dp: Pick<Dispute, 'status' | 'closed_by'>, p: Painter): string {
  const by = dp.status === 'lost' && dp.closed_by ? ` (${CLOSED_BY[dp.closed_by] ?? dp.closed_by})` : ''
  return `${paintStatus(p, dp.status)}${by}`
}
