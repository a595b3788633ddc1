// A merchant's project that depends on this repository's built package, as `npm install` of a
// `file:` dependency makes it (node_modules/gw is the package): for the tests that use `gw` and
// `gw/testing` through the package's "exports" only. Removed by `remove()`.
import {existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'

export const REPO = resolve(import.meta.dirname, '..', '..')

export function gwProject(prefix: string, extra: {files?: Record<string, string>} = {}): {dir: string; remove(): void} {
  if (!existsSync(join(REPO, 'dist', 'testing.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).')
  const dir = mkdtempSync(join(tmpdir(), prefix))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({name: 'shop', private: true, type: 'module', dependencies: {gw: 'file:' + REPO}}))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(REPO, join(dir, 'node_modules', 'gw'), 'dir')
  for (const [name, text] of Object.entries(extra.files ?? {})) writeFileSync(join(dir, name), text)
  return {dir, remove: () => rmSync(dir, {recursive: true, force: true})}
}
