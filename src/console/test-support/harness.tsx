// The console in process, for its view tests: the app mounted on fake TTY streams whose output
// goes into a headless terminal emulator (@xterm/headless: cursor moves, the painter's rows,
// Ink's frames, as a terminal would show them), keys written to its stdin in one read each (as
// a terminal sends them), against an engine booted in this process (bootEngine) through the
// API client every command uses. No tmux and no child process: tmux keeps the journeys and the
// tests of the terminal itself (its modes restored on every way out).
import {PassThrough} from 'node:stream'
import xterm from '@xterm/headless'
import chalk from 'chalk'
import {afterAll, afterEach, beforeAll} from 'vitest'
import {GwClient} from '../../client/index.js'
import {keysHandled} from '../../ui/keyboard.js'
import {bootEngine, type TestEngine} from '../../engine/test-support/harness.js'
import {mountConsole} from '../app.js'
import type {Route} from '../frame.js'
import {ConsoleSession} from '../session.js'
import {makeTheme} from '../theme.js'

export interface ConsoleUnderTest {
  session: ConsoleSession
  /** the route stack, as the app last said it */
  stack(): readonly Route[]
  /** the screen's lines as a terminal shows them (trailing spaces cut) */
  lines(): string[]
  /** the screen as one text, a line each */
  screen(): string
  /** the line at `row` with each cell's attributes: which cells are in reverse video */
  inverseRows(): number[]
  /** bytes to the console's stdin, in one read ('jjj', '\u001b[B', a paste) */
  send(data: string): void
  /** keys one read each, as a person types them: each read before the next is sent */
  press(...keys: string[]): Promise<void>
  /** waits until the screen shows `what`; the error shows the screen instead */
  waitFor(what: string | RegExp | ((screen: string) => boolean), ms?: number): Promise<string>
  /** waits until the screen stops changing for `quietMs` */
  settle(quietMs?: number): Promise<string>
  /**
   * `read()` of the screen once it stops changing: the same value `reads` times in a row (default
   * 3), each read after the terminal took what was written and `stepMs` (default 50) after the one
   * before; at most `maxMs` (default 5000), then the last value. Counted in reads, not in time on
   * the clock: a read's timer is due after a frame Ink has pending (30 fps, one every 33 ms), so
   * that frame is drawn before the next read however late an overloaded machine runs the timers.
   */
  settleOn<T>(read: () => T, opts?: {reads?: number; stepMs?: number; maxMs?: number}): Promise<T>
  /** what the console wrote to its stdout, raw (OSC 52, mode switches) */
  written(): string
  /** how many frames Ink has drawn so far (each a React commit laid out and turned into text, written or not) */
  renders(): number
  /** a new terminal size (a resize event, as a terminal sends one) */
  resize(cols: number, rows: number): void
  /** resolves when the console quits by itself (q, Ctrl-C) */
  done: Promise<void>
  /** unmounts and closes the session */
  close(): Promise<void>
}

