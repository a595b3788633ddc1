// The keyboard closes the window between a field being drawn and it hearing keys: a key read
// right after the frame that shows the field (before React's passive effects ran) reaches it.
import {PassThrough} from 'node:stream'
import {render, useInput} from 'ink'
import {useEffect, useState} from 'react'
import {afterEach, describe, expect, it} from 'vitest'
import {KeyboardProvider, keysHandled, useKeyInput} from './keyboard.js'
import {Text} from './text.js'

const strip = (s: string) => s.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, '')
const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms))

/**
 * Fake TTY streams. `onFrame(text, stdin)` sees each write as Ink makes it, inside the commit
 * that drew it: a key written to stdin there is read before the passive effects run.
 */
function terminal(onFrame: (frame: string, stdin: PassThrough) => void) {
  const stdout = Object.assign(new PassThrough(), {isTTY: true, columns: 80, rows: 10}) as unknown as NodeJS.WriteStream & PassThrough
  const stdin = Object.assign(new PassThrough(), {isTTY: true, isRaw: false, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin}) as unknown as NodeJS.ReadStream & PassThrough
  let out = ''
  const write = stdout.write.bind(stdout)
  stdout.write = ((chunk: string, ...rest: never[]) => {
    out += String(chunk)
    onFrame(strip(String(chunk)), stdin)
    return write(chunk, ...rest)
  }) as typeof stdout.write
  return {stdout, stdin, screen: () => strip(out)}
}

/** `/` opens a field that shows what it was typed: on the keyboard, or on Ink's own useInput. */
function FieldOnKeyboard() {
  const [text, setText] = useState('')
  useKeyInput((input) => setText((t) => t + input))
  return <Text>{`FIELD[${text}]`}</Text>
}

function FieldOnInk() {
  const [text, setText] = useState('')
  useInput((input) => setText((t) => t + input))
  return <Text>{`FIELD[${text}]`}</Text>
}

function Screen({onInk}: {onInk: boolean}) {
  const [open, setOpen] = useState(false)
  const onKey = (input: string) => {
    if (!open && input === '/') setOpen(true)
  }
  return <KeyboardProvider onKey={onKey}>{!open ? <Text>closed</Text> : onInk ? <FieldOnInk /> : <FieldOnKeyboard />}</KeyboardProvider>
}

let unmount: (() => void) | undefined
afterEach(() => {
  unmount?.()
  unmount = undefined
})

async function typeAsTheFieldAppears(onInk: boolean) {
  let sent = false
  const t = terminal((frame, stdin) => {
    if (!sent && frame.includes('FIELD[')) {
      sent = true
      stdin.write('abc')
    }
  })
  const app = render(<Screen onInk={onInk} />, {stdout: t.stdout, stdin: t.stdin, exitOnCtrlC: false, patchConsole: false, debug: true})
  unmount = () => app.unmount()
  await tick(50)
  t.stdin.write('/')
  for (let i = 0; i < 50 && !/FIELD\[abc\]/.test(t.screen()); i++) await tick()
  expect(sent).toBe(true)
  return t.screen()
}

describe('keyboard', () => {
  it('a field opened by a key hears the very next key, read as the frame that shows it is written', async () => {
    expect(await typeAsTheFieldAppears(false)).toContain('FIELD[abc]')
  })

  it("(the window it closes: a field on Ink's own useInput is deaf to that key)", async () => {
    const screen = await typeAsTheFieldAppears(true)
    expect(screen).toContain('FIELD[]')
    expect(screen).not.toContain('FIELD[abc]')
  })
})

/** Counts keys with the count as the handler's render saw it (a stale handler counts from an older one). */
function Counter({seen, effectsMs}: {seen: string[]; effectsMs?: number}) {
  const [n, setN] = useState(0)
  const onKey = (input: string, key: {paste?: boolean; downArrow: boolean}) => {
    seen.push(`${n}:${key.paste ? `paste(${input})` : key.downArrow ? 'down' : input}`)
    setN(n + 1)
  }
  return (
    <KeyboardProvider onKey={onKey}>
      <Text>{`N=${n}`}</Text>
      {effectsMs === undefined ? null : <SlowEffects ms={effectsMs} />}
    </KeyboardProvider>
  )
}

describe('keyboard: every key of a read', () => {
  it('hands on each key of one read in order, each to handlers of the render the key before left', async () => {
    const seen: string[] = []
    const t = terminal(() => {})
    const app = render(<Counter seen={seen} />, {stdout: t.stdout, stdin: t.stdin, exitOnCtrlC: false, patchConsole: false})
    unmount = () => app.unmount()
    await tick(50)
    t.stdin.write('jj\u001b[B3')
    for (let i = 0; i < 50 && seen.length < 4; i++) await tick()
    // ESC, then the rest of Down in another read: one Down
    t.stdin.write('\u001b')
    await tick(10)
    t.stdin.write('[B')
    // a paste: text, not keys
    t.stdin.write('\u001b[200~q\r\u001b[201~')
    for (let i = 0; i < 50 && seen.length < 6; i++) await tick()
    expect(seen).toEqual(['0:j', '1:j', '2:down', '3:3', '4:down', '5:paste(q\r)'])
  })
})

/** Work in a passive effect after every draw, longer than a slice of React's scheduler (5 ms). */
function SlowEffects({ms}: {ms: number}) {
  useEffect(() => {
    const end = performance.now() + ms
    while (performance.now() < end);
  })
  return null
}

describe('keyboard: keys typed ahead of a slow draw', () => {
  // React renders a key's update in a task of its scheduler, which yields to the event loop after
  // 5 ms of work (another task's, or the process descheduled on a busy machine): the next key must
  // wait for the commit of the one before, not for a turn of the event loop that merely follows it
  it('hands on each key once the view has drawn the one before, however long the draw takes', async () => {
    const seen: string[] = []
    const t = terminal(() => {})
    const app = render(<Counter seen={seen} effectsMs={8} />, {stdout: t.stdout, stdin: t.stdin, exitOnCtrlC: false, patchConsole: false})
    unmount = () => app.unmount()
    await tick(50)
    t.stdin.write('jjjjj')
    await keysHandled()
    for (let i = 0; i < 50 && !t.screen().includes('N=5'); i++) await tick()
    expect(seen).toEqual(['0:j', '1:j', '2:j', '3:j', '4:j'])
    expect(t.screen()).toContain('N=5')
  })
})
