// Detail views of one object: a title line, then aligned "Label  value" rows. Plain text,
// no table library, so `gw payments get` stays cheap to start.
import type {Customer, Dispute, Payment, PaymentMethod, Refund, TestClock} from '../api/types.js'
import {paintStatus, type Painter} from './color.js'
import {formatMoney} from '../api/money.js'

export type Row = [label: string, value: string | null | undefined]

export function renderFields(title: string, rows: Row[], p: Painter): string {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== '') as [string, string][]
  const width = Math.max(0, ...shown.map(([l]) => l.length))
  const lines = [title]
  for (const [label, value] of shown) {
    const [first, ...rest] = value.split('\n')
    lines.push(`  ${p.dim(label.padEnd(width))}  ${first}`)
    for (const r of rest) lines.push(`  ${' '.repeat(width)}  ${r}`)
  }
  return lines.join('\n')
}

/** Metadata on one line, k=v, k=v; undefined when there is none (the row is left out). */
export const metadataText = (m: Record<string, string> | undefined | null) =>
  m && Object.keys(m).length ? Object.entries(m).map(([k, v]) => `${k}=${v}`).join(', ') : undefined
const metadata = metadataText

export function describeCard(card: {brand?: unknown; last4?: unknown; exp_month?: unknown; exp_year?: unknown} | null | undefined): string | undefined {
  if (!card) return undefined
  const exp = card.exp_month && card.exp_year ? ` exp ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}` : ''
  return `${card.brand ?? 'card'} •••• ${card.last4 ?? '????'}${exp}`
}

export function describeMethod(p: Payment): string {
  const details = p.payment_method_details as Record<string, Record<string, unknown>> | null
  const d = details?.[p.payment_method]
  if (p.payment_method === 'card' && d) {
    const extra = [d.funding, d.country].filter(Boolean).join(', ')
    return `card · ${describeCard(d)}${extra ? ` (${extra})` : ''}`
  }
  if (d && typeof d === 'object') {
    const info = Object.entries(d)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')
    return info ? `${p.payment_method} · ${info}` : p.payment_method
  }
  return p.payment_method
}

/** What a payment's view can show beside it: its refunds and disputes (`gw payments get`). */
export interface PaymentRelated {
  refunds?: Refund[]
  disputes?: Dispute[]
}

function refundLine(r: Refund, p: Painter): string {
  return [r.id, paintStatus(p, r.status), formatMoney(r.amount, r.currency), r.reason ?? '', r.failure_reason ? p.red(r.failure_reason) : '', r.created_at].filter(Boolean).join('  ')
}

/** What closed a dispute, in words: a missed deadline reads differently from a ruling. */
export const CLOSED_BY: Readonly<Record<string, string>> = {deadline: 'deadline missed', ruling: 'ruling', merchant: 'accepted'}

/** The status, with what closed it once lost (`lost (deadline missed)`, `lost (ruling)`). */
export function disputeStatus(dp: Pick<Dispute, 'status' | 'closed_by'>, p: Painter): string {
  const by = dp.status === 'lost' && dp.closed_by ? ` (${CLOSED_BY[dp.closed_by] ?? dp.closed_by})` : ''
  return `${paintStatus(p, dp.status)}${by}`
}

function disputeLine(d: Dispute, p: Painter): string {
  const due = d.status === 'needs_response' && d.evidence_due_by ? `evidence due ${d.evidence_due_by}` : ''
  return [d.id, disputeStatus(d, p), formatMoney(d.amount, d.currency), d.reason, `${d.stage} stage`, due].filter(Boolean).join('  ')
}

