// Home's "needs attention now", apart from Ink: disputes due soonest with the time left, webhook
// endpoints failing or disabled, providers degraded, chaos rules active, payments held in a risk
// review. Each section is what the key may read, or the permission it lacks.
import type {ChaosRule, Dispute, Payment, Provider, WebhookEndpoint} from '../../api/types.js'
import {endpointReason, endpointStatus} from '../../commands/webhooks/shared/display.js'
import {describeRule} from '../../commands/chaos/shared/display.js'
import {byDeadline, timeLeft} from '../../commands/disputes/shared/display.js'
import {money} from '../format.js'
import type {Route} from '../frame.js'
import type {Tone} from '../theme.js'

/** A section's data, or why it could not be read. */
export type Part<T> = {ok: true; value: T} | {ok: false; message: string; permission?: string}

export interface AttentionData {
  disputes: Part<Dispute[]>
  endpoints: Part<WebhookEndpoint[]>
  providers: Part<Provider[]>
  chaos: Part<ChaosRule[]>
  review: Part<Payment[]>
}

export interface AttentionLine {
  text: string
  tone?: Tone
  /** what Enter opens */
  route?: Route
  heading?: boolean
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** The lines of Home, in order: a heading per section, then its items (at most `per` each). */
export function attentionLines(d: AttentionData, now: Date, per = 5): AttentionLine[] {
  const lines: AttentionLine[] = []
  const section = <T,>(title: string, part: Part<T[]>, empty: string, item: (x: T) => AttentionLine, more: AttentionLine) => {
    if (!part.ok) {
      lines.push({text: title, heading: true}, {text: part.permission ? `  needs ${part.permission} (this key may not read it)` : `  could not be read: ${part.message}`, tone: 'warn'})
      return
    }
    lines.push({text: `${title} (${part.value.length})`, heading: true})
    if (part.value.length === 0) lines.push({text: `  ${empty}`, tone: 'muted'})
    for (const x of part.value.slice(0, per)) lines.push(item(x))
    if (part.value.length > per) lines.push(more)
  }
  const disputes = d.disputes.ok ? {ok: true as const, value: d.disputes.value.filter((x) => x.status === 'needs_response').sort(byDeadline)} : d.disputes
  section(
    'Disputes due',
    disputes,
    'none needs a response',
    (x) => {
      const left = timeLeft(x, now)
      const soon = x.evidence_due_by ? Date.parse(x.evidence_due_by) - now.getTime() < 86_400_000 : false
      return {text: `  ${x.id}  ${left.padEnd(14)} ${money(x.amount, x.currency)}  ${x.reason}, ${x.stage}  payment ${x.payment}`, tone: left.startsWith('overdue') ? 'bad' : soon ? 'warn' : undefined, route: {view: 'dispute', id: x.id}}
    },
    {text: '  … all of them in Disputes (3)', tone: 'muted', route: {view: 'disputes'}},
  )
  const endpoints = d.endpoints.ok ? {ok: true as const, value: d.endpoints.value.filter((w) => endpointStatus(w) !== 'enabled')} : d.endpoints
  section(
    'Webhook endpoints failing or disabled',
    endpoints,
    'every endpoint delivers',
    (w) => ({text: `  ${w.id}  ${endpointStatus(w).padEnd(8)} ${w.url}  ${endpointReason(w)}`, tone: endpointStatus(w) === 'disabled' ? 'bad' : 'warn', route: {view: 'webhook', id: w.id}}),
    {text: '  … all of them in Webhooks (5)', tone: 'muted', route: {view: 'webhooks'}},
  )
  const providers = d.providers.ok ? {ok: true as const, value: d.providers.value.filter((p) => p.status !== 'active')} : d.providers
  section(
    'Providers degraded or disabled',
    providers,
    'every provider is active',
    (p) => ({text: `  ${p.id}  ${p.status.padEnd(9)} auth rate ${p.auth_rate_7d === null ? '-' : `${Math.round(p.auth_rate_7d * 100)}%`} over ${count(p.attempts_7d, 'attempt')} (7d)`, tone: p.status === 'disabled' ? 'bad' : 'warn', route: {view: 'gateway'}}),
    {text: '  … all of them in Gateway (6)', tone: 'muted', route: {view: 'gateway'}},
  )
  section(
    'Chaos rules active',
    d.chaos,
    'none: no failure is being rehearsed',
    (r) => ({text: `  ${describeRule(r)}`, tone: 'warn', route: {view: 'gateway'}}),
    {text: '  … all of them in Gateway (6)', tone: 'muted', route: {view: 'gateway'}},
  )
  const review = d.review.ok ? {ok: true as const, value: d.review.value.filter((p) => p.risk?.decision === 'review')} : d.review
  section(
    'Payments in review',
    review,
    'none is held for a risk review',
    (p) => ({text: `  ${p.id}  ${money(p.amount, p.currency)}  score ${p.risk?.score ?? '-'}  ${p.reference}`, tone: 'warn', route: {view: 'payment', id: p.id}}),
    {text: '  … more in Payments (2)', tone: 'muted', route: {view: 'payments'}},
  )
  return lines
}
