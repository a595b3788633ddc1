// npm's prepare (the gw package): runs on `npm install <git url>` — npm clones the repository,
// installs its dependencies, runs prepare, and packs what `files` lists, so the build has to happen
// here (dist/ is not in git) — and on `npm install`/`npm ci` in a checkout. npm runs prepare twice
// for one git install (after installing the clone's dependencies, and again before packing it);
// the second finds dist/ built from this very commit with no local change, and only checks it.
// `npm pack` and `npm publish` run prepare too, after prepack, which has built and checked.
import {execFileSync} from 'node:child_process'
import {cpSync, existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
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
// the install that buildInCopy() runs in its copy runs this script again: it has nothing to do
if (process.env.GW_PREPARE_NESTED === '1') process.exit(0)

/**
 * `npm install -g <git url>` runs prepare in the clone without its dev dependencies: npm passes its
 * global setting on to the install it runs there (an open npm bug), which links the clone as a
 * global package and installs only the production dependencies into it — while it may still be
 * writing them, so this does not touch the clone's node_modules. The build then happens in a copy
 * of the commit with every dependency installed from the lock file, and dist/ and the manifest come
 * back into the clone.
 */
function buildInCopy() {
  process.stderr.write('gw: the build tools are not installed in this clone (a global git install); building in a copy\n')
  const copy = mkdtempSync(join(tmpdir(), 'gw-prepare-'))
  const env = {...process.env, GW_PREPARE_NESTED: '1'}
  for (const k of Object.keys(env)) if (/^npm_config_(global|location|prefix)$/i.test(k)) delete env[k]
  const inCopy = (cmd, args) => execFileSync(cmd, args, {cwd: copy, stdio: ['ignore', 'inherit', 'inherit'], env})
  try {
    execFileSync('sh', ['-c', `git archive --format=tar HEAD | tar -x -C '${copy}'`], {cwd: root, stdio: ['ignore', 'inherit', 'inherit']})
    inCopy('npm', ['ci', '--include=dev', '--no-audit', '--no-fund'])
    inCopy('npm', ['run', '--silent', 'build'])
    rmSync(join(root, 'dist'), {recursive: true, force: true})
    cpSync(join(copy, 'dist'), join(root, 'dist'), {recursive: true})
    cpSync(join(copy, 'oclif.manifest.json'), join(root, 'oclif.manifest.json'))
    // the copy has no git: the build's version and commit are the clone's
    run(process.execPath, [join(root, 'scripts', 'build-info.mjs')])
  } finally {
    rmSync(copy, {recursive: true, force: true})
  }
}

try {
  if (builtHere()) process.stderr.write('gw: dist/ is built from this commit; checking it\n')
  else if (!existsSync(join(root, 'node_modules', '.bin', 'tsc'))) buildInCopy()
  else run('npm', ['run', '--silent', 'build'])
  run(process.execPath, [join(root, 'scripts', 'check-package.mjs'), root])
} catch (e) {
  process.exit(typeof e.status === 'number' && e.status !== 0 ? e.status : 1)
}
