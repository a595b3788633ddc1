// Where the throughput ceiling of (a) lies: the engine as shipped (durability full), the same engine
// without the fsync (durability normal), and the same engine with storage costing nothing (the
// bench/no-writes.js preload: commits acknowledged, nothing written), each against the hello-world
// server, under the closed load of (a), in windows that alternate between the four so a drifting
// host hits all alike. Prints req/s, the ratio to hello world, and CPU per request on the event
// loop (the main thread) and on all threads.
//
// Usage: npm run build && node bench/ceiling.js   (BENCH_ROUNDS, BENCH_DURATION_MS, BENCH_WARMUP_MS,
// BENCH_CONNECTIONS as for bench/run.js; about 1 minute with the defaults)
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir, cpus, loadavg} from 'node:os'
import {join} from 'node:path'
import {closedLoop, cpuMeter, env, mainThreadCpuSeconds, merge, paymentRequest, startEngine, startHello} from './lib.js'

const ROUNDS = Math.max(1, env('BENCH_ROUNDS', 3))
const DURATION = env('BENCH_DURATION_MS', 12_000)
const WARMUP = env('BENCH_WARMUP_MS', 1_500)
const CONNECTIONS = env('BENCH_CONNECTIONS', 32)

const root = mkdtempSync(join(tmpdir(), 'gw-ceiling-'))
process.stdout.write(`gw ceiling: ${cpus().length} cpu(s), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION / ROUNDS / 1000}s windows per target\n\n`)
const targets = [
  {label: 'engine, durability full (shipped)', ...(await startEngine(join(root, 'full'), {label: 'full', durability: 'full'})), path: '/v1/payments'},
  {label: 'engine, durability normal (no fsync)', ...(await startEngine(join(root, 'normal'), {label: 'normal', durability: 'normal'})), path: '/v1/payments'},
  {label: 'engine, nothing written (no-writes)', ...(await startEngine(join(root, 'none'), {label: 'none', flags: [`--import=${new URL('./no-writes.js', import.meta.url).href}`]})), path: '/v1/payments'},
]
const server = await startHello(targets[0].tlsDir)
const hello = {label: 'node:https hello world', origin: server.origin, ca: targets[0].ca, child: server.child, stop: server.stop, path: '/'}
targets.push(hello)
try {
  for (const t of targets) {
    t.windows = []
    t.main = cpuMeter(() => mainThreadCpuSeconds(t.child.pid))
    t.all = cpuMeter(t.child.pid)
    t.onMeasure = (on) => (t.main.onMeasure(on), t.all.onMeasure(on))
  }
  for (let r = 0; r < ROUNDS; r++)
    for (const t of targets)
      t.windows.push(await closedLoop({origin: t.origin, ca: t.ca, connections: CONNECTIONS, warmupMs: WARMUP, durationMs: DURATION / ROUNDS, makeRequest: paymentRequest(t.path), onMeasure: t.onMeasure}))
  const hr = merge(hello.windows).rps
  for (const t of targets) {
    const m = merge(t.windows)
    const us = (s) => Math.round((s * 1e6) / m.count)
    const errors = m.errors ? `  (${m.errors} errors: ${m.firstError})` : ''
    process.stdout.write(`${t.label.padEnd(38)} ${Math.round(m.rps).toLocaleString('en-US').padStart(7)} req/s  ratio ${(m.rps / hr).toFixed(3)}  p99 ${m.p99.toFixed(1).padStart(5)} ms  CPU per request: event loop ${us(t.main.seconds)} µs, all threads ${us(t.all.seconds)} µs  (windows ${t.windows.map((w) => Math.round(w.rps)).join(' / ')})${errors}\n`)
  }
} finally {
  for (const t of targets) await t.stop()
  rmSync(root, {recursive: true, force: true})
}
