// The evidence form driven through fake TTY streams: keys in, frames out.
import {PassThrough} from 'node:stream'
import {afterEach, describe, expect, it} from 'vitest'
import type {Dispute} from '../../../api/types.js'
import {dispute as baseDispute} from '../../../api/test-support/objects.js'
import {canOpenEvidenceForm, runEvidenceForm} from './open-form.js'
import {applyFieldInput, escapeAction} from './evidence-input.js'
import {keysHandled} from '../../../ui/keyboard.js'
import {HOSTILE, RAW_CONTROL, SHOWN} from '../../../output/test-support/hostile.js'

const NOW = new Date('2025-03-01T00:00:00Z')

const dispute = (over: Partial<Dispute> = {}) => baseDispute({reason: 'product_not_received', evidence_due_by: new Date(NOW.getTime() + (2 * 86_400 + 4 * 3600) * 1000).toISOString(), created_at: '2025-02-28T00:00:00Z', ...over})

const strip = (s: string) => s.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '')

function terminal() {
  const stdout = Object.assign(new PassThrough(), {isTTY: true, columns: 160, rows: 50}) as unknown as NodeJS.WriteStream
  const stdin = Object.assign(new PassThrough(), {isTTY: true, isRaw: false, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin}) as unknown as NodeJS.ReadStream & PassThrough
  let out = ''
  stdout.on('data', (d) => (out += d))
  return {
    stdout,
    stdin,
    /** everything drawn so far, without colours */
    screen: () => strip(out),
    /** the last frame Ink drew */
    since: (mark: number) => strip(out.slice(mark)),
    mark: () => out.length,
  }
}

const tick = (ms = 60) => new Promise((r) => setTimeout(r, ms))
/**
 * One write at a time: waits until Ink has drawn a new frame for it and then nothing more for a
 * moment (the keys of a write reach the form one by one, each drawn before the next), so the
 * next write finds the form as these keys left it.
 */
async function type(t: ReturnType<typeof terminal>, text: string, {redraws = true} = {}) {
  const before = t.mark()
  t.stdin.write(text)
  const end = Date.now() + 10_000
  // read, and every key of it handed on (each waits for the one before to be drawn)
  while (t.stdin.readableLength > 0 && Date.now() < end) await tick(5)
  await keysHandled()
  // (a key that may leave the screen as it was, `redraws: false`, has no new frame to wait for:
  // Ink writes nothing for a frame like the last one)
  while (redraws && t.mark() === before && Date.now() < end) await tick(10)
  // Ink draws at most 30 frames a second: a frame it holds back comes within ~35 ms
  for (let last = -1; t.mark() !== last && Date.now() < end; ) {
    last = t.mark()
    await tick(60)
  }
}

/**
 * Input is live: a key in and a key out, each drawn before the next, show the form hears keys at
 * this prompt before a test sends the ones it checks (a frame on screen alone does not say so).
 */
async function live(t: ReturnType<typeof terminal>) {
  await type(t, 'x')
  await type(t, '\u007f')
}

/** Waits until the screen shows `text` (the first render loads Ink and React). */
async function until(t: ReturnType<typeof terminal>, text: string, ms = 10_000) {
  const end = Date.now() + ms
  while (!t.screen().includes(text) && Date.now() < end) await tick(25)
}

let open: {t: ReturnType<typeof terminal>; result: Promise<unknown>} | undefined
afterEach(async () => {
  // a failed test leaves its form open: cancel it
  if (open) {
    // Ctrl-C asks when something was entered; a second one leaves
    open.t.stdin.write('\u0003\u0003')
    await Promise.race([open.result.catch(() => {}), tick(1000)])
    open = undefined
  }
})

