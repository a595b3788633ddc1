// What a topic shares stays with the topic (docs/architecture.md, "The CLI"): a topic's own code
// lives in src/commands/<topic>/shared/ (the root commands' in src/commands/shared/), which
// oclif's command discovery skips (package.json oclif.commands.globPatterns, "!**/shared/**").
// The manifest the build ships lists exactly the command files (test/release/build-outputs.test.ts).
// `gw console` is an application, not shared command code: it lives in src/console/, and only
// its command (src/commands/console.ts) reaches it; nothing of it sits under src/commands/.
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative, resolve, sep} from 'node:path'
import {describe, expect, it} from 'vitest'
import {COMMANDS, isShared, sourceFiles} from '../base/test-support/command-files.js'

const ROOT = resolve(import.meta.dirname, '../..')

describe('command discovery', () => {
  const all = sourceFiles()

  it('package.json keeps shared/ folders out of the commands', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    expect(pkg.oclif.commands).toMatchObject({strategy: 'pattern', target: './dist/commands'})
    expect(pkg.oclif.commands.globPatterns).toContain('!**/shared/**')
  })

  // that the built manifest lists exactly these files is a test of the build: test/release/build-outputs.test.ts
  it('there are shared/ folders (files the manifest must not list)', () => {
    expect(all.filter(isShared).length).toBeGreaterThan(0)
  })

  it('a command file imports no sibling command: what commands share sits in shared/', () => {
    const offenders = all
      .filter((f) => !isShared(f))
      .flatMap((f) => {
        const text = readFileSync(f, 'utf8')
        const specs = [...text.matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].map((m) => m[1]!)
        return specs
          .map((s) => resolve(join(f, '..'), s).replace(/\.js$/, '.ts'))
          .filter((target) => target.startsWith(COMMANDS + sep) && !isShared(target))
          .map((target) => `${relative(COMMANDS, f)} -> ${relative(COMMANDS, target)}`)
      })
    expect(offenders).toEqual([])
  })

  it('the console is its own folder (src/console/), imported by its one command and nothing else outside it', () => {
    const CONSOLE = join(ROOT, 'src', 'console')
    const everything = (dir: string): string[] =>
      readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? everything(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []))
    const outside = everything(join(ROOT, 'src')).filter((f) => !f.startsWith(CONSOLE + sep))
    const importers = outside.filter((f) =>
      [...readFileSync(f, 'utf8').matchAll(/(?:from|import\()\s*'(\.[^']+)'/g)].some((m) => resolve(join(f, '..'), m[1]!).startsWith(CONSOLE + sep)),
    )
    expect(importers.map((f) => relative(ROOT, f))).toEqual(['src/commands/console.ts'])
    expect(all.filter((f) => relative(COMMANDS, f).split(sep).includes('console') && f !== join(COMMANDS, 'console.ts'))).toEqual([])
  })
})
