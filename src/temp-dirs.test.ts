// Throwaway dirs leave nothing behind (docs/decisions.md#a-throwaway-engine): the sweep of dead owners' dirs, and a
// process ended by a signal removing its own. The signal cases run the module in a child process
// (a signal ends the process that receives it), from its source through tsx's loader: no build.
import {spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {OWNER_FILE, processStart, sweepThrowawayDirs} from './temp-dirs.js'

const SOURCE = resolve(import.meta.dirname, 'temp-dirs.ts')
let tmp: string

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'gw-temp-dirs-test-'))
})
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

const dirWith = (root: string, name: string, owner?: unknown) => {
  mkdirSync(join(root, name))
  if (owner !== undefined) writeFileSync(join(root, name, OWNER_FILE), JSON.stringify(owner))
  writeFileSync(join(root, name, 'gw.db'), 'data')
}

describe('sweepThrowawayDirs', () => {
  it("removes the dirs of owners that are gone (or whose pid now belongs to another process), keeps live owners', fresh ownerless ones and others' dirs", () => {
    const root = mkdtempSync(join(tmp, 'sweep-'))
    // a process that has ended: its pid is free
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {encoding: 'utf8'})
    const deadPid = Number(dead.stdout)
    const parent = process.ppid
    dirWith(root, 'gw-testing-dead', {pid: deadPid, start: '1'})
    dirWith(root, 'gw-ephemeral-dead', {pid: deadPid, start: null})
    dirWith(root, 'gw-testing-live', {pid: parent, start: processStart(parent)})
    // the pid is alive, but it started at another time: a later process was given the dead owner's pid
    dirWith(root, 'gw-testing-reused', {pid: parent, start: 'not-its-start'})
    dirWith(root, 'gw-testing-mine', {pid: process.pid, start: processStart(process.pid)})
    dirWith(root, 'gw-testing-ownerless-new')
    dirWith(root, 'gw-ephemeral-ownerless-old')
    utimesSync(join(root, 'gw-ephemeral-ownerless-old'), new Date(Date.now() - 2 * 86_400_000), new Date(Date.now() - 2 * 86_400_000))
    dirWith(root, 'gw-snapshot-other', {pid: deadPid, start: null})
    const swept = sweepThrowawayDirs(root).map((p) => p.slice(root.length + 1)).sort()
    expect(swept).toEqual(['gw-ephemeral-dead', 'gw-ephemeral-ownerless-old', 'gw-testing-dead', 'gw-testing-reused'])
    expect(readdirSync(root).sort()).toEqual(['gw-snapshot-other', 'gw-testing-live', 'gw-testing-mine', 'gw-testing-ownerless-new'])
  })
})

// a child that makes a throwaway dir, says where, and waits to be signalled; `handler`: its own code for SIGTERM
async function child(handler = ''): Promise<{path: string; ended: Promise<{code: number | null; signal: NodeJS.Signals | null}>; proc: ReturnType<typeof spawn>}> {
  const code = `
import {makeThrowawayDir} from ${JSON.stringify(SOURCE)}
const d = makeThrowawayDir('gw-testing-')
${handler}
console.log(d.path)
setInterval(() => {}, 1000)
`
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {env: {...process.env, TMPDIR: tmp}, stdio: ['ignore', 'pipe', 'inherit']})
  const ended = new Promise<{code: number | null; signal: NodeJS.Signals | null}>((r) => proc.once('exit', (code, signal) => r({code, signal})))
  let out = ''
  const path = await new Promise<string>((res, rej) => {
    proc.stdout!.on('data', (d) => {
      out += d
      if (out.includes('\n')) res(out.trim())
    })
    void ended.then((e) => rej(new Error(`the child ended first: ${JSON.stringify(e)}`)))
  })
  return {path, ended, proc}
}

describe('a process ended by a signal', () => {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${sig} that nobody handles: the dir is removed and the process still ends by ${sig}`, async () => {
      const c = await child()
      expect(existsSync(join(c.path, OWNER_FILE))).toBe(true)
      c.proc.kill(sig)
      expect(await c.ended).toEqual({code: null, signal: sig})
      expect(existsSync(c.path)).toBe(false)
    })
  }

  it('a process that handles SIGTERM itself keeps its dir until it exits (then it goes)', async () => {
    // the handler checks the dir is still there when it runs, then exits as `gw serve` does after its graceful stop
    const c = await child(`process.once('SIGTERM', async () => { const {existsSync} = await import('node:fs'); process.exit(existsSync(d.path) ? 7 : 8) })`)
    c.proc.kill('SIGTERM')
    expect(await c.ended).toEqual({code: 7, signal: null})
    expect(existsSync(c.path)).toBe(false)
  })
})
