// How events, webhook endpoints and deliveries look on a terminal: one summary per event (time,
// type, object id, status, amount) shared by `gw events list`, the tail and `gw listen`, plus
// detail views. Plain text; tables go through src/output/table.ts (cli-table3, loaded lazily).
import type {GwEvent, WebhookDelivery, WebhookEndpoint} from '../../../api/types.js'
import {paintStatus, type Painter} from '../../../output/color.js'
import {renderFields} from '../../../output/detail.js'
import {formatMoney} from '../../../api/money.js'
import type {Columns} from '../../../output/table.js'

export interface EventSummary {
  id: string
  /** HH:MM:SS of created_at (UTC) */
  time: string
  type: string
  object_id: string
  status: string
  amount: string
  /** the merchant's reference of the object (a payment's order number), or its payment's for a refund or dispute */
  reference: string
}

type Obj = Record<string, unknown>

/** The state an object's event is about: payment/refund/dispute status, a merchant's KYB, a provider's health. */
export function objectStatus(o: Obj): string {
  for (const k of ['status', 'kyb_status']) if (typeof o[k] === 'string') return o[k] as string
  return ''
}

export function objectAmount(o: Obj): string {
  const currency = typeof o.currency === 'string' ? o.currency : undefined
  const amount = typeof o.amount === 'number' ? o.amount : typeof o.net === 'number' ? o.net : undefined
  if (amount === undefined || !currency) return ''
  try {
    return formatMoney(amount, currency)
  } catch {
    return `${amount} ${currency}`
  }
}

export function summarize(e: GwEvent): EventSummary {
  const o = (e.data?.object ?? {}) as Obj
  return {
    id: e.id,
    time: clockTime(e.created_at),
    type: e.type,
    object_id: typeof o.id === 'string' ? o.id : '',
    status: objectStatus(o),
    amount: objectAmount(o),
    reference: typeof o.reference === 'string' ? o.reference : typeof o.payment === 'string' ? o.payment : '',
  }
}

/** "2025-01-02T03:04:05.678Z" -> "03:04:05" */
export function clockTime(iso: string): string {
  const m = /T(\d{2}:\d{2}:\d{2})/.exec(iso)
  return m ? m[1]! : iso
}

const date = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : '')

export const eventColumns: Columns<GwEvent> = {
  head: ['ID', 'TYPE', 'OBJECT', 'STATUS', 'AMOUNT', 'CREATED'],
  row: (e, p) => {
    const s = summarize(e)
    return [e.id, e.type, s.object_id, s.status ? paintStatus(p, s.status) : '', s.amount, date(e.created_at)]
  },
}

/** One line per event for streams (`gw events tail` without a TTY never uses this; `gw trigger` does). */
export function eventLine(e: GwEvent, p: Painter, opts: {backfilled?: boolean} = {}): string {
  const s = summarize(e)
  const status = s.status ? paintStatus(p, s.status) + ' '.repeat(Math.max(0, 16 - s.status.length)) : ' '.repeat(16)
  const cells = [p.dim(s.time), s.type.padEnd(24), s.object_id.padEnd(28), status, s.amount]
  return `${cells.join('  ').trimEnd()}${opts.backfilled ? `  ${p.yellow('(backfilled)')}` : ''}  ${p.dim(e.id)}`
}

export function renderEvent(e: GwEvent, p: Painter): string {
  const s = summarize(e)
  const head = renderFields(
    `${p.bold(e.id)}  ${e.type}${e.livemode ? `  ${p.red('LIVE')}` : ''}`,
    [
      ['Object', s.object_id ? `${s.object_id}${s.status ? ` (${paintStatus(p, s.status)})` : ''}` : undefined],
      ['Amount', s.amount],
      ['Request', e.request_id ?? p.dim('(none: not caused by an API request)')],
      ['Mode', e.livemode ? 'live' : 'test'],
      ['Created', e.created_at],
    ],
    p,
  )
  return `${head}\n\n${p.dim('data.object:')}\n${JSON.stringify(e.data?.object ?? null, null, 2)}`
}

// ----------------------------------------------------------------- webhook endpoints

export const endpointColumns: Columns<WebhookEndpoint> = {
  head: ['ID', 'URL', 'EVENTS', 'STATUS', 'WHY', 'CREATED'],
  row: (w, p) => [w.id, w.url, w.enabled_events.join(', '), paintStatus(p, endpointStatus(w)), p.dim(endpointReason(w)), date(w.created_at)],
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
  const meta = w.metadata && Object.keys(w.metadata).length ? Object.entries(w.metadata).map(([k, v]) => `${k}=${v}`).join(', ') : undefined
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
    // a delivery a chaos rule shaped (issue 29) says so beside its id
    return [d.chaos ? `${d.id} ${p.yellow('[chaos]')}` : d.id, d.event, d.event_type, paintStatus(p, d.status === 'failed_retrying' ? 'failed_retrying' : d.status), String(d.attempts.length), result, date(d.next_attempt_at)]
  },
}
