// A payment on screen: its detail view (amount, method, attempts, risk, refunds and disputes
// beside it) and the list's columns. Plain text: `gw payments get` loads no table library.
import type {Dispute, Payment, Refund} from '../../../api/types.js'
import {formatMoney} from '../../../api/money.js'
import {paintStatus, type Painter} from '../../../output/color.js'
import {compactTime as date, metadataText as metadata, renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'
import {disputeStatus} from '../../disputes/shared/status.js'

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

export const paymentColumns: Columns<Payment> = {
  head: ['ID', 'STATUS', 'AMOUNT', 'METHOD', 'REFERENCE', 'CREATED'],
  fit: {flex: ['REFERENCE'], drop: ['CREATED', 'METHOD', 'REFERENCE']},
  row: (x, p) => [x.id, paintStatus(p, x.status), formatMoney(x.amount, x.currency), x.payment_method, x.reference ?? '', date(x.created_at)],
}
