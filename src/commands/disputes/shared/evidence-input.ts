// The evidence form's input rules, apart from Ink so they can be checked directly.

export type FormStep = 'key' | 'value' | 'file' | 'preview' | 'discard' | 'done'

/** What Esc does: back to the key from a value; leave an empty form; ask before discarding entered evidence. */
export function escapeAction(step: FormStep, empty: boolean): 'back' | 'cancel' | 'ask' | 'keep' {
  if (step === 'discard') return 'keep'
  if (step === 'value') return 'back'
  return empty ? 'cancel' : 'ask'
}

/** The keys of one input event the form's fields care about (a subset of Ink's Key). */
export interface FieldKey {
  return?: boolean
  backspace?: boolean
  delete?: boolean
  ctrl?: boolean
  meta?: boolean
  escape?: boolean
  tab?: boolean
  upArrow?: boolean
  downArrow?: boolean
  leftArrow?: boolean
  rightArrow?: boolean
  /** text pasted (bracketed by the terminal, or several lines in one read): it stays text */
  paste?: boolean
}

/**
 * One input event applied to a field's text (docs/decisions.md#disputes-and-evidence). The caller keeps the text in a
 * ref, so events arriving faster than the screen redraws each see the one before ("1" then Enter
 * submits "1"). Enter submits. A chunk with a line break inside is a paste: in a multi-line field
 * (a value) every line is kept, and Enter then submits; a chunk that only ends in a line break
 * ("value⏎", typed fast or pasted) submits at it. Ctrl+J (a lone line feed) starts a new line in
 * a multi-line field. A paste of several lines into a one-line field (a key, a URL) is refused
 * whole (`refused`: its number of lines): nothing of it is taken or submitted. A value keeps tabs;
 * other control characters are dropped.
 */
export function applyFieldInput(text: string, input: string, key: FieldKey, opts: {multiline: boolean}): {text: string; submit?: string; refused?: number} {
  // a paste stays text: every line of it in a value, never a submission; several lines where one goes are refused
  if (key.paste) {
    const lines = input.replace(/\r\n/g, '\n').replace(/\r/g, '\n').replace(/\n+$/, '')
    if (!opts.multiline && lines.includes('\n')) return {text, refused: lines.split('\n').length}
    const kept = opts.multiline ? lines.replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '') : lines.replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, '')
    return {text: text + kept}
  }
  // a tab in a value is kept (a pasted table keeps its columns)
  if (key.tab && opts.multiline && input === '\t') return {text: `${text}\t`}
  if (key.escape || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return {text}
  if (key.backspace || key.delete) return {text: Array.from(text).slice(0, -1).join('')}
  if (key.ctrl && input === 'u') return {text: ''}
  if (key.ctrl || (key.meta && input.length <= 1 && !key.return)) return {text}
  if (key.return && (input === '\r' || input === '')) return {text, submit: text}
  const chunk = input.replace(/\r\n/g, '\n').replace(/\r/g, '\n')
  if (opts.multiline && chunk === '\n') return {text: `${text}\n`}
  // control characters dropped; a value keeps its tabs and line breaks
  const printable = (s: string) => (opts.multiline ? s.replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, '') : s.replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, ''))
  const br = chunk.indexOf('\n')
  if (br < 0) return {text: text + printable(chunk)}
  const body = chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk
  if (opts.multiline && body.includes('\n')) return {text: text + printable(body)}
  // several lines pasted where one line goes (a key, a URL): none of it is taken, nor submitted
  // (else line 1 would become a key and the rest be lost)
  if (body.includes('\n')) return {text, refused: body.split('\n').length}
  // one line, then a line break: what was typed or pasted up to it, submitted
  const line = text + printable(chunk.slice(0, br))
  return {text: line, submit: line}
}
