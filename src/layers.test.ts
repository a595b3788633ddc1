// The engine never imports the CLI's layers (docs/decisions.md#one-contract-and-the-layers): from every file under
// src/engine/, the import graph (static, dynamic and type-only imports, re-exports), followed
// through whatever it reaches outside the engine (src/api/, src/local-engine.ts, ...), never
// arrives at src/output/, src/base/, src/ui/, src/commands/ or src/console/ (the console, an
// application of the CLI's). A shared module such as src/api/money.ts is where both sides meet.
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import ts from 'typescript'
import {expect, it} from 'vitest'

const SRC = resolve(import.meta.dirname)
const CLI_LAYERS = ['output', 'base', 'ui', 'commands', 'console'].map((d) => join(SRC, d) + '/')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  )
}

/** The source file a relative specifier names ('./x.js' is x.ts or x.tsx); undefined for packages. */
function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined
  const base = resolve(dirname(from), spec).replace(/\.(m?js|jsx)$/, '')
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((f) => existsSync(f))
}

function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
  return info.importedFiles.map((f) => resolveSpecifier(file, f.fileName)).filter((f): f is string => f !== undefined)
}

/**
 * Walks the import graph from `roots` (breadth first, each module once, remembering who imported
 * it): the chains that arrive in one of the `forbidden` folders, named file by file; and every
 * module the walk saw.
 */
function forbiddenChains(roots: string[], forbidden: string[]): {chains: string[]; seen: string[]} {
  const via = new Map<string, string | null>(roots.map((f) => [f, null]))
  const queue = [...roots]
  const reached: string[] = []
  while (queue.length) {
    const file = queue.shift()!
    if (forbidden.some((d) => file.startsWith(d))) {
      reached.push(file)
      continue
    }
    for (const dep of importsOf(file)) {
      if (via.has(dep)) continue
      via.set(dep, file)
      queue.push(dep)
    }
  }
  const chain = (file: string) => {
    const steps = [file]
    for (let f = via.get(file); f; f = via.get(f)) steps.unshift(f)
    return steps.map((f) => relative(SRC, f)).join(' -> ')
  }
  return {chains: reached.map(chain), seen: [...via.keys()]}
}

it('nothing under src/engine/ reaches src/output/, src/base/, src/ui/, src/commands/ or src/console/ through its imports', () => {
  const roots = sourceFiles(join(SRC, 'engine'))
  expect(roots.length).toBeGreaterThan(100)
  const {chains, seen} = forbiddenChains(roots, CLI_LAYERS)
  expect(chains).toEqual([])
  // the walk does leave the engine (src/api/ is shared): the test sees imports it must follow
  expect(seen.some((f) => f.startsWith(join(SRC, 'api') + '/'))).toBe(true)
})

/** The engine files a file imports for their values (an import or re-export that is not `type` only): what runs when it loads. */
function valueImportsOf(file: string): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const out: string[] = []
  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s)) {
      const c = s.importClause
      if (c?.isTypeOnly) continue
      const b = c?.namedBindings
      // `import {type A, type B}`: nothing of it is loaded for its value
      if (c && !c.name && b && ts.isNamedImports(b) && b.elements.length > 0 && b.elements.every((e) => e.isTypeOnly)) continue
      const dep = resolveSpecifier(file, (s.moduleSpecifier as ts.StringLiteral).text)
      if (dep) out.push(dep)
    } else if (ts.isExportDeclaration(s) && s.moduleSpecifier && !s.isTypeOnly) {
      const dep = resolveSpecifier(file, (s.moduleSpecifier as ts.StringLiteral).text)
      if (dep) out.push(dep)
    }
  }
  return out
}

it('no import circle with values inside src/engine/: a use case reacts to another through the core (core/reactions.ts), never by importing it back', () => {
  const files = sourceFiles(join(SRC, 'engine')).filter((f) => !/\.test\.tsx?$/.test(f) && !f.includes('/test-support/'))
  const graph = new Map(files.map((f) => [f, valueImportsOf(f).filter((d) => d.startsWith(join(SRC, 'engine') + '/'))]))
  // depth first; a back edge closes a circle, named from where it starts
  const circles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (f: string) => {
    state.set(f, 'open')
    path.push(f)
    for (const d of graph.get(f) ?? []) {
      if (state.get(d) === 'open') circles.push([...path.slice(path.indexOf(d)), d].map((x) => relative(SRC, x)).join(' -> '))
      else if (!state.has(d)) visit(d)
    }
    path.pop()
    state.set(f, 'done')
  }
  for (const f of files) if (!state.has(f)) visit(f)
  expect(circles).toEqual([])
  // the walk sees the engine's value imports (an import it could not parse would pass as none)
  expect([...graph.values()].reduce((n, ds) => n + ds.length, 0)).toBeGreaterThan(200)
})

