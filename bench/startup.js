// Start-up figures (docs/decisions.md#start-up): `gw --version` against a bare one-command oclif CLI, and
// `gw payments get` against the local engine, in the same run. Prints; asserts nothing.
import {spawnSync, spawn} from 'node:child_process'
import {mkdtempSync, rmSync, existsSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const gw = join(root, 'bin', 'run.js')
const bare = join(here, 'bare-cli', 'bin', 'run.js')

function timeRuns(label, argv, env, runs) {
  const times = []
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint()
    const r = spawnSync(process.execPath, argv, {env, encoding: 'utf8'})
    const ms = Number(process.hrtime.bigint() - t0) / 1e6
    if (r.status !== 0) throw new Error(`${label} exited ${r.status}: ${r.stderr}`)
    times.push(ms)
  }
  times.sort((a, b) => a - b)
  return {label, median: times[Math.floor(times.length / 2)], min: times[0], mean: times.reduce((a, b) => a + b, 0) / times.length}
}

export async function startupBench({runs = 21} = {}) {
  if (!existsSync(join(here, 'bare-cli', 'oclif.manifest.json'))) {
    // the build's own manifest step (scripts/manifest.mjs), for the bare CLI's one command
    spawnSync(process.execPath, [join(root, 'scripts', 'manifest.mjs'), join(here, 'bare-cli')])
  }
  const home = mkdtempSync(join(tmpdir(), 'gw-startup-'))
  const dataDir = join(home, 'engine')
  const env = {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), GW_DATA_DIR: dataDir, NO_COLOR: '1'}
  // warm the file cache
  spawnSync(process.execPath, [gw, '--version'], {env})
  spawnSync(process.execPath, [bare, '--version'], {env})

  // the local engine for `payments get`
  const engine = spawn(process.execPath, [gw, 'serve', '--port', '0', '--data-dir', dataDir, '--json', '--api-key', 'sk_test_startup_bench_key'], {env, stdio: ['ignore', 'pipe', 'pipe']})
  await new Promise((resolve, reject) => {
    let buf = ''
    engine.stdout.on('data', (d) => {
      buf += d
      if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n')[0]))
    })
    engine.on('exit', (c) => reject(new Error(`engine exited ${c}`)))
  })
  const login = spawnSync(process.execPath, [gw, 'login', '--local'], {env, encoding: 'utf8'})
  if (login.status !== 0) throw new Error(`login --local failed: ${login.stderr}`)
  const created = spawnSync(process.execPath, [gw, 'payments', 'create', '--amount', '2000', '--currency', 'EUR', '--method', 'card', '--card', '4242424242424242', '--json'], {env, encoding: 'utf8'})
  const id = JSON.parse(created.stdout).id
  spawnSync(process.execPath, [gw, 'payments', 'get', id], {env})

  // the three commands interleaved, so machine noise hits all of them alike
  const a = [], b = [], c = []
  for (let i = 0; i < runs; i++) {
    a.push(timeRuns('bare', [bare, '--version'], env, 1).median)
    b.push(timeRuns('gw', [gw, '--version'], env, 1).median)
    c.push(timeRuns('gw payments get', [gw, 'payments', 'get', id], env, 1).median)
  }
  const med = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]
  const bareMs = med(a)
  const gwVersionMs = med(b)
  const getMs = med(c)
  engine.kill('SIGTERM')
  await new Promise((r) => engine.on('exit', r))
  rmSync(home, {recursive: true, force: true})
  return {bareMs, gwVersionMs, getMs, runs}
}

export function printStartup(r) {
  const ratio1 = r.gwVersionMs / r.bareMs
  const ratio2 = r.getMs / r.bareMs
  console.log(`\nStart-up (median of ${r.runs} runs, interleaved)`)
  console.log(`  bare one-command oclif CLI --version   ${r.bareMs.toFixed(1)} ms`)
  console.log(`  gw --version                           ${r.gwVersionMs.toFixed(1)} ms   ratio ${ratio1.toFixed(2)}x  (target <= 1.15x) ${ratio1 <= 1.15 ? 'met' : 'MISSED'}`)
  console.log(`  gw payments get (local engine)         ${r.getMs.toFixed(1)} ms   ratio ${ratio2.toFixed(2)}x  (target <= 1.5x) ${ratio2 <= 1.5 ? 'met' : 'MISSED'}`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printStartup(await startupBench())
}
