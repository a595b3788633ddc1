// What `npm install` does for the shop's `"gw": "file:../.."` dependency: node_modules/gw is the
// package at the repository root (built by `npm run build`, which `npm test` runs first). Imports
// then go through the package's "exports" map, as in a merchant's project.
import {existsSync, mkdirSync, symlinkSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'

export default function linkPackage(): void {
  const shop = resolve(import.meta.dirname, '..')
  const link = join(shop, 'node_modules', 'gw')
  if (!existsSync(join(shop, '..', '..', 'dist', 'testing.js'))) throw new Error('dist/ is missing: run `npm run build` first (`npm test` does).')
  if (existsSync(link)) return
  mkdirSync(dirname(link), {recursive: true})
  symlinkSync(join('..', '..', '..'), link, 'dir')
}