describe('evidence form', () => {
  it('opens only behind the gate: TTY stdin and a sized TTY stderr, not CI, not --json', () => {
    const tty = {isTTY: true, columns: 80, rows: 24}
    expect(canOpenEvidenceForm({json: false, stdin: {isTTY: true}, stream: tty, env: {}})).toBe(true)
    expect(canOpenEvidenceForm({json: false, stdin: {isTTY: false}, stream: tty, env: {}})).toBe(false)
    expect(canOpenEvidenceForm({json: true, stdin: {isTTY: true}, stream: tty, env: {}})).toBe(false)
    expect(canOpenEvidenceForm({json: false, stdin: {isTTY: true}, stream: tty, env: {CI: 'true'}})).toBe(false)
    expect(canOpenEvidenceForm({json: false, stdin: {isTTY: true}, stream: {isTTY: false}, env: {}})).toBe(false)
  })

  it('shows the dispute and its checklist, takes fields and HTTPS files, previews, and returns the evidence on "y"', async () => {
    const t = terminal()
    const result = runEvidenceForm({dispute: dispute(), now: NOW, stdout: t.stdout, stdin: t.stdin})
    open = {t, result}
    await until(t, 'Field key')
    const first = t.screen()
    expect(first).toContain('Dispute dp_123 · reason product_not_received · €20.00 EUR · stage chargeback')
    expect(first).toContain('(2d 4h left)')
    expect(first).toContain('1. [ ] tracking_number')
    expect(first).toContain('2. [ ] service_date')
    expect(first).toContain('3. [ ] shipping_address')
    expect(first).toContain('Field key')

    // pick a checklist key by number, then a free-text key
    await type(t, '1')
    await type(t, '\r')
    expect(t.screen()).toContain('Value for tracking_number')
    await type(t, '1Z999AA10123456784')
    await type(t, '\r')
    await type(t, 'courier_note')
    await type(t, '\r')
    await type(t, 'left at the door')
    await type(t, '\r')
    let m = t.mark()
    await type(t, '\r') // empty key: on to files
    expect(t.since(m)).toContain('File URL')
    expect(t.screen()).toContain('1. [x] tracking_number')

    m = t.mark()
    await type(t, 'http://shop.example/pod.pdf')
    await type(t, '\r')
    expect(t.since(m)).toContain('Not an HTTPS URL: http://shop.example/pod.pdf')
    await type(t, 'https://shop.example/pod.pdf')
    await type(t, '\r')
    m = t.mark()
    await type(t, '\r') // empty URL: preview
    const preview = t.since(m)
    expect(preview).toContain('Preview')
    expect(preview).toContain('Covers: tracking_number · missing: shipping_address · also: courier_note · 1 file')
    expect(preview).toContain('One submission per stage: once submitted, dp_123 goes to under_review')
    expect(preview).toContain('y = submit · e = edit · n = cancel')
    await type(t, 'y')
    expect(await result).toEqual({
      fields: {tracking_number: '1Z999AA10123456784', courier_note: 'left at the door'},
      files: ['https://shop.example/pod.pdf'],
    })
    expect(t.screen()).toContain('Submitting evidence…')
  })

  it('"e" goes back to editing; an empty value removes a key; "y" on empty evidence is refused', async () => {
    const t = terminal()
    const result = runEvidenceForm({dispute: dispute({reason: 'credit_not_processed'}), now: NOW, stdout: t.stdout, stdin: t.stdin})
    open = {t, result}
    await until(t, 'Field key')
    await type(t, '\r') // no fields
    await type(t, '\r') // no files
    let m = t.mark()
    await type(t, 'y')
    expect(t.since(m)).toContain('Nothing to submit yet')
    await type(t, 'e')
    await type(t, 'refund_policy')
    await type(t, '\r')
    await type(t, '30 days')
    await type(t, '\r')
    await type(t, 'refund_policy')
    await type(t, '\r')
    // the old value is offered; erase it all to remove the key (erasing the space of "30 " shows
    // the same line as "30": no new frame)
    for (let i = 0; i < '30 days'.length; i++) await type(t, '\u007f', {redraws: false})
    await type(t, '\r')
    await type(t, '2')
    await type(t, '\r')
    await type(t, 'Emails of 3 May')
    await type(t, '\r')
    await type(t, '\r')
    m = t.mark()
    await type(t, '\r')
    expect(t.since(m)).toContain('Covers: customer_communication · missing: refund_policy')
    await type(t, 'y')
    expect(await result).toEqual({fields: {customer_communication: 'Emails of 3 May'}, files: []})
  })

  it('"n" and Esc cancel: the form resolves with null', async () => {
    for (const key of ['n', '\u001B']) {
      const t = terminal()
      const result = runEvidenceForm({dispute: dispute(), now: NOW, stdout: t.stdout, stdin: t.stdin})
      open = {t, result}
      await until(t, 'Field key')
      if (key === 'n') {
        await type(t, '\r')
        await until(t, 'Enter on empty goes on to the preview')
        await type(t, '\r')
        await until(t, 'Submit this evidence?')
      }
      await type(t, key)
      expect(await result).toBeNull()
      // the last frame may land a moment after the promise settles on a loaded machine
      await until(t, 'Canceled; nothing was submitted.', 5000)
      expect(t.screen()).toContain('Canceled; nothing was submitted.')
    }
  })
})

