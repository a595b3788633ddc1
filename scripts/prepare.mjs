// npm's prepare (the gw package): runs on `npm install <git url>` — npm clones the repository,
// installs its dependencies, runs prepare, and packs what `files` lists, so the build has to happen
// here (dist/ is not in git) — and on `npm install`/`npm ci` in a checkout. npm runs prepare twice
// for one git install (after installing the clone's dependencies, and again before packing it);
// the second finds dist/ built from this very commit with no local change, and only checks it.
// `npm pack` and `npm publish` run prepare too, after prepack, which has built and checked.
import {execFileSync} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {gitState} from './build-info.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const run = (cmd, args) => execFileSync(cmd, args, {cwd: root, stdio: 'inherit'})

function builtHere() {
  const file = join(root, 'dist', 'build-info.json')
  if (!existsSync(file) || !existsSync(join(root, 'oclif.manifest.json'))) return false
  const built = JSON.parse(readFileSync(file, 'utf8'))
  const now = gitState(root)
  return now.commit !== null && built.commit === now.commit && !built.dirty && !now.dirty
}

if (process.env.npm_command === 'pack' || process.env.npm_command === 'publish') process.exit(0)
// the install that installBuildTools() starts runs this script again: it has nothing to do
if (process.env.GW_PREPARE_NESTED === '1') process.exit(0)

/**
 * `npm install -g <git url>` runs prepare in the clone without installing its dependencies (npm
 * passes its global setting on to the install it runs in the clone: an open npm bug), so the build
 * finds no tsc. Then the clone's dependencies are installed here first, from its lock file, as a
 * local install.
 */
function installBuildTools() {
  if (existsSync(join(root, 'node_modules', '.bin', 'tsc'))) return
  process.stderr.write('gw: the build tools are not installed in this clone; installing them (npm ci)\n')
  const env = {...process.env, GW_PREPARE_NESTED: '1'}
  for (const k of Object.keys(env)) if (/^npm_config_(global|location|prefix)$/i.test(k)) delete env[k]
  execFileSync('npm', ['ci', '--include=dev', '--no-audit', '--no-fund', `--prefix=${root}`], {cwd: root, stdio: 'inherit', env})
}

try {
  installBuildTools()
  if (builtHere()) process.stderr.write('gw: dist/ is built from this commit; checking it\n')
  else run('npm', ['run', '--silent', 'build'])
  run(process.execPath, [join(root, 'scripts', 'check-package.mjs'), root])
} catch (e) {
  process.exit(typeof e.status === 'number' && e.status !== 0 ? e.status : 1)
}
