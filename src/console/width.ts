// Display width: how many terminal cells a text takes — the one measure of the painter and of
// every view's columns (format.ts `fit`). A character as a person sees it (a grapheme: a letter
// and its combining accents, an emoji and its modifiers) takes 2 cells when it is East Asian
// wide or fullwidth (get-east-asian-width, the table Ink's string-width uses) or an emoji, 0 when
// it is only marks or invisible formatting, else 1. No Ink.
import {eastAsianWidth} from 'get-east-asian-width'

/** Texts of one cell a character with nothing to join: ASCII, Latin-1 and Latin Extended, Greek and Cyrillic, general punctuation (… · – —), currency (€), arrows (↑ ↓ ↺), box drawing. */
const NARROW = /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0482\u048a-\u052f\u2010-\u205e\u20a0-\u20cf\u2190-\u21ff\u2500-\u257f]*$/
/** Only marks, controls or invisible formatting (a combining accent on its own, a zero-width joiner). */
const ZERO = /^[\p{Mark}\p{Control}\p{Format}\p{Default_Ignorable_Code_Point}]+$/u
/** An emoji as the terminal draws it (one of Unicode's recommended sequences, a flag, a family). */
const EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v')
/** A pictograph asked to show as an emoji (VS16). */
const EMOJI_PRESENTATION = /\p{Extended_Pictographic}\uFE0F/u

let segmenter: Intl.Segmenter | undefined

/** The text's characters as a person sees them. */
export function graphemes(text: string): string[] {
  segmenter ??= new Intl.Segmenter()
  return Array.from(segmenter.segment(text), (s) => s.segment)
}

/** Cells one grapheme takes: 0, 1 or 2. */
export function graphemeWidth(g: string): number {
  if (NARROW.test(g)) return g.length
  if (EMOJI.test(g) || EMOJI_PRESENTATION.test(g)) return 2
  if (ZERO.test(g)) return 0
  return eastAsianWidth(g.codePointAt(0)!)
}

/** The cells a text takes. */
export function displayWidth(text: string): number {
  if (NARROW.test(text)) return text.length
  let n = 0
  for (const g of graphemes(text)) n += graphemeWidth(g)
  return n
}

/** The longest start of `text` that fits in `width` cells, and the cells it takes. */
export function cutToWidth(text: string, width: number): {text: string; width: number} {
  if (NARROW.test(text)) return text.length > width ? {text: text.slice(0, Math.max(0, width)), width: Math.max(0, width)} : {text, width: text.length}
  let out = ''
  let used = 0
  for (const g of graphemes(text)) {
    const w = graphemeWidth(g)
    if (used + w > width) break
    out += g
    used += w
  }
  return {text: out, width: used}
}

/**
 * Cut or pad to exactly `width` cells. Rows are mostly narrow (ids, types, statuses, amounts);
 * a reference typed by a customer may hold wide characters, measured as such so a row never
 * runs past its box (a terminal would wrap it onto the next line).
 */
export function toWidth(text: string, width: number): string {
  const cut = cutToWidth(text, width)
  return cut.text + ' '.repeat(Math.max(0, width - cut.width))
}
