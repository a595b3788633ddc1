// A test suite's gateway (docs/decisions.md#test-suites): what `gw/testing` and the SDK cost a merchant's test run.
// Prints figures; asserts nothing.
//   BENCH_ONLY=testing npm run bench        (part of the default run)
//   BENCH_SNAPSHOT_PAYMENTS=10000
import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {env, PAYMENT_BODY} from './lib.js'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SNAPSHOT_PAYMENTS = env('BENCH_SNAPSHOT_PAYMENTS', 10_000)
const ACCOUNTS = env('BENCH_TESTING_ACCOUNTS', 50)

const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a')
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Milliseconds a fresh node takes to import a module of the package (median of 5), against node doing nothing. */
function importMs(specifier) {
  const once = (code) => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {cwd: ROOT, encoding: 'utf8'})
    return Number(out.trim())
  }
  const runs = Array.from({length: 5}, () => once(`const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t)`))
  return median(runs)
}

/** Bytes of the package's own files a module reaches through its static relative imports. */
function reachableBytes(entry) {
  const seen = new Set()
  const walk = (file) => {
    if (seen.has(file)) return
    seen.add(file)
    const src = readFileSync(file, 'utf8')
    for (const m of src.matchAll(/^(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'/gm)) walk(join(dirname(file), m[1]))
  }
  walk(entry)
  let bytes = 0
  for (const f of seen) bytes += statSync(f).size
  return {files: seen.size, bytes}
}

/**
 * The first startGateway() of a process (docs/decisions.md#a-throwaway-engine): a fresh node imports gw/testing and
 * starts a gateway, as a test file does; median of 5 by wall time, with the process's CPU time
 * then (user + system, all threads: less noisy on a busy machine). `tlsDir`: a certificate
 * directory made before (the README's one CA for a test run); without it, a fresh data dir makes
 * its CA and certificate.
 */
function coldStart(tlsDir) {
  const code = `
const t0 = performance.now()
const {startGateway} = await import(${JSON.stringify(join(ROOT, 'dist', 'testing.js'))})
const t1 = performance.now()
const gw = await startGateway(${tlsDir ? `{tlsDir: ${JSON.stringify(tlsDir)}}` : ''})
const t2 = performance.now()
const cpu = process.cpuUsage()
await gw.stop()
console.log(JSON.stringify({node: t0, importMs: t1 - t0, startMs: t2 - t1, cpuMs: (cpu.user + cpu.system) / 1000}))
`
  const runs = Array.from({length: 5}, () => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], {cwd: ROOT, encoding: 'utf8'}).trim()))
  const m = (k) => median(runs.map((r) => r[k]))
  return {nodeMs: m('node'), importMs: m('importMs'), startMs: m('startMs'), readyMs: median(runs.map((r) => r.node + r.importMs + r.startMs)), cpuMs: m('cpuMs')}
}

/**
 * Later startGateway() calls in the same process (the engine's modules loaded): wall and process
 * CPU time (all threads) to ready, median of 9, with a fresh data dir (which makes its own CA: a
 * key pair) and with a tlsDir made before (the README's one CA for a test run).
 */
export async function warmStarts(startGateway) {
  const tlsDir = mkdtempSync(join(tmpdir(), 'gw-bench-tls-'))
  try {
    await (await startGateway({tlsDir})).stop()
    const measure = async (opts) => {
      const ms = []
      const cpuMs = []
      for (let i = 0; i < 9; i++) {
        const [t, c] = [performance.now(), process.cpuUsage()]
        const g = await startGateway(opts)
        const used = process.cpuUsage(c)
        ms.push(performance.now() - t)
        cpuMs.push((used.user + used.system) / 1000)
        await g.stop()
      }
      return {ms: median(ms), cpuMs: median(cpuMs)}
    }
    return {fresh: await measure(undefined), tls: await measure({tlsDir})}
  } finally {
    rmSync(tlsDir, {recursive: true, force: true})
  }
}

