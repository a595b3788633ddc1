// The lockfile names each download (docs/decisions.md#the-lockfile-names-each-download): every
// registry package in package-lock.json carries its tarball's address and checksum, so `npm ci`
// and an install from a git URL fetch tarballs without asking the registry for each package's
// versions first; the repository's .npmrc keeps npm writing the addresses.
import {readFileSync} from 'node:fs'
import {resolve} from 'node:path'
import {describe, expect, it} from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')

type Entry = {name?: string; version?: string; resolved?: string; integrity?: string; link?: boolean}

/** The lockfile's packages from the registry (not the root, links or local folders). */
function registryPackages(): [string, Entry][] {
  const lock = JSON.parse(readFileSync(resolve(ROOT, 'package-lock.json'), 'utf8')) as {packages: Record<string, Entry>}
  return Object.entries(lock.packages).filter(([path, e]) => path.includes('node_modules/') && !e.link && e.version !== undefined)
}

describe('package-lock.json', () => {
  it('gives every registry package its tarball address, matching its name and version, and its checksum', () => {
    const packages = registryPackages()
    expect(packages.length).toBeGreaterThan(100)
    const wrong = packages
      .filter(([path, e]) => {
        const name = e.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
        const file = `${name.split('/').pop()}-${e.version}.tgz`
        return e.resolved !== `https://registry.npmjs.org/${name}/-/${file}` || !/^sha512-/.test(e.integrity ?? '')
      })
      .map(([path, e]) => `${path}: resolved ${e.resolved ?? '(none)'}, integrity ${e.integrity ? 'present' : '(none)'}`)
    expect(wrong).toEqual([])
  })

  it('stays so: the repository .npmrc has npm write the addresses whatever the user config says', () => {
    const npmrc = readFileSync(resolve(ROOT, '.npmrc'), 'utf8')
    expect(npmrc.split('\n').map((l) => l.trim())).toContain('omit-lockfile-registry-resolved=false')
  })
})
