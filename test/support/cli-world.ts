// An end-to-end world: a snapshot of the built CLI, a user's HOME, a working dir, and an engine
// booted in this process that the CLI is logged in to (`gw login --local`).
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {expect} from 'vitest'
import {startEngine, type EngineHandle} from '../../src/engine/index.js'
import {cliEnv, REPO, runCli, snapshotCli, type CliRun} from './cli-snapshot.js'

export interface CliWorld {
  engine: EngineHandle
  /** the working dir the CLI runs in (files a test writes for it go here) */
  work: string
  gw(args: string[], stdin?: string): Promise<CliRun>
  /** runs with --json, expects exit 0 and parses stdout */
  gwJson<T>(args: string[]): Promise<T>
  close(): Promise<void>
}

/** `builtFile`: a file under dist/ the tests need (stale builds are refused with the fix). */
export async function startCliWorld(prefix: string, builtFile: string): Promise<CliWorld> {
  if (!existsSync(join(REPO, 'dist', builtFile)) || !existsSync(join(REPO, 'oclif.manifest.json'))) {
    throw new Error('dist/ or oclif.manifest.json is missing or stale: run `npm run build` first (`npm test` does).')
  }
  const root = snapshotCli(prefix)
  const bin = join(root, 'bin', 'run.js')
  const home = mkdtempSync(join(tmpdir(), `${prefix}home-`))
  const work = mkdtempSync(join(tmpdir(), `${prefix}work-`))
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}engine-`))
  const engine = await startEngine({dataDir, port: 0, durability: 'normal', log: () => {}})
  const gw = (args: string[], stdin?: string) => runCli(bin, args, {cwd: work, env: cliEnv(home, dataDir), stdin})
  const login = await gw(['login', '--local'])
  expect(login.code, login.stderr).toBe(0)
  return {
    engine,
    work,
    gw,
    async gwJson<T>(args: string[]): Promise<T> {
      const r = await gw([...args, '--json'])
      expect(r.code, `gw ${args.join(' ')}: ${r.stderr}`).toBe(0)
      return JSON.parse(r.stdout) as T
    },
    async close() {
      await engine.close()
      for (const d of [home, work, dataDir, root]) rmSync(d, {recursive: true, force: true})
    },
  }
}
