// The build's last step for the SDK and @gw/testing: each package's dist/ is the part of gw's dist/
// that its entry reaches, copied. Both are parts of src/ with gw's compiler options, and a module is
// emitted alike whatever program compiles it: compiling each package on its own (a tsconfig naming
// only its entry) wrote these very files byte for byte, for 8 and 22 s of CPU more, and some files
// more than its entry reaches (modules only types import, declarations no public type names),
// which a consumer never loads. The walk follows each module's and declaration file's
// relative imports and the module files its threads start (scripts/check-package.mjs, importsOf),
// which the package's prepack then checks against npm's own file list.
//
//   node scripts/package-dist.mjs sdk testing      (after scripts/emit.mjs and copy-threads have written dist/)
import {copyFileSync, existsSync, mkdirSync, readFileSync, rmSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {importsOf} from './check-package.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(root, 'dist')
const PACKAGES = {sdk: 'index', testing: 'testing'}

for (const name of process.argv.slice(2)) {
  const entry = PACKAGES[name]
  if (!entry) {
    process.stderr.write(`usage: node scripts/package-dist.mjs ${Object.keys(PACKAGES).join('|')} ...\n`)
    process.exit(2)
  }
  const out = join(root, 'packages', name, 'dist')
  rmSync(out, {recursive: true, force: true})
  const seen = new Set()
  const queue = [`${entry}.js`, `${entry}.d.ts`]
  while (queue.length) {
    const file = queue.shift()
    if (seen.has(file)) continue
    seen.add(file)
    if (!existsSync(join(dist, file))) {
      process.stderr.write(`package-dist: dist/${file}, which the ${name} package reaches, is not built\n`)
      process.exit(1)
    }
    mkdirSync(dirname(join(out, file)), {recursive: true})
    copyFileSync(join(dist, file), join(out, file))
    if (/\.(m?js|d\.ts)$/.test(file)) queue.push(...importsOf(file, readFileSync(join(dist, file), 'utf8')).files)
  }
  // gw's build-info.json: the same version and commit (written last, as each build does)
  copyFileSync(join(dist, 'build-info.json'), join(out, 'build-info.json'))
}
