// The engine never imports the CLI's layers (guide rule 8, issue 35 item 4): from every file under
// src/engine/, the import graph (static, dynamic and type-only imports, re-exports), followed
// through whatever it reaches outside the engine (src/api/, src/local-engine.ts, ...), never
// arrives at src/output/, src/base/, src/ui/ or src/commands/. A shared module such as
// src/api/money.ts is where both sides meet.
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import ts from 'typescript'
import {expect, it} from 'vitest'

const SRC = resolve(import.meta.dirname)
const CLI_LAYERS = ['output', 'base', 'ui', 'commands'].map((d) => join(SRC, d) + '/')

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

it('nothing under src/engine/ reaches src/output/, src/base/, src/ui/ or src/commands/ through its imports', () => {
  const roots = sourceFiles(join(SRC, 'engine'))
  expect(roots.length).toBeGreaterThan(100)
  // breadth first, each module once, remembering who imported it (to name the chain)
  const via = new Map<string, string | null>(roots.map((f) => [f, null]))
  const queue = [...roots]
  const reached: string[] = []
  while (queue.length) {
    const file = queue.shift()!
    if (CLI_LAYERS.some((d) => file.startsWith(d))) {
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
  expect(reached.map(chain)).toEqual([])
  // the walk does leave the engine (src/api/ is shared): the test sees imports it must follow
  expect([...via.keys()].some((f) => f.startsWith(join(SRC, 'api') + '/'))).toBe(true)
})
