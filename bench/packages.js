// gw's packages as their users install them: each tarball's size, and for each package alone an
// install with a throwaway npm cache (packages from the public registry) — its time, its CPU, the
// packages it brings and their size on disk; then what a test file pays for the first
// startGateway() from @gw/testing's install and from gw's. Prints figures; asserts nothing.
//   BENCH_ONLY=packages npm run bench          (not in the default run: it packs and installs)
//   BENCH_PACKAGES_COMPILE=1                   also installs with no prebuilt native module to find
//                                              (as on a machine that reaches only the npm registry)
//   BENCH_PACKAGES_REUSE=1                     measures the tarballs already in out/ instead of packing
import {execFileSync} from 'node:child_process'
import {readdirSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {diskUsage, installedPackages, ok, prebuilds, REPO, sh, tempDir, userEnv} from './install-lib.js'

const COMPILE = process.env.BENCH_PACKAGES_COMPILE === '1'
const RUNS = 5

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** `cmd` in bash with its wall time and its CPU (user + system of everything it started), in seconds. */
async function timed(cmd, opts) {
  const r = ok(await sh(`TIMEFORMAT='@@ %R %U %S'; time ( ${cmd} )`, {...opts, shell: 'bash', timeout: 3_600_000}), cmd)
  const m = r.stderr.match(/@@ ([\d.]+) ([\d.]+) ([\d.]+)\s*$/)
  return {...r, wallS: Number(m[1]), cpuS: Number(m[2]) + Number(m[3])}
}

/** One install of one package alone: into a global prefix (the CLI) or a new project. */
async function installOne(tarball, {global, dev}, natives) {
  const dir = tempDir('gw-bench-install-')
  const cache = tempDir('gw-bench-cache-')
  try {
    if (!global) writeFileSync(join(dir, 'package.json'), JSON.stringify({name: 'project', private: true, type: 'module'}))
    const env = userEnv({...natives, npm_config_cache: cache, ...(global ? {npm_config_prefix: join(dir, 'prefix')} : {})})
    const r = await timed(`npm install ${global ? '-g' : dev ? '-D' : ''} '${tarball}'`, {cwd: dir, env})
    const nm = global ? join(dir, 'prefix', 'lib', 'node_modules') : join(dir, 'node_modules')
    const {bytes, files} = diskUsage(nm)
    const result = {wallS: r.wallS, cpuS: r.cpuS, packages: installedPackages(nm).length, bytes, files, nm}
    return {result, dir, cache}
  } catch (e) {
    rmSync(dir, {recursive: true, force: true})
    rmSync(cache, {recursive: true, force: true})
    throw e
  }
}

/** CPU and wall time of a fresh node's first startGateway() (import included), median of RUNS. */
function coldStart(specifier, cwd) {
  const code = `
const t0 = performance.now()
const {startGateway} = await import(${JSON.stringify(specifier)})
const gw = await startGateway()
const wall = performance.now() - t0
const cpu = process.cpuUsage()
await gw.stop()
console.log(JSON.stringify({wall, cpu: (cpu.user + cpu.system) / 1000}))`
  const runs = Array.from({length: RUNS}, () => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], {cwd, encoding: 'utf8', env: userEnv()}).trim()))
  return {wallMs: median(runs.map((r) => r.wall)), cpuMs: median(runs.map((r) => r.cpu))}
}

/** npm's report of each tarball in out/, as `npm run pack --json` gives it. */
function alreadyPacked() {
  const cwd = tempDir('gw-bench-report-')
  try {
    return readdirSync(join(REPO, 'out'))
      .filter((f) => f.endsWith('.tgz'))
      .map((f) => {
        const path = join(REPO, 'out', f)
        const [report] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', path], {cwd, encoding: 'utf8', env: userEnv()}))
        return {...report, size: statSync(path).size, path}
      })
  } finally {
    rmSync(cwd, {recursive: true, force: true})
  }
}

export async function packagesBench() {
  const packed = process.env.BENCH_PACKAGES_REUSE === '1' ? alreadyPacked() : JSON.parse(execFileSync(process.execPath, [join(REPO, 'scripts', 'pack.mjs'), '--json'], {cwd: REPO, encoding: 'utf8', env: userEnv(), stdio: ['ignore', 'pipe', 'inherit']}))
  const byName = Object.fromEntries(packed.map((p) => [p.name, p]))
  const natives = prebuilds()
  const how = {gw: {global: true}, '@gw/testing': {dev: true}, '@gw/sdk': {}}
  const results = {tarballs: {}, prebuilt: {}, compiled: {}, coldStart: {}}
  const keep = []
  try {
    for (const [name, opts] of Object.entries(how)) {
      const p = byName[name]
      results.tarballs[name] = {bytes: p.size, unpacked: p.unpackedSize, files: p.entryCount}
      const one = await installOne(p.path, opts, natives)
      results.prebuilt[name] = one.result
      keep.push(one.dir, one.cache)
      if (COMPILE && name !== '@gw/sdk') {
        const compiled = await installOne(p.path, opts, {})
        results.compiled[name] = compiled.result
        rmSync(compiled.dir, {recursive: true, force: true})
        rmSync(compiled.cache, {recursive: true, force: true})
      }
    }
    // a test file's first start, from each install (the same engine; the CLI's install beside it or not)
    const testingProject = join(results.prebuilt['@gw/testing'].nm, '..')
    results.coldStart['@gw/testing'] = coldStart('@gw/testing', testingProject)
    results.coldStart['gw/testing'] = coldStart('gw/testing', join(results.prebuilt.gw.nm, '..'))
  } finally {
    for (const d of [...keep, ...Object.values(natives)]) rmSync(d, {recursive: true, force: true})
  }
  return results
}

export function printPackages(r, log) {
  const mib = (b) => (b / 1048576).toFixed(1)
  log('packages: each tarball; each installed alone (throwaway npm cache, prebuilt native modules)')
  for (const [name, t] of Object.entries(r.tarballs)) {
    const i = r.prebuilt[name]
    log(
      `  ${name.padEnd(12)} tarball ${(t.bytes / 1024).toFixed(0).padStart(5)} KiB (${t.files} files, ${mib(t.unpacked)} MiB unpacked); ` +
        `install: ${i.packages} packages, ${mib(i.bytes)} MiB (${i.files.toLocaleString('en-US')} files), ${i.wallS.toFixed(1)} s (${i.cpuS.toFixed(1)} s CPU)`,
    )
  }
  for (const [name, i] of Object.entries(r.compiled)) log(`  ${name.padEnd(12)} compiling the native modules: ${i.wallS.toFixed(1)} s (${i.cpuS.toFixed(1)} s CPU), ${mib(i.bytes)} MiB`)
  for (const [spec, c] of Object.entries(r.coldStart)) log(`  first startGateway() from ${spec.padEnd(12)}: ${c.wallMs.toFixed(0)} ms, ${c.cpuMs.toFixed(0)} ms CPU (median of ${RUNS}, import included)`)
}
