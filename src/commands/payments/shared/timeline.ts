// A payment's whole story in time order (gw payments timeline, and the console's payment view):
// its creation, every provider attempt, its refunds' creation, every event of the payment and of
// its refunds and disputes, and every webhook attempt made for them; what the key may not read is
// said (docs/decisions.md#a-payments-whole-story), never left out silently.
import type {GwEvent, Payment, WebhookDelivery} from '../../../api/types.js'
import type {GwClient} from '../../../client/index.js'
import {formatMoney} from '../../../api/money.js'
import type {Painter} from '../../../output/color.js'
import {readIfAllowed, type Unavailable} from './unavailable.js'

export interface TimelineEntry {
  /** engine time */
  at: string
  kind: 'created' | 'provider_attempt' | 'event' | 'webhook_attempt'
  /** the object it is about (the payment, a refund, a dispute) */
  object: string
  what: string
  detail: string
}

export interface PaymentTimeline {
  payment: Payment
  timeline: TimelineEntry[]
  /** what this key could not read, and the permission that shows it: empty when nothing was left out */
  unavailable: Unavailable[]
}

/** Reads the payment's events (and their deliveries unless `webhooks` is false) and puts it all in time order. */
export async function buildTimeline(client: GwClient, id: string, opts: {webhooks: boolean}): Promise<PaymentTimeline> {
  const payment = await client.payments.get(id)
  const events: GwEvent[] = []
  for await (const e of client.events.iterate({object: payment.id, limit: 100})) events.push(e)
  const unavailable: Unavailable[] = []
  const timeline: TimelineEntry[] = [{at: payment.created_at, kind: 'created', object: payment.id, what: 'payment created', detail: `${money(payment.amount, payment.currency)} by ${payment.payment_method}${payment.reference ? `, reference ${payment.reference}` : ''}`}]
  // a refund's creation (its events come when the rail answers: refund.succeeded or refund.failed)
  const refunds = await readIfAllowed(() => client.refunds.list({payment: payment.id, limit: 100}).then((l) => l.data), 'refunds created', 'refunds:read', unavailable)
  for (const r of refunds ?? []) timeline.push({at: r.created_at, kind: 'created', object: r.id, what: 'refund created', detail: [money(r.amount, r.currency), r.reason ?? ''].filter(Boolean).join(' · ')})
  for (const a of payment.provider_attempts ?? [])
    timeline.push({at: a.attempted_at, kind: 'provider_attempt', object: payment.id, what: `${a.provider}: ${a.outcome}`, detail: [a.decline_code, a.latency_ms !== null ? `${a.latency_ms} ms` : ''].filter(Boolean).join(', ')})
  for (const e of events) {
    const o = (e.data.object ?? {}) as {id?: string; status?: string; stage?: string; closed_by?: string | null; amount?: number; currency?: string}
    // a dispute's stage and what closed it: an escalation and a missed deadline read as such
    const status = [o.status, o.stage ? `${o.stage} stage` : '', o.status === 'lost' && o.closed_by ? `by ${o.closed_by}` : ''].filter(Boolean).join(', ')
    timeline.push({at: e.created_at, kind: 'event', object: o.id ?? '', what: e.type, detail: [status, o.amount !== undefined && o.currency ? money(o.amount, o.currency) : '', e.id].filter(Boolean).join(' · ')})
    if (!opts.webhooks || unavailable.some((u) => u.permission === 'webhooks:read')) continue
    const deliveries = await readIfAllowed(
      async () => {
        const all: WebhookDelivery[] = []
        for await (const d of client.events.iterateDeliveries(e.id, {limit: 100})) all.push(d)
        return all
      },
      'webhook attempts',
      'webhooks:read',
      unavailable,
    )
    if (!deliveries) continue
    for (const d of deliveries)
      for (const at of d.attempts)
        timeline.push({
          at: at.at,
          kind: 'webhook_attempt',
          object: o.id ?? '',
          what: `${e.type} → ${d.endpoint}`,
          detail: at.status_code !== null ? `HTTP ${at.status_code} in ${at.latency_ms} ms` : `${at.error}${at.error_message ? `: ${at.error_message}` : ''}`,
        })
  }
  // in time order; at the same instant, what caused comes before what it caused
  const rank = {created: 0, provider_attempt: 1, event: 2, webhook_attempt: 3}
  timeline.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : rank[a.kind] - rank[b.kind]))
  return {payment, timeline, unavailable}
}

export function money(amount: number, currency: string): string {
  try {
    return formatMoney(amount, currency)
  } catch {
    return `${amount} ${currency}`
  }
}

/** The timeline as the CLI prints it: the payment, then one line per entry, webhook attempts under their event. */
export function renderTimeline(p: Payment, timeline: TimelineEntry[], c: Painter): string {
  const lines = [`${c.bold(p.id)}  ${p.status}  ${money(p.amount, p.currency)}`, '']
  for (const t of timeline) {
    const when = t.at.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z')
    const what = t.kind === 'webhook_attempt' ? c.dim(`  ↳ ${t.what}`) : t.kind === 'provider_attempt' ? `  ${t.what}` : t.what
    // the refund's or dispute's id: what the agent acts on next (gw refunds get, gw disputes evidence)
    const object = t.object && t.object !== p.id && t.kind !== 'webhook_attempt' ? `  ${t.object}` : ''
    lines.push(`${c.dim(when)}  ${what}${object}${t.detail ? `  ${c.dim(t.detail)}` : ''}`)
  }
  return lines.join('\n')
}
