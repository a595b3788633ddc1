// The type check of `npm test` (release tier): the build only emits (scripts/emit.mjs), so this is
// where a type error in src/ or in a test fails the run. It is `npm run typecheck` — TypeScript 7's
// compiler (the devDependency typescript-7) over tsconfig.json, which covers src/ (tests too), test/
// and vitest.config.ts — run once, with a file of a throwaway directory added that holds a type
// error: the check must report that error, and only that one (the repository has none), and fail.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative, resolve} from 'node:path'
import {afterAll, expect, it} from 'vitest'

const REPO = resolve(import.meta.dirname, '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'gw-typecheck-'))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

/** The repository's TypeScript files a type error can hide in: src/ and test/ (declaration files aside). */
function sources(sub: string): string[] {
  return readdirSync(join(REPO, sub), {recursive: true, withFileTypes: true})
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(REPO, join(e.parentPath, e.name)))
}

it('npm run typecheck checks every file of src/ and test/, and a type error fails it', () => {
  const script = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {scripts: Record<string, string>}).scripts.typecheck
  const [node, tool, ...args] = script!.split(' ')
  expect([node, tool]).toEqual(['node', 'node_modules/typescript-7/bin/tsc'])
  expect(args).toEqual(['-p', 'tsconfig.json', '--noEmit'])
  const config = JSON.parse(readFileSync(join(REPO, 'tsconfig.json'), 'utf8')) as {include: string[]}
  // tsconfig.json with one file more, from outside the repository
  writeFileSync(join(dir, 'planted.ts'), "export const amount: number = '20.00'\n")
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: join(REPO, 'tsconfig.json'),
      compilerOptions: {noEmit: true, rootDir: '/', typeRoots: [join(REPO, 'node_modules', '@types')]},
      include: [...config.include.map((p) => join(REPO, p)), 'planted.ts'],
    }),
  )
  // (one thread: the suite's other files keep the machine's cores busy)
  const r = spawnSync(process.execPath, [join(REPO, tool!), ...args, '--singleThreaded', '--listFiles', '--pretty', 'false'], {cwd: dir, encoding: 'utf8', timeout: 240_000})
  const lines = `${r.stdout}${r.stderr}`.split('\n').filter(Boolean)
  const diagnostics = lines.filter((l) => !l.startsWith('/'))
  expect(diagnostics).toEqual(["planted.ts(1,14): error TS2322: Type 'string' is not assignable to type 'number'."])
  expect(r.status).not.toBe(0)
  const checked = new Set(lines.filter((l) => l.startsWith(`${REPO}/`)).map((l) => relative(REPO, l)))
  const all = [...sources('src'), ...sources('test')]
  expect(all.length).toBeGreaterThan(500)
  expect(all.filter((f) => !checked.has(f))).toEqual([])
}, 300_000)
