// Build step: dist/build-info.json names the version and the commit the build was made from, so
// `gw --version` can say which code it runs (src/hooks/version.ts). A tree with changes to
// tracked files beside the commit is "dirty"; outside a git checkout the commit is null.
import {execFileSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** {commit, dirty} of the checkout at `dir`, or {commit: null, dirty: false} outside one. */
export function gitState(dir = root) {
  const git = (...args) => execFileSync('git', args, {cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']}).trim()
  try {
    const commit = git('rev-parse', 'HEAD')
    // npm rewrites the lock file on some installs; that is not a change to what is built
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!package-lock.json') !== ''
    return {commit, dirty}
  } catch {
    return {commit: null, dirty: false}
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const {version} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  writeFileSync(join(root, 'dist', 'build-info.json'), JSON.stringify({version, ...gitState()}, null, 2) + '\n')
}
