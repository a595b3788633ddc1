// Data reaches a terminal shown, never acted on (docs/decisions.md#data-reaches-a-terminal-shown). A customer name holding ESC[2J would
// clear the screen of whoever lists customers, an OSC sequence would retitle their terminal, a
// carriage return would overwrite what a line said. Every human output goes through
// `terminalSafe` — the renderer's print, notice and verbose lines, tables (cell by cell, before
// they are laid out), prompts, error messages, and the Ink views' Text (src/ui/text.tsx) — so a
// new view cannot forget it. --json, NDJSON and files written on purpose (CSV, snapshots) stay exact.
//
// What is shown instead: caret notation, as `cat -v` and gh show it. C0 controls become ^@ ... ^_
// (ESC is ^[, CR ^M, BEL ^G), DEL ^?, and a C1 control its 7-bit form ^[ plus a letter (CSI U+009B
// is ^[[, as ESC [ would be). Tab and newline stay: multi-line views (an event's JSON, evidence
// text, a payment's timeline) show text as it was written.
//
// Invisible format characters that reorder or hide what is shown are shown too, as <U+XXXX>: the
// bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069: a name holding
// U+202E prints the rest of a table row reversed) and the zero-width ones that join nothing
// (U+200B, U+2060-U+2064, U+FEFF: two references that look equal are not). ZWNJ and ZWJ
// (U+200C, U+200D) stay: scripts and emoji sequences need them (docs/api.md#what-a-key-reaches).
import {PAINTED_SEQUENCES} from './color.js'

const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g
const PAINTED = new Set(PAINTED_SEQUENCES)
/** a control character, or one of the colour sequences gw paints with */
const CONTROL_OR_PAINT = /\u001B\[\d{1,2}m|[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g

/** A control character in caret notation; an invisible format character as <U+XXXX>. */
export function caret(c: string): string {
  const code = c.charCodeAt(0)
  if (code > 0x9f) return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`
  if (code === 0x7f) return '^?'
  if (code >= 0x80) return `^[${String.fromCharCode(code - 0x40)}`
  return `^${String.fromCharCode(code + 0x40)}`
}

/**
 * `text` with every control character but tab and newline shown in caret notation. `colors`: the
 * stream shows gw's colours, so the exact colour sequences gw itself paints (bold, dim, eight
 * colours, their resets: PAINTED_SEQUENCES) pass; every other sequence is shown. (Data holding
 * one of those very sequences is painted by it, never moved, cleared or retitled.)
 */
export function terminalSafe(text: string, opts: {colors?: boolean} = {}): string {
  if (!opts.colors) return text.replace(CONTROL, caret)
  return text.replace(CONTROL_OR_PAINT, (m) => (m.length > 1 ? (PAINTED.has(m) ? m : m.replace(CONTROL, caret)) : caret(m)))
}
