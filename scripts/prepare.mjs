// npm's prepare (the gw package): runs on `npm install <git url>` — npm clones the repository,
// installs its dependencies, runs prepare, and packs what `files` lists, so the build has to happen
// here (dist/ is not in git) — and on `npm install`/`npm ci` in a checkout. npm runs prepare twice
// for one git install (after installing the clone's dependencies, and again before packing it);
// the second finds dist/ built from this very commit with no local change, and only checks it.
// `npm pack` and `npm publish` run prepare too, after prepack, which has built and checked.
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {builtHere} from './build-info.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const run = (cmd, args) => execFileSync(cmd, args, {cwd: root, stdio: 'inherit'})

if (process.env.npm_command === 'pack' || process.env.npm_command === 'publish') process.exit(0)

/**
 * `npm install -g <git url>` runs prepare in a clone that has none of its dev dependencies: npm passes
 * its global setting on to the install it runs in the clone (an open npm bug), which links the clone
 * as a global package with its production dependencies only. No build can work so; say what does.
 */
function noBuildTools() {
  process.stderr.write(
    '\ngw: cannot build here: the build tools (tsc, esbuild, oclif) are not installed in this checkout.\n' +
      '  npm does not install them for `npm install -g <git url>` (a global install from git).\n' +
      '  Install the CLI from a tarball instead: in a clone, `npm ci && npm run pack && npm install -g ./out/gw-<version>.tgz`,\n' +
      '  or as a project dependency from git: `npm install -D <git url>` (README.md, "Install").\n\n',
  )
  process.exit(1)
}

try {
  if (builtHere('dist') && existsSync(join(root, 'oclif.manifest.json'))) process.stderr.write('gw: dist/ is built from this commit; checking it\n')
  else if (!existsSync(join(root, 'node_modules', '.bin', 'tsc'))) noBuildTools()
  else run('npm', ['run', '--silent', 'build'])
  run(process.execPath, [join(root, 'scripts', 'check-package.mjs'), root])
} catch (e) {
  process.exit(typeof e.status === 'number' && e.status !== 0 ? e.status : 1)
}