describe('evidence form: Ctrl-C', () => {
  it('asks as Esc does when something was entered (n keeps editing); a second Ctrl-C at the question leaves with nothing sent', async () => {
    const t = terminal()
    const result = runEvidenceForm({dispute: dispute(), now: NOW, stdout: t.stdout, stdin: t.stdin})
    open = {t, result}
    await until(t, 'Field key')
    await type(t, '1\r')
    await type(t, '1Z999AA10123456784\r')
    await until(t, '1. [x] tracking_number')
    await type(t, '\u0003')
    await until(t, 'Discard the evidence you entered?')
    expect(await Promise.race([result.then(() => 'left'), tick(200).then(() => 'asking')])).toBe('asking')
    await type(t, 'n')
    const back = t.mark()
    await type(t, '\u0003')
    await until(t, 'Discard the evidence you entered?')
    expect(t.since(back)).toContain('Discard the evidence you entered?')
    await type(t, '\u0003')
    expect(await result).toBeNull()
    open = undefined
  })
})

describe('evidence form: pastes and fast keys', () => {
  it('a multi-line paste survives whole into the preview; "1" then Enter at once picks key 1', async () => {
    const t = terminal()
    const result = runEvidenceForm({dispute: dispute(), now: NOW, stdout: t.stdout, stdin: t.stdin})
    open = {t, result}
    await until(t, 'Field key')
    await live(t)
    // both keys in one write, as a fast typist or tmux send-keys delivers them
    t.stdin.write('3')
    t.stdin.write('\r')
    await until(t, 'Value for shipping_address')
    await live(t)
    await type(t, '1 Main St\rSpringfield, IL 62701\rUSA')
    await type(t, '\r')
    await until(t, 'Field key')
    await type(t, '\r')
    await until(t, 'File URL')
    await type(t, '\r')
    await until(t, 'Submit this evidence?')
    const screen = t.screen()
    expect(screen).toContain('shipping_address = 1 Main St\n    Springfield, IL 62701\n    USA')
    await type(t, 'y')
    expect(await result).toEqual({fields: {shipping_address: '1 Main St\nSpringfield, IL 62701\nUSA'}, files: []})
    open = undefined
  })
})

/** From the form's first prompt: one field, courier_note, with `value` typed, then on to the file prompt. */
async function toTheFilePrompt(t: ReturnType<typeof terminal>, value: string) {
  await until(t, 'Field key')
  await live(t)
  await type(t, 'courier_note')
  await type(t, '\r')
  await until(t, 'Value for courier_note')
  await live(t)
  await type(t, value)
  await type(t, '\r')
  await until(t, 'Field key')
  await type(t, '\r')
  await until(t, 'File URL')
}

