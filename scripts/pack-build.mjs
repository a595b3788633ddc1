// prepack of every package: build what the package ships, then check that it is complete
// (scripts/check-package.mjs) — `npm pack` in a fresh clone (after `npm ci`) packs a whole package
// or fails saying what is missing, never a package without its build. A package whose dist/ was
// built from the commit checked out now, with no local change then or since (its build-info.json,
// scripts/build-info.mjs), is not built again, only checked: `npm run pack` right after
// `npm run build` (or `npm test`) packs that build.
//
//   node scripts/pack-build.mjs gw|sdk|testing
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {builtHere} from './build-info.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const PACKAGES = {
  // the CLI with the engine: the whole build (it also writes packages/*/dist); the oclif manifest too
  gw: {dir: '.', dist: 'dist', build: 'build', also: ['oclif.manifest.json']},
  // the others are parts of that build (scripts/package-dist.mjs)
  sdk: {dir: 'packages/sdk', dist: 'packages/sdk/dist', build: 'build', also: []},
  testing: {dir: 'packages/testing', dist: 'packages/testing/dist', build: 'build', also: []},
}
const which = PACKAGES[process.argv[2]]
if (!which) {
  process.stderr.write(`usage: node scripts/pack-build.mjs ${Object.keys(PACKAGES).join('|')}\n`)
  process.exit(2)
}
// `npm run pack` runs the script named prepack first, as the pre-script of "pack": nothing to do
// then — the npm pack that scripts/pack.mjs starts for each package runs this for real
if (process.env.npm_command === 'run' || process.env.npm_command === 'run-script') process.exit(0)

const run = (cmd, args) => execFileSync(cmd, args, {cwd: root, stdio: 'inherit'})
try {
  if (builtHere(which.dist) && which.also.every((f) => existsSync(join(root, f)))) process.stderr.write(`${process.argv[2]}: ${which.dist}/ is built from this commit; checking it\n`)
  // (scripts/pack.mjs: gw's prepack, a moment ago, built this package's dist/ with gw's)
  else if (process.argv[2] !== 'gw' && process.env.GW_PACK_BUILT_WITH_GW === '1') process.stderr.write(`${process.argv[2]}: ${which.dist}/ was built with gw's by this pack; checking it\n`)
  else run('npm', ['run', '--silent', which.build])
  run(process.execPath, [join(root, 'scripts', 'check-package.mjs'), join(root, which.dir)])
} catch (e) {
  process.exit(typeof e.status === 'number' && e.status !== 0 ? e.status : 1)
}
