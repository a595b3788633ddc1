// What a terminal sends, cut into keys. A read from the terminal holds as many keys as arrived
// since the last one: keys typed ahead while the app draws, a burst over SSH, `jjjjj` in one
// write. Each key is cut out on its own (a character, a control key, an escape sequence), so
// every one of them acts, in order. An escape sequence split across reads (ESC, then `[B` a
// moment later) is held until it is whole, or until ESC_WAIT_MS passed with nothing more: then
// it was the Esc key. A paste stays text: what a terminal brackets (ESC[200~ … ESC[201~, asked
// for with ESC[?2004h) is one paste however many reads it takes; without brackets, a read of
// several lines (a line break with text after it, at least PASTE_MIN characters) is one paste
// too. No Ink: the keyboard (keyboard.tsx) hands each key to Ink's own key parsing.

/** One key as the terminal sent it, or a paste. */
export interface RawKey {
  raw: string
  /** text pasted: it goes into a field as it is, and means nothing as keys */
  paste?: boolean
}

/** How long a lone ESC waits for the rest of a sequence before it is the Esc key (vim's ttimeoutlen is 100 ms, tmux's escape-time 10–500 ms). */
export const ESC_WAIT_MS = 50

/** The fewest characters of an unbracketed read that can be a paste of several lines. */
export const PASTE_MIN = 16

const ESC = '\u001B'
const PASTE_START = `${ESC}[200~`
const PASTE_END = `${ESC}[201~`

/** The end of a CSI sequence starting at `i` (ESC [ … final), 'pending' when the read ends first, undefined when it is not one. */
function csiEnd(s: string, i: number): number | 'pending' | undefined {
  let j = i + 2
  // the legacy function keys of some terminals: ESC [ [ A
  if (s[j] === '[') j++
  for (; j < s.length; j++) {
    const c = s.charCodeAt(j)
    if (c >= 0x20 && c <= 0x3f) continue
    if (c >= 0x40 && c <= 0x7e) return j + 1
    return undefined
  }
  return 'pending'
}

/** Control characters a paste does not keep (a field keeps tabs and line breaks). */
const cleanPaste = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')

export class KeyReader {
  private buf = ''
  private pasted: string | undefined

  /** The keys of a read, in order; a sequence not yet whole stays for the next read. */
  push(data: string): RawKey[] {
    if (this.pasted === undefined && this.buf === '' && isUnbracketedPaste(data)) return [{raw: cleanPaste(data), paste: true}]
    this.buf += data
    return this.take()
  }

  /** A sequence is waiting for the rest of it. */
  get pending(): boolean {
    return this.buf !== '' || this.pasted !== undefined
  }

  /** Nothing more came: what waits is what it was (a lone ESC is the Esc key; a paste never ended is the text so far). */
  flush(): RawKey[] {
    const out: RawKey[] = []
    if (this.pasted !== undefined) {
      const text = this.pasted + this.buf
      this.pasted = undefined
      this.buf = ''
      if (text) out.push({raw: cleanPaste(text), paste: true})
      return out
    }
    const s = this.buf
    this.buf = ''
    if (s) out.push({raw: s})
    return out
  }

  private take(): RawKey[] {
    const out: RawKey[] = []
    const s = this.buf
    let i = 0
    while (i < s.length) {
      if (this.pasted !== undefined) {
        const end = s.indexOf(PASTE_END, i)
        if (end < 0) {
          // keep a tail that may be the start of the end marker
          let keep = 0
          for (let k = Math.min(PASTE_END.length - 1, s.length - i); k > 0; k--)
            if (PASTE_END.startsWith(s.slice(s.length - k))) {
              keep = k
              break
            }
          this.pasted += s.slice(i, s.length - keep)
          i = s.length - keep
          break
        }
        out.push({raw: cleanPaste(this.pasted + s.slice(i, end)), paste: true})
        this.pasted = undefined
        i = end + PASTE_END.length
        continue
      }
      const c = s[i]!
      if (c !== ESC) {
        const cp = s.codePointAt(i)!
        const n = cp > 0xffff ? 2 : 1
        out.push({raw: s.slice(i, i + n)})
        i += n
        continue
      }
      const end = escapeEnd(s, i)
      if (end === 'pending') break
      const seq = s.slice(i, end)
      i = end
      if (seq === PASTE_START) {
        this.pasted = ''
        continue
      }
      out.push({raw: seq})
    }
    this.buf = s.slice(i)
    return out
  }
}

/** Where the escape sequence at `i` ends, or 'pending' when the read ends before it does. */
function escapeEnd(s: string, i: number): number | 'pending' {
  const next = s[i + 1]
  if (next === undefined) return 'pending'
  if (next === '[') return csiEnd(s, i) ?? i + 2
  if (next === 'O') return i + 2 < s.length ? i + 3 : 'pending'
  if (next === ESC) {
    // Alt (meta) and a sequence: ESC ESC [ A
    const third = s[i + 2]
    if (third === undefined) return 'pending'
    if (third === '[' || third === 'O') return escapeEnd(s, i + 1)
    return i + 2
  }
  // Alt and a character
  const cp = s.codePointAt(i + 1)!
  return i + 1 + (cp > 0xffff ? 2 : 1)
}

/** A read with no escape sequence that holds several lines of text: a paste where the terminal does not bracket one. */
export function isUnbracketedPaste(data: string): boolean {
  return data.length >= PASTE_MIN && !data.includes(ESC) && /[^\r\n][\r\n]+[^\r\n]/.test(data)
}
