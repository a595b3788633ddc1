// A pseudo-terminal for end-to-end tests: tmux on a socket of the test's own, its screen read
// back as a user would see it.
import {execFileSync} from 'node:child_process'

export interface Tmux {
  /** runs a tmux command on this socket */
  run(...args: string[]): string
  /** the pane's text (with `history` lines of scroll-back) */
  screen(): string
  /** waits until the screen shows `text`; the error shows what it showed instead */
  waitForScreen(text: string | RegExp, ms?: number): Promise<string>
}

export function tmuxOn(socket: string, opts: {target?: string; history?: number} = {}): Tmux {
  const target = opts.target ?? 'gw'
  const run = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})
  const screen = () => run('capture-pane', '-p', '-t', target, ...(opts.history ? ['-S', String(-opts.history)] : []))
  return {
    run,
    screen,
    async waitForScreen(text, ms = 20_000) {
      const end = Date.now() + ms
      let last = ''
      while (Date.now() < end) {
        last = screen()
        if (typeof text === 'string' ? last.includes(text) : text.test(last)) return last
        await new Promise((r) => setTimeout(r, 100))
      }
      throw new Error(`the terminal never showed ${String(text)}; it shows:\n${last}`)
    },
  }
}
