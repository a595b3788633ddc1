// Installing gw's packages as their users do, for the release tier's install tests
// (test/release/packages-install.test.ts) and `BENCH_ONLY=packages` (bench/packages.js): commands
// run as a user runs them (a shell, a throwaway npm cache, the repository nowhere on PATH or
// NODE_PATH, a working directory outside it), and the prebuilt native modules a fresh install uses.
import {spawn, spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {delimiter, join, resolve} from 'node:path'

export const REPO = resolve(import.meta.dirname, '..')
export const VERSION = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version

/**
 * The environment of a user's shell: the test's own, less what would reach into the repository
 * (its node_modules/.bin on PATH, NODE_PATH, NODE_OPTIONS, the npm_* variables `npm test` sets),
 * with a throwaway npm cache and the prebuilt native modules (see prebuilds()).
 */
export function userEnv(extra = {}) {
  const env = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_/i.test(k) || k === 'NODE_PATH' || k === 'NODE_OPTIONS' || k === 'INIT_CWD' || k.startsWith('VITEST') || k === 'TEST') continue
    env[k] = v
  }
  env.PATH = (process.env.PATH ?? '').split(delimiter).filter((p) => p && !resolve(p).startsWith(REPO)).join(delimiter)
  return {...env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra}
}

/**
 * `sh -c cmd` (or opts.shell), as a user types it; resolves with {status, stdout, stderr, ms} (never rejects).
 * @param {string} cmd
 * @param {{cwd: string, env: NodeJS.ProcessEnv, timeout?: number, shell?: string}} opts
 */
export function sh(cmd, opts) {
  const started = performance.now()
  return new Promise((done) => {
    const child = spawn(opts.shell ?? 'sh', ['-c', cmd], {cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeout ?? 600_000)
    child.on('close', (status) => {
      clearTimeout(timer)
      done({status, stdout, stderr, ms: Math.round(performance.now() - started)})
    })
  })
}

/** Throws with the command's output unless it exited 0. */
export function ok(r, what) {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`)
  return r
}

/** A new directory named `prefix` + a random suffix, in `base` (the system's temp dir by default). */
export function tempDir(prefix, base = tmpdir()) {
  return mkdtempSync(join(base, prefix))
}

/**
 * Prebuilt binaries of the native modules (better-sqlite3, zstd-napi) in prebuild-install's layout,
 * made from the repository's own install of the same version. On a machine that reaches GitHub,
 * npm's install of these packages downloads such a prebuilt binary; here nothing outside the npm
 * registry is reachable, and without one every install compiles SQLite and zstd from source
 * (minutes of CPU per install). prebuild-install takes a local one by the package's
 * npm_config_<name>_local_prebuilds variable; an install that resolves another version finds none
 * and compiles, slower but the same.
 */
export function prebuilds() {
  const dir = tempDir('gw-prebuilds-')
  const env = {}
  const natives = [
    ['better-sqlite3', `node-v${process.versions.modules}`, 'build/Release/better_sqlite3.node'],
    // built against N-API (prebuild-install -r napi): one binary for every Node version
    ['zstd-napi', 'napi-v8', 'build/Release/binding.node'],
  ]
  for (const [name, abi, file] of natives) {
    const pkgDir = join(REPO, 'node_modules', name)
    const {version} = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'))
    const tarball = join(dir, `${name}-v${version}-${abi}-${process.platform}-${process.arch}.tar.gz`)
    const r = spawnSync('tar', ['czf', tarball, '-C', pkgDir, file])
    if (r.status !== 0) throw new Error(`could not pack ${name}'s binary: ${r.stderr}`)
    env[`npm_config_${name.replace(/[^a-zA-Z0-9]/g, '_')}_local_prebuilds`] = dir
  }
  return env
}

/** The packages a node_modules folder holds (scoped ones as @scope/name), nested ones included. */
export function installedPackages(nodeModules) {
  const out = []
  const walk = (nm) => {
    let names
    try {
      names = readdirSync(nm)
    } catch {
      return
    }
    for (const n of names) {
      if (n.startsWith('.')) continue
      const dirs = n.startsWith('@') ? readdirSync(join(nm, n)).map((m) => join(n, m)) : [n]
      for (const d of dirs) {
        out.push(d)
        walk(join(nm, d, 'node_modules'))
      }
    }
  }
  walk(nodeModules)
  return out
}

/** Bytes and files under a directory. */
export function diskUsage(dir) {
  let bytes = 0
  let files = 0
  for (const e of readdirSync(dir, {recursive: true, withFileTypes: true})) {
    if (!e.isFile()) continue
    files++
    bytes += statSync(join(e.parentPath ?? e.path, e.name)).size
  }
  return {bytes, files}
}

export function mkdirs(...dirs) {
  for (const d of dirs) mkdirSync(d, {recursive: true})
}
