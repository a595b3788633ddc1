// Is a package complete? Run by every package's prepack (scripts/pack-build.mjs) and by the gw
// package's prepare (a git install), after the build and before npm packs: a package that would
// ship without something its entries need fails loudly here instead of installing broken.
//
//   node scripts/check-package.mjs [package dir]      (default: the repository root, the gw package)
//
// The file list is npm's own (`npm pack --dry-run`). From every entry (bin, exports, types, the oclif
// manifest's commands and hooks) the check follows each module's imports — static, dynamic,
// require() and the module files a thread starts from — and each declaration file's, and fails on:
//   - an entry or an imported file that is not in the list;
//   - a package imported that package.json does not list in dependencies (an install would not
//     bring it), or a dependency the import graph never reaches (installed for nothing: a
//     sub-package's must be the engine's or the SDK's, not the CLI's; gw's, not one its bundles
//     hold);
//   - a sub-package whose version or dependency ranges differ from the repository root's.
import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {builtinModules} from 'node:module'
import {dirname, join, posix, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const BUILTINS = new Set(builtinModules)
/** the first line of a bundle file (scripts/bundle.mjs), followed by what it imports as JSON */
export const BUNDLE_HEADER = '// gw-bundle '

/** The files npm would pack for the package at `dir` (paths relative to it, with '/'). */
export function packList(dir) {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})
  return JSON.parse(out)[0].files.map((f) => f.path)
}

// what a compiled module or declaration file names: from '…', import '…', import('…'), require('…'),
// createRequire(…)('…'), require.resolve('…') (a specifier has no space or comma: prose in strings is skipped)
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bcreateRequire\([^()]*\)\s*(?:\.resolve)?\(\s*|\brequire\.resolve\(\s*)(['"])([^'"\s,]+)\1/g
// a module file a thread starts from ('./writer-thread.mjs'): a relative .mjs named anywhere
export const MODULE_FILES = /(['"])(\.\.?\/[^'"\s,]+\.mjs)\1/g

/** The package a bare specifier names ('@scope/name/sub' -> '@scope/name'), or null for a built-in. */
export function packageOf(spec) {
  if (spec.startsWith('node:') || BUILTINS.has(spec) || BUILTINS.has(spec.split('/')[0])) return null
  const parts = spec.split('/')
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/**
 * What the compiled module or declaration file `file` (a path inside its package, with '/') names:
 * the package's files it imports (and the module files of the threads it starts) and the packages.
 */
export function importsOf(file, text) {
  // a bundle (scripts/bundle.mjs) names what it imports on its first line: the packages inside it
  // carry strings that only look like imports
  if (text.startsWith(BUNDLE_HEADER)) {
    const named = JSON.parse(text.slice(BUNDLE_HEADER.length, text.indexOf('\n')))
    return {files: named.files.map((f) => norm(posix.join(posix.dirname(file), f))), packages: named.packages}
  }
  const isDts = file.endsWith('.d.ts')
  const specs = [...text.matchAll(SPECIFIERS)].map((m) => m[2])
  if (!isDts) specs.push(...[...text.matchAll(MODULE_FILES)].map((m) => m[2]))
  const files = []
  const packages = []
  for (const spec of specs) {
    if (spec.startsWith('.')) {
      let target = posix.join(posix.dirname(file), spec)
      // a declaration names the module ('./x.js'); its types are in './x.d.ts'
      if (isDts) target = target.replace(/\.js$/, '.d.ts')
      if (posix.extname(target) === '') target += isDts ? '.d.ts' : '.js'
      files.push(norm(target))
    } else {
      const name = packageOf(spec)
      if (name) packages.push(name)
    }
  }
  return {files, packages}
}

/** Every string an "exports" value names (conditions and subpaths flattened). */
function exportTargets(value) {
  if (typeof value === 'string') return [value]
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets)
  return []
}

const norm = (p) => posix.normalize(p.replace(/^\.\//, ''))

/**
 * Checks the package at `dir` against its file list `files`; returns the problems found (empty
 * when complete) and what the walk reached.
 */
export function checkPackage(dir, files = packList(dir)) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const listed = new Set(files)
  const problems = []
  const read = (file) => readFileSync(join(dir, file), 'utf8')

  const entries = []
  const bins = typeof pkg.bin === 'string' ? [pkg.bin] : Object.values(pkg.bin ?? {})
  entries.push(...bins, ...exportTargets(pkg.exports))
  if (pkg.main) entries.push(pkg.main)
  if (pkg.types) entries.push(pkg.types)
  if (pkg.oclif) {
    const manifest = 'oclif.manifest.json'
    if (!listed.has(manifest)) problems.push(`${manifest} is not in the package: oclif would have to find every command at start`)
    else {
      const commands = Object.values(JSON.parse(read(manifest)).commands ?? {})
      if (commands.length === 0) problems.push(`${manifest} lists no command`)
      for (const c of commands) if (c.relativePath) entries.push(c.relativePath.join('/'))
    }
    for (const h of Object.values(pkg.oclif.hooks ?? {}).flat()) entries.push(typeof h === 'string' ? h : h.target)
  }

  const deps = new Set(Object.keys({...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies}))
  const used = new Map() // package -> the first file that imports it
  const seen = new Set()
  const queue = []
  const reach = (file, from) => {
    const f = norm(file)
    if (seen.has(f)) return
    seen.add(f)
    if (!listed.has(f)) {
      problems.push(from ? `${f}, which ${from} imports, is not in the package` : `${f} (an entry of package.json) is not in the package`)
      return
    }
    if (/\.(m?js|cjs|d\.ts)$/.test(f)) queue.push(f)
  }
  for (const e of new Set(entries)) reach(e, null)

  while (queue.length) {
    const file = queue.shift()
    const {files, packages} = importsOf(file, read(file))
    for (const target of files) reach(target, file)
    for (const name of packages) if (!used.has(name)) used.set(name, file)
  }

  for (const [name, file] of used) {
    if (name === pkg.name) continue
    if (!deps.has(name)) problems.push(`${file} imports ${name}, which package.json does not list in dependencies: an install would not bring it`)
  }

  // (gw's too: a package its bundles hold is a devDependency, docs/decisions.md#a-package-lists-what-it-imports)
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    if (!used.has(name)) problems.push(`dependency ${name} is never imported by what the package ships: installed for nothing`)
  }
  if (resolve(dir) !== resolve(ROOT)) {
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    if (pkg.version !== root.version) problems.push(`version ${pkg.version} differs from the gw package's ${root.version}: the packages are released together`)
    for (const [name, range] of Object.entries(pkg.dependencies ?? {})) {
      const want = root.dependencies?.[name]
      if (want !== undefined && want !== range) problems.push(`dependency ${name}@${range} differs from the gw package's ${want}: both must run the same engine and client`)
    }
  }
  return {problems, reached: [...seen].filter((f) => listed.has(f)), packages: [...used.keys()].sort()}
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const dir = resolve(process.argv[2] ?? ROOT)
  const {name} = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const files = packList(dir)
  const {problems, reached, packages} = checkPackage(dir, files)
  if (problems.length) {
    process.stderr.write(`\n${name} is incomplete; not packing it (scripts/check-package.mjs):\n${problems.map((p) => `  - ${p}`).join('\n')}\n\n`)
    process.exit(1)
  }
  process.stderr.write(`${name}: ${files.length} files; the entries reach ${reached.length} of them and ${packages.length} packages, every one a dependency.\n`)
}
