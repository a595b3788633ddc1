// What a topic shares stays with the topic (docs/architecture.md, "The CLI"): a topic's own code
// lives in src/commands/<topic>/shared/ (the root commands' in src/commands/shared/), which
// oclif's command discovery skips (package.json oclif.commands.globPatterns, "!**/shared/**").
// The manifest the build ships lists exactly the command files (test/release/build-outputs.test.ts).
import {readFileSync} from 'node:fs'
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
})
