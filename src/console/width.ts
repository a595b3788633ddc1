// Display width: how many terminal cells a text takes. No Ink.

/** Columns a code point takes: 0 for a combining mark, 2 for East Asian wide and emoji, else 1 (wcwidth's ranges). */
export function charWidth(ch: string): number {
  if (/\p{M}/u.test(ch)) return 0
  const c = ch.codePointAt(0)!
  if (/\p{Extended_Pictographic}/u.test(ch) && c > 0x2000) return 2
  return (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x20000 && c <= 0x3fffd)
    ? 2
    : 1
}

/**
 * Cut or pad to `width` columns. Rows are mostly ASCII (ids, types, statuses, amounts: one column
 * a character); a reference typed by a customer may hold wide characters, measured as such so a
 * row never runs past its box (a terminal would wrap it onto the next line).
 */
export function toWidth(text: string, width: number): string {
  if (/^[\u0020-\u007e]*$/.test(text)) return text.length > width ? text.slice(0, width) : text.padEnd(width)
  let out = ''
  let used = 0
  for (const ch of text) {
    const w = charWidth(ch)
    if (used + w > width) break
    out += ch
    used += w
  }
  return out + ' '.repeat(width - used)
}

/** The cells a text takes. */
export function displayWidth(text: string): number {
  if (/^[\u0020-\u007e]*$/.test(text)) return text.length
  let n = 0
  for (const ch of text) n += charWidth(ch)
  return n
}
