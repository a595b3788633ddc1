// What the built `gw serve` and @gw/testing's startGateway load as they start: the engine comes
// from its bundle (dist/bundle/, scripts/bundle.mjs), a few files, not from the engine's ~180
// modules and the ~400 files of the packages it uses, each resolved, read and compiled on its own;
// the SQLite threads are still found beside the module that starts them. The count of module files
// is printed for the record (startup CPU is measured in bench/, not here).
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {snapshotCli} from './support/cli-snapshot.js'

const REPO = resolve(import.meta.dirname, '..')
let ROOT: string
let home: string

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist', 'commands', 'serve.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).')
  ROOT = snapshotCli('gw-e2e-startup-')
  home = mkdtempSync(join(tmpdir(), 'gw-e2e-startup-home-'))
})

afterAll(() => {
  rmSync(ROOT, {recursive: true, force: true})
  rmSync(home, {recursive: true, force: true})
})

/** Runs node with `args` under the module trace until its first stdout line; the line and the module files loaded by then. */
async function firstLine(args: string[]): Promise<{line: string; files: string[]}> {
  const trace = join(home, `trace-${Date.now()}-${Math.random()}.log`)
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GW_')) env[k] = v
  const child = spawn(process.execPath, ['--import', join(ROOT, 'test', 'support', 'trace-imports.mjs'), ...args], {
    cwd: ROOT,
    env: {...env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), NO_COLOR: '1', GW_TRACE_FILE: trace},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (c) => (stderr += c))
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  try {
    const line = await new Promise<string>((done, fail) => {
      createInterface({input: child.stdout}).once('line', done)
      void exited.then(() => fail(new Error(`exited before its first line: ${stderr}`)))
    })
    // what was loaded by the first line (the trace's own hooks thread may lag a moment behind)
    await new Promise((r) => setTimeout(r, 200))
    const files = new Set<string>()
    for (const entry of readFileSync(trace, 'utf8').trim().split('\n')) {
      const [, what] = /^(?:esm|cjs) (.*)$/.exec(entry) ?? []
      if (what?.startsWith('file:')) files.add(fileURLToPath(what))
      else if (what?.startsWith('/')) files.add(what)
    }
    return {line, files: [...files]}
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

/** The files of dist/engine/ loaded one by one: none but the bundle's re-exports and the SQLite threads with their starter. */
function engineModulesOutsideBundle(files: string[]): string[] {
  return files.filter((f) => f.includes('/dist/engine/') && !/\/store\/sqlite\/(thread\.js|[a-z-]+-thread\.mjs)$/.test(f) && !/^export \{[^}]*\} from '[./]+bundle\/[\w-]+\.js'\n$/.test(readFileSync(f, 'utf8')))
}
const PACKAGES_IN_BUNDLE = /\/node_modules\/(ajv|ajv-formats|prom-client|@peculiar\/[^/]+|tsyringe|card-validator|csv-stringify)\//

describe('the engine starts from its bundle', () => {
  it('`gw serve --ephemeral` loads the engine from dist/bundle/, not module by module', async () => {
    const {line, files} = await firstLine([join(ROOT, 'bin', 'run.js'), 'serve', '--ephemeral', '--port', '0', '--json'])
    expect(JSON.parse(line)).toMatchObject({base_url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/v1$/)})
    expect(files.some((f) => f.endsWith('/dist/bundle/engine.js'))).toBe(true)
    expect(engineModulesOutsideBundle(files)).toEqual([])
    expect(files.filter((f) => PACKAGES_IN_BUNDLE.test(f))).toEqual([])
    // the SQLite writer thread started from its file beside the thread starter
    expect(files.some((f) => f.endsWith('/dist/engine/store/sqlite/writer-thread.mjs'))).toBe(true)
    console.log(`gw serve --ephemeral: ${files.length} module files by its first line`)
  }, 60_000)

  it('startGateway (dist/testing.js) loads the engine from dist/bundle/ and finds the SQLite threads', async () => {
    const script = join(home, 'start-gateway.mjs')
    writeFileSync(
      script,
      `import {startGateway} from ${JSON.stringify(join(ROOT, 'dist', 'testing.js'))}\nconst gw = await startGateway()\nconst account = await gw.account()\nconst r = await account.api('GET', '/payments')\nconsole.log(JSON.stringify({baseUrl: gw.baseUrl, status: r.status}))\nawait gw.stop()\n`,
    )
    const {line, files} = await firstLine([script])
    expect(JSON.parse(line)).toMatchObject({baseUrl: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/v1$/), status: 200})
    expect(files.some((f) => f.endsWith('/dist/bundle/engine.js'))).toBe(true)
    expect(engineModulesOutsideBundle(files)).toEqual([])
    expect(files.filter((f) => PACKAGES_IN_BUNDLE.test(f))).toEqual([])
    expect(files.some((f) => f.endsWith('/dist/engine/store/sqlite/writer-thread.mjs'))).toBe(true)
    console.log(`startGateway: ${files.length} module files by its first request`)
  }, 60_000)
})
