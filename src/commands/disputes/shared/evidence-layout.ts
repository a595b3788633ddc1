// The evidence form inside a frame of few rows (gw console at 60×15): what it shows in the rows
// it has, every line one row. The prompt, its error and the dispute's title always show; when
// rows run short the advice goes first, then what is attached, what was argued before, then the
// files, the fields and the checklist each become one line, then the Esc hint, the due date,
// the draft's notice and the checklist itself. Nothing is drawn past the rows given (Ink drew two lines over each other).
// No Ink.

export interface CompactParts {
  /** rows the form has */
  height: number
  /** items of the checklist */
  checklist: number
  attached: boolean
  /** stages argued before */
  previous: number
  /** fields listed (the one being edited is not); hidden: the review's pane shows them */
  fields: number
  hideFields?: boolean
  files: number
  notice: boolean
  /** rows of the step's prompt at least (a value's: its heading and one line of text) */
  prompt: number
  error: boolean
  escHint: boolean
}

export interface CompactPlan {
  notice: boolean
  checklist: boolean
  due: boolean
  advice: boolean
  attached: boolean
  previous: boolean
  checklistInline: boolean
  fieldsInline: boolean
  filesInline: boolean
  escHint: boolean
  /** rows left over (the value being typed shows more of itself in them) */
  spare: number
}

export function compactPlan(p: CompactParts): CompactPlan {
  const plan = {notice: p.notice, checklist: true, due: true, advice: true, attached: p.attached, previous: p.previous > 0, checklistInline: false, fieldsInline: false, filesInline: false, escHint: p.escHint}
  const rows = () =>
    1 +
    (plan.notice ? 1 : 0) +
    (plan.due ? 1 : 0) +
    (plan.advice ? 1 : 0) +
    (!plan.checklist ? 0 : plan.checklistInline ? 1 : 1 + p.checklist) +
    (plan.attached ? 1 : 0) +
    (plan.previous ? p.previous : 0) +
    (p.hideFields ? 0 : plan.fieldsInline ? 1 : 1 + Math.max(1, p.fields)) +
    (plan.filesInline ? 1 : 1 + Math.max(1, p.files)) +
    p.prompt +
    (p.error ? 1 : 0) +
    (plan.escHint ? 1 : 0)
  const cuts: (() => void)[] = [
    () => (plan.advice = false),
    () => (plan.attached = false),
    () => (plan.previous = false),
    () => (plan.filesInline = true),
    () => (plan.fieldsInline = true),
    () => (plan.checklistInline = true),
    () => (plan.escHint = false),
    () => (plan.due = false),
    () => (plan.notice = false),
    () => (plan.checklist = false),
  ]
  for (const cut of cuts) {
    if (rows() <= p.height) break
    cut()
  }
  return {...plan, spare: p.height - rows()}
}

/** Rows a text takes wrapped at word boundaries to `width` columns (as Ink wraps a Text). */
export function wrappedRows(text: string, width: number): number {
  const w = Math.max(1, width)
  let rows = 0
  for (const line of text.split('\n')) {
    rows++
    let used = 0
    for (const word of line.split(' ')) {
      const n = word.length
      if (used === 0) used = n
      else if (used + 1 + n <= w) used += 1 + n
      else {
        rows++
        used = n
      }
      while (used > w) {
        rows++
        used -= w
      }
    }
  }
  return rows
}

