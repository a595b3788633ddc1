// `gw listen` keeps pace (bench/README.md#listen-gw-listen-keeps-pace): the engine in a child process, `gw listen --json` in
// another, a local receiver in this process. Two figures:
//  - backlog: events already in the log when listen starts (a restart after a pause) are
//    forwarded at this rate (events/s) — how fast listen itself can go;
//  - burst: 16 clients create payments as fast as the engine takes them while listen forwards;
//    events/s received, and lag = arrival at the receiver − the event's created_at (its commit,
//    on the engine clock, which equals the wall clock of this fresh engine), p50/p99.
// Prints figures; asserts nothing. `BENCH_ONLY=listen node bench/run.js`, or `node bench/listen.js`.
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {createServer} from 'node:http'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {createInterface} from 'node:readline'
import {env, makePool, nextKey, PAYMENT_BODY, percentile, ROOT, startEngine, API_KEY} from './lib.js'

const BACKLOG = env('BENCH_LISTEN_BACKLOG', 5000)
const BURST_MS = env('BENCH_LISTEN_BURST_MS', 5000)
const CLIENTS = env('BENCH_LISTEN_CLIENTS', 16)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function receiver() {
  const arrivals = new Map()
  const waiters = []
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const at = Date.now()
      res.writeHead(200).end()
      const e = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      if (!arrivals.has(e.id)) arrivals.set(e.id, {at, created: Date.parse(e.created_at)})
      for (const w of [...waiters]) w()
    })
  })
  server.keepAliveTimeout = 60_000
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        arrivals,
        until: async (pred, ms) => {
          const end = Date.now() + ms
          while (!pred() && Date.now() < end) await new Promise((r) => {
            waiters.push(r)
            setTimeout(r, 100)
          }).then(() => waiters.splice(0))
          return pred()
        },
        close: () => new Promise((r) => {
          server.closeAllConnections()
          server.close(r)
        }),
      }),
    ),
  )
}

