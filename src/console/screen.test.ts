// The console's terminal: raw input from the moment it enters the screen (before the first
// frame, so a Ctrl-C typed as the console appears is a key, not the terminal's interrupt of the
// whole process group), and every mode it set taken back on restore.
import {PassThrough} from 'node:stream'
import {EventEmitter} from 'node:events'
import {expect, it} from 'vitest'
import {enterScreen} from './screen.js'

it('puts the terminal in raw mode as it enters the screen, and takes back every mode on restore', () => {
  const modes: boolean[] = []
  const stdin = Object.assign(new PassThrough(), {isTTY: true, setRawMode: (on: boolean) => (modes.push(on), stdin)}) as unknown as NodeJS.ReadStream
  let out = ''
  const stdout = Object.assign(new PassThrough(), {isTTY: true, write: (s: string) => ((out += s), true)}) as unknown as NodeJS.WriteStream
  const proc = Object.assign(new EventEmitter(), {exit: () => undefined, exitCode: undefined}) as unknown as NodeJS.Process
  const screen = enterScreen({stdin, stdout, stderr: stdout}, proc)
  expect(modes).toEqual([true])
  // the alternate screen, the cursor hidden, the wheel as arrows, bracketed paste
  for (const on of ['\u001b[?1049h', '\u001b[?25l', '\u001b[?1007h', '\u001b[?2004h']) expect(out).toContain(on)
  screen.restore()
  expect(modes).toEqual([true, false])
  for (const off of ['\u001b[?1049l', '\u001b[?25h', '\u001b[?1007l', '\u001b[?2004l']) expect(out).toContain(off)
  expect(proc.listenerCount('SIGINT')).toBe(0)
})