export async function testingBench() {
  const sdkImportMs = importMs(join(ROOT, 'dist', 'index.js'))
  const testingImportMs = importMs(join(ROOT, 'dist', 'testing.js'))
  const tlsDir = mkdtempSync(join(tmpdir(), 'gw-bench-tls-'))
  let cold, coldTls
  try {
    cold = coldStart()
    // the directory made once (by the first of its runs), then reused as a test run's engines do
    coldStart(tlsDir)
    coldTls = coldStart(tlsDir)
  } finally {
    rmSync(tlsDir, {recursive: true, force: true})
  }
  const sdk = reachableBytes(join(ROOT, 'dist', 'index.js'))

  const {startGateway} = await import(join(ROOT, 'dist', 'testing.js'))
  // a warm module cache: the first start loads the engine's modules, the ones a suite pays once
  const first = await startGateway()
  await first.stop()
  const warm = await warmStarts(startGateway)

  const gw = await startGateway()
  try {
    const accountMs = []
    for (let i = 0; i < ACCOUNTS; i++) {
      const t = performance.now()
      await gw.account()
      accountMs.push(performance.now() - t)
    }
    // an account with SNAPSHOT_PAYMENTS payments, saved and loaded into a fresh one
    const a = await gw.account()
    const body = JSON.parse(PAYMENT_BODY)
    const t0 = performance.now()
    let next = 0
    await Promise.all(
      Array.from({length: 16}, async () => {
        while (next < SNAPSHOT_PAYMENTS) {
          next++
          const r = await a.api('POST', '/payments', body)
          if (r.status !== 201) throw new Error(`seeding: ${r.status} ${JSON.stringify(r.body)}`)
        }
      }),
    )
    const seedMs = performance.now() - t0
    let t = performance.now()
    const saved = await a.api('GET', '/test_helpers/snapshot')
    const saveMs = performance.now() - t
    const size = Buffer.byteLength(JSON.stringify(saved.body))
    const b = await gw.account()
    t = performance.now()
    const loaded = await b.api('POST', '/test_helpers/snapshot', saved.body)
    const loadMs = performance.now() - t
    if (loaded.status !== 200) throw new Error(`load: ${loaded.status} ${JSON.stringify(loaded.body).slice(0, 200)}`)
    return {sdkImportMs, testingImportMs, sdk, cold, coldTls, warm, startMs: warm.fresh.ms, accountMs: median(accountMs), seedMs, saveMs, loadMs, snapshotBytes: size, objects: loaded.body.objects}
  } finally {
    await gw.stop()
  }
}

export function printTesting(r, log) {
  log(`(testing) import 'gw' (the SDK and webhook helpers) ${f1(r.sdkImportMs)} ms in a fresh node; its own code ${r.sdk.files} files, ${f0(r.sdk.bytes / 1024)} KiB (plus undici)`)
  log(`(testing) import 'gw/testing' ${f1(r.testingImportMs)} ms; a later startGateway() in the same process: ${f0(r.warm.fresh.ms)} ms (CPU ${f0(r.warm.fresh.cpuMs)} ms) with a fresh data dir, which makes its CA; ${f0(r.warm.tls.ms)} ms (CPU ${f0(r.warm.tls.cpuMs)} ms) with a tlsDir made before (medians of 9)   target < 300 ms: ${r.startMs < 300 ? 'met' : 'MISSED'}`)
  for (const [what, c] of [['a fresh data dir (its own CA)', r.cold], ['a tlsDir made before', r.coldTls]])
    log(`(testing) first startGateway() in a fresh node, ${what}: ${f0(c.startMs)} ms (import 'gw/testing' ${f0(c.importMs)} ms before it; ready ${f0(c.readyMs)} ms after node started); process CPU ${f0(c.cpuMs)} ms (median of 5)`)
  log(`(testing) gw.account() ${f1(r.accountMs)} ms (median of ${ACCOUNTS})   target < 20 ms: ${r.accountMs < 20 ? 'met' : 'MISSED'}`)
  log(`(testing) snapshot of ${f0(SNAPSHOT_PAYMENTS)} payments (${f0(r.objects)} objects, ${f1(r.snapshotBytes / 1048576)} MiB): save ${f0(r.saveMs)} ms, load into a fresh account ${f0(r.loadMs)} ms (seeding took ${f1(r.seedMs / 1000)} s)`)
}
