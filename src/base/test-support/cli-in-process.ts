// Runs gw commands in this process, as `node bin/run.js ARGS` runs them in a pipe: the command
// class from src/commands/ (found the way oclif finds it in dist/), its argv parsed by oclif and
// run through GwCommand (flags and GW_ variables, --json, errors and exit codes), with its own
// environment, stdin and captured stdout and stderr. No build and no process start per command:
// an end-to-end step costs what the command does, not a Node start-up and a module load.
//
// What only a process shows stays with a spawned CLI (test/support/cli-snapshot.ts): start-up and lazy loading,
// help and the command-not-found hook (they read the built manifest), signals, commands that run
// until stopped. Runs take turns (one at a time in a file): process.exitCode is the process's.
import {AsyncLocalStorage} from 'node:async_hooks'
import {resolve} from 'node:path'
import {StringDecoder} from 'node:string_decoder'
import {pathToFileURL} from 'node:url'
import {Config} from '@oclif/core'
import {testHooks} from '../context.js'
import {commandFiles} from './command-files.js'
/** What a run of the CLI gave (as test/support/cli-snapshot.ts's runCli gives it for a spawned one). */
export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

const REPO = resolve(import.meta.dirname, '..', '..', '..')

interface Run {
  env: Record<string, string>
  stdin: string
  out: {stdout: string; stderr: string}
}

const current = new AsyncLocalStorage<Run>()
let installed: {env: NodeJS.ProcessEnv; stdout: typeof process.stdout.write; stderr: typeof process.stderr.write} | undefined

/** Routes process.env and the two output streams to the run whose async work is asking; everything else (the engine in this process, the test) sees the real ones. */
function install(): void {
  if (installed) return
  installed = {env: process.env, stdout: process.stdout.write, stderr: process.stderr.write}
  const real = installed.env
  const env = () => current.getStore()?.env
  process.env = new Proxy(real, {
    get: (t, k) => (typeof k === 'string' && env() ? env()![k] : Reflect.get(t, k)),
    set: (t, k, v) => (typeof k === 'string' && env() ? ((env()![k] = String(v)), true) : Reflect.set(t, k, v)),
    has: (t, k) => (typeof k === 'string' && env() ? k in env()! : Reflect.has(t, k)),
    deleteProperty: (t, k) => (typeof k === 'string' && env() ? delete env()![k] : Reflect.deleteProperty(t, k)),
    ownKeys: (t) => (env() ? Reflect.ownKeys(env()!) : Reflect.ownKeys(t)),
    getOwnPropertyDescriptor: (t, k) => {
      const e = env()
      if (!e || typeof k !== 'string') return Reflect.getOwnPropertyDescriptor(t, k)
      return k in e ? {value: e[k], writable: true, enumerable: true, configurable: true} : undefined
    },
  })
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = process[name]
    const original = installed[name]
    const decoders = new WeakMap<Run, StringDecoder>()
    stream.write = function (this: typeof stream, chunk: unknown, ...rest: unknown[]): boolean {
      const run = current.getStore()
      if (!run) return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest)
      if (!decoders.has(run)) decoders.set(run, new StringDecoder('utf8'))
      run.out[name] += typeof chunk === 'string' ? chunk : decoders.get(run)!.write(Buffer.from(chunk as Uint8Array))
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined
      if (done) queueMicrotask(done)
      return true
    } as typeof stream.write
  }
}

/** Puts process.env and the output streams back (afterAll of a file that used runInProcess). */
export function uninstallInProcess(): void {
  if (!installed) return
  process.env = installed.env
  process.stdout.write = installed.stdout
  process.stderr.write = installed.stderr
  installed = undefined
}

let config: Promise<Config> | undefined
let files: Map<string, string> | undefined
let queue: Promise<unknown> = Promise.resolve()

/** The id and argv of a command line (`payments create --amount 1` → payments:create, [--amount, 1]), or undefined when it names no command. */
export function commandOf(argv: string[]): {id: string; file: string; rest: string[]} | undefined {
  files ??= commandFiles()
  for (let n = argv.length; n > 0; n--) {
    const words = argv.slice(0, n)
    if (words.some((w) => w.startsWith('-'))) continue
    const file = files.get(words.join(':'))
    if (file) return {id: words.join(':'), file, rest: argv.slice(n)}
  }
  return undefined
}

export interface RunOptions {
  /** its whole environment */
  env: Record<string, string>
  /** its input (not a terminal, as in a pipe); empty when not given */
  stdin?: string
  /** its working directory (the process's, for the time of the run) */
  cwd?: string
}

/**
 * Runs `gw ARGV` in this process with exactly `env` as its environment; resolves with its exit
 * code and output, as runCli does for a spawned CLI.
 */
export function runInProcess(argv: string[], o: RunOptions): Promise<CliRun> {
  const found = commandOf(argv)
  if (!found) throw new Error(`gw ${argv.join(' ')}: not a command of src/commands (help, --version and typos need the built CLI: runCli)`)
  const turn = queue.then(() => runOne(found, o))
  queue = turn.catch(() => {})
  return turn
}

async function runOne(found: {id: string; file: string; rest: string[]}, o: RunOptions): Promise<CliRun> {
  install()
  config ??= Config.load(REPO)
  const cfg = await config
  const mod = (await import(pathToFileURL(found.file).href)) as {default: {id?: string; run(argv: string[], config: Config): Promise<unknown>}}
  const Cmd = mod.default
  Cmd.id = found.id // as oclif does when it loads a command
  const run: Run = {env: {...o.env}, stdin: o.stdin ?? '', out: {stdout: '', stderr: ''}}
  const saved = {...testHooks}
  // a pipe: nothing to prompt on, stdin read whole (an empty one when the test gives none)
  Object.assign(testHooks, {stdin: async () => current.getStore()?.stdin ?? '', interactive: false, prompt: undefined, sleep: undefined, dispatcher: undefined, credentials: undefined})
  process.exitCode = undefined
  const cwd = process.cwd()
  if (o.cwd) process.chdir(o.cwd)
  try {
    await current.run(run, () => Cmd.run(found.rest, cfg))
    return {code: Number(process.exitCode ?? 0), ...run.out}
  } finally {
    process.chdir(cwd)
    process.exitCode = undefined
    for (const k of Object.keys(testHooks) as (keyof typeof testHooks)[]) delete testHooks[k]
    Object.assign(testHooks, saved)
  }
}