it('the core (src/engine/core/) imports no use case (src/engine/app/) for its values: use cases run on the core, never the other way', () => {
  const core = join(SRC, 'engine', 'core') + '/'
  const app = join(SRC, 'engine', 'app') + '/'
  const files = sourceFiles(core).filter((f) => !/\.test\.tsx?$/.test(f))
  expect(files.length).toBeGreaterThan(10)
  const reaching = files.flatMap((f) => valueImportsOf(f).filter((d) => d.startsWith(app)).map((d) => `${relative(SRC, f)} -> ${relative(SRC, d)}`))
  expect(reaching).toEqual([])
  // the check sees the core's value imports (e.g. core.ts -> unit.ts)
  expect(files.flatMap(valueImportsOf).some((d) => d.startsWith(core))).toBe(true)
})

// ---------------------------------------------------------------- the engine's layers (docs/architecture.md, "The engine")

const ENGINE = join(SRC, 'engine')
const inEngine = (...parts: string[]) => join(ENGINE, ...parts) + '/'
const isTest = (f: string) => /\.test\.tsx?$/.test(f)

/** Every import of a file, with whether it is for types only: `{specifier, file (resolved, for relative ones), typeOnly}`. */
function importDeclarations(file: string): {specifier: string; file: string | undefined; typeOnly: boolean}[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const out: {specifier: string; file: string | undefined; typeOnly: boolean}[] = []
  for (const s of sf.statements) {
    if (!(ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) || !s.moduleSpecifier) continue
    const specifier = (s.moduleSpecifier as ts.StringLiteral).text
    let typeOnly = false
    if (ts.isImportDeclaration(s)) {
      const c = s.importClause
      const b = c?.namedBindings
      typeOnly = Boolean(c?.isTypeOnly) || Boolean(c && !c.name && b && ts.isNamedImports(b) && b.elements.length > 0 && b.elements.every((e) => e.isTypeOnly))
    } else typeOnly = s.isTypeOnly
    out.push({specifier, file: resolveSpecifier(file, specifier), typeOnly})
  }
  return out
}

/** Packages the domain may use: computations on values, no I/O (node:net for BlockList and isIP only: address arithmetic, no socket). */
const PURE_PACKAGES = new Set(['card-validator', 'card-validator/dist/luhn-10.js', 'ipaddr.js', 'csv-stringify/sync', 'node:net'])

