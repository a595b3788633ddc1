// `gw serve --ephemeral` and `--exit-with-parent` end to end (docs/decisions.md#a-throwaway-engine): a throwaway engine for a
// test harness or CI job, and an engine that never outlives whoever started it, even a parent
// killed with SIGKILL.
import {spawn, spawnSync} from 'node:child_process'
import {closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {Agent, request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startServe} from '../src/engine/test-support/serve-process.js'
import {snapshotCli} from './support/cli-snapshot.js'

const REPO = resolve(import.meta.dirname, '..')
let ROOT: string
let BIN: string
let tmp: string

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist', 'commands', 'serve.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).')
  ROOT = snapshotCli('gw-e2e-ephemeral-')
  BIN = join(ROOT, 'bin', 'run.js')
  tmp = mkdtempSync(join(tmpdir(), 'gw-e2e-ephemeral-home-'))
})

afterAll(() => {
  rmSync(ROOT, {recursive: true, force: true})
  rmSync(tmp, {recursive: true, force: true})
})

function cleanEnv(): Record<string, string> {
  const base: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('GW_')) base[k] = v
  return {...base, HOME: tmp, XDG_CONFIG_HOME: join(tmp, 'config'), NO_COLOR: '1'}
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function gone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!alive(pid)) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  return !alive(pid)
}

describe('gw serve --ephemeral', () => {
  it('starts on a free port with a temporary data dir, answers, and removes the dir when stopped', async () => {
    const engine = await startServe(BIN, ['--ephemeral'], {env: cleanEnv()})
    const info = engine.info
    expect(info).toMatchObject({base_url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/v1$/), secret_key: expect.stringMatching(/^sk_test_/), data_dir: expect.stringContaining('gw-ephemeral-')})
    expect(new URL(info.base_url).port).not.toBe('8443')
    expect(existsSync(info.data_dir)).toBe(true)
    const agent = new Agent({connect: {ca: readFileSync(info.ca_file, 'utf8')}})
    const r = await request(`${info.base_url}/balance`, {headers: {authorization: `Bearer ${info.secret_key}`}, dispatcher: agent})
    expect(r.statusCode).toBe(200)
    await r.body.dump()
    await agent.close()
    expect((await engine.stop('SIGTERM')).code).toBe(0)
    expect(existsSync(info.data_dir)).toBe(false)
  }, 30_000)

  it('refuses --ephemeral with --data-dir (a usage error naming both)', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--ephemeral', '--data-dir', join(tmp, 'd')], {env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe']})
    let err = ''
    child.stderr!.on('data', (d) => (err += d))
    const code = await new Promise<number | null>((res) => child.once('exit', (c) => res(c)))
    expect(code).toBe(2)
    expect(err).toMatch(/--data-dir/)
    expect(err).toMatch(/--ephemeral/)
  }, 30_000)
})

