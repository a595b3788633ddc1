// The evidence form's input rules, apart from Ink so they can be checked directly.

/** A paste that ends in Enter ("value⏎") arrives as one chunk: the text up to its line break, to submit now; undefined while still typing. */
export function pastedLine(value: string): string | undefined {
  const i = value.search(/[\r\n]/)
  return i < 0 ? undefined : value.slice(0, i)
}

export type FormStep = 'key' | 'value' | 'file' | 'preview' | 'discard' | 'done'

/** What Esc does: back to the key from a value; leave an empty form; ask before discarding entered evidence. */
export function escapeAction(step: FormStep, empty: boolean): 'back' | 'cancel' | 'ask' | 'keep' {
  if (step === 'discard') return 'keep'
  if (step === 'value') return 'back'
  return empty ? 'cancel' : 'ask'
}
