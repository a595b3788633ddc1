// How events look on a terminal: one summary per event (time, type, object id, status, amount)
// shared by `gw events list`, the tail and `gw trigger`, plus the detail view. Plain text; tables
// go through src/output/table.ts (cli-table3, loaded lazily).
import type {GwEvent} from '../../../api/types.js'
import {paintStatus, type Painter} from '../../../output/color.js'
import {compactTime as date, renderFields} from '../../../output/detail.js'
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
