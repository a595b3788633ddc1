// `gw console` in a tmux pane of its own socket, for the console's e2e tests and its bench part:
// the built CLI run by a shell with the user's HOME, keys in with send-keys, the screen back with
// capture-pane (test/support/tmux.ts), read again only after the pane has written (pipe-pane to a
// file in HOME: its size says when).
import {execFileSync} from 'node:child_process'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {tmuxOn, type Tmux} from './tmux.js'

export interface ConsoleTerm extends Tmux {
  /** send-keys: key names (Enter, Escape, Down, NPage, C-c) */
  keys(...k: string[]): void
  /** send-keys -l: literal text */
  type(text: string): void
  /** the console's node process (the pane shell's child) */
  pid(): number
  /** ends the session (and the console in it) */
  close(): void
}

export interface ConsoleRun {
  /** where the snapshot of the CLI is (bin/run.js inside) */
  root: string
  home: string
  /** GW_DATA_DIR for the console (unset: none) */
  dataDir?: string
  args?: string[]
  size?: {x: number; y: number}
  /** more environment for the console (GW_CONSOLE_TRACE) */
  env?: Record<string, string>
  /** the shell saves the tty's modes (stty -g) before and after the console: HOME/stty.before, HOME/stty.after */
  stty?: boolean
  /** a line the shell prints before the console starts */
  banner?: string
}

/**
 * Starts `gw console ARGS` in a new tmux session `gw` on `socket`: a shell script with the user's
 * HOME and no GW_ variable nor CI flag of this process, which prints EXIT=<code> when the console
 * ends and then stays (the screen can be read).
 */
export function openConsoleTerm(socket: string, o: ConsoleRun): ConsoleTerm {
  const stamp = `${process.pid}-${Date.now()}`
  const output = join(o.home, `console-${stamp}.out`)
  const term = tmuxOn(socket, {output})
  const size = o.size ?? {x: 120, y: 40}
  const script = join(o.home, `console-${stamp}.sh`)
  const exports = {HOME: o.home, XDG_CONFIG_HOME: join(o.home, '.config'), GW_NO_KEYRING: '1', ...(o.dataDir ? {GW_DATA_DIR: o.dataDir} : {}), ...o.env}
  writeFileSync(
    script,
    [
      // the render gate stays shut in CI; this terminal is real
      'unset CI CONTINUOUS_INTEGRATION GITHUB_ACTIONS BUILDKITE GITLAB_CI NO_COLOR',
      ...Object.keys(process.env)
        .filter((k) => k.startsWith('GW_'))
        .map((k) => `unset ${k}`),
      ...Object.entries(exports).map(([k, v]) => `export ${k}='${v}'`),
      `cd '${o.root}'`,
      ...(o.stty ? [`stty -g > '${o.home}/stty.before'`] : []),
      ...(o.banner ? [`echo '${o.banner}'`] : []),
      `'${process.execPath}' '${join(o.root, 'bin', 'run.js')}' console ${(o.args ?? []).map((a) => `'${a}'`).join(' ')}`,
      // the tty's modes saved before EXIT shows: once a test reads EXIT, stty.after is whole (it
      // was written after, and a second console's run truncated it while a test could read it)
      'code=$?',
      ...(o.stty ? [`stty -g > '${o.home}/stty.after'`] : []),
      'echo "EXIT=$code"',
      'sleep 600',
    ].join('\n'),
  )
  term.run('new-session', '-d', '-s', 'gw', '-x', String(size.x), '-y', String(size.y), `sh '${script}'`)
  // the pane's output, copied as it comes: a wait reads the screen again when it grew
  term.run('pipe-pane', '-t', 'gw', '-o', `cat >> '${output}'`)
  return {
    ...term,
    keys: (...k) => void term.run('send-keys', '-t', 'gw', ...k),
    type: (text) => void term.run('send-keys', '-t', 'gw', '-l', text),
    pid: () => {
      const shell = term.run('display-message', '-p', '-t', 'gw', '#{pane_pid}').trim()
      return Number(execFileSync('pgrep', ['-P', shell, '-f', 'bin/run.js console'], {encoding: 'utf8'}).trim().split('\n')[0])
    },
    close: () => {
      try {
        term.run('kill-server')
      } catch {
        // gone already
      }
    },
  }
}
