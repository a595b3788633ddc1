// A list's columns: each a title, a width at the terminal's width (0: not shown there), and the
// cell of a row; one of them may take what the others leave. A row is its cells, each cut or
// padded to its column by display width (format.ts `fit`), one space between columns. No Ink.
import {fit, fitId} from '../../format.js'

export interface Column<T> {
  title: string
  /** its width (the space after it included) at a total width; 0 hides it there */
  width: number | ((total: number) => number)
  /** takes the width the others leave (at least `width`) */
  grow?: boolean
  align?: 'left' | 'right'
  /** an id: cut in the middle, keeping its prefix and its end */
  id?: boolean
  /** goes first (the rightmost first) when the columns do not fit the width */
  optional?: boolean
  /** what the rows are sorted by on this column (s) */
  sort?: (row: T) => string | number
  cell(row: T): string
}

/** Each column's width at `total` columns. */
export function layoutColumns<T>(cols: readonly Column<T>[], total: number): number[] {
  const widths = cols.map((c) => Math.max(0, typeof c.width === 'function' ? c.width(total) : c.width))
  const sum = () => widths.reduce((a, b) => a + b, 0)
  // too narrow: the optional columns go, the rightmost first
  for (let i = cols.length - 1; i >= 0 && sum() > total; i--) if (cols[i]!.optional) widths[i] = 0
  const grow = cols.findIndex((c) => c.grow)
  if (grow >= 0) widths[grow] = Math.max(widths[grow]!, total - widths.reduce((a, b, i) => (i === grow ? a : a + b), 0))
  return widths
}

function cellText(c: {align?: 'left' | 'right'; id?: boolean}, text: string, width: number, last: boolean): string {
  if (width <= 0) return ''
  const room = last ? width : width - 1
  const body = c.id ? fitId(text, room) : fit(text, room, c.align)
  return last ? body : `${body} `
}

/** The heading line. */
export function headerText<T>(cols: readonly Column<T>[], widths: readonly number[]): string {
  return cols.map((c, i) => cellText({}, c.title, widths[i]!, i === cols.length - 1)).join('')
}

/** A row's line. */
export function rowText<T>(row: T, cols: readonly Column<T>[], widths: readonly number[]): string {
  return cols.map((c, i) => cellText(c, widths[i]! > 0 ? c.cell(row) : '', widths[i]!, i === cols.length - 1)).join('')
}
