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

try {
  if (builtHere()) process.stderr.write('gw: dist/ is built from this commit; checking it\n')
  else run('npm', ['run', '--silent', 'build'])
  run(process.execPath, [join(root, 'scripts', 'check-package.mjs'), root])
} catch (e) {
  process.exit(typeof e.status === 'number' && e.status !== 0 ? e.status : 1)
}
