// Webhook endpoints and their deliveries on a terminal: the endpoint's view and list (with why
// it is failing or disabled), the signing secret shown once, deliveries in a list and one
// delivery with every attempt (`gw webhooks delivery whd_...`).
import type {WebhookDelivery, WebhookDeliveryAttempt, WebhookEndpoint} from '../../../api/types.js'
import {paintStatus, type Painter} from '../../../output/color.js'
import {compactTime as date, metadataText, renderFields} from '../../../output/detail.js'
import type {Columns} from '../../../output/table.js'

const when = date

export const endpointColumns: Columns<WebhookEndpoint> = {
  head: ['ID', 'URL', 'EVENTS', 'STATUS', 'WHY', 'CREATED'],
  row: (w, p) => [w.id, w.url, w.enabled_events.join(', '), paintStatus(p, endpointStatus(w)), p.dim(endpointReason(w)), date(w.created_at)],
  // WHY is what support reads the list for: the URL and events give way first, never WHY
  fit: {flex: ['URL', 'EVENTS'], drop: ['CREATED', 'EVENTS']},
}

/** Why an endpoint is not simply enabled: what a support person needs to see in the list. */
export function endpointReason(w: WebhookEndpoint): string {
  if (w.disabled) return w.disabled_reason === 'failing' ? `no successful delivery since ${date(w.failing_since ?? '')}` : w.disabled_reason === 'requested' ? 'disabled on request' : ''
  if (w.status === 'failing') return `failing since ${date(w.failing_since ?? '')}`
  return ''
}

export function endpointStatus(w: WebhookEndpoint): string {
  if (w.disabled) return 'disabled'
  return w.status ?? 'enabled'
}

export function renderEndpoint(w: WebhookEndpoint, p: Painter): string {
  const meta = metadataText(w.metadata)
  return renderFields(
    `${p.bold(w.id)}  ${paintStatus(p, endpointStatus(w))}${w.livemode ? `  ${p.red('LIVE')}` : ''}`,
    [
      ['URL', w.url],
      ['Events', w.enabled_events.join(', ')],
      ['Description', w.description ?? undefined],
      ['Disabled', w.disabled ? `yes${w.disabled_reason ? ` (${w.disabled_reason === 'failing' ? 'failing deliveries' : w.disabled_reason})` : ''}` : undefined],
      ['Failing since', w.failing_since ?? undefined],
      ['Metadata', meta],
      ['Mode', w.livemode ? 'live' : 'test'],
      ['Created', w.created_at],
    ],
    p,
  )
}

/** The one time a secret is shown: after create and rotate-secret. */
export function renderSecretNotice(secret: string, p: Painter): string {
  return [
    `${p.bold('Signing secret:')} ${secret}`,
    p.yellow('Store it now (e.g. in your server\'s environment): it is shown only this once. `gw webhooks rotate-secret` replaces it.'),
  ].join('\n')
}

export const deliveryColumns: Columns<WebhookDelivery> = {
  head: ['ID', 'EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'LAST RESULT', 'NEXT ATTEMPT'],
  row: (d, p) => {
    const last = d.attempts[d.attempts.length - 1]
    const result = last ? (last.status_code !== null ? `HTTP ${last.status_code}` : (last.error ?? 'error')) + ` ${last.latency_ms}ms` : ''
    // a delivery a chaos rule shaped says so beside its id
    return [d.chaos ? `${d.id} ${p.yellow('[chaos]')}` : d.id, d.event, d.event_type, paintStatus(p, d.status === 'failed_retrying' ? 'failed_retrying' : d.status), String(d.attempts.length), result, date(d.next_attempt_at)]
  },
}

// ----------------------------------------------------------------- one delivery

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