describe('evidence form: a paste at the key prompt, tabs, and the review screen', () => {
  it('a multi-line paste at the key prompt is refused whole: no key, no value, nothing submitted', async () => {
    const t = terminal()
    const result = runEvidenceForm({dispute: dispute(), now: NOW, stdout: t.stdout, stdin: t.stdin})
    open = {t, result}
    await until(t, 'Field key')
    await live(t)
    // an email pasted where the key goes: seven lines, ending in blank lines and a "y"
    await type(t, 'Hello,\rThe parcel was delivered on 3 May.\rTracking 1Z999\rSigned by A. Customer\r\r\ry')
    await until(t, 'Pasted 7 lines at the key prompt: nothing was taken')
    expect(t.screen()).not.toContain('Value for')
    expect(t.screen()).not.toContain('Submitting')
    // a one-line sentence at the key prompt is not a key either
    await type(t, 'The parcel was delivered')
    await type(t, '\r')
    await until(t, 'A key has no spaces')
    expect(t.screen()).not.toContain('Value for')
    await type(t, '\u001B')
    expect(await result).toBeNull()
    open = undefined
  })

  it('tabs in a pasted value are kept; "y" typed before the preview is drawn submits nothing', async () => {
    const t = terminal()
    const result = runEvidenceForm({dispute: dispute(), now: NOW, stdout: t.stdout, stdin: t.stdin})
    open = {t, result}
    await toTheFilePrompt(t, 'date\tparcel\r3 May\t1Z999')
    await live(t)
    // Enter and "y" at once: the "y" reaches the form before the preview is on screen
    t.stdin.write('\r')
    t.stdin.write('y')
    // as two events: the "y" is ignored; as one chunk ("⏎y", two lines at the URL prompt): refused
    const end = Date.now() + 10_000
    while (!/Submit this evidence\?|Pasted 2 lines/.test(t.screen()) && Date.now() < end) await tick(25)
    if (!t.screen().includes('Submit this evidence?')) await type(t, '\r')
    await until(t, 'Submit this evidence?')
    const settled = await Promise.race([result.then(() => 'submitted'), tick(300).then(() => 'waiting')])
    expect(settled).toBe('waiting')
    await type(t, 'y')
    expect(await result).toEqual({fields: {courier_note: 'date\tparcel\n3 May\t1Z999'}, files: []})
    open = undefined
  })
})

describe('evidence form: the review answers a key read after it is drawn', () => {
  it('"y" read in a later turn than the Enter that drew the preview submits, before React\'s passive effects ran', async () => {
    const t = terminal()
    // the "y" goes in once the preview's frame is written, from a microtask: it is read in the
    // turn after the one that drew the preview, as a key typed on a busy machine is, whether or
    // not React's scheduler has run the commit's passive effects by then
    let answered = false
    const write = t.stdout.write.bind(t.stdout)
    t.stdout.write = ((chunk: string, ...rest: never[]) => {
      if (!answered && strip(String(chunk)).includes('Submit this evidence?')) {
        answered = true
        queueMicrotask(() => t.stdin.write('y'))
      }
      return write(chunk, ...rest)
    }) as typeof t.stdout.write
    const result = runEvidenceForm({dispute: dispute(), now: NOW, stdout: t.stdout, stdin: t.stdin})
    open = {t, result}
    await toTheFilePrompt(t, 'left at the door')
    await type(t, '\r')
    expect(await Promise.race([result, tick(5000).then(() => 'no answer')])).toEqual({fields: {courier_note: 'left at the door'}, files: []})
    expect(answered).toBe(true)
    open = undefined
  })
})

describe('evidence form: a near miss of a recognized key', () => {
  it('says did-you-mean and keeps the key only when typed again', async () => {
    const t = terminal()
    const result = runEvidenceForm({dispute: dispute(), now: NOW, stdout: t.stdout, stdin: t.stdin})
    open = {t, result}
    await until(t, 'Field key')
    await live(t)
    await type(t, 'refund_polcy')
    await type(t, '\r')
    await until(t, 'Did you mean refund_policy?')
    expect(t.screen()).not.toContain('Value for refund_polcy')
    await type(t, 'refund_polcy')
    await type(t, '\r')
    await until(t, 'Value for refund_polcy')
    expect(t.screen()).toContain('Value for refund_polcy')
  })
})

describe('evidence form after an escalation', () => {
  it("shows what was argued at the earlier stage beside the new stage's empty form", async () => {
    const t = terminal()
    const dp = dispute({
      stage: 'pre_arbitration',
      previous_evidence: [{stage: 'chargeback', fields: {tracking_number: '1Z999AA10123456784'}, files: ['https://shop.example/pod.pdf'], submitted_at: '2025-02-28T10:00:00.000Z'}],
    })
    const result = runEvidenceForm({dispute: dp, now: NOW, stdout: t.stdout, stdin: t.stdin})
    open = {t, result}
    await until(t, 'Field key')
    const screen = t.screen()
    expect(screen).toContain('Argued at the chargeback stage')
    expect(screen).toContain('tracking_number = 1Z999AA10123456784')
    expect(screen).toContain('file https://shop.example/pod.pdf')
    await type(t, '\u001B')
    expect(await result).toBeNull()
  })
})