it('the domain (src/engine/domain/) is pure: it imports only the domain, the contract (src/api/) and computations, ports for their types; it reads no clock and draws no randomness', () => {
  const files = sourceFiles(inEngine('domain')).filter((f) => !isTest(f))
  expect(files.length).toBeGreaterThan(10)
  const offenders: string[] = []
  for (const f of files) {
    for (const i of importDeclarations(f)) {
      const ok = i.file
        ? i.file.startsWith(inEngine('domain')) || i.file.startsWith(join(SRC, 'api') + '/') || i.file === join(SRC, 'suggest.ts') || (i.typeOnly && i.file.startsWith(inEngine('ports')))
        : PURE_PACKAGES.has(i.specifier)
      if (!ok) offenders.push(`${relative(SRC, f)} imports ${i.specifier}`)
    }
    // the clock is passed in (ports/clock.ts) and randomness comes from outside (app/, adapters/)
    const text = readFileSync(f, 'utf8')
    for (const m of text.matchAll(/Date\.now\(|new Date\(\)|Math\.random|\bprocess\.|randomBytes|randomUUID/g)) offenders.push(`${relative(SRC, f)} uses ${m[0]}`)
  }
  expect(offenders).toEqual([])
})

it('nothing below the edge (domain, ports, core, app, store, adapters, providers) reaches src/engine/http/ or the hosted pages through its imports', () => {
  const below = ['domain', 'ports', 'core', 'app', 'store', 'adapters', 'providers'].map((d) => inEngine(d))
  const edge = [inEngine('http'), inEngine('checkout')]
  const roots = below.flatMap((d) => sourceFiles(d)).filter((f) => !isTest(f) && !f.includes('/contract/'))
  expect(roots.length).toBeGreaterThan(100)
  expect(forbiddenChains(roots, edge).chains).toEqual([])
})

it('the ports (src/engine/ports/) hold no logic: types, interfaces, constant tables and the errors a port throws, no function', () => {
  const files = sourceFiles(inEngine('ports'))
  expect(files.length).toBeGreaterThan(5)
  const offenders: string[] = []
  for (const f of files) {
    const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
    const visit = (n: ts.Node): void => {
      // an error class a port throws (VersionConflictError) is part of its contract
      if (ts.isClassDeclaration(n) && n.heritageClauses?.some((h) => h.types.some((t) => /Error$/.test(t.expression.getText(sf))))) return
      if (ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isArrowFunction(n) || ts.isMethodDeclaration(n) || ts.isClassDeclaration(n) || ts.isGetAccessor(n) || ts.isSetAccessor(n)) {
        const {line} = sf.getLineAndCharacterOfPosition(n.getStart(sf))
        offenders.push(`${relative(SRC, f)}:${line + 1} ${n.getText(sf).split('\n')[0]!.slice(0, 80)}`)
        return
      }
      ts.forEachChild(n, visit)
    }
    visit(sf)
  }
  expect(offenders).toEqual([])
})

it("src/testing.ts (the package @gw/testing) reaches, through every import, only packages that packages/testing/package.json depends on or that the engine's bundle holds: the engine's, none of the CLI's", async () => {
  // the engine's bundle (scripts/bundle.mjs) holds every package its modules import but the native
  // ones and those it lists as external; the package ships the bundle, not those packages
  // @ts-expect-error plain ESM of the build scripts, no types
  const {GROUPS, NATIVE} = (await import('../scripts/bundle-groups.mjs')) as {GROUPS: {name: string; external: string[]}[]; NATIVE: string[]}
  const engineExternal = [...NATIVE, ...GROUPS.find((g) => g.name === 'engine')!.external]
  // the modules testing.ts reaches without entering the engine: files of the package, as are their packages
  const outside = new Set([join(SRC, 'testing.ts')])
  for (const queue = [...outside]; queue.length; ) {
    const file = queue.shift()!
    for (const {fileName: spec} of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const dep = resolveSpecifier(file, spec)
      if (dep && !dep.startsWith(join(SRC, 'engine')) && !outside.has(dep)) {
        outside.add(dep)
        queue.push(dep)
      }
    }
  }
  const inBundle = (name: string, files: string[]) => files.every((f) => !outside.has(join(SRC, f))) && !engineExternal.includes(name)
  const pkg = JSON.parse(readFileSync(join(SRC, '..', 'packages', 'testing', 'package.json'), 'utf8')) as {dependencies: Record<string, string>}
  const deps = Object.keys(pkg.dependencies)
  const cliOnly = ['@oclif/core', '@oclif/plugin-autocomplete', 'ink', 'ink-text-input', 'react', 'cli-table3', '@napi-rs/keyring', 'chalk']
  expect(deps.filter((d) => cliOnly.includes(d))).toEqual([])
  const seen = new Set([join(SRC, 'testing.ts')])
  const queue = [...seen]
  const packages = new Map<string, string[]>() // package -> the files importing it
  while (queue.length) {
    const file = queue.shift()!
    for (const {fileName: spec} of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const dep = resolveSpecifier(file, spec)
      if (dep && !seen.has(dep)) {
        seen.add(dep)
        queue.push(dep)
      } else if (!dep && !spec.startsWith('.') && !spec.startsWith('node:')) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!
        packages.set(name, [...(packages.get(name) ?? []), relative(SRC, file)])
      }
    }
  }
  expect([...packages].filter(([name, files]) => !deps.includes(name) && !inBundle(name, files)).map(([name, files]) => `${files[0]} imports ${name}`)).toEqual([])
  // of the CLI's layers, only the duration parser (src/base/parse.ts, which imports errors.ts alone)
  expect([...seen].filter((f) => CLI_LAYERS.some((d) => f.startsWith(d)) && !f.endsWith('/base/parse.ts')).map((f) => relative(SRC, f))).toEqual([])
  // the walk reaches the engine and its packages (a graph it could not follow would pass as empty)
  expect(seen.size).toBeGreaterThan(150)
  expect([...packages.keys()]).toEqual(expect.arrayContaining(['better-sqlite3', 'undici', 'ajv']))
})
