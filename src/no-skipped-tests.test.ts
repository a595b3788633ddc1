// No test is skipped on purpose (the developers' guide: no skipped tests, no stubs called done):
// no test file holds a skip, todo or only flag, a condition that runs a test only somewhere
// (skipIf, runIf), or a skip from inside a test. A test that needs something the machine lacks
// fails saying what; vitest's "skipped" count is then only the tests of a hook that failed, which
// the slowest-files reporter names (test/support/slowest-reporter.ts).
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')
const DIRS = ['src', 'test', 'examples/shop/src', 'examples/shop/test', 'packages', 'bench']

function testFiles(dir: string): string[] {
  let entries
  try {
    entries = readdirSync(dir, {withFileTypes: true})
  } catch {
    return []
  }
  return entries.flatMap((e) =>
    e.name === 'node_modules' || e.name === 'dist' ? [] : e.isDirectory() ? testFiles(join(dir, e.name)) : /\.test\.(ts|tsx|js|mjs)$/.test(e.name) ? [join(dir, e.name)] : [],
  )
}

const FLAGS = ['skip', 'todo', 'only', 'skipIf', 'runIf', 'fails']
/** `it.skip(`, `describe.only(`, `test.skipIf(…)(`, `it.concurrent.todo(` and the like; `ctx.skip()`, `context.skip(…)` */
const FLAGGED = new RegExp(`\\b(?:it|test|describe|suite|bench)(?:\\.\\w+)*\\.(?:${FLAGS.join('|')})\\s*\\(|\\b(?:ctx|context|t)\\.skip\\s*\\(`)

/** The lines of a source text that skip a test on purpose. */
function flagged(text: string): string[] {
  return text.split('\n').filter((line) => FLAGGED.test(line.replace(/\/\/.*$/, '')))
}

describe('no test is skipped on purpose', () => {
  it('the check finds each way of skipping and nothing else', () => {
    const ways = ['it.skip("a", () => {})', "describe.only('b', () => {})", 'test.skipIf(!ci)("c", f)', 'it.concurrent.todo("d")', 'describe.runIf(x)("e", f)', 'it.fails("f", f)', 'ctx.skip()', "context.skip('no chromium')"]
    for (const w of ways) expect(flagged(w), w).toEqual([w])
    const fine = ['it("skips nothing", () => {})', "expect(r.body.skipped).toEqual({})", "run(['--skip-key-check'])", '// it.skip would be refused', 'feed.skipRestored()']
    for (const f of fine) expect(flagged(f), f).toEqual([])
  })

  it('no test file under src/, test/, examples/shop/, packages/ or bench/ has one', () => {
    const self = resolve(import.meta.filename)
    const files = DIRS.flatMap((d) => testFiles(join(ROOT, d))).filter((f) => f !== self)
    expect(files.length).toBeGreaterThan(200)
    const found = files.flatMap((f) => flagged(readFileSync(f, 'utf8')).map((line) => `${relative(ROOT, f)}: ${line.trim()}`))
    expect(found).toEqual([])
  })
})
