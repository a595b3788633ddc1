// The primitives of a detail view of one object: a title line, then aligned "Label  value"
// rows, and the few value formats views share. Plain text, no table library, so `gw payments
// get` stays cheap to start. Each topic's views are in src/commands/<topic>/shared/.
import type {Painter} from './color.js'

export type Row = [label: string, value: string | null | undefined]

export function renderFields(title: string, rows: Row[], p: Painter): string {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== '') as [string, string][]
  const width = Math.max(0, ...shown.map(([l]) => l.length))
  const lines = [title]
  for (const [label, value] of shown) {
    const [first, ...rest] = value.split('\n')
    lines.push(`  ${p.dim(label.padEnd(width))}  ${first}`)
    for (const r of rest) lines.push(`  ${' '.repeat(width)}  ${r}`)
  }
  return lines.join('\n')
}

/** Metadata on one line, k=v, k=v; undefined when there is none (the row is left out). */
export const metadataText = (m: Record<string, string> | undefined | null) =>
  m && Object.keys(m).length ? Object.entries(m).map(([k, v]) => `${k}=${v}`).join(', ') : undefined

/** 90061 -> "1d 1h 1m 1s"; 0 -> "0s". */
export function formatDuration(seconds: number): string {
  let s = Math.round(seconds)
  if (s === 0) return '0s'
  const sign = s < 0 ? '-' : ''
  s = Math.abs(s)
  const parts: string[] = []
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (s >= size) {
      parts.push(`${Math.floor(s / size)}${unit}`)
      s %= size
    }
  }
  return sign + parts.join(' ')
}

/** A timestamp as lists show it: 2025-03-01T12:00:00.123Z -> "2025-03-01 12:00:00Z". */
export const compactTime = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z') : '')
