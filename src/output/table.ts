// Tables for lists, drawn by cli-table3, which is imported only when a table is drawn. Each
// topic's columns are in src/commands/<topic>/shared/.
import {stripVTControlCharacters} from 'node:util'
import type {Painter} from './color.js'
import {terminalSafe} from './terminal.js'

export interface Columns<T> {
  head: string[]
  row: (item: T, p: Painter) => string[]
  /**
   * How the table gives way to a narrow terminal (gh-style): `flex` columns are truncated with
   * "…" first, then `drop` columns go, in that order; the first column (the id) always stays.
   * Defaults: every column but the first may be truncated; columns drop from the right.
   */
  fit?: {flex?: string[]; drop?: string[]}
}

/** cli-table3's compact style: one space of padding each side, one border between columns and at both ends. */
const frame = (widths: number[]) => widths.reduce((a, w) => a + w + 2, 0) + widths.length + 1
const visible = (s: string) => stripVTControlCharacters(s)
const MIN_FLEX = 8

/**
 * Column widths (content only) that fit `width`, and the columns kept; undefined widths when it
 * fits as it is. Cells are never wrapped: a cut cell ends in "…".
 */
export function fitColumns(head: string[], rows: string[][], width: number | undefined, fit: Columns<unknown>['fit'] = {}): {keep: number[]; widths?: number[]} {
  const all = head.map((_, i) => i)
  const natural = all.map((i) => Math.max(visible(head[i]!).length, ...rows.map((r) => visible(r[i] ?? '').length)))
  if (!width || frame(natural) <= width) return {keep: all}
  const byName = (names: string[] | undefined) => (names ?? []).map((n) => head.indexOf(n)).filter((i) => i > 0)
  const flex = fit.flex ? byName(fit.flex) : all.slice(1)
  const drop = fit.drop ? byName(fit.drop) : all.slice(1).reverse()
  const floor = (i: number) => Math.max(MIN_FLEX, visible(head[i]!).length)
  /** widths of `keep` that fit, cutting the widest of `cols` a character at a time; undefined if they cannot */
  const shrink = (keep: number[], cols: number[]): number[] | undefined => {
    const widths = [...natural]
    const total = () => frame(keep.map((i) => widths[i]!))
    while (total() > width) {
      const widest = cols.filter((i) => keep.includes(i) && widths[i]! > floor(i)).sort((x, y) => widths[y]! - widths[x]!)[0]
      if (widest === undefined) return undefined
      widths[widest]!--
    }
    return keep.map((i) => widths[i]!)
  }
  // as few dropped columns as possible, cutting the flexible ones to make the rest fit
  for (let k = 0; k <= drop.length; k++) {
    const keep = all.filter((i) => !drop.slice(0, k).includes(i))
    const widths = shrink(keep, flex)
    if (widths) return {keep, widths}
  }
  // a very narrow terminal: cut whatever is left but the id
  const keep = all.filter((i) => !drop.includes(i))
  return {keep, widths: shrink(keep, keep.slice(1)) ?? keep.map((i) => Math.min(natural[i]!, floor(i)))}
}

export async function renderTable<T>(items: T[], cols: Columns<T>, p: Painter, opts: {width?: number} = {}): Promise<string> {
  const {default: Table} = await import('cli-table3')
  // control characters shown before the widths are measured (the caret form is what takes room)
  const rows = items.map((item) => cols.row(item, p).map((cell) => terminalSafe(cell, {colors: p.enabled})))
  const {keep, widths} = fitColumns(cols.head, rows, opts.width, cols.fit)
  const table = new Table({
    head: keep.map((i) => cols.head[i]!),
    style: {head: p.enabled ? ['bold'] : [], border: p.enabled ? ['gray'] : [], compact: true},
    wordWrap: false,
    ...(widths ? {colWidths: widths.map((w) => w + 2)} : {}),
  })
  for (const r of rows) table.push(keep.map((i) => r[i] ?? ''))
  return table.toString()
}