export interface ConsoleOptions {
  cols?: number
  rows?: number
  initial?: Route[]
  /** the key the console uses (default: the engine's) */
  apiKey?: string
  env?: NodeJS.ProcessEnv
  /** every view's data read again at this interval (SessionOptions.refreshMs); default: each view's own */
  refreshMs?: number
  /** the config dir (evidence drafts); none: drafts live while this console runs */
  configDir?: string
  /** the session's wall clock (SessionOptions.now; default Date.now) */
  now?: () => number
  /** how often the engine clock is read again (SessionOptions.clockMs) */
  clockMs?: number
  /** how long a lone ESC waits for the rest of a sequence (`gw console --escape-time`) */
  escapeMs?: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function openConsoleInProcess(t: TestEngine, o: ConsoleOptions = {}): Promise<ConsoleUnderTest> {
  // chalk (Ink's and the painter's) read this process's stdout, a pipe under vitest: colours on,
  // as on the terminal the console runs in
  chalk.level = Math.max(chalk.level, 1) as typeof chalk.level
  const cols = o.cols ?? 120
  const rows = o.rows ?? 40
  const term = new xterm.Terminal({cols, rows, allowProposedApi: true, scrollback: 0, convertEol: true})
  let raw = ''
  let pending = Promise.resolve()
  const stdout = Object.assign(new PassThrough(), {isTTY: true, columns: cols, rows}) as unknown as NodeJS.WriteStream & PassThrough
  stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
    raw += text
    pending = pending.then(() => new Promise<void>((r) => term.write(text, r)))
    const cb = rest.find((x) => typeof x === 'function') as (() => void) | undefined
    cb?.()
    return true
  }) as typeof stdout.write
  const stdin = Object.assign(new PassThrough(), {isTTY: true, isRaw: false}) as unknown as NodeJS.ReadStream & PassThrough
  Object.assign(stdin, {setRawMode: (on: boolean) => ((stdin as {isRaw: boolean}).isRaw = on, stdin), ref: () => stdin, unref: () => stdin})
  const stderr = Object.assign(new PassThrough(), {isTTY: true}) as unknown as NodeJS.WriteStream & PassThrough
  const apiKey = o.apiKey ?? t.key
  const client = new GwClient({baseUrl: t.engine.baseUrl, apiKey, ca: t.engine.caCertPem, maxRetries: 0})
  const session = new ConsoleSession({client, apiKey, profile: 'default', configDir: o.configDir, refreshMs: o.refreshMs, now: o.now, clockMs: o.clockMs})
  await session.start()
  const env = o.env ?? {TERM: 'xterm-256color', FORCE_COLOR: '1'}
  let stack: readonly Route[] = o.initial ?? [{view: 'home'}]
  let renders = 0
  const app = await mountConsole({session, theme: makeTheme(env, stdout), initial: o.initial, onRoute: (s) => void (stack = [...s]), escapeMs: o.escapeMs, stdout, stdin, stderr, onRender: () => void renders++})

  const lines = (): string[] => {
    const b = term.buffer.active
    const out: string[] = []
    for (let y = 0; y < term.rows; y++) out.push(b.getLine(b.viewportY + y)?.translateToString(true) ?? '')
    return out
  }
  const screen = () => lines().join('\n')
  const flushed = async () => {
    for (;;) {
      const p = pending
      await p
      if (p === pending) return
    }
  }
  const ut: ConsoleUnderTest = {
    session,
    stack: () => stack,
    lines,
    screen,
    inverseRows() {
      const b = term.buffer.active
      const out: number[] = []
      for (let y = 0; y < term.rows; y++) {
        const line = b.getLine(b.viewportY + y)
        if (!line) continue
        let inverse = 0
        for (let x = 0; x < term.cols; x++) if (line.getCell(x)?.isInverse()) inverse++
        if (inverse > term.cols / 2) out.push(y)
      }
      return out
    },
    send(data) {
      stdin.write(data)
    },
    async press(...keys) {
      for (const k of keys) {
        stdin.write(k)
        while (stdin.readableLength > 0) await sleep(1)
        // every key of the read handed on (each after the one before was drawn)
        await keysHandled()
        await sleep(5)
      }
    },
    async waitFor(what, ms = 15_000) {
      const test = typeof what === 'function' ? what : (s: string) => (typeof what === 'string' ? s.includes(what) : what.test(s))
      const end = Date.now() + ms
      for (;;) {
        await flushed()
        const s = screen()
        if (test(s)) return s
        if (Date.now() > end) throw new Error(`the console never showed ${typeof what === 'function' ? 'what the test waited for' : String(what)}; it shows:\n${s}`)
        await sleep(20)
      }
    },
    async settle(quietMs = 150) {
      let last = ''
      let since = Date.now()
      for (;;) {
        await flushed()
        const s = screen()
        if (s !== last) {
          last = s
          since = Date.now()
        } else if (Date.now() - since >= quietMs) return s
        await sleep(20)
      }
    },
    async settleOn(read, {reads = 3, stepMs = 50, maxMs = 5000} = {}) {
      const end = Date.now() + maxMs
      await flushed()
      let last = read()
      for (let same = 1; same < reads && Date.now() < end; ) {
        await sleep(stepMs)
        await flushed()
        const now = read()
        same = Object.is(now, last) ? same + 1 : 1
        last = now
      }
      return last
    },
    written: () => raw,
    renders: () => renders,
    done: app.done,
    resize(c, r) {
      term.resize(c, r)
      Object.assign(stdout, {columns: c, rows: r})
      stdout.emit('resize')
    },
    async close() {
      app.unmount()
      await app.done.catch(() => {})
      session.close()
      await client.close()
      term.dispose()
    },
  }
  return ut
}

/**
 * A view test file's engine (booted before its first test, stopped after its last) and the
 * consoles its tests open through `open`, each closed after its test.
 */
export function consoleFixture(): {engine(): TestEngine; open(o?: ConsoleOptions): Promise<ConsoleUnderTest>} {
  let t: TestEngine | undefined
  const opened: ConsoleUnderTest[] = []
  beforeAll(async () => {
    t = await bootEngine()
  }, 60_000)
  afterEach(async () => {
    for (const c of opened.splice(0)) await c.close()
  })
  afterAll(async () => t?.stop())
  const engine = () => {
    if (!t) throw new Error('consoleFixture: the engine is booted in beforeAll; use it inside a test')
    return t
  }
  return {
    engine,
    async open(o) {
      const c = await openConsoleInProcess(engine(), o)
      opened.push(c)
      return c
    },
  }
}
