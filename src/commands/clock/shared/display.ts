// The test clock on screen: where it stands, and what an advance set off.
import type {TestClock} from '../../../api/types.js'
import type {Painter} from '../../../output/color.js'
import {formatDuration, renderFields} from '../../../output/detail.js'

export function renderClock(c: TestClock, p: Painter): string {
  return renderFields(
    p.bold('Test clock'),
    [
      ['Now', c.now],
      ['Offset', `${formatDuration(c.offset_seconds)} ahead of real time`],
    ],
    p,
  )
}

const FIRED_NOTES: Record<string, string> = {
  'payment.canceled': 'authorizations released (7-day expiry) or canceled',
  'payment.failed': 'customer sessions or vouchers expired, or rails failed',
  'payment.succeeded': 'rails confirmed (direct debit, vouchers, Multibanco)',
  'dispute.created': 'the network opened disputes',
  'dispute.closed': 'disputes lost at their deadline (or ruled)',
  'refund.succeeded': 'rails confirmed refunds',
  'refund.failed': 'rails refused refunds',
  'settlement.report.ready': 'daily settlement reports',
  'merchant.updated': 'KYB reviews completed',
  'payout.created': 'payouts sent to the bank',
  'payout.paid': 'payouts arrived',
  'webhook.delivery_attempt': 'webhook attempts (with --wait every one made, retries included; without, those due now)',
}

/** What a clock advance set off, one line per kind, or "Nothing fired." */
export function renderFired(fired: Record<string, number> | undefined, p: Painter): string {
  const rows = Object.entries(fired ?? {}).sort(([a], [b]) => a.localeCompare(b))
  if (!rows.length) return p.dim('Nothing fired: no timer was due in that stretch.')
  const w = Math.max(...rows.map(([k]) => k.length))
  const n = Math.max(...rows.map(([, v]) => String(v).length))
  return [p.bold('What fired'), ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${String(v).padStart(n)}${FIRED_NOTES[k] ? `  ${p.dim(FIRED_NOTES[k]!)}` : ''}`)].join('\n')
}
