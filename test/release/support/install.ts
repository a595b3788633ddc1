// The README's install commands, for the release tier's install tests; the installing itself is
// bench/install-lib.js's (shared with `BENCH_ONLY=packages`).
import {readFileSync, rmSync, statfsSync} from 'node:fs'
import {tmpdir} from 'node:os'
// @ts-expect-error plain ESM of the bench, no types
import {tempDir} from '../../../bench/install-lib.js'
import {join, resolve} from 'node:path'

const REPO = resolve(import.meta.dirname, '..', '..', '..')

/**
 * Where the install tests' throwaway directories go (prefixes, projects, npm caches, and so npm's git
 * clone, which it makes in its cache): a file system in memory (Linux's /dev/shm) when it has room
 * for them, else the system's temp dir; GW_TEST_SCRATCH=DIR chooses. An install writes tens of
 * thousands of small files, which on a disk cost the kernel more CPU than npm spends in itself
 * (measured on this project's 2-core machine, ext4: `npm install -g` of gw took 14-16 CPU-s of system
 * time there, 3-3.5 in /dev/shm, the same 10-14 s of npm's own). What is installed and how is the
 * same on either; a container's small /dev/shm (64 MiB by default) has no room, so the temp dir.
 */
export const SCRATCH: string = (() => {
  if (process.env.GW_TEST_SCRATCH) return process.env.GW_TEST_SCRATCH
  const TMPFS = 0x01021994
  try {
    const fs = statfsSync('/dev/shm')
    // the two install files side by side hold about 1 GiB at their peak (a clone with its dev dependencies)
    if (fs.type === TMPFS && fs.bavail * fs.bsize >= 3 * 2 ** 30) return '/dev/shm'
  } catch {
    // no /dev/shm (macOS, Windows)
  }
  return tmpdir()
})()

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


/** Temporary dirs a test file makes (`temp(prefix)`, in SCRATCH), all removed by `removeAll()` (its afterAll). */
export function tempDirs(): {temp: (prefix: string) => string; keep: (dir: string) => void; removeAll: () => void} {
  const dirs: string[] = []
  return {
    temp: (prefix) => {
      const d = tempDir(prefix, SCRATCH) as string
      dirs.push(d)
      return d
    },
    keep: (dir) => void dirs.push(dir),
    removeAll: () => {
      for (const d of dirs) rmSync(d, {recursive: true, force: true})
    },
  }
}