export function renderPayment(pay: Payment, p: Painter, related: PaymentRelated = {}): string {
  const attempts = pay.provider_attempts ?? []
  const attemptText = attempts.length
    ? attempts
        .map((a) => `${a.provider} ${a.outcome}${a.decline_code ? ` (${a.decline_code})` : ''}${a.latency_ms !== null ? ` ${a.latency_ms}ms` : ''}`)
        .join('\n')
    : undefined
  const risk = pay.risk
    ? `score ${pay.risk.score}, ${paintStatus(p, pay.risk.decision)} (AVS ${pay.risk.checks?.avs_result}, CVV ${pay.risk.checks?.cvv_result})`
    : undefined
  const failure = pay.failure_code || pay.failure_message ? [pay.failure_code, pay.failure_message].filter(Boolean).join(': ') : undefined
  const title = `${p.bold(pay.id)}  ${paintStatus(p, pay.status)}${pay.livemode ? `  ${p.red('LIVE')}` : ''}`
  return renderFields(
    title,
    [
      ['Amount', formatMoney(pay.amount, pay.currency)],
      ['Captured', pay.amount_captured ? formatMoney(pay.amount_captured, pay.currency) : undefined],
      ['Refunded', pay.amount_refunded ? `${formatMoney(pay.amount_refunded, pay.currency)}${pay.refunded ? ' (full)' : ' (partial)'}` : undefined],
      ['Method', describeMethod(pay)],
      ['Payment method', pay.payment_method_id],
      ['Capture', pay.capture_method],
      ['Reference', pay.reference],
      ['Customer', pay.customer],
      ['Merchant', pay.merchant ?? undefined],
      ['Description', pay.description],
      ['Next action', pay.next_action ? `${pay.next_action.type} ${p.cyan(pay.next_action.url)}` : undefined],
      ['Failure', failure ? p.red(failure) : undefined],
      ['Risk', risk],
      ['Provider', pay.provider],
      ['Attempts', attemptText],
      ['Refunds', related.refunds?.length ? related.refunds.map((r) => refundLine(r, p)).join('\n') : undefined],
      ['Disputes', related.disputes?.length ? related.disputes.map((d) => disputeLine(d, p)).join('\n') : undefined],
      ['Return URL', pay.return_url],
      ['Metadata', metadata(pay.metadata)],
      ['Mode', pay.livemode ? 'live' : 'test'],
      ['Created', pay.created_at],
    ],
    p,
  )
}

export function renderCustomer(c: Customer, p: Painter): string {
  return renderFields(
    p.bold(c.id),
    [
      ['Email', c.email],
      ['Name', c.name],
      ['Description', c.description],
      ['Metadata', metadata(c.metadata)],
      ['Mode', c.livemode ? 'live' : 'test'],
      ['Created', c.created_at],
    ],
    p,
  )
}

export function renderPaymentMethod(pm: PaymentMethod, p: Painter): string {
  const card = pm.card
  const addr = pm.billing_details?.address
  const billing = [
    pm.billing_details?.name,
    pm.billing_details?.email,
    addr ? [addr.line1, addr.postal_code, addr.country].filter(Boolean).join(', ') : null,
  ]
    .filter(Boolean)
    .join(' · ')
  return renderFields(
    p.bold(pm.id),
    [
      ['Type', pm.type],
      ['Card', card ? `${describeCard(card)}${card.funding ? ` (${[card.funding, card.country].filter(Boolean).join(', ')})` : ''}` : undefined],
      ['Network token', card ? (card.network_token ? 'yes' : 'no') : undefined],
      ['Customer', pm.customer ?? p.dim('(detached)')],
      ['Billing', billing],
      ['Mode', pm.livemode ? 'live' : 'test'],
      ['Created', pm.created_at],
    ],
    p,
  )
}

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
  'webhook.delivery_attempt': 'webhook deliveries and retries attempted',
}

/** What a clock advance set off, one line per kind, or "Nothing fired." */
export function renderFired(fired: Record<string, number> | undefined, p: Painter): string {
  const rows = Object.entries(fired ?? {}).sort(([a], [b]) => a.localeCompare(b))
  if (!rows.length) return p.dim('Nothing fired: no timer was due in that stretch.')
  const w = Math.max(...rows.map(([k]) => k.length))
  const n = Math.max(...rows.map(([, v]) => String(v).length))
  return [p.bold('What fired'), ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${String(v).padStart(n)}${FIRED_NOTES[k] ? `  ${p.dim(FIRED_NOTES[k]!)}` : ''}`)].join('\n')
}

/** 90061 -> "1d 1h 1m 1s"; 0 -> "0s". */
export function formatDuration(seconds: number): string {
  let s = Math.round(seconds)
  if (s === 0) return '0s'
  const sign = s < 0 ? '-' : ''
  s = Math.abs(s)
  const parts: string[] = []
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (s >= size) {
      parts.push(`${Math.floor(s / size)}${unit}`)
      s %= size
    }
  }
  return sign + parts.join(' ')
}
