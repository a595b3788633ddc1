// Bench helpers: child processes (engine, hello server), closed- and open-loop load over
// undici, percentiles. Plain ESM, no build step.
import {spawn} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {createInterface} from 'node:readline'
import {Pool} from 'undici'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const API_KEY = 'sk_test_bench_0123456789abcdef'
/** the engine's default, 'full' (every commit fsynced); BENCH_DURABILITY=normal for comparison */
export const DURABILITY = process.env.BENCH_DURABILITY ?? 'full'

/** A number from the environment (BENCH_… knobs), or `dflt` when the variable is not set. */
export const env = (name, dflt) => (process.env[name] !== undefined ? Number(process.env[name]) : dflt)

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** Spawns a node child and resolves with the parsed JSON of its first stdout line. */
function spawnJsonChild(args, {name, env} = {}) {
  const child = spawn(process.execPath, args, {cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, ...env}})
  let stderr = ''
  child.stderr.on('data', (c) => {
    stderr += c
    if (stderr.length > 20_000) stderr = stderr.slice(-10_000)
  })
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({code, signal})))
  const first = new Promise((resolve, reject) => {
    const rl = createInterface({input: child.stdout})
    rl.once('line', (line) => {
      try {
        resolve(JSON.parse(line))
      } catch (e) {
        reject(new Error(`${name}: unexpected start line ${line}`))
      }
      child.stdout.resume()
    })
    exited.then(({code, signal}) => reject(new Error(`${name} exited early (${code ?? signal}): ${stderr}`)))
  })
  return {
    child,
    first,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000)
      const r = await exited
      clearTimeout(t)
      return r
    },
  }
}

/**
 * `gw serve` in a child process (its own event loop and core). With BENCH_PROFILE=DIR the
 * child runs under --cpu-prof and writes its profile into DIR when it stops.
 */
export async function startEngine(dataDir, {label = 'engine', args = [], flags = [], durability = DURABILITY} = {}) {
  const pre = [...flags]
  if (process.env.BENCH_ENGINE_FLAGS) pre.push(...process.env.BENCH_ENGINE_FLAGS.split(/\s+/).filter(Boolean))
  if (process.env.BENCH_PROFILE) pre.push('--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`, `--cpu-prof-name=${label}-${Date.now()}.cpuprofile`)
  const c = spawnJsonChild(
    [...pre, join(ROOT, 'bin/run.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--api-key', API_KEY, '--rate-limit', '0', '--json', '--durability', durability, ...args],
    {name: label},
  )
  const info = await c.first
  const ca = readFileSync(info.ca_file, 'utf8')
  const u = new URL(info.base_url)
  return {...info, origin: u.origin, ca, tlsDir: dirname(info.ca_file), stop: c.stop, stderr: c.stderr, child: c.child}
}

export async function startHello(tlsDir, {delayMs = 0} = {}) {
  const c = spawnJsonChild([join(ROOT, 'bench/hello-server.js'), join(tlsDir, 'server.key'), join(tlsDir, 'server.crt'), ...(delayMs > 0 ? [String(delayMs)] : [])], {name: 'hello'})
  const {port} = await c.first
  return {origin: `https://127.0.0.1:${port}`, stop: c.stop, child: c.child}
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i]
}

class Samples {
  constructor(cap = 1 << 21) {
    this.a = new Float64Array(cap)
    this.n = 0
  }
  push(v) {
    if (this.n < this.a.length) this.a[this.n++] = v
  }
  sorted() {
    return this.a.slice(0, this.n).sort()
  }
}

let keySeq = 0
const runId = `${process.pid}-${Date.now().toString(36)}`
/** A fresh Idempotency-Key for every request. */
export const nextKey = () => `bench-${runId}-${++keySeq}`

export const PAYMENT_BODY = JSON.stringify({
  amount: 2000,
  currency: 'EUR',
  payment_method: 'card',
  capture_method: 'automatic',
  payment_method_data: {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}},
  description: 'bench order',
})

/** One POST /payments (or the same POST to the hello server), with a unique Idempotency-Key. */
export function paymentRequest(path) {
  return () => ({
    path,
    method: 'POST',
    headers: {
      authorization: `Bearer ${API_KEY}`,
      'content-type': 'application/json',
      'idempotency-key': nextKey(),
    },
    body: PAYMENT_BODY,
  })
}

export function makePool(origin, ca, connections) {
  return new Pool(origin, {connections, pipelining: 1, connect: {ca, rejectUnauthorized: true}, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000})
}

