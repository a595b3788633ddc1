// `npm start`'s build prints no tool noise on a newcomer's first screen (docs/decisions.md#a-newcomers-cli):
// its oclif manifest step is the build's own script (scripts/manifest.mjs, on @oclif/core), not the
// oclif CLI, which warned that a newer oclif exists whenever its cache said so
// (docs/decisions.md#the-build-needs-few-tools); the step prints nothing, though that cache says so.
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
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

it("the build's manifest step runs no oclif CLI, prints nothing (the update check's cache notwithstanding), and writes the manifest the build wrote", () => {
  const build = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts.build as string
  const steps = build.split('&&').map((s) => s.trim())
  // no step runs the oclif CLI (its update check is what printed)
  expect(steps.filter((s) => /(^|[\s/=])oclif(\s|$)/.test(s))).toEqual([])
  const step = steps.find((s) => /scripts\/manifest\.mjs/.test(s))
  expect(step).toBe('node scripts/manifest.mjs')
  const before = readFileSync(join(REPO, 'oclif.manifest.json'), 'utf8')
  // the step again, as the build runs it (it replaces the manifest whole: a file reading it meanwhile reads one or the other)
  const r = spawnSync('sh', ['-c', step!], {cwd: REPO, encoding: 'utf8', env: {...process.env, XDG_CACHE_HOME: cache}})
  expect(r.stdout + r.stderr).toBe('')
  expect(r.status).toBe(0)
  // the same manifest, byte for byte: the commands in one order, whichever loaded first
  expect(readFileSync(join(REPO, 'oclif.manifest.json'), 'utf8')).toBe(before)
})
