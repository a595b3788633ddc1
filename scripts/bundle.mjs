// A build step after scripts/emit.mjs: the parts of gw that a command imports lazily and that load
// hundreds of module files (the engine, for `gw serve` and @gw/testing's startGateway; the
// console's views, for `gw console`) become esbuild bundles in dist/bundle/, with the packages
// they use inside them. Node then reads and compiles a few files instead of a module graph of
// hundreds (measured: `gw serve --ephemeral` opened ~900 module files before its first line; the
// resolution, the reads and the compile of each were most of its start-up CPU).
//
// The rest of dist/ stays one module per source file (the oclif manifest's commands, the public
// entries and their .d.ts). Each bundle entry's per-file module (dist/engine/index.js, …) becomes a
// one-line re-export of its bundle, so whoever imports it — `gw serve`, startGateway — gets the
// bundle without a change to the sources (which the tests run as they are).
//
// No module is loaded twice in one process (a class from two copies breaks instanceof, and a
// module's state would be split). For each group the modules its hosts load as files of their
// own — the command that imports the group, the oclif hooks, and for the engine the public entries
// (startGateway's and the SDK's, which a shop's process loads too) — stay files: the bundle imports
// them from dist/ (external). So do the packages those hosts import, and the native ones. A
// module that finds files beside itself (import.meta) stays a file as well (thread.ts finds the
// worker-thread files, copied beside it). What a bundle holds is left out of the package when
// nothing else imports it (dist/.npmignore), so the package ships one copy.
//
// Each bundle file begins with a line that names what it imports (`// gw-bundle {"files": […],
// "packages": […]}`), read by scripts/check-package.mjs instead of searching the text: the
// packages inside a bundle carry strings that look like imports (ajv's generated code names
// `require("ajv/dist/runtime/…")`).
//
//   node scripts/bundle.mjs      (after scripts/emit.mjs has written dist/)
import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join, posix, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import * as esbuild from 'esbuild'
import ts from 'typescript'
import {GROUPS, HOOKS, NATIVE, READS_DEFAULT} from './bundle-groups.mjs'
import {BUNDLE_HEADER, MODULE_FILES, packageOf} from './check-package.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const SRC = join(root, 'src')
const DIST = join(root, 'dist')
const OUT = join(DIST, 'bundle')

function fail(message) {
  process.stderr.write(`bundle: ${message}\n`)
  process.exit(1)
}

const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.build.json'), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
})
const sources = config.fileNames.map((f) => relative(SRC, f).split('\\').join('/'))

// the import graph of src/ (paths relative to src/), from esbuild's resolution
const graphBuild = await esbuild.build({
  entryPoints: config.fileNames,
  bundle: true,
  write: false,
  outdir: join(root, 'dist-graph'),
  absWorkingDir: root,
  format: 'esm',
  platform: 'node',
  target: 'es2022',
  splitting: true,
  metafile: true,
  packages: 'external',
  tsconfig: join(root, 'tsconfig.build.json'),
  logLevel: 'silent',
})
const graph = new Map()
for (const [file, input] of Object.entries(graphBuild.metafile.inputs)) {
  const imports = input.imports.map((i) => (i.external ? {pkg: packageOf(i.path), dynamic: i.kind === 'dynamic-import'} : {file: relative(SRC, join(root, i.path)), dynamic: i.kind === 'dynamic-import'}))
  graph.set(relative(SRC, join(root, file)), imports)
}

/** The modules reached from `roots`, not entering `stop`; with `dynamic` false, static imports only. */
function closure(roots, {stop = new Set(), dynamic = true} = {}) {
  const seen = new Set()
  const queue = [...roots]
  while (queue.length) {
    const f = queue.pop()
    if (seen.has(f)) continue
    seen.add(f)
    for (const i of graph.get(f) ?? []) if (i.file && !stop.has(i.file) && (dynamic || !i.dynamic)) queue.push(i.file)
  }
  return seen
}
const packagesOf = (files) => new Set([...files].flatMap((f) => (graph.get(f) ?? []).map((i) => i.pkg).filter(Boolean)))
const usesImportMeta = (file) => /\bimport\.meta\b/.test(readFileSync(join(SRC, file), 'utf8'))
const distPath = (file) => file.replace(/\.tsx?$/, '.js')

