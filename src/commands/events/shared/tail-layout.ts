// The columns of `gw events tail` for a terminal width: what a person watching needs most stays
// (status and amount), long ids are shortened in the middle first, then the type narrows, the time
// goes, and the reference column appears only where there is room for it. Pure, so it is tested
// at every width without a terminal.

export interface TailColumns {
  time: number
  type: number
  object: number
  status: number
  amount: number
  /** 0: no reference column */
  reference: number
}

/** The mark column (backfill arrow or selection) before every row. */
export const MARK = 2
const IDEAL: TailColumns = {time: 10, type: 26, object: 30, status: 18, amount: 17, reference: 24}
/** Widths below which a column is dropped rather than squeezed further. */
const MIN: TailColumns = {time: 10, type: 12, object: 12, status: 11, amount: 12, reference: 12}
/** Wider than this, the reference column is shown. */
export const REFERENCE_FROM = 140

/** Each step takes room from one column, in this order, until the row fits. */
const STEPS: {col: keyof TailColumns; to: 'min' | 0}[] = [
  {col: 'reference', to: 0},
  {col: 'object', to: 'min'},
  {col: 'type', to: 'min'},
  {col: 'time', to: 0},
  {col: 'status', to: 'min'},
  {col: 'amount', to: 'min'},
  {col: 'object', to: 0},
  {col: 'type', to: 0},
]

export function tailColumns(width: number): TailColumns {
  const cols: TailColumns = {...IDEAL, reference: width > REFERENCE_FROM ? IDEAL.reference : 0}
  const room = width - MARK
  const used = () => cols.time + cols.type + cols.object + cols.status + cols.amount + cols.reference
  for (const step of STEPS) {
    const over = used() - room
    if (over <= 0) break
    if (step.to === 0) cols[step.col] = 0
    else cols[step.col] -= Math.min(Math.max(0, cols[step.col] - MIN[step.col]), over)
  }
  // what is left over widens the reference (when shown), else the amount
  const spare = room - used()
  if (spare > 0) cols[cols.reference ? 'reference' : 'amount'] += spare
  return cols
}

/** An id shortened in the middle to `width` (the prefix and both ends stay recognisable): pay_0Vbw…LzE. */
export function shortId(id: string, width: number): string {
  if (width <= 0) return ''
  if (id.length <= width) return id
  if (width < 5) return id.slice(0, width)
  const tail = Math.max(2, Math.floor((width - 1) / 3))
  return `${id.slice(0, width - 1 - tail)}…${id.slice(-tail)}`
}

/**
 * The rows shown in a list of `height` lines when a date line goes before each row whose day
 * (UTC, the gateway's clock) is not the row's before it (else after a clock advance
 * 02:00, 23:59, 00:00 read as one day). Each date line takes a row's place: following the newest
 * (`keep` null), the oldest rows give way; else the rows after the selected row `keep`, then
 * those before it. `days[i]` is row i's day.
 */
export function windowWithDays(days: readonly string[], start: number, height: number, keep: number | null): {start: number; end: number; breaks: Set<number>} {
  let s = start
  let e = Math.min(days.length, start + height)
  const breaksIn = () => {
    const b = new Set<number>()
    for (let i = Math.max(1, s); i < e; i++) if (days[i] !== days[i - 1]) b.add(i)
    return b
  }
  let breaks = breaksIn()
  while (e - s > 1 && e - s + breaks.size > height) {
    if (keep !== null && e - 1 > keep) e--
    else s++
    breaks = breaksIn()
  }
  return {start: s, end: e, breaks}
}
