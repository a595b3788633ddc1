// The build's compile step: writes dist/ from src/ without type-checking it. The type check is
// `npm run typecheck`, which `npm test` runs once (test/release/typecheck.test.ts) over src/ and the
// tests; a build (`npm run build`, and npm's prepare in a user's `npm install <git url>`) only emits.
//   - the JavaScript: esbuild, each module on its own (no bundle) with tsconfig.build.json's
//     options; tsconfig.json's isolatedModules makes the type check reject what a compiler that
//     sees one file at a time cannot emit right;
//   - the declarations: tsc's, with its checker but none of its diagnostics (noCheck), for the
//     public entries (src/index.ts, src/testing.ts: package.json "types" and "exports") and every
//     module their declarations import, the files the packages ship for types
//     (scripts/package-dist.mjs). The other modules' declarations reach no consumer: "exports"
//     names no other path.
// Measured on a 2-core machine: `npm run build` took 39 CPU-s with tsc's emit of everything and
// its check, 14 so (esbuild about 2, the declarations about 11), with the same declaration files
// byte for byte. (tsc 5.9's --noCheck alone saves little: its declarations need the checker's
// inferred types, and its JS emit the checker for import elision.)
//
//   node scripts/emit.mjs      (the files tsconfig.build.json includes, into its outDir)
import {mkdirSync, writeFileSync} from 'node:fs'
import {dirname, join, relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import * as esbuild from 'esbuild'
import ts from 'typescript'
import {importsOf} from './check-package.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const ENTRIES = ['index.ts', 'testing.ts']

function fail(message) {
  process.stderr.write(`emit: ${message}\n`)
  process.exit(1)
}

const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.build.json'), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => fail(ts.flattenDiagnosticMessageText(d.messageText, '\n')),
})
if (config.errors.length) fail(config.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'))
const {rootDir, outDir} = config.options

// the JavaScript
const js = await esbuild.build({
  entryPoints: config.fileNames,
  outdir: outDir,
  outbase: rootDir,
  format: 'esm',
  platform: 'node',
  target: 'es2022', // tsconfig.json's target
  tsconfig: join(root, 'tsconfig.build.json'),
  logLevel: 'silent',
})
for (const w of js.warnings) process.stderr.write(`emit: ${w.location?.file ?? ''}:${w.location?.line ?? ''} ${w.text}\n`)

// the declarations, from the entries along their imports
const program = ts.createProgram({
  rootNames: ENTRIES.map((e) => join(rootDir, e)),
  options: {...config.options, noCheck: true, declaration: true, emitDeclarationOnly: true},
})
const seen = new Set()
const queue = ENTRIES.map((e) => e.replace(/\.tsx?$/, '.d.ts'))
while (queue.length) {
  const dts = queue.shift()
  if (seen.has(dts)) continue
  seen.add(dts)
  const base = join(rootDir, dts.replace(/\.d\.ts$/, ''))
  const source = program.getSourceFile(`${base}.ts`) ?? program.getSourceFile(`${base}.tsx`)
  if (!source) fail(`src/${dts.replace(/\.d\.ts$/, '.ts')}, which a declaration imports, is not in the program`)
  let text
  const result = program.emit(
    source,
    (file, data) => {
      mkdirSync(dirname(file), {recursive: true})
      writeFileSync(file, data)
      if (file.endsWith('.d.ts')) text = data
    },
    undefined,
    true,
  )
  if (result.emitSkipped || text === undefined) {
    const why = ts.formatDiagnostics(result.diagnostics, {getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n'})
    fail(`no declarations for ${relative(root, source.fileName)}\n${why}`)
  }
  queue.push(...importsOf(dts, text).files)
}