async function once(pool, req, errors) {
  try {
    const res = await pool.request(req)
    const text = await res.body.text()
    if (res.statusCode < 200 || res.statusCode >= 300) {
      errors.count++
      errors.first ??= `${res.statusCode} ${text.slice(0, 300)}`
      return false
    }
    return true
  } catch (e) {
    errors.count++
    errors.first ??= e.message
    return false
  }
}

/**
 * Closed loop: `connections` workers, each sending its next request as soon as the last one
 * answered (keep-alive, no pipelining). Counts completions and latencies inside the
 * measuring window only (after warm-up).
 */
export async function closedLoop({origin, ca, connections = 32, warmupMs = 2000, durationMs = 10_000, makeRequest, onMeasure}) {
  const pool = makePool(origin, ca, connections)
  const lat = new Samples()
  const errors = {count: 0, first: undefined}
  let measuring = false
  let stop = false
  let done = 0
  const worker = async () => {
    while (!stop) {
      const t0 = performance.now()
      const ok = await once(pool, makeRequest(), errors)
      if (measuring && ok) {
        lat.push(performance.now() - t0)
        done++
      }
    }
  }
  const workers = Array.from({length: connections}, worker)
  await sleep(warmupMs)
  const errBefore = errors.count
  onMeasure?.(true)
  measuring = true
  const start = performance.now()
  await sleep(durationMs)
  measuring = false
  const elapsed = performance.now() - start
  onMeasure?.(false)
  stop = true
  await Promise.all(workers)
  await pool.close()
  const s = lat.sorted()
  return {rps: done / (elapsed / 1000), count: done, elapsed, samples: s, p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1], errors: errors.count - errBefore, firstError: errors.first}
}

/** Closed loop against several instances at once (a fleet behind a balancer): the connections split between them, rates added. */
export async function closedLoopFleet({targets, connections = 32, warmupMs = 2000, durationMs = 10_000, makeRequest, onMeasure}) {
  const per = targets.map((_, i) => Math.floor(connections / targets.length) + (i < connections % targets.length ? 1 : 0))
  // the windows open and close together: the first one reports them
  const rs = await Promise.all(targets.map((t, i) => closedLoop({origin: t.origin, ca: t.ca, connections: per[i], warmupMs, durationMs, makeRequest, onMeasure: i === 0 ? onMeasure : undefined})))
  const all = new Float64Array(rs.reduce((a, r) => a + r.samples.length, 0))
  let o = 0
  for (const r of rs) {
    all.set(r.samples, o)
    o += r.samples.length
  }
  all.sort()
  const elapsed = Math.max(...rs.map((r) => r.elapsed))
  const count = rs.reduce((a, r) => a + r.count, 0)
  return {rps: rs.reduce((a, r) => a + r.rps, 0), count, elapsed, samples: all, p50: percentile(all, 50), p99: percentile(all, 99), max: all[all.length - 1], errors: rs.reduce((a, r) => a + r.errors, 0), firstError: rs.find((r) => r.firstError)?.firstError}
}

/** Merges closed-loop windows of one target: overall rate and percentiles, plus each window's rate. */
export function merge(windows) {
  const count = windows.reduce((a, w) => a + w.count, 0)
  const elapsed = windows.reduce((a, w) => a + w.elapsed, 0)
  const all = new Float64Array(windows.reduce((a, w) => a + w.samples.length, 0))
  let o = 0
  for (const w of windows) {
    all.set(w.samples, o)
    o += w.samples.length
  }
  all.sort()
  return {
    rps: count / (elapsed / 1000),
    count,
    rounds: windows.map((w) => w.rps),
    p50: percentile(all, 50),
    p99: percentile(all, 99),
    max: all[all.length - 1],
    errors: windows.reduce((a, w) => a + w.errors, 0),
    firstError: windows.find((w) => w.firstError)?.firstError,
  }
}

/**
 * Open loop at a fixed rate: request i is due at start + i/rate, sent on a 1 ms timer, and
 * its latency runs from that due time (not the send time), so a stalled server or client
 * shows up in the percentiles instead of silently lowering the offered load. `slow`: the
 * answers slower than `slowMs`, as [ms from the window's start to when it was due, latency].
 */
