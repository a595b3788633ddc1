// The package's types as a merchant's TypeScript project sees them: test/fixtures/sdk-types.ts,
// checked by tsc in a project that depends on the built package (its .d.ts files, through the
// package's "exports"); and what `npm pack` ships: no source map that points at a file it leaves out,
// and dependencies that are exactly the packages its files import.
import {execFileSync, spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {dirname, join, normalize} from 'node:path'
import {afterAll, beforeAll, expect, it} from 'vitest'
import {gwProject, REPO} from '../support/gw-project.js'
// @ts-expect-error plain ESM of the build scripts, no types
import {checkPackage} from '../../scripts/check-package.mjs'

let project: ReturnType<typeof gwProject>
let shipped: Set<string> // the files `npm pack` would ship, read once (beforeAll) for the tests below

beforeAll(() => {
  const tsconfig = {compilerOptions: {target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(REPO, 'node_modules', '@types')]}, files: ['types.ts']}
  project = gwProject('gw-types-project-', {files: {'tsconfig.json': JSON.stringify(tsconfig), 'types.ts': readFileSync(join(REPO, 'test', 'fixtures', 'sdk-types.ts'), 'utf8')}})
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {cwd: REPO, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024})) as {files: {path: string}[]}[]
  shipped = new Set(packed[0]!.files.map((f) => f.path))
}, 60_000)

afterAll(() => project?.remove())


it('narrows events by type, types ApiError (decline_code, an open union of codes), Currency, PostOpts and TestGateway as a merchant imports them', () => {
  const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project.dir], {encoding: 'utf8', timeout: 120_000})
  expect(tsc.stdout + tsc.stderr).toBe('')
  expect(tsc.status).toBe(0)
}, 150_000)

it('ships no source map that points at a file the package leaves out', () => {
  const dangling: string[] = []
  for (const path of shipped) {
    if (path.endsWith('.map')) {
      const map = JSON.parse(readFileSync(join(REPO, path), 'utf8')) as {sources: string[]; sourcesContent?: (string | null)[]; sourceRoot?: string}
      map.sources.forEach((s, i) => {
        const at = normalize(join(dirname(path), map.sourceRoot ?? '', s))
        if (!shipped.has(at) && typeof map.sourcesContent?.[i] !== 'string') dangling.push(`${path} -> ${at}`)
      })
    }
    // a sourceMappingURL comment names a map that must be shipped too
    if (path.endsWith('.js')) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(REPO, path), 'utf8'))?.[1]
      if (url && !url.startsWith('data:') && !shipped.has(normalize(join(dirname(path), url)))) dangling.push(`${path} -> ${url}`)
    }
  }
  expect(dangling.slice(0, 5)).toEqual([])
})

it("lists in dependencies exactly the packages its shipped files import: none that only its bundles hold, which a user's install would fetch for nothing (docs/decisions.md#a-package-lists-what-it-imports)", () => {
  const {problems, packages} = checkPackage(REPO, [...shipped]) as {problems: string[]; packages: string[]}
  expect(problems).toEqual([])
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {dependencies: Record<string, string>}
  expect(Object.keys(pkg.dependencies).sort()).toEqual(packages.filter((p) => p !== 'gw').sort())
})
