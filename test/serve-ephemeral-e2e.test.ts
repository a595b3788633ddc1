// `gw serve --ephemeral` and `--exit-with-parent` end to end (issue 27): a throwaway engine for a
// test harness or CI job, and an engine that never outlives whoever started it, even a parent
// killed with SIGKILL.
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {Agent, request} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
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
    const child = spawn(process.execPath, [BIN, 'serve', '--ephemeral', '--json'], {env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    let err = ''
    child.stderr!.on('data', (d) => (err += d))
    const line = await new Promise<string>((res, rej) => {
      child.stdout!.on('data', (d) => {
        out += d
        if (out.includes('\n')) res(out.slice(0, out.indexOf('\n')))
      })
      child.once('exit', (code) => rej(new Error(`exited ${code}: ${err}`)))
    })
    const info = JSON.parse(line)
    expect(info).toMatchObject({base_url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\/v1$/), secret_key: expect.stringMatching(/^sk_test_/), data_dir: expect.stringContaining('gw-ephemeral-')})
    expect(new URL(info.base_url).port).not.toBe('8443')
    expect(existsSync(info.data_dir)).toBe(true)
    const agent = new Agent({connect: {ca: readFileSync(info.ca_file, 'utf8')}})
    const r = await request(`${info.base_url}/balance`, {headers: {authorization: `Bearer ${info.secret_key}`}, dispatcher: agent})
    expect(r.statusCode).toBe(200)
    await r.body.dump()
    await agent.close()
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
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
