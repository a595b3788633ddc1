// Build step: a package's dist/build-info.json names the version and the commit the build was made
// from, so `gw --version` can say which code it runs (src/hooks/version.ts), and so that packing
// (scripts/pack-build.mjs) and prepare (scripts/prepare.mjs) can tell a build of this very commit
// from an older one (builtHere). A tree with changes to tracked files beside the commit is
// "dirty"; outside a git checkout the commit is null. Each build writes it last: its presence says
// the build finished.
//
//   node scripts/build-info.mjs [dist dir]      (default: dist, the gw package's)
import {execFileSync} from 'node:child_process'
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** {commit, dirty} of the checkout at `dir`, or {commit: null, dirty: false} outside one. */
export function gitState(dir = root) {
  // (GIT_OPTIONAL_LOCKS=0: reading the state never writes the index, which another git may hold)
  const git = (...args) => execFileSync('git', args, {cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: {...process.env, GIT_OPTIONAL_LOCKS: '0'}}).trim()
  try {
    const commit = git('rev-parse', 'HEAD')
    // npm rewrites the lock file on some installs; that is not a change to what is built
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!package-lock.json') !== ''
    return {commit, dirty}
  } catch {
    return {commit: null, dirty: false}
  }
}

/**
 * Was the build in `distDir` (absolute, or relative to the repository) made from the commit checked
 * out now, with no local change then or now? Outside a git checkout: never (nothing tells).
 */
export function builtHere(distDir, now = gitState(root)) {
  const file = join(resolve(root, distDir), 'build-info.json')
  if (!existsSync(file) || now.commit === null) return false
  const built = JSON.parse(readFileSync(file, 'utf8'))
  return built.commit === now.commit && built.dirty === false && !now.dirty
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  writeFileSync(join(resolve(root, process.argv[2] ?? 'dist'), 'build-info.json'), JSON.stringify({version, ...gitState()}, null, 2) + '\n')
}
