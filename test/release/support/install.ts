// The README's install commands, for the release tier's install tests; the installing itself is
// bench/install-lib.js's (shared with `BENCH_ONLY=packages`).
import {readFileSync, rmSync} from 'node:fs'
// @ts-expect-error plain ESM of the bench, no types
import {tempDir} from '../../../bench/install-lib.js'
import {join, resolve} from 'node:path'

const REPO = resolve(import.meta.dirname, '..', '..', '..')

/** Every command line of the README's "## Install" section's sh blocks and every `npm install` elsewhere. */
export function readmeInstall(): {section: string[]; everywhere: string[]} {
  const text = readFileSync(join(REPO, 'README.md'), 'utf8')
  const start = text.indexOf('\n## Install\n')
  if (start < 0) throw new Error('README.md has no "## Install" section')
  const end = text.indexOf('\n## ', start + 1)
  const commands = (s: string) =>
    [...s.matchAll(/```(?:sh|yaml)\n([\s\S]*?)```/g)]
      .flatMap((m) => m[1]!.split('\n'))
      .map((l) => l.replace(/^\s*-?\s*run:\s*/, '').replace(/\s+#.*$/, '').trim())
      .filter((l) => l && !l.startsWith('#'))
  return {section: commands(text.slice(start, end)), everywhere: commands(text).filter((l) => /^npm (install|i|ci)\b/.test(l))}
}

/** The one README line that matches, or a failure naming what is missing. */
export function readmeLine(lines: string[], pattern: RegExp, what: string): string {
  const found = lines.filter((l) => pattern.test(l))
  if (found.length !== 1) throw new Error(`README.md's Install section should have one command that ${what} (${pattern}); it has ${found.length}: ${found.join(' | ')}`)
  return found[0]!
}


/** Temporary dirs a test file makes (`temp(prefix)`), all removed by `removeAll()` (its afterAll). */
export function tempDirs(): {temp: (prefix: string) => string; keep: (dir: string) => void; removeAll: () => void} {
  const dirs: string[] = []
  return {
    temp: (prefix) => {
      const d = tempDir(prefix) as string
      dirs.push(d)
      return d
    },
    keep: (dir) => void dirs.push(dir),
    removeAll: () => {
      for (const d of dirs) rmSync(d, {recursive: true, force: true})
    },
  }
}
