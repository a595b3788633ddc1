// Ink form for `gw disputes evidence` on a terminal: the dispute (reason, amount, stage,
// deadline), a checklist of the recognized keys that suit its reason, key/value entry, HTTPS
// file URLs, then a preview that explains the one-submission-per-stage rule and submits only
// on "y". Imported only through ./open-form.ts (behind the render gate).
import {Box, render, useApp} from 'ink'
import {KeyboardProvider, readsSoFar, useKeyInput} from '../../../ui/keyboard.js'
import {Text} from '../../../ui/text.js'
import {useEffect, useLayoutEffect, useRef, useState} from 'react'
import type {Dispute} from '../../../api/types.js'
import {EVIDENCE_BY_REASON, isHttpsUrl, nearMissKey} from '../../../api/dispute-evidence.js'
import {alsoKeys, attachedLine, evidenceCoverage, timeLeft, type AttachedFacts} from './display.js'
import type {EvidenceParams} from '../../../client/params.js'
import {applyFieldInput, escapeAction, type FormStep} from './evidence-input.js'
import {compactPlan, wrappedRows} from './evidence-layout.js'
import {FieldText, indentLines, oneLine, reviewLines, ReviewText} from './evidence-text.js'
import {formatMoney} from '../../../api/money.js'

type Step = FormStep

export interface EvidenceFormProps {
  dispute: Dispute
  now: Date
  /** the 3-D Secure, AVS, CVV results and refund ids that will be attached, when known */
  facts?: AttachedFacts
  onDone: (result: EvidenceParams | null) => void
  /** called once the last frame is drawn; default: the Ink app exits (the form is the whole app) */
  onLeave?: () => void
  /**
   * The rows and columns it may use (inside `gw console`'s frame): each line then takes one row
   * (cut with …), values listed on one line each, and the text being typed shows its last lines
   * with a count of those above — nothing goes past the frame's footer. Without it, the form
   * flows in the terminal as `gw disputes evidence` draws it.
   */
  height?: number
  width?: number
  /** what was entered before (a draft kept by `gw console`): the form goes on from it */
  initial?: EvidenceDraft
  /** called as what is entered changes (the console keeps it as a draft) */
  onChange?: (draft: EvidenceDraft) => void
  /** called when the person confirms discarding what they entered */
  onDiscard?: () => void
  /** why "y" at the review cannot send now (the engine cannot be reached), or undefined */
  holdSubmit?: () => string | undefined
  /** a line above the form (a draft taken up again) */
  notice?: string
  /** Ctrl-C at the discard question (a second Ctrl-C): the console quits, the draft kept; default: the form is canceled */
  onInterrupt?: () => void
}

/** What has been entered in the form: its fields, its files, and a value being typed. */
export interface EvidenceDraft {
  fields: Record<string, string>
  files: string[]
  typing?: {key: string; text: string}
}

const MAX_KEY = 100

