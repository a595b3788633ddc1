// When a package's build counts as this commit's (scripts/build-info.mjs): `npm run pack` and npm's
// prepare check such a build instead of building it again, so it must never take an older build,
// or one made from (or next to) local changes, for the commit checked out.
import {execFileSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
// @ts-expect-error plain ESM of the build scripts, no types
import {builtHere, gitState} from '../../scripts/build-info.mjs'

let repo: string
const git = (...args: string[]) => execFileSync('git', args, {cwd: repo, encoding: 'utf8', env: {...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com'}}).trim()

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'gw-build-info-'))
  git('init', '-q')
  writeFileSync(join(repo, 'a.ts'), 'export const a = 1\n')
  writeFileSync(join(repo, 'package-lock.json'), '{}\n')
  git('add', '.')
  git('commit', '-qm', 'one')
})
afterAll(() => rmSync(repo, {recursive: true, force: true}))

describe('gitState', () => {
  it('names the commit; a change to a tracked file is dirty, a new file or a rewritten lock file is not', () => {
    const head = git('rev-parse', 'HEAD')
    expect(gitState(repo)).toEqual({commit: head, dirty: false})
    writeFileSync(join(repo, 'new.ts'), 'export const n = 1\n')
    writeFileSync(join(repo, 'package-lock.json'), '{"lockfileVersion": 3}\n')
    expect(gitState(repo)).toEqual({commit: head, dirty: false})
    writeFileSync(join(repo, 'a.ts'), 'export const a = 2\n')
    expect(gitState(repo)).toEqual({commit: head, dirty: true})
    git('checkout', '--', 'a.ts', 'package-lock.json')
  })

  it('outside a git checkout: no commit', () => {
    const plain = mkdtempSync(join(tmpdir(), 'gw-build-info-plain-'))
    try {
      expect(gitState(plain)).toEqual({commit: null, dirty: false})
    } finally {
      rmSync(plain, {recursive: true, force: true})
    }
  })
})

describe('builtHere', () => {
  const dist = () => join(repo, 'dist')
  const stamp = (info: object) => {
    mkdirSync(dist(), {recursive: true})
    writeFileSync(join(dist(), 'build-info.json'), JSON.stringify({version: '0.1.0', ...info}))
  }

  it('a clean build of the commit checked out, in a clean tree: yes', () => {
    const now = gitState(repo)
    stamp({commit: now.commit, dirty: false})
    expect(builtHere(dist(), now)).toBe(true)
  })

  it('no build, a build of another commit, a build made with local changes, or local changes now: no', () => {
    const now = gitState(repo)
    rmSync(dist(), {recursive: true, force: true})
    expect(builtHere(dist(), now)).toBe(false)
    stamp({commit: '0'.repeat(40), dirty: false})
    expect(builtHere(dist(), now)).toBe(false)
    stamp({commit: now.commit, dirty: true})
    expect(builtHere(dist(), now)).toBe(false)
    stamp({commit: now.commit, dirty: false})
    expect(builtHere(dist(), {commit: now.commit, dirty: true})).toBe(false)
    // outside a checkout nothing says which code a build is of
    stamp({commit: null, dirty: false})
    expect(builtHere(dist(), {commit: null, dirty: false})).toBe(false)
  })
})
