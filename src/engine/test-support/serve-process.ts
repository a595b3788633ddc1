// `gw serve --json` as a child process, for the tests that need the real command (a fleet of
// instances on one PostgreSQL database, one killed; an ephemeral engine): started from a built
// CLI's bin/run.js, ready once it prints its one JSON line, stopped by a signal. Here rather than
// in test/support so that the engine's own tests (src/, under the typecheck's rootDir) use it too.
import {spawn, type ChildProcess} from 'node:child_process'
import {createInterface} from 'node:readline'

/** What `gw serve --json` prints first, once it listens. */
export interface ServeInfo {
  base_url: string
  checkout_url: string
  secret_key: string
  ca_file: string
  data_dir: string
  pid: number
}

export interface ServeExit {
  code: number | null
  signal: NodeJS.Signals | null
}

export interface ServeProcess {
  child: ChildProcess
  info: ServeInfo
  baseUrl: string
  port: number
  /** settles when the process has exited */
  exited: Promise<ServeExit>
  /** its stderr so far */
  stderr(): string
  /** sends `signal` unless it has exited already, then waits for the exit */
  stop(signal?: NodeJS.Signals): Promise<ServeExit>
}

/**
 * Runs `node BIN serve ARGS --json` and waits for its JSON line; an exit before that rejects with
 * the exit and its stderr.
 */
export async function startServe(bin: string, args: string[], opts: {env: NodeJS.ProcessEnv; cwd?: string}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, 'serve', ...args, '--json'], {cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe']})
  let stderr = ''
  child.stderr!.on('data', (c) => (stderr += c))
  const exited = new Promise<ServeExit>((r) => child.once('exit', (code, signal) => r({code, signal})))
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({input: child.stdout!}).once('line', resolve)
    void exited.then((e) => reject(new Error(`gw serve exited early (${e.signal ?? e.code}): ${stderr}`)))
  })
  child.stdout!.resume()
  const info = JSON.parse(line) as ServeInfo
  return {
    child,
    info,
    baseUrl: info.base_url,
    port: Number(new URL(info.base_url).port),
    exited,
    stderr: () => stderr,
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
      return exited
    },
  }
}