export function EvidenceForm({dispute: dp, now, facts, onDone, onLeave, height, width = 80, initial, onChange, onDiscard, holdSubmit, notice, onInterrupt}: EvidenceFormProps) {
  const {exit: exitApp} = useApp()
  const exit = onLeave ?? exitApp
  // state the input handler reads lives in refs too: key events can arrive faster than the
  // screen redraws (a handler of the last render runs), and each must see the one before
  const [step, setStep, stepRef] = useRefState<Step>(initial?.typing ? 'value' : 'key')
  const [fields, setFields, fieldsRef] = useRefState<Record<string, string>>(initial?.fields ?? {})
  const [files, setFiles, filesRef] = useRefState<string[]>(initial?.files ?? [])
  const [input, setText, inputRef] = useRefState(initial?.typing?.text ?? '')
  const [currentKey, setCurrentKey, currentKeyRef] = useRefState(initial?.typing?.key ?? '')
  /** a near-miss key typed once: typed again, it is kept */
  const nearMissRef = useRef('')
  const [error, setError] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<'submitted' | 'canceled' | null>(null)
  /** the first line the review's pane shows */
  const [reviewTop, setReviewTop, reviewTopRef] = useRefState(0)
  /** where Esc was pressed, to go back to when the user keeps the evidence */
  const [before, setBefore] = useState<Step>('key')

  const cov = evidenceCoverage(dp.reason, fields)
  const info = EVIDENCE_BY_REASON[dp.reason]
  const empty = Object.keys(fields).length === 0 && files.length === 0

  const finish = (result: EvidenceParams | null) => {
    setOutcome(result ? 'submitted' : 'canceled')
    setError(null)
    setStep('done')
    onDone(result)
  }

  /**
   * The step whose screen has been drawn: set once the read that led to it is over. Keys of the
   * same read (the tail of a paste, keys typed ahead in one burst) come before it; any key read
   * after it does not (a passive effect here could come after the next read on a busy machine,
   * and an answer typed to the preview on screen was dropped).
   */
  const shownRef = useRef<Step | null>(null)
  /** on the keyboard: the reads of the terminal taken when the step's screen was drawn (a key of one of them was typed ahead) */
  const shownAtRead = useRef(0)
  useLayoutEffect(() => {
    shownAtRead.current = readsSoFar()
    queueMicrotask(() => {
      if (stepRef.current === step) shownRef.current = step
    })
  }, [step, stepRef])

  // what is entered, as it changes: a draft the console keeps (nothing is lost to an error, a
  // reconnect, leaving the view, a crash or Ctrl-C)
  const latestChange = useRef(onChange)
  latestChange.current = onChange
  useEffect(() => {
    if (step === 'done') return
    const typing = step === 'value' && input ? {key: currentKey, text: input} : undefined
    latestChange.current?.({fields, files, ...(typing ? {typing} : {})})
  }, [fields, files, input, step, currentKey])

  // leave only once the last frame ("Submitting…" / "Canceled…") is committed, so it is what
  // stays on screen even when the machine is slow to render
  useEffect(() => {
    if (step === 'done') exit()
  }, [step, exit])

  const go = (next: Step) => {
    setError(null)
    setText('')
    setStep(next)
  }

  useKeyInput((ch, key) => {
    const step = stepRef.current
    const fields = fieldsRef.current
    const files = filesRef.current
    const empty = Object.keys(fields).length === 0 && files.length === 0
    if (step === 'done') return
    const interrupt = key.ctrl && ch === 'c'
    // a paste is text for a field; at a question it answers nothing
    if (key.paste && step !== 'key' && step !== 'value' && step !== 'file') return
    if (step === 'discard') {
      // a second Ctrl-C: leave (the console quits and keeps the draft)
      if (interrupt) return onInterrupt ? onInterrupt() : finish(null)
      const c = ch.toLowerCase()
      if (c === 'y') {
        onDiscard?.()
        return finish(null)
      }
      if (c === 'n' || key.escape || key.return) return go(before)
      return
    }
    // Ctrl-C asks as Esc does: nothing entered is thrown away without a yes
    if (key.escape || interrupt) {
      // nothing entered yet: Esc just leaves; otherwise ask before throwing it away
      const act = escapeAction(step, empty)
      if (act === 'back') return go('key')
      if (act === 'cancel') return finish(null)
      setBefore(step)
      return go('discard')
    }
    if (step === 'key' || step === 'value' || step === 'file') {
      // the text lives in a ref: events faster than a redraw each see the one before
      const r = applyFieldInput(inputRef.current, ch, key, {multiline: step === 'value'})
      if (r.refused !== undefined)
        return setError(
          step === 'key'
            ? `Pasted ${r.refused} lines at the key prompt: nothing was taken. Type a key (or its number), press Enter, then paste its value.`
            : `Pasted ${r.refused} lines: one URL at a time. Nothing was taken.`,
        )
      setText(r.text)
      if (r.submit !== undefined) (step === 'key' ? onKey : step === 'value' ? onValue : onFile)(r.submit)
      return
    }
    if (step !== 'preview') return
    // the review's pane: every line of what will be sent can be read before it is
    if (key.upArrow || key.downArrow || key.pageUp || key.pageDown) {
      const room = reviewRoomRef.current
      const delta = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -room : room
      return setReviewTop(Math.max(0, Math.min(Math.max(0, reviewLines(fields).length - room), reviewTopRef.current + delta)))
    }
    // only an answer to a preview on screen: keys that arrive before it is drawn (the tail of a
    // paste, keys typed ahead) never submit what the agent has not seen
    if (shownRef.current !== 'preview' || (key.read !== undefined && key.read <= shownAtRead.current)) return
    const c = ch.toLowerCase()
    if (c === 'y') {
      if (empty) return setError('Nothing to submit yet: press e and add a field or a file.')
      const held = holdSubmit?.()
      if (held) return setError(held)
      return finish({fields, files})
    }
    if (c === 'e') return go('key')
    if (c === 'n') return finish(null)
  })

  const onKey = (raw: string) => {
    const text = raw.trim()
    if (text === '') return go('file')
    let key = text
    if (/^\d+$/.test(text)) {
      const list = evidenceCoverage(dp.reason, fieldsRef.current).checklist
      const picked = list[Number(text) - 1]
      if (!picked) return setError(`Pick 1 to ${list.length}, or type a key.`)
      key = picked.key
    }
    if (key.length > MAX_KEY) return setError(`A key has at most ${MAX_KEY} characters.`)
    // a key is one word: text with spaces is a value typed or pasted at the wrong prompt
    if (/\s/.test(key)) {
      setText('')
      return setError(`A key has no spaces ("${key.length > 40 ? `${key.slice(0, 40)}…` : key}" looks like a value): type a key (or its number), press Enter, then the value.`)
    }
    // a near miss of a recognized key: said, and taken only when typed again
    const meant = nearMissKey(key)
    if (meant && nearMissRef.current !== key) {
      nearMissRef.current = key
      setText('')
      return setError(`Did you mean ${meant}? ${key} is not a recognized key (it would go as free text). Type ${meant}, or ${key} again to keep it.`)
    }
    nearMissRef.current = ''
    setCurrentKey(key)
    setError(null)
    setText(fieldsRef.current[key] ?? '')
    setStep('value')
  }

  const onValue = (raw: string) => {
    const next = {...fieldsRef.current}
    if (raw.trim() === '') delete next[currentKeyRef.current]
    else next[currentKeyRef.current] = raw
    setFields(next)
    go('key')
  }

  const onFile = (raw: string) => {
    const text = raw.trim()
    if (text === '') return go('preview')
    if (!isHttpsUrl(text)) {
      setText('')
      return setError(`Not an HTTPS URL: ${text}. Evidence files are https:// links the service can fetch; type it again.`)
    }
    if (!filesRef.current.includes(text)) setFiles([...filesRef.current, text])
    setError(null)
    setText('')
  }


  const attached = attachedLine(dp.reason, facts)
  const due = dp.evidence_due_by ? `${dp.evidence_due_by.replace('T', ' ').replace(/\.\d+Z$|Z$/, 'Z')} (${timeLeft(dp, now)})` : timeLeft(dp, now)

  // inside a frame of `height` rows: one row per line, and the text being typed gets what is left
  const compact = height !== undefined
  const wrap = compact ? ('truncate' as const) : undefined
  const gap = compact ? 0 : 1
  const fieldEntries = Object.entries(fields).filter(([k]) => !(compact && step === 'value' && k === currentKey))
  const rowsOf = (text: string) => wrappedRows(text, width)
  const warning = `One submission per stage: once submitted, ${dp.id} goes to under_review and nothing can be added or changed at the ${dp.stage} stage.${cov.missing.length ? ' Missing keys cannot be sent later.' : ''}`
  const question = step === 'discard' ? `Discard the evidence you entered? y = discard and leave · n = keep editing${onInterrupt ? ' · Ctrl-C: quit, keeping it as a draft' : ''}` : ''
  // the review in a frame: its Covers line is its heading, and a pane of what will be sent
  // (at least its heading and a line) takes the place of the fields' list
  const reviewPane = compact && step === 'preview' && fieldEntries.length > 0
  const promptRows = step === 'preview' ? (compact ? 1 : 2) + rowsOf(warning) + 1 + (reviewPane ? 2 : 0) : step === 'value' ? 2 : step === 'discard' ? rowsOf(question) : 1
  const escHint = step !== 'done' && step !== 'preview' && step !== 'discard'
  // inside a frame of `height` rows: what fits, one row a line (evidence-layout.ts)
  const plan = compact
    ? compactPlan({height: height ?? 0, checklist: cov.checklist.length, attached: !!attached, previous: (dp.previous_evidence ?? []).length, fields: fieldEntries.length, hideFields: reviewPane, files: files.length, notice: !!notice, prompt: promptRows, error: !!error, escHint})
    : undefined
  const valueRows = plan ? Math.max(1, 1 + plan.spare) : undefined
  // the lines of what will be sent the review's pane shows (its heading aside)
  const reviewRoomRef = useRef(1)
  reviewRoomRef.current = Math.max(1, 1 + (plan?.spare ?? 0))
  const show = {
    notice: !!notice && (plan?.notice ?? true),
    due: plan?.due ?? true,
    advice: plan?.advice ?? true,
    attached: !!attached && (plan?.attached ?? true),
    previous: plan?.previous ?? true,
    escHint: escHint && (plan?.escHint ?? true),
  }

  return (
    <Box flexDirection="column">
      {show.notice ? (
        <Text color="cyan" wrap={wrap}>
          {notice}
        </Text>
      ) : null}
      <Text wrap={wrap}>
        <Text bold>Dispute {dp.id}</Text> · reason <Text bold>{dp.reason}</Text> · <Text bold>{formatMoney(dp.amount, dp.currency)}</Text> · stage{' '}
        <Text bold>{dp.stage}</Text>
      </Text>
      {show.due ? (
        <Text wrap={wrap}>
          Respond by <Text color="yellow">{due}</Text> · payment {dp.payment}
        </Text>
      ) : null}
      {show.advice ? (
        <Text dimColor wrap={wrap}>
          {info?.advice}
        </Text>
      ) : null}
      {plan && !plan.checklist ? null : plan?.checklistInline ? (
        <Text wrap="truncate">
          <Text bold>Checklist: </Text>
          {cov.checklist.map((c, i) => `${i + 1} ${c.covered ? '[x]' : c.metBy ? '[-]' : '[ ]'} ${c.key}`).join(' · ')}
        </Text>
      ) : (
      <Box flexDirection="column" marginTop={gap}>
        <Text bold>Checklist for {dp.reason}:</Text>
        {cov.checklist.map((c, i) => (
          <Text key={c.key} wrap={wrap}>
            {' '}
            {i + 1}. {c.covered ? <Text color="green">[x]</Text> : c.metBy ? <Text dimColor>[-]</Text> : <Text color="yellow">[ ]</Text>} {c.key}{' '}
            <Text dimColor>{c.metBy ? `not needed: ${c.metBy} given` : c.hint}</Text>
          </Text>
        ))}
        {show.attached ? (
          <Text dimColor wrap={wrap}>
            {' '}
            {attached}
          </Text>
        ) : null}
      </Box>
      )}
      {compact
        ? (show.previous ? dp.previous_evidence ?? [] : []).map((ev) => (
            <Text key={ev.stage} dimColor wrap="truncate">
              {`Argued at the ${ev.stage} stage: ${[...Object.keys(ev.fields), ...ev.files.map(() => 'a file')].join(', ') || 'nothing'} (send what still applies again)`}
            </Text>
          ))
        : (dp.previous_evidence ?? []).map((ev) => (
        <Box key={ev.stage} flexDirection="column" marginTop={1}>
          <Text bold>
            Argued at the {ev.stage} stage <Text dimColor>(submitted {ev.submitted_at}; not resubmitted: send what still applies again)</Text>
          </Text>
          {Object.entries(ev.fields).map(([k, v]) => (
            <Text key={k}>
              {' '}
              {k} = {v}
            </Text>
          ))}
          {ev.files.map((f) => (
            <Text key={f}> file {f}</Text>
          ))}
        </Box>
      ))}
      {plan?.fieldsInline && !reviewPane ? (
        <Text wrap="truncate">
          <Text bold>Fields: </Text>
          {fieldEntries.length ? fieldEntries.map(([k, v]) => `${k} = ${oneLine(v)}`).join(' · ') : Object.keys(fields).length ? 'only the one being edited' : 'none yet'}
        </Text>
      ) : null}
      {plan?.filesInline ? (
        <Text wrap="truncate">
          <Text bold>Files: </Text>
          {files.length ? files.join(' · ') : 'none yet'}
        </Text>
      ) : null}
      <Box flexDirection="column" marginTop={gap}>
        {plan?.fieldsInline || reviewPane ? null : <Text bold>Fields:</Text>}
        {plan?.fieldsInline || reviewPane ? null : fieldEntries.length === 0 ? <Text dimColor> {Object.keys(fields).length ? 'only the one being edited' : 'none yet'}</Text> : null}
        {(plan?.fieldsInline || reviewPane ? [] : fieldEntries).map(([k, v]) => (
          <Text key={k} wrap={wrap}>
            {' '}
            {k} = {compact ? oneLine(v) : indentLines(v)}
          </Text>
        ))}
        {plan?.filesInline ? null : <Text bold>Files:</Text>}
        {plan?.filesInline ? null : files.length === 0 ? <Text dimColor> none yet</Text> : null}
        {(plan?.filesInline ? [] : files).map((f) => (
          <Text key={f} wrap={wrap}>
            {' '}
            {f}
          </Text>
        ))}
      </Box>
      <Box flexDirection="column" marginTop={gap}>
        {step === 'key' ? (
          <>
            <Box height={compact ? 1 : undefined} overflow={compact ? 'hidden' : undefined}>
              <Text color="cyan">Field key </Text>
              <Text dimColor>{compact ? `(1-${cov.checklist.length} or a key; Enter on empty: files): ` : `(1-${cov.checklist.length} picks from the checklist; Enter on empty goes on to files): `}</Text>
              <FieldText text={input} />
            </Box>
          </>
        ) : null}
        {step === 'value' ? (
          <Box flexDirection="column">
            <Text wrap={wrap}>
              <Text color="cyan">Value for {currentKey}</Text>
              <Text dimColor>{compact ? ' (Enter keeps it; Ctrl+J: a new line; empty removes it): ' : ' (Enter keeps it; a pasted text keeps all its lines; Ctrl+J starts a new line; empty removes it; Esc goes back): '}</Text>
            </Text>
            <FieldText text={input} multiline rows={valueRows} />
          </Box>
        ) : null}
        {step === 'file' ? (
          <Box height={compact ? 1 : undefined} overflow={compact ? 'hidden' : undefined}>
            <Text color="cyan">File URL </Text>
            <Text dimColor>{compact ? '(https://…; Enter on empty: review): ' : '(https://...; Enter on empty goes on to the preview): '}</Text>
            <FieldText text={input} />
          </Box>
        ) : null}
        {step === 'preview' ? (
          <Box flexDirection="column">
            {compact ? null : <Text bold>Preview</Text>}
            <Text wrap={wrap}>
              {' '}
              Covers: {cov.checklist.filter((c) => c.covered).map((c) => c.key).join(', ') || 'none of the checklist'}
              {cov.missing.length ? ` · missing: ${cov.missing.join(', ')}` : ''}
              {cov.extra.length ? ` · also: ${alsoKeys(cov.extra)}` : ''} · {files.length} file{files.length === 1 ? '' : 's'}
            </Text>
            {reviewPane ? <ReviewText lines={reviewLines(fields)} top={reviewTop} rows={2 + (plan?.spare ?? 0)} /> : null}
            <Text color="yellow">{warning}</Text>
            <Text>
              <Text color="cyan">Submit this evidence?</Text> y = submit · e = edit · n = cancel
            </Text>
          </Box>
        ) : null}
        {step === 'discard' ? (
          <Text>
            <Text color="yellow">Discard the evidence you entered?</Text> y = discard and leave · n = keep editing{onInterrupt ? ' · Ctrl-C: quit, keeping it as a draft' : ''}
          </Text>
        ) : null}
        {step === 'done' ? <Text>{outcome === 'submitted' ? 'Submitting evidence…' : 'Canceled; nothing was submitted.'}</Text> : null}
        {error ? (
          <Text color="red" wrap={wrap}>
            {error}
          </Text>
        ) : null}
        {show.escHint ? <Text dimColor wrap={wrap}>Esc cancels{step === 'value' ? ' (here: back to the key)' : empty ? '' : ' (it asks first)'}.</Text> : null}
      </Box>
    </Box>
  )
}