describe('gw serve --exit-with-parent', () => {
  // a harness process starts the engine and is then killed with SIGKILL: the engine must stop too
  for (const stdin of ['pipe', 'ignore'] as const) {
    it(`stops when its parent is killed with SIGKILL (stdin ${stdin === 'pipe' ? 'a pipe: it closes' : '/dev/null: the parent is watched'})`, async () => {
      const harness = `
        const {spawn} = require('node:child_process')
        const c = spawn(process.execPath, [${JSON.stringify(BIN)}, 'serve', '--ephemeral', '--json', '--exit-with-parent'], {stdio: [${JSON.stringify(stdin)}, 'pipe', 'inherit']})
        let out = ''
        c.stdout.on('data', (d) => { out += d; if (out.includes('\\n')) { const info = JSON.parse(out.slice(0, out.indexOf('\\n'))); process.stdout.write(JSON.stringify({pid: c.pid, data_dir: info.data_dir}) + '\\n') } })
        setInterval(() => {}, 1000)
      `
      const parent = spawn(process.execPath, ['-e', harness], {env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe']})
      let out = ''
      const started = await new Promise<{pid: number; data_dir: string}>((res, rej) => {
        parent.stdout!.on('data', (d) => {
          out += d
          if (out.includes('\n')) res(JSON.parse(out.slice(0, out.indexOf('\n'))))
        })
        parent.once('exit', (code) => rej(new Error(`harness exited ${code}`)))
      })
      expect(alive(started.pid)).toBe(true)
      parent.kill('SIGKILL')
      expect(await gone(started.pid, 10_000)).toBe(true)
      // it stopped gracefully: the ephemeral data dir is gone too
      expect(existsSync(started.data_dir)).toBe(false)
    }, 30_000)
  }
})

// Nothing left behind: an engine killed with SIGKILL leaves its dir, which the
// next start sweeps; a start that fails under --json is one JSON line, a non-zero exit and no dir;
// the README's CI recipe stops there instead of exporting `base_url: null`.
describe('gw serve --ephemeral leaves nothing behind', () => {
  let own: string
  let busy: import('node:net').Server
  let busyPort: number
  beforeAll(async () => {
    own = mkdtempSync(join(tmp, 'tmpdir-'))
    const {createServer} = await import('node:net')
    busy = createServer()
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
    busyPort = (busy.address() as import('node:net').AddressInfo).port
  })
  afterAll(() => new Promise<void>((r) => busy.close(() => r())))
  const left = () => readdirSync(own).filter((n) => n.startsWith('gw-ephemeral-'))

  it('a killed engine leaves its dir; the next start, which fails on a port in use, sweeps it, prints one JSON error line, exits 2 and leaves no dir of its own', async () => {
    const env = {...cleanEnv(), TMPDIR: own}
    const first = await startServe(BIN, ['--ephemeral'], {env})
    const info = first.info
    expect(left()).toEqual([info.data_dir.slice(own.length + 1)])
    await first.stop('SIGKILL')
    expect(existsSync(info.data_dir)).toBe(true)

    const next = spawnSync(process.execPath, [BIN, 'serve', '--ephemeral', '--json', '--port', String(busyPort)], {env, encoding: 'utf8', timeout: 30_000})
    expect(next.status).toBe(2)
    // one line, the CLI's --json error shape
    expect(next.stdout.endsWith('\n') && next.stdout.indexOf('\n') === next.stdout.length - 1).toBe(true)
    expect(JSON.parse(next.stdout)).toEqual({error: {type: 'usage_error', message: `Port ${busyPort} on 127.0.0.1 is already in use.`, hint: 'Pick another with --port, or --port 0 for a free one.', request_id: null}})
    expect(left()).toEqual([])
    // a flag oclif refuses before serve runs: one line as well
    const bad = spawnSync(process.execPath, [BIN, 'serve', '--ephemeral', '--json', '--port', 'abc'], {env, encoding: 'utf8', timeout: 30_000})
    expect(bad.status).toBe(2)
    expect(bad.stdout.trim().split('\n')).toHaveLength(1)
    expect(JSON.parse(bad.stdout)).toMatchObject({error: {type: 'usage_error', message: expect.stringContaining('--port')}})
    expect(left()).toEqual([])
  }, 60_000)

  it("the README's CI recipe fails its step on that error line, exporting nothing, and exports the engine's values when it starts", async () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
    const block = /- name: start gw for the test job\n\s+run: \|\n((?: {4}.*\n)+)/.exec(readme)
    expect(block).not.toBeNull()
    const script = block![1]!.replace(/^ {4}/gm, '')
    // `gw` on PATH is this build; jq is the machine's where it has one, else a stand-in with jq's
    // exit statuses for what the recipe uses (-e: 1 on null or false, 4 without input; -r)
    const bin = mkdtempSync(join(tmp, 'bin-'))
    writeFileSync(join(bin, 'gw'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`, {mode: 0o755})
    if (spawnSync('sh', ['-c', 'command -v jq']).status !== 0) writeFileSync(join(bin, 'jq'), JQ_STANDIN, {mode: 0o755})
    const run = (extra: Record<string, string>) => {
      const runner = mkdtempSync(join(tmp, 'runner-'))
      const githubEnv = join(runner, 'github-env')
      writeFileSync(githubEnv, '')
      const err = join(runner, 'stderr')
      const fd = openSync(err, 'w')
      // the step's shell as GitHub runs it (bash -e); stdout and stderr to files: the engine it starts keeps them open
      const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {env: {...cleanEnv(), TMPDIR: own, PATH: `${bin}:${process.env.PATH}`, RUNNER_TEMP: runner, GITHUB_ENV: githubEnv, ...extra}, stdio: ['ignore', fd, fd], timeout: 30_000})
      closeSync(fd)
      return {status: r.status, env: readFileSync(githubEnv, 'utf8'), stderr: readFileSync(err, 'utf8'), json: readFileSync(join(runner, 'gw.json'), 'utf8')}
    }
    const failed = run({GW_PORT: String(busyPort)})
    expect(failed.status).not.toBe(0)
    expect(failed.env).toBe('')
    expect(failed.stderr).toContain(`Port ${busyPort} on 127.0.0.1 is already in use.`)
    expect(left()).toEqual([])

    const ok = run({})
    expect(ok.status).toBe(0)
    const info = JSON.parse(ok.json) as {base_url: string; secret_key: string; pid: number; data_dir: string}
    expect(ok.env).toContain(`GW_BASE_URL=${info.base_url}\n`)
    expect(ok.env).toContain(`GW_API_KEY=${info.secret_key}\n`)
    process.kill(info.pid, 'SIGTERM')
    expect(await gone(info.pid, 15_000)).toBe(true)
    expect(left()).toEqual([])
  }, 60_000)
})

const JQ_STANDIN = `#!${process.execPath}
const args = process.argv.slice(2)
const e = args.includes('-e'), raw = args.includes('-r')
const [filter, file] = args.filter((a) => !a.startsWith('-'))
const text = require('node:fs').readFileSync(file ?? 0, 'utf8').trim()
if (!text) process.exit(e ? 4 : 0)
const v = filter.slice(1).split('.').filter(Boolean).reduce((o, k) => (o == null ? null : o[k] ?? null), JSON.parse(text))
process.stdout.write((raw && typeof v === 'string' ? v : JSON.stringify(v)) + '\\n')
process.exit(e && (v === null || v === false) ? 1 : 0)
`
