// The console's terminal: the alternate screen (what was on the terminal comes back on exit),
// the cursor hidden, the wheel sent as arrow keys (alternate-scroll mode, where the terminal has
// it), raw input. `enterScreen` returns the one way back, and arranges that it runs on every way
// out: q, Ctrl-C (read as a key in raw mode), SIGINT, SIGTERM, SIGHUP, and a crash (an uncaught
// exception or rejection is printed after the terminal is restored, then the process exits 1).

import {terminalSafe} from '../output/terminal.js'

// bracketed paste (?2004h): the terminal marks a paste, which stays text (ui/key-reader.ts)
const ENTER = '\u001B[?1049h\u001B[H\u001B[2J\u001B[?25l\u001B[?1007h\u001B[?2004h'
const LEAVE = '\u001B[?2004l\u001B[?1007l\u001B[?25h\u001B[?1049l'

export interface ScreenStreams {
  stdout: NodeJS.WriteStream
  stdin: NodeJS.ReadStream
  stderr: NodeJS.WriteStream
}

export interface Screen {
  /** restores the terminal (once; later calls do nothing) */
  restore(): void
  /** set while the console runs: a signal or crash first restores, then calls this (unmount, stop streams) */
  onInterrupt?: (why: string) => void
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']
const EXIT_CODES: Record<string, number> = {SIGINT: 130, SIGTERM: 143, SIGHUP: 129}

export function enterScreen(io: ScreenStreams, proc: NodeJS.Process = process): Screen {
  let restored = false
  let keepSignals = false
  const screen: Screen = {
    restore() {
      if (restored) return
      restored = true
      if (io.stdin.isTTY) {
        try {
          io.stdin.setRawMode(false)
        } catch {
          // the terminal is gone (SIGHUP): nothing to restore
        }
      }
      io.stdout.write(LEAVE)
      if (!keepSignals) for (const s of SIGNALS) proc.removeListener(s, onSignal)
      proc.removeListener('uncaughtException', onCrash)
      proc.removeListener('unhandledRejection', onCrash)
      proc.removeListener('exit', onExit)
    },
  }
  function onSignal(signal: NodeJS.Signals) {
    // the app lets go first (Ink draws its last frame on the alternate screen, not over the
    // shell's); our listeners stay, so Ink's signal-exit does not raise the signal again
    screen.onInterrupt?.(signal)
    keepSignals = true
    screen.restore()
    // the process ends with the signal's conventional code once the console let go
    proc.exitCode = EXIT_CODES[signal] ?? 1
    setTimeout(() => proc.exit(EXIT_CODES[signal] ?? 1), 200).unref()
  }
  function onCrash(error: unknown) {
    // the app lets go first, as on a signal: Ink's last frame goes to the alternate screen, not,
    // from its exit handler, over the shell's screen and this message
    try {
      screen.onInterrupt?.('crash')
    } catch {
      // it is crashing already: the terminal is restored all the same
    }
    screen.restore()
    io.stderr.write(`gw console stopped on an unexpected error: ${terminalSafe((error as Error)?.stack ?? String(error))}\n`)
    proc.exit(1)
  }
  function onExit() {
    screen.restore()
  }
  for (const s of SIGNALS) proc.on(s, onSignal)
  proc.on('uncaughtException', onCrash)
  proc.on('unhandledRejection', onCrash)
  proc.on('exit', onExit)
  // raw input before anything is drawn: Ink turns it on only after its first frame (a passive
  // effect), and a Ctrl-C typed as that frame shows was the terminal's interrupt, not a key — it
  // went to the whole foreground process group (a script's shell too: a tmux pane closed under
  // its test on a loaded machine)
  if (io.stdin.isTTY) io.stdin.setRawMode(true)
  io.stdout.write(ENTER)
  return screen
}