export async function openLoop({origin, ca, rate = 1000, connections = 32, warmupMs = 2000, durationMs = 10_000, makeRequest, slowMs = 50}) {
  const pool = makePool(origin, ca, connections)
  const lat = new Samples()
  const errors = {count: 0, first: undefined}
  const interval = 1000 / rate
  const total = Math.round(((warmupMs + durationMs) / 1000) * rate)
  const warmN = Math.round((warmupMs / 1000) * rate)
  const inflight = new Set()
  let measuredErrors = 0
  // the slow answers' due times, from the window's start (after the warm-up): when a tail happens
  const slow = []
  const fire = (i, due) => {
    const p = once(pool, makeRequest(), errors).then((ok) => {
      inflight.delete(p)
      if (i < warmN) return
      if (!ok) return void measuredErrors++
      const ms = performance.now() - due
      lat.push(ms)
      if (ms > slowMs && slow.length < 100_000) slow.push([(i - warmN) * interval, ms])
    })
    inflight.add(p)
  }
  // open a few connections before the clock starts
  await Promise.all(Array.from({length: 4}, () => once(pool, makeRequest(), errors)))
  const start = performance.now() + 5
  let i = 0
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now()
      while (i < total && start + i * interval <= now) {
        fire(i, start + i * interval)
        i++
      }
      if (i < total) setTimeout(tick, 1)
      else resolve()
    }
    setTimeout(tick, 5)
  })
  await Promise.all(inflight)
  await pool.close()
  const s = lat.sorted()
  return {rate, sent: total - warmN, count: s.length, samples: s, slow: slow.sort((a, b) => a[0] - b[0]), p50: percentile(s, 50), p99: percentile(s, 99), p999: percentile(s, 99.9), max: s[s.length - 1], errors: measuredErrors, firstError: errors.first}
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces); undefined once the process is gone. */
export function statFields(pid, file = `/proc/${pid}/stat`) {
  try {
    const stat = readFileSync(file, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}
export const CLOCK_TICKS = 100
// utime, stime (fields 14 and 15), and with `children` cutime, cstime (16, 17): indexes counted from the state (field 3)
export const ticks = (f, children = false) => Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0)

/** Seconds of CPU (user + system, every thread) a process has used so far (Linux /proc; NaN elsewhere). */
export function cpuSeconds(pid) {
  const f = statFields(pid)
  return f ? ticks(f) / CLOCK_TICKS : NaN
}

/** Seconds of CPU (user + system) a process's main thread — its event loop, for node — has used so far. */
export function mainThreadCpuSeconds(pid) {
  const f = statFields(pid, `/proc/${pid}/task/${pid}/stat`)
  return f ? ticks(f) / CLOCK_TICKS : NaN
}

/**
 * Seconds of CPU a process and its children have used (a server that forks per connection,
 * as PostgreSQL does): its own, its reaped children's, and each live child's.
 */
export function treeCpuSeconds(pid) {
  const root = statFields(pid)
  if (!root) return NaN
  let total = ticks(root, true)
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const f = statFields(name)
    if (f && Number(f[1]) === pid) total += ticks(f, true)
  }
  return total / CLOCK_TICKS
}

/** Peak resident set size of a process so far, MiB (VmHWM; NaN where /proc is missing). */
export function peakRssMiB(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) / 1024 : NaN
  } catch {
    return NaN
  }
}

/** Adds up CPU seconds over closed-loop measuring windows (of a pid, or of a function that reads them): pass `onMeasure` to closedLoop. */
export function cpuMeter(source) {
  const read = typeof source === 'function' ? source : () => cpuSeconds(source)
  let start = 0
  const m = {
    seconds: 0,
    onMeasure(on) {
      const t = read()
      if (on) start = t
      else m.seconds += t - start
    },
  }
  return m
}

/** The median of numbers (the mean of the middle two when their count is even); NaN when there are none. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  if (!s.length) return NaN
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/**
 * The slow answers of open loops (their `slow` lists, merged) grouped into bursts: answers due
 * less than `gapMs` apart belong to one. A stall is one burst; steady queueing is many.
 */
export function slowBursts(slow, gapMs = 200) {
  const all = [...slow].sort((a, b) => a[0] - b[0])
  const out = []
  let b
  for (const [t, ms] of all) {
    if (b && t - b.end <= gapMs) {
      b.end = t
      b.n++
      b.max = Math.max(b.max, ms)
    } else out.push((b = {start: t, end: t, n: 1, max: ms}))
  }
  return out
}

/** How the bench's lines print figures (run.js, pg.js): whole, one or two decimals; 'n/a' when there is none. */
export const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
export const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a')
export const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a')
export const verdict = (ok) => (ok ? 'met' : 'MISSED')
export const gc = () => globalThis.gc?.()
/** ` (N errors; first: …)` after a load's line, when it had errors */
export const errNote = (r) => (r.errors ? `  (${r.errors} errors; first: ${r.firstError})` : '')
