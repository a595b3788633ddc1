// The reporter `npm test` ends with (test/support/slowest-reporter.ts), run by a vitest of its own
// over two small files: the slowest files and each project's total, and every test vitest counts
// as skipped named with the hook whose failure skipped it.
import {execFile} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {promisify} from 'node:util'
import {afterAll, expect, it} from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')
// under the repository, so that the files find vitest in its node_modules
mkdirSync(join(ROOT, '.gw-test'), {recursive: true})
const dir = mkdtempSync(join(ROOT, '.gw-test', 'reporter-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

it('lists the slowest files, the totals, and each skipped test with the hook error that skipped it', async () => {
  writeFileSync(
    join(dir, 'a.test.ts'),
    `import {beforeAll, describe, expect, it} from 'vitest'
describe('needs a cluster', () => {
  beforeAll(() => { throw new Error('initdb: not found\\nmore') })
  it('one', () => expect(1).toBe(1))
  it('two', () => expect(1).toBe(1))
})
it('runs', () => expect(1).toBe(1))
`,
  )
  writeFileSync(join(dir, 'b.test.ts'), `import {beforeAll, expect, it} from 'vitest'\nbeforeAll(() => { throw new Error('no chromium') })\nit('three', () => expect(1).toBe(1))\n`)
  writeFileSync(join(dir, 'vitest.config.mjs'), `export default {test: {include: ['*.test.ts']}}\n`)
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'GW_TEST_CPU_LOG' && k !== 'GW_TEST_STORE_REACH'))
  const run = await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--reporter', join(ROOT, 'test/support/slowest-reporter.ts')], {
    cwd: dir,
    env: {...env, NO_COLOR: '1', GW_TEST_SLOWEST: '5'},
  }).then(
    () => {
      throw new Error('a run with failed hooks exited 0')
    },
    (e: {code: number; stdout: string}) => e,
  )
  expect(run.code).toBe(1)
  const out = run.stdout
  expect(out).toMatch(/Slowest 2 test files \(seconds: import \+ tests\)/)
  expect(out).toMatch(/\d+\.\d +a\.test\.ts \(3 tests\)/)
  expect(out).toMatch(/\d+\.\d +2 files/)
  expect(out).toContain('Skipped: 3 tests (their hook failed, above; none is skipped on purpose)')
  expect(out).toContain('a.test.ts > needs a cluster > one: suite "needs a cluster": initdb: not found\n')
  expect(out).toContain('a.test.ts > needs a cluster > two: suite "needs a cluster": initdb: not found\n')
  expect(out).toContain('b.test.ts > three: the file: no chromium\n')
  expect(out).not.toMatch(/> runs:/)
}, 60_000)
