// Text helpers of the console's views: columns cut or padded to a width in cells (after control
// characters are shown, since their caret form is what takes room), amounts and times. No Ink.
import {formatMoney} from '../api/money.js'
import {terminalSafe} from '../output/terminal.js'
import {shortDuration} from '../commands/disputes/shared/display.js'
import {cutToWidth, displayWidth, toWidth} from './width.js'

/**
 * Data in a column of `width` cells: control characters shown, then cut with … or padded, by
 * display width (width.ts: East Asian wide and emoji 2 cells, combining marks none), so the next
 * column starts where its heading does whatever the data holds.
 */
export function fit(data: string | null | undefined, width: number, align: 'left' | 'right' = 'left'): string {
  if (width <= 0) return ''
  const text = terminalSafe(data ?? '').replace(/[\n\t]/g, ' ')
  const w = displayWidth(text)
  if (w > width) {
    if (width === 1) return toWidth(text, 1)
    const cut = cutToWidth(text, width - 1)
    return `${cut.text}…${' '.repeat(width - 1 - cut.width)}`
  }
  const pad = ' '.repeat(width - w)
  return align === 'right' ? pad + text : text + pad
}

/** An id cut in the middle to fit (pay_1a2b…9z8y), keeping its prefix and its end. */
export function fitId(id: string, width: number): string {
  if (width <= 0) return ''
  if (displayWidth(id) <= width) return fit(id, width)
  if (width < 8 || !/^[\x20-\x7e]*$/.test(id)) return fit(id, width)
  const tail = Math.floor((width - 1) / 2)
  return `${id.slice(0, width - 1 - tail)}…${id.slice(id.length - tail)}`
}

/** Money in the CLI's words (€12.50 EUR); an unknown currency as the raw minor units. */
export function money(amount: number, currency: string): string {
  try {
    return formatMoney(amount, currency)
  } catch {
    return `${amount} ${currency}`
  }
}

/** An engine timestamp as a list shows it: the time on the day of `now`, else the date and time. */
export function shortTime(iso: string | null | undefined, now: Date): string {
  if (!iso) return ''
  const day = iso.slice(0, 10)
  const sameDay = day === now.toISOString().slice(0, 10)
  return sameDay ? iso.slice(11, 19) : `${day.slice(5)} ${iso.slice(11, 16)}`
}

/** Seconds as the two largest units, as the disputes commands say them: "2d 4h", "1h 30m". */
export const span = shortDuration

/**
 * The engine clock for the status line, to the minute while it runs: "2026-12-04 10:00 UTC" (a
 * console left open redraws once a minute for it, not every second:
 * docs/decisions.md#an-idle-console), to the second while it is frozen ("10:00:03", which never
 * redraws); and how far ahead of the wall ("(+7d 2h)") or behind.
 */
export function clockText(engine: Date, offsetMs: number, frozen = false): {time: string; ahead: string} {
  const time = `${engine.toISOString().slice(0, frozen ? 19 : 16).replace('T', ' ')} UTC`
  const s = Math.round(offsetMs / 1000)
  const ahead = Math.abs(s) < 60 ? '' : s > 0 ? `(+${span(s)})` : `(-${span(-s)})`
  return {time, ahead}
}

/**
 * The window of rows a list of `height` shows so that `selected` is in it, moving as little as
 * it can from `top` (the first row shown before).
 */
export function scrollWindow(total: number, selected: number, height: number, top: number): number {
  if (total <= height) return 0
  let t = Math.min(Math.max(0, top), total - height)
  if (selected < t) t = selected
  if (selected >= t + height) t = selected - height + 1
  return Math.max(0, Math.min(t, total - height))
}

/**
 * The footer's keys in `width` cells: the view's keys as far as they fit, then those of `tail`
 * (how to get help and quit), which are the last to go; what had to go is marked "…".
 */
export function footerText(keys: readonly (readonly [string, string])[], tail: readonly (readonly [string, string])[], width: number): string {
  const join = (ps: readonly (readonly [string, string])[]) => ps.map(([k, v]) => (k ? `${k} ${v}` : v)).join(' · ')
  const full = join([...keys, ...tail])
  if (displayWidth(full) <= width) return full
  if (!tail.length) return fit(full, width)
  const shown = [...keys]
  while (shown.length) {
    shown.pop()
    const text = [join(shown), '…', join(tail)].filter(Boolean).join(' · ')
    if (displayWidth(text) <= width) return text
  }
  return fit(join(tail), width)
}

