// An end-to-end world: a user's HOME, a working dir, and an engine booted in this process that
// the CLI is logged in to (`gw login --local`), plus `api()` for the shop's side of a test (the
// engine's own key, straight over HTTPS). `gw()` runs a command in this process
// (src/base/test-support/cli-in-process.ts); `bin` is the built CLI (a snapshot, made when first asked for) for what
// needs a process of its own.
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Agent, request} from 'undici'
import {expect} from 'vitest'
import {startEngine, type EngineHandle} from '../../src/engine/index.js'
import {runInProcess, uninstallInProcess} from '../../src/base/test-support/cli-in-process.js'
import {cliEnv, REPO, snapshotCli, type CliRun} from './cli-snapshot.js'

export interface CliWorld {
  engine: EngineHandle
  /** the built CLI's entry (a snapshot), for tests that spawn it themselves; reading it needs the build */
  readonly bin: string
  /** the working dir the CLI runs in (files a test writes for it go here) */
  work: string
  /** the environment the CLI runs with (its HOME, the engine's data dir, the extras asked for) */
  env: Record<string, string>
  /** `gw ARGS` in this process, in `work` */
  gw(args: string[], stdin?: string): Promise<CliRun>
  /** runs with --json, expects exit 0 and parses stdout */
  gwJson<T>(args: string[]): Promise<T>
  /** the API with the engine's secret key; a POST carries an Idempotency-Key; expects a 2xx unless `anyStatus` */
  api<T = any>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, o?: {anyStatus?: boolean}): Promise<T>
  close(): Promise<void>
}

export interface CliWorldOptions {
  /** extra environment for the CLI (e.g. NO_COLOR, COLUMNS) */
  env?: Record<string, string>
  /** the engine's rate limit (0: none, for tests that send many requests) */
  rateLimit?: number
  /** log the CLI in to the engine with `gw login --local` (default true) */
  login?: boolean
}

/** `builtFile`: a file under dist/ that `bin` needs (stale builds are refused with the fix). */
export async function startCliWorld(prefix: string, builtFile: string, o: CliWorldOptions = {}): Promise<CliWorld> {
  let root: string | undefined
  const built = () => {
    if (!existsSync(join(REPO, 'dist', builtFile)) || !existsSync(join(REPO, 'oclif.manifest.json'))) {
      throw new Error('dist/ or oclif.manifest.json is missing or stale: run `npm run build` first (`npm test` does).')
    }
    root ??= snapshotCli(prefix)
    return join(root, 'bin', 'run.js')
  }
  const home = mkdtempSync(join(tmpdir(), `${prefix}home-`))
  const work = mkdtempSync(join(tmpdir(), `${prefix}work-`))
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}engine-`))
  const engine = await startEngine({dataDir, port: 0, durability: 'normal', log: () => {}, ...(o.rateLimit === undefined ? {} : {rateLimit: o.rateLimit})})
  const agent = new Agent({connect: {ca: engine.caCertPem}})
  const env = cliEnv(home, dataDir, o.env)
  const gw = (args: string[], stdin?: string) => runInProcess(args, {cwd: work, env, stdin})
  if (o.login !== false) {
    const login = await gw(['login', '--local'])
    expect(login.code, login.stderr).toBe(0)
  }
  let n = 0
  return {
    engine,
    get bin() {
      return built()
    },
    work,
    env,
    gw,
    async gwJson<T>(args: string[]): Promise<T> {
      const r = await gw([...args, '--json'])
      expect(r.code, `gw ${args.join(' ')}: ${r.stderr}`).toBe(0)
      return JSON.parse(r.stdout) as T
    },
    async api(method, path, body, opts) {
      const headers: Record<string, string> = {authorization: `Bearer ${engine.secretKey}`}
      if (body !== undefined) headers['content-type'] = 'application/json'
      if (method === 'POST') headers['idempotency-key'] = `${prefix}${process.pid}-${++n}`
      const r = await request(`${engine.baseUrl}${path}`, {method, dispatcher: agent, headers, body: body === undefined ? undefined : JSON.stringify(body)})
      const text = await r.body.text()
      if (!opts?.anyStatus) expect(r.statusCode, `${method} ${path}: ${text}`).toBeLessThan(300)
      return JSON.parse(text)
    },
    async close() {
      uninstallInProcess()
      await agent.close()
      await engine.close()
      for (const d of [home, work, dataDir, root]) if (d) rmSync(d, {recursive: true, force: true})
    },
  }
}
