// One webhook delivery with every attempt (`gw webhooks delivery whd_...`).
import type {WebhookDelivery, WebhookDeliveryAttempt} from '../api/types.js'
import {paintStatus, type Painter} from './color.js'
import {renderFields} from './detail.js'
import type {Columns} from './table.js'

const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : '')

export function renderDelivery(d: WebhookDelivery, p: Painter): string {
  return renderFields(
    `${p.bold(d.id)}  ${paintStatus(p, d.status)}${d.livemode ? `  ${p.red('LIVE')}` : ''}`,
    [
      ['Event', `${d.event} (${d.event_type})`],
      ['Endpoint', d.endpoint],
      ['Attempts', String(d.attempts.length)],
      ['Next attempt', d.next_attempt_at ? when(d.next_attempt_at) : undefined],
      ['Undeliverable', d.undeliverable_reason ? p.red(d.undeliverable_reason) : undefined],
      ['Chaos', d.chaos ? p.yellow(`shaped by ${d.chaos} (gw chaos status)`) : undefined],
      ['Mode', d.livemode ? 'live' : 'test'],
      ['Created', d.created_at],
    ],
    p,
  )
}

export const deliveryAttemptColumns: Columns<WebhookDeliveryAttempt & {n: number}> = {
  head: ['#', 'AT', 'RESULT', 'LATENCY', 'RESPONSE'],
  fit: {flex: ['RESPONSE'], drop: ['RESPONSE']},
  row: (a, p) => [
    String(a.n),
    when(a.at),
    a.status_code !== null ? (a.status_code >= 200 && a.status_code < 300 ? p.green(`HTTP ${a.status_code}`) : p.red(`HTTP ${a.status_code}`)) : p.red([a.error ?? 'error', a.error_message].filter(Boolean).join(': ')),
    `${a.latency_ms} ms`,
    (a.response_excerpt ?? '').replace(/\s+/g, ' ').trim(),
  ],
}
