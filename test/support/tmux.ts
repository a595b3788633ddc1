// A pseudo-terminal for end-to-end tests: tmux on a socket of the test's own, its screen read
// back as a user would see it.
//
// Waiting for the screen: with `output` (a file the pane's output is copied to, `tmux pipe-pane`:
// console-term.ts sets it up), a wait reads the screen again only once the pane has written
// something since the last read, and checks for that in this process (the file's size) instead of
// asking tmux; without it, every 100 ms. Each read is a tmux client started (about 6 ms of CPU in
// all: the client, this process, the server), so a wait costs a read per burst of output rather
// than ten a second.
import {execFileSync} from 'node:child_process'
import {statSync} from 'node:fs'

export interface Tmux {
  /** runs a tmux command on this socket */
  run(...args: string[]): string
  /** the pane's text (with `history` lines of scroll-back) */
  screen(): string
  /** waits until the screen shows `text`; the error shows what it showed instead */
  waitForScreen(text: string | RegExp, ms?: number): Promise<string>
  /** waits until `probe` (which reads the screen as it needs) gives a truthy value; undefined once `ms` have passed */
  waitFor<T>(probe: () => T | undefined | false | null, ms?: number): Promise<T | undefined>
}

export function tmuxOn(socket: string, opts: {target?: string; history?: number; output?: string} = {}): Tmux {
  const target = opts.target ?? 'gw'
  const run = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})
  const screen = () => run('capture-pane', '-p', '-t', target, ...(opts.history ? ['-S', String(-opts.history)] : []))
  const written = () => {
    try {
      return statSync(opts.output!).size
    } catch {
      return -1
    }
  }
  const pause = () => new Promise((r) => setTimeout(r, 20))
  /**
   * Resolves once the pane has written past `mark` and then nothing for 20 ms (a frame and what is
   * painted just after it, read together; checked here every 20 ms), or after `ms`.
   */
  const outputAfter = async (mark: number, ms: number) => {
    const end = Date.now() + ms
    while (written() === mark && Date.now() < end) await pause()
    for (let size = written(), i = 0; i < 10 && Date.now() < end; i++) {
      await pause()
      if (written() === size) break
      size = written()
    }
  }
  async function waitFor<T>(probe: () => T | undefined | false | null, ms = 20_000): Promise<T | undefined> {
    const end = Date.now() + ms
    for (;;) {
      // the mark before the read: output that comes while the probe reads is not missed
      const mark = opts.output ? written() : 0
      const v = probe()
      if (v) return v
      if (Date.now() >= end) return undefined
      // at least once a second even without output (a probe may read more than the screen)
      if (opts.output) await outputAfter(mark, Math.min(1000, end - Date.now()))
      else await new Promise((r) => setTimeout(r, 100))
    }
  }
  return {
    run,
    screen,
    waitFor,
    async waitForScreen(text, ms = 20_000) {
      let last = ''
      const shown = await waitFor(() => {
        last = screen()
        return (typeof text === 'string' ? last.includes(text) : text.test(last)) && last
      }, ms)
      if (shown !== undefined) return shown
      throw new Error(`the terminal never showed ${String(text)}; it shows:\n${last}`)
    },
  }
}