/** useState whose latest value is also in a ref, set at once (read by handlers of an older render). */
function useRefState<T>(initial: T): [T, (v: T) => void, {readonly current: T}] {
  const [value, setValue] = useState(initial)
  const ref = useRef(initial)
  const set = (v: T) => {
    ref.current = v
    setValue(v)
  }
  return [value, set, ref]
}

/** Renders the form and resolves with the evidence to submit, or null when canceled. */
export async function mountEvidenceForm(opts: {
  dispute: Dispute
  now: Date
  facts?: AttachedFacts
  stdout?: NodeJS.WriteStream
  stdin?: NodeJS.ReadStream
}): Promise<EvidenceParams | null> {
  let result: EvidenceParams | null = null
  // on the keyboard: every key of a read acts in order, a paste stays text
  const form = (
    <KeyboardProvider onKey={() => {}}>
      <EvidenceForm dispute={opts.dispute} now={opts.now} facts={opts.facts} onDone={(r) => (result = r)} />
    </KeyboardProvider>
  )
  const instance = render(form, {
    stdout: opts.stdout ?? process.stderr,
    stdin: opts.stdin ?? process.stdin,
    patchConsole: false,
    exitOnCtrlC: false,
  })
  await instance.waitUntilExit()
  instance.cleanup()
  return result
}
