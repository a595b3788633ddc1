// A Context on buffers for tests of a command's body as a plain function: no oclif, no process
// streams; undici's MockAgent as the network.
import {PassThrough} from 'node:stream'
import type {Dispatcher} from 'undici'
import {Context, type GlobalInputs, type Seams} from '../context.js'

export interface TestContext {
  ctx: Context
  stdout(): string
  stderr(): string
}

export function testContext(opts: GlobalInputs & {dispatcher?: Dispatcher; env?: NodeJS.ProcessEnv; tty?: number; seams?: Seams} = {}): TestContext {
  let out = ''
  let err = ''
  const stdout = Object.assign(new PassThrough(), opts.tty ? {isTTY: true, columns: opts.tty} : {})
  const stderr = new PassThrough()
  stdout.on('data', (d) => (out += d))
  stderr.on('data', (d) => (err += d))
  const ctx = new Context({
    ...opts,
    io: {stdout, stderr, stdin: new PassThrough()},
    env: {NO_COLOR: '1', GW_NO_KEYRING: '1', ...opts.env},
    seams: {dispatcher: opts.dispatcher, sleep: async () => {}, ...opts.seams},
  })
  return {ctx, stdout: () => out, stderr: () => err}
}
