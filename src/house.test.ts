// The house as the docs describe it (README, "Layout"; docs/architecture.md): every folder of the
// source and of the repository is named in the README's Layout, and no source file grows past
// ~500 lines (split by concern: docs/architecture.md, "The engine").
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'
import {sourceFiles} from './base/test-support/command-files.js'

const ROOT = resolve(import.meta.dirname, '..')
const MAX_LINES = 500

const dirs = (dir: string) =>
  readdirSync(join(ROOT, dir), {withFileTypes: true})
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules' && e.name !== 'dist' && e.name !== 'out' && e.name !== 'coverage')
    .map((e) => e.name)

/** The README's Layout block. */
const layout = (): string => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const at = readme.indexOf('\n## Layout\n')
  expect(at, 'README has a "## Layout" section').toBeGreaterThan(0)
  const block = readme.slice(at).match(/```\n([\s\S]*?)```/)
  expect(block, "README's Layout has its tree in a code block").not.toBeNull()
  return block![1]!
}

describe("the README's Layout", () => {
  const text = layout()
  const named = (folder: string) => text.includes(`${folder}/`)

  it("names every folder of the repository a clone has, of src/ and of src/engine/", () => {
    const tracked = ['bench', 'bin', 'docs', 'examples', 'fixtures', 'packages', 'scripts', 'src', 'test']
    expect(dirs('.').filter((d) => tracked.includes(d)).sort()).toEqual(tracked.sort())
    const missing = [
      ...tracked.filter((d) => !named(d)),
      ...dirs('src').filter((d) => !named(`src/${d}`) && !(d === 'test-support' && named('<dir>/test-support'))),
      // (the engine's folders are listed under src/engine/, indented)
      ...dirs('src/engine').filter((d) => !new RegExp(`^ +${d}/`, 'm').test(text) && !(d === 'test-support' && named('<dir>/test-support'))),
    ]
    expect(missing).toEqual([])
  })

  it('names every file directly under src/', () => {
    const files = readdirSync(join(ROOT, 'src')).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    expect(files.filter((f) => !text.includes(`src/${f}`))).toEqual([])
  })
})

describe('source files', () => {
  it(`none is over ${MAX_LINES} lines (the generated contract aside)`, () => {
    const long = sourceFiles(join(ROOT, 'src'))
      .filter((f) => !f.endsWith('contract.gen.ts'))
      .map((f) => ({f: relative(ROOT, f), lines: readFileSync(f, 'utf8').split('\n').length - 1}))
      .filter((x) => x.lines > MAX_LINES)
      .map((x) => `${x.f}: ${x.lines} lines`)
    expect(long).toEqual([])
  })
})