function startListen(cliEnv, port) {
  const pre = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`, `--cpu-prof-name=listen-${Date.now()}.cpuprofile`] : []
  const child = spawn(process.execPath, [...pre, join(ROOT, 'bin/run.js'), 'listen', '--forward-to', `127.0.0.1:${port}/hook`, '--json'], {cwd: ROOT, env: cliEnv, stdio: ['ignore', 'ignore', 'pipe']})
  const ready = new Promise((resolve, reject) => {
    const rl = createInterface({input: child.stderr})
    rl.on('line', (l) => {
      if (l.includes('Ready.')) resolve()
    })
    child.once('exit', (c) => reject(new Error(`gw listen exited ${c}`)))
  })
  return {
    ready,
    async stop() {
      child.kill('SIGINT')
      await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)))
    },
  }
}

/** `n` payments through `clients` connections, as fast as the engine takes them; or for `ms`. */
async function createPayments(engine, {n, ms, clients}) {
  const pool = makePool(engine.origin, engine.ca, clients)
  let made = 0
  const end = ms ? Date.now() + ms : Infinity
  const worker = async () => {
    while ((n === undefined || made < n) && Date.now() < end) {
      made++
      const res = await pool.request({path: '/v1/payments', method: 'POST', headers: {authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'idempotency-key': nextKey()}, body: PAYMENT_BODY})
      await res.body.dump()
    }
  }
  const t0 = performance.now()
  await Promise.all(Array.from({length: clients}, worker))
  const elapsed = performance.now() - t0
  await pool.close()
  return {made, elapsed}
}

async function eventCount(engine) {
  // every payment here makes the same events; count them once from the log
  const pool = makePool(engine.origin, engine.ca, 1)
  const res = await pool.request({path: '/v1/events?limit=100', method: 'GET', headers: {authorization: `Bearer ${API_KEY}`}})
  const body = await res.body.json()
  await pool.close()
  return body.data.length
}

export async function listenBench() {
  const root = mkdtempSync(join(tmpdir(), 'gw-bench-listen-'))
  const home = join(root, 'home')
  const cliEnv = {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GW_DATA_DIR: join(root, 'engine'), GW_NO_KEYRING: '1', NO_COLOR: '1'}
  const engine = await startEngine(join(root, 'engine'), {label: 'engine-listen'})
  const rx = await receiver()
  try {
    const login = spawnSync(process.execPath, [join(ROOT, 'bin/run.js'), 'login', '--local'], {env: cliEnv, encoding: 'utf8'})
    if (login.status !== 0) throw new Error(`gw login --local failed: ${login.stderr}`)
    // a first run keeps its position (the empty log), then stops
    let l = startListen(cliEnv, rx.port)
    await l.ready
    await l.stop()

    // (1) backlog: events created while listen was stopped
    await createPayments(engine, {n: BACKLOG, clients: CLIENTS})
    const perPayment = Math.max(1, Math.round((await eventCount(engine)) / Math.min(BACKLOG, 100)))
    const backlog = BACKLOG * perPayment
    const t0 = performance.now()
    l = startListen(cliEnv, rx.port)
    await rx.until(() => rx.arrivals.size >= backlog, 120_000)
    const backlogMs = performance.now() - t0
    const got = rx.arrivals.size
    // forwarding rate: first to last arrival (listen's own start-up, node + oclif + login, is reported apart)
    const times = [...rx.arrivals.values()].map((a) => a.at).sort((a, b) => a - b)
    const spanMs = Math.max(1, times[times.length - 1] - times[0])
    const backlogRate = (got - 1) / (spanMs / 1000)
    const firstMs = times[0] - (Date.now() - (performance.now() - t0))

    // (2) burst: live events while 16 clients create payments
    const before = new Set(rx.arrivals.keys())
    const burstStart = Date.now()
    const made = await createPayments(engine, {ms: BURST_MS, clients: CLIENTS})
    const expected = made.made * perPayment
    await rx.until(() => rx.arrivals.size - before.size >= expected, 30_000)
    const lags = []
    let last = burstStart
    for (const [id, a] of rx.arrivals) {
      if (before.has(id)) continue
      lags.push(a.at - a.created)
      last = Math.max(last, a.at)
    }
    lags.sort((a, b) => a - b)
    await l.stop()
    return {
      backlog: {events: got, expected: backlog, ms: backlogMs, rate: backlogRate, spanMs, firstMs, wallRate: got / (backlogMs / 1000)},
      burst: {
        payments: made.made,
        createRate: made.made / (made.elapsed / 1000),
        events: lags.length,
        expected,
        rate: lags.length / ((last - burstStart) / 1000),
        p50: percentile(lags, 50),
        p99: percentile(lags, 99),
        max: lags[lags.length - 1],
      },
    }
  } finally {
    await rx.close()
    await engine.stop()
    rmSync(root, {recursive: true, force: true})
  }
}

export function printListen(r) {
  const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
  const met = (ok) => (ok ? 'met' : 'MISSED')
  console.log('gw listen (engine and gw listen in child processes, receiver in this process)')
  console.log(
    `  backlog: ${f0(r.backlog.events)} of ${f0(r.backlog.expected)} events forwarded at ${f0(r.backlog.rate)} events/s (first to last arrival, ${(r.backlog.spanMs / 1000).toFixed(2)} s)   target >= 2,000: ${met(r.backlog.rate >= 2000)}`,
  )
  console.log(`           first event ${f0(r.backlog.firstMs)} ms after listen was started (its start-up); ${f0(r.backlog.wallRate)} events/s counting that`)
  console.log(
    `  burst (${CLIENTS} clients, ${f0(r.burst.createRate)} creates/s for ${BURST_MS / 1000} s): ${f0(r.burst.events)} of ${f0(r.burst.expected)} events at ${f0(r.burst.rate)} events/s; lag p50 ${f0(r.burst.p50)} ms, p99 ${f0(r.burst.p99)} ms, max ${f0(r.burst.max)} ms   target p99 <= 100 ms: ${met(r.burst.p99 <= 100)}`,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printListen(await listenBench())
}