describe('evidence form and hostile data', () => {
  it('shows control characters in what was argued before in caret notation; none reaches the terminal', async () => {
    const t = terminal()
    let raw = ''
    t.stdout.on('data', (d) => (raw += d))
    const dp = dispute({
      stage: 'pre_arbitration',
      previous_evidence: [{stage: 'chargeback', fields: {customer_name: HOSTILE}, files: [`https://shop.example/${HOSTILE}.pdf`], submitted_at: '2025-02-28T10:00:00.000Z'}],
    })
    const result = runEvidenceForm({dispute: dp, now: NOW, stdout: t.stdout, stdin: t.stdin})
    open = {t, result}
    await until(t, 'Field key')
    expect(raw).toContain(`customer_name = ${SHOWN}`)
    expect(raw).toContain(`file https://shop.example/${SHOWN}.pdf`)
    expect(raw).not.toMatch(RAW_CONTROL)
    await type(t, '\u001B')
    expect(await result).toBeNull()
  })
})

describe('evidence form input rules', () => {
  it('a pasted "value⏎" is submitted at its line break: one Enter, not two', () => {
    const one = {multiline: false}
    expect(applyFieldInput('', '1Z999AA10123456784\r', {}, one)).toEqual({text: '1Z999AA10123456784', submit: '1Z999AA10123456784'})
    expect(applyFieldInput('', 'Emails of 3 May\n', {}, {multiline: true})).toEqual({text: 'Emails of 3 May', submit: 'Emails of 3 May'})
    // several lines where one goes: refused whole, nothing taken
    expect(applyFieldInput('', 'first line\r\nsecond', {}, one)).toEqual({text: '', refused: 2})
    expect(applyFieldInput('still', ' typing', {}, one)).toEqual({text: 'still typing'})
  })

  it('multi-line values: a paste keeps every line; Ctrl+J starts one; Enter submits the whole', () => {
    const ml = {multiline: true}
    const pasted = applyFieldInput('', '1 Main St\rSpringfield, IL 62701\rUSA', {}, ml)
    expect(pasted).toEqual({text: '1 Main St\nSpringfield, IL 62701\nUSA'})
    // a paste ending in a line break keeps its lines too, and waits for Enter
    expect(applyFieldInput('', 'From: ada\r\nSubject: order\r\n', {}, ml)).toEqual({text: 'From: ada\nSubject: order'})
    expect(applyFieldInput('line 1', '\n', {}, ml)).toEqual({text: 'line 1\n'})
    expect(applyFieldInput(pasted.text, '\r', {return: true}, ml)).toEqual({text: pasted.text, submit: pasted.text})
    // tabs are kept in a value, typed or pasted; dropped from a key
    expect(applyFieldInput('', 'date\tparcel\r3 May\t1Z999', {}, ml)).toEqual({text: 'date\tparcel\n3 May\t1Z999'})
    expect(applyFieldInput('a', '\t', {tab: true}, ml)).toEqual({text: 'a\t'})
    expect(applyFieldInput('a', 'b\tc', {}, {multiline: false})).toEqual({text: 'abc'})
  })

  it('keys faster than the screen: each applies to the text the one before left ("1" then Enter submits "1")', () => {
    let text = ''
    const submitted: string[] = []
    for (const [ch, key] of [['1', {}], ['\r', {return: true}]] as const) {
      const r = applyFieldInput(text, ch, key, {multiline: false})
      text = r.text
      if (r.submit !== undefined) submitted.push(r.submit)
    }
    expect(submitted).toEqual(['1'])
    expect(applyFieldInput('abc', '', {backspace: true}, {multiline: false})).toEqual({text: 'ab'})
    expect(applyFieldInput('abc', 'u', {ctrl: true}, {multiline: false})).toEqual({text: ''})
    expect(applyFieldInput('a', '\u0007b', {}, {multiline: false})).toEqual({text: 'ab'})
  })

  it('Esc: back from a value, leave an empty form, ask before throwing entered evidence away', () => {
    expect(escapeAction('value', false)).toBe('back')
    expect(escapeAction('key', true)).toBe('cancel')
    expect(escapeAction('file', true)).toBe('cancel')
    expect(escapeAction('key', false)).toBe('ask')
    expect(escapeAction('file', false)).toBe('ask')
    expect(escapeAction('preview', false)).toBe('ask')
    expect(escapeAction('discard', false)).toBe('keep')
  })
})

