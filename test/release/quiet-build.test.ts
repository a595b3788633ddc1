// `npm start`'s build prints no tool noise on a newcomer's first screen (docs/decisions.md#a-newcomers-cli): the
// build script's oclif step does not warn that a newer oclif exists, though the cache says so.
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {stripVTControlCharacters} from 'node:util'
import {afterAll, beforeAll, expect, it} from 'vitest'

const REPO = resolve(import.meta.dirname, '..', '..')
let cache: string

beforeAll(() => {
  // what the oclif CLI's update check leaves after it saw a newer release on npm
  cache = mkdtempSync(join(tmpdir(), 'gw-oclif-cache-'))
  mkdirSync(join(cache, 'oclif'))
  writeFileSync(join(cache, 'oclif', 'version'), JSON.stringify({latest: '99.0.0'}))
})

afterAll(() => rmSync(cache, {recursive: true, force: true}))

const oclifBin = join(REPO, 'node_modules', '.bin', 'oclif')
const run = (script: string) =>
  spawnSync('sh', ['-c', script], {cwd: REPO, encoding: 'utf8', env: {...process.env, XDG_CACHE_HOME: cache, PATH: `${join(REPO, 'node_modules', '.bin')}:${process.env.PATH}`}})

it("the build's oclif step runs without the update warning (and the check would have warned)", () => {
  const build = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts.build as string
  const step = build.split('&&').map((s) => s.trim()).find((s) => /\boclif manifest\b/.test(s))
  expect(step).toBeDefined()
  // the same command line, asking only for the version (the update check runs on every oclif command; the manifest is left alone)
  const quiet = run(step!.replace(/oclif manifest.*$/, 'oclif --version'))
  expect(quiet.status).toBe(0)
  expect(quiet.stdout + quiet.stderr).not.toMatch(/update available/i)
  // control: without what the build script adds, this cache makes oclif warn
  const noisy = run("oclif --version")
  expect(stripVTControlCharacters(noisy.stdout + noisy.stderr)).toMatch(/update available from .* to 99\.0\.0/)
  expect(execFileSync(oclifBin, ['--version'], {encoding: 'utf8', env: {...process.env, XDG_CACHE_HOME: cache, OCLIF_SKIP_NEW_VERSION_CHECK: 'true'}})).toMatch(/^oclif\//)
})