/**
 * A package file's text as it can run from dist/bundle/: Ink reads its own package.json beside it
 * (with DEV=true, for React's devtools), which becomes its name and version written in; yoga's
 * loader keeps its own URL only as a base for files it does not load (its WebAssembly is inline).
 * Any other use of import.meta in a package stops the build, to be looked at.
 */
function packageFileInBundle(path, text) {
  const out = text.replace(/(\w+)\.readFileSync\(new URL\((['"])\.\.\/package\.json\2, import\.meta\.url\), (['"])utf8\3\)/g, () => {
    const {name, version} = JSON.parse(readFileSync(join(dirname(path), '..', 'package.json'), 'utf8'))
    return JSON.stringify(JSON.stringify({name, version}))
  })
  const rest = out.replace(/var _scriptDir = import\.meta\.url;/g, '')
  if (/\bimport\.meta\b/.test(rest)) fail(`${relative(root, path)} uses import.meta, which would point into dist/bundle/: keep its package external or rewrite the use (scripts/bundle.mjs)`)
  return out
}

const allEntries = new Set(GROUPS.flatMap((g) => Object.values(g.entries)))
// what stays a file whatever the bundles hold: every module reached from one that no bundle holds
const bundled = new Set(GROUPS.flatMap((g) => [...closure(Object.values(g.entries))]))
const perFile = closure(
  sources.filter((f) => !bundled.has(f)),
  {stop: allEntries},
)

rmSync(OUT, {recursive: true, force: true})
mkdirSync(OUT, {recursive: true})
const removable = new Set()
const kept = new Set() // a module one bundle holds may be a file another imports
for (const group of GROUPS) {
  const entries = Object.values(group.entries)
  const inside = closure(entries)
  // the modules a host process loads as files (static imports: what it loads for sure before the bundle)
  const hosts = closure([...group.hosts, ...HOOKS], {stop: new Set(entries), dynamic: false})
  const externalFiles = new Set([...inside].filter((f) => hosts.has(f) || usesImportMeta(f)))
  // and what those import, so that each is still one copy
  for (const f of closure([...externalFiles], {stop: new Set(entries)})) if (inside.has(f)) externalFiles.add(f)
  for (const e of entries) if (externalFiles.has(e)) fail(`${e} is a bundle entry that its hosts also load as a file`)
  const optional = new Set(group.optional ?? [])
  const externalPackages = new Set([...NATIVE, ...group.external, ...optional, ...packagesOf(hosts), ...packagesOf(externalFiles)])

  const result = await esbuild.build({
    entryPoints: Object.fromEntries(Object.entries(group.entries).map(([out, file]) => [out, join(SRC, file)])),
    outdir: OUT,
    absWorkingDir: root,
    chunkNames: `${group.name}-chunk-[hash]`,
    bundle: true,
    splitting: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    tsconfig: join(root, 'tsconfig.build.json'),
    // the CommonJS packages inside a bundle call require(); in an ES module it comes from here
    banner: {js: "import {createRequire as __gwCreateRequire} from 'node:module';\nconst require = __gwCreateRequire(import.meta.url);"},
    logLevel: 'silent',
    plugins: [
      {
        name: 'gw-external',
        setup(build) {
          // a package file that finds a file beside itself (import.meta.url) would look in dist/bundle/
          build.onLoad({filter: /[\\/]node_modules[\\/].*\.m?js$/}, (args) => {
            const text = readFileSync(args.path, 'utf8')
            if (!text.includes('import.meta')) return undefined
            return {contents: packageFileInBundle(args.path, text), loader: 'js'}
          })
          build.onResolve({filter: /.*/}, (args) => {
            if (args.kind === 'entry-point') return undefined
            if (!args.path.startsWith('.') && !args.path.startsWith('/')) {
              const pkg = packageOf(args.path)
              if (pkg === null || externalPackages.has(pkg)) return {path: args.path, external: true}
              // a bundle's import() of a CommonJS package gives module.exports as the default only,
              // where Node's also names its exports: the importer must read the default
              if (args.kind === 'dynamic-import' && !READS_DEFAULT.has(args.path)) {
                return {errors: [{text: `import('${args.path}') from a bundle: add it to READS_DEFAULT (scripts/bundle.mjs) once its importer reads the module's default when it has one`}]}
              }
              return undefined
            }
            if (args.importer.includes('/node_modules/') || !args.importer.startsWith(SRC)) return undefined
            const base = relative(SRC, join(dirname(args.importer), args.path)).split('\\').join('/')
            const file = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')].find((f) => graph.has(f))
            if (file && externalFiles.has(file)) return {path: `../${distPath(file)}`, external: true}
            return undefined
          })
        },
      },
    ],
  })
  for (const w of result.warnings) process.stderr.write(`bundle: ${w.location?.file ?? ''}:${w.location?.line ?? ''} ${w.text}\n`)

  for (const out of result.outputFiles) {
    const name = relative(OUT, out.path)
    const meta = result.metafile.outputs[relative(root, out.path).split('\\').join('/')]
    if (!meta) fail(`no metafile entry for ${name}`)
    const files = new Set()
    const packages = new Set()
    for (const i of meta.imports) {
      if (i.path.startsWith('.')) files.add(i.path)
      else if (!i.external) files.add(`./${relative(OUT, join(root, i.path))}`)
      else if (packageOf(i.path) && !optional.has(packageOf(i.path))) packages.add(packageOf(i.path))
    }
    // the worker-thread files its modules start ('./writer-thread.mjs', beside the module that names it)
    for (const input of Object.keys(meta.inputs)) {
      if (!input.startsWith('src/')) continue
      for (const m of readFileSync(join(root, input), 'utf8').matchAll(MODULE_FILES)) {
        files.add(`../${posix.join(posix.dirname(relative(SRC, join(root, input))), m[2])}`)
      }
    }
    const header = `${BUNDLE_HEADER}${JSON.stringify({files: [...files].sort(), packages: [...packages].sort()})}\n`
    writeFileSync(out.path, header + out.text)
  }
  // each entry's own module file: its bundle's exports
  for (const [outName, entry] of Object.entries(group.entries)) {
    const meta = result.metafile.outputs[relative(root, join(OUT, `${outName}.js`))]
    const from = posix.relative(posix.dirname(distPath(entry)), `bundle/${outName}.js`)
    writeFileSync(join(DIST, distPath(entry)), `export {${meta.exports.join(', ')}} from '${from.startsWith('.') ? from : `./${from}`}'\n`)
  }
  for (const f of inside) if (!externalFiles.has(f) && !allEntries.has(f) && !perFile.has(f)) removable.add(f)
  for (const f of externalFiles) kept.add(f)
  process.stderr.write(`bundle: ${group.name}: ${inside.size - externalFiles.size} modules and ${Object.keys(result.metafile.inputs).length - (inside.size - externalFiles.size)} package files in ${result.outputFiles.length} files; ${externalFiles.size} modules stay files\n`)
}
// What only a bundle holds is left out of the package (dist/.npmignore; npm reads it within "files"):
// the package ships one copy. The files stay in dist/ for the bench, which imports engine modules
// the bundle does not export (bench/seed.js: the SQLite store, its codec); nothing gw runs imports them.
const ignored = [...removable].filter((f) => !kept.has(f) && existsSync(join(DIST, distPath(f)))).map((f) => `/${distPath(f)}`).sort()
writeFileSync(join(DIST, '.npmignore'), `# written by scripts/bundle.mjs: modules the bundles in bundle/ hold, which the package does not ship\n${ignored.join('\n')}\n`)
