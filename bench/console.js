// `gw console` keeps up (docs/decisions.md#the-console), in a real terminal: tmux on a socket of its own runs the
// built CLI against `gw serve` in a child process. Two figures:
//  - keys: 10,000 payments stored (seeded as (c) seeds them: one template payment copied in the
//    database, not 10,000 API calls), Payments opened, then PageDown (and Down) to the last row:
//    ms from the key sent to the screen showing the change (capture-pane polled), p50/p99;
//  - events: payments created at a steady rate so that events arrive at ~1,000/s, watched in the
//    Events view: lag = when the console drew an event (its GW_CONSOLE_TRACE file) − the event's
//    created_at (its commit, on the engine clock, the wall clock of this engine), p50/p99, and the
//    console's CPU over the window (/proc/PID/stat) as a fraction of one core. The lag is split at
//    the wall time the console received each event (the trace's `created:received`): the engine's
//    part (commit, stream; on the same 2 cores) and the console's (its batch and its frame).
//  - keys in one read: five Downs written at once (send-keys -l jjjjj), as keys typed ahead or
//    sent over SSH arrive: ms from the write to the fifth move drawn (every key acted, in order).
// Prints figures and targets; asserts nothing. `BENCH_ONLY=console node --expose-gc bench/run.js`.
import {execFileSync, spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Agent, request} from 'undici'
import {API_KEY, PAYMENT_BODY, ROOT, cpuSeconds, env, makePool, nextKey, openLoop, paymentRequest, percentile, startEngine} from './lib.js'
import {extractTemplate, seed} from './seed.js'
import {localEnginePaths} from '../dist/local-engine.js'

const STORED = env('BENCH_CONSOLE_PAYMENTS', 10_000)
const EVENTS_RATE = env('BENCH_CONSOLE_EVENTS_RATE', 1000)
const EVENTS_MS = env('BENCH_CONSOLE_EVENTS_MS', 10_000)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/**
 * What this part started outside its own process, so that an aborted run (Ctrl-C, SIGTERM, an
 * exception) leaves nothing behind: tmux servers (daemons, outside the bench's process group),
 * the consoles in them, the engine children, the temporary directory. `leftovers()` is
 * synchronous: it runs from a signal handler and from 'exit'.
 */
const started = {sockets: new Set(), pids: new Set(), children: new Set(), dirs: new Set()}
function leftovers() {
  for (const pid of started.pids) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone already
    }
  }
  for (const socket of started.sockets) spawnSync('tmux', ['-L', socket, 'kill-server'], {stdio: 'ignore'})
  for (const child of started.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const dir of started.dirs) rmSync(dir, {recursive: true, force: true})
  started.pids.clear()
  started.sockets.clear()
  started.children.clear()
  started.dirs.clear()
}
function onSignal(signal) {
  process.stderr.write(`console bench: ${signal}: stopping its tmux server, console and engine\n`)
  leftovers()
  process.exit(signal === 'SIGINT' ? 130 : 143)
}

function terminal(socket) {
  const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})
  // -e: the selection is reverse video, which only the escapes show
  const screen = () => tmux('capture-pane', '-p', '-e', '-t', 'gw')
  return {
    tmux,
    screen,
    keys: (...k) => tmux('send-keys', '-t', 'gw', ...k),
    async until(pred, ms = 30_000, every = 20) {
      const end = Date.now() + ms
      for (;;) {
        const s = screen()
        if (pred(s)) return s
        if (Date.now() > end) throw new Error(`the console never showed what was awaited; it shows:\n${s.replace(/\u001b\[[0-9;]*m/g, '')}`)
        await sleep(every)
      }
    },
    /** the console's pid: the pane's shell exec'd it */
    pid: () => Number(tmux('display-message', '-p', '-t', 'gw', '#{pane_pid}').trim()),
    /** q, then the pane's end (the console exits; a profile is written), then the server */
    async quit() {
      try {
        tmux('send-keys', '-t', 'gw', 'q')
        const end = Date.now() + 10_000
        while (Date.now() < end) {
          tmux('has-session', '-t', 'gw')
          await sleep(100)
        }
      } catch {
        // the session ended with the console
      }
      this.close()
    },
    close() {
      try {
        tmux('kill-server')
      } catch {
        // gone already
      }
      started.sockets.delete(socket)
      started.pids.clear()
    },
  }
}

/** `gw console ARGS` in a 120×40 tmux pane, as the user logged in to the bench engine. */
function openConsole(socket, home, dataDir, args, extraEnv = {}) {
  const t = terminal(socket)
  const script = join(home, `console-${Date.now()}.sh`)
  // BENCH_PROFILE=DIR: the console writes a CPU profile there when it quits (q, below)
  const prof = process.env.BENCH_PROFILE ? `--cpu-prof --cpu-prof-dir='${process.env.BENCH_PROFILE}' ` : ''
  const vars = {HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GW_DATA_DIR: dataDir, GW_NO_KEYRING: '1', ...extraEnv}
  writeFileSync(script, ['unset CI NO_COLOR', ...Object.entries(vars).map(([k, v]) => `export ${k}='${v}'`), `exec '${process.execPath}' ${prof}'${join(ROOT, 'bin/run.js')}' console ${args.join(' ')}`].join('\n'))
  started.sockets.add(socket)
  t.tmux('new-session', '-d', '-s', 'gw', '-x', '120', '-y', '40', `sh '${script}'`)
  started.pids.add(t.pid())
  return t
}

const plain = (s) => s.replace(/\u001b\[[0-9;]*m/g, '')

/** The list part of the screen: below the search line, without the ticking clock and ages. */
const body = (s) => s.split('\n').slice(3).join('\n').replace(/updated [^\n]*?(ago|just now)/g, '')

async function keysPart(t) {
  await t.until((s) => /[\d,]+ payments\b/.test(plain(s)), 60_000)
  const times = []
  let done = false
  const pid = t.pid()
  const cpu0 = cpuSeconds(pid)
  const stop = Date.now() + env('BENCH_CONSOLE_KEYS_MS', 180_000)
  for (let i = 0; !done && Date.now() < stop; i++) {
    const before = body(t.screen())
    const key = i % 10 === 9 ? 'Down' : 'NPage'
    const t0 = performance.now()
    t.keys(key)
    let changed = false
    const end = Date.now() + 2000
    while (Date.now() < end) {
      if (body(t.screen()) !== before) {
        changed = true
        break
      }
      await sleep(2)
    }
    if (changed) times.push(performance.now() - t0)
    done = !changed && new RegExp(`${STORED.toLocaleString('en-US')} payments(?!, more)`).test(plain(t.screen()))
  }
  const cpuMs = ((cpuSeconds(pid) - cpu0) * 1000) / Math.max(1, times.length)
  times.sort((a, b) => a - b)
  return {cpuMs, presses: times.length, p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1], reachedEnd: done}
}

/** The row of the screen in reverse video below the heading (the selection), or -1. */
const selectedRow = (s) => s.split('\n').findIndex((l, i) => i > 3 && [...l.matchAll(/\u001b\[([0-9;]*)m/g)].some((m) => m[1].split(';').includes('7')))

/**
 * Keys in one read, as a terminal sends what was typed ahead or arrived over SSH together:
 * `send-keys -l jjjjj` (five Downs in one write) from the top of the list; ms from the write to
 * the selection drawn five rows down (every key acted, in order), p50/p99, and per key.
 */
async function chunkPart(t, chunks = env('BENCH_CONSOLE_CHUNKS', 30), size = 5) {
  const times = []
  const pid = t.pid()
  const cpu0 = cpuSeconds(pid)
  let missed = 0
  const top = async () => {
    t.keys('g')
    await t.until((s) => selectedRow(s) >= 0 && selectedRow(s) <= 5, 5000)
    await sleep(100)
  }
  await top()
  for (let i = 0; i < chunks; i++) {
    let before = selectedRow(t.screen())
    // room below for five rows inside the window (40 lines: rows 4..36); else back to the top
    if (before + size > 33) {
      await top()
      before = selectedRow(t.screen())
    }
    const t0 = performance.now()
    t.tmux('send-keys', '-t', 'gw', '-l', 'j'.repeat(size))
    const end = Date.now() + 3000
    let ok = false
    while (Date.now() < end) {
      if (selectedRow(t.screen()) === before + size) {
        ok = true
        break
      }
      await sleep(2)
    }
    if (ok) times.push(performance.now() - t0)
    else missed++
  }
  const cpuMs = ((cpuSeconds(pid) - cpu0) * 1000) / Math.max(1, times.length)
  times.sort((a, b) => a - b)
  return {size, chunks: times.length, missed, p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1], cpuMs}
}

async function eventsPerPayment(engine) {
  const agent = new Agent({connect: {ca: engine.ca}})
  const get = async (path) => (await (await request(`${engine.base_url}${path}`, {headers: {authorization: `Bearer ${API_KEY}`}, dispatcher: agent})).body.json())
  const newest = (await get('/events?limit=1')).data[0]?.id
  const pool = makePool(engine.origin, engine.ca, 1)
  for (let i = 0; i < 5; i++) await (await pool.request({path: '/v1/payments', method: 'POST', headers: {authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'idempotency-key': nextKey()}, body: PAYMENT_BODY})).body.dump()
  await pool.close()
  const after = await get(`/events?limit=100${newest ? `&ending_before=${newest}` : ''}`)
  await agent.close()
  return Math.max(1, Math.round(after.data.length / 5))
}

async function eventsPart(engine, t, tracePath) {
  await t.until((s) => plain(s).includes('● live'), 60_000)
  const per = await eventsPerPayment(engine)
  await sleep(500)
  writeFileSync(tracePath, '')
  const pid = t.pid()
  const load0 = loadavg()[0]
  const cpu0 = cpuSeconds(pid)
  const w0 = performance.now()
  const wallStart = Date.now()
  const r = await openLoop({origin: engine.origin, ca: engine.ca, rate: EVENTS_RATE / per, connections: 32, warmupMs: 0, durationMs: EVENTS_MS, makeRequest: paymentRequest('/v1/payments')})
  const cpuS = cpuSeconds(pid) - cpu0
  const cpu = cpuS / ((performance.now() - w0) / 1000)
  const load1 = loadavg()[0]
  await sleep(1000)
  const lags = []
  const engineLags = []
  const consoleLags = []
  let first = Infinity
  let last = 0
  for (const line of readFileSync(tracePath, 'utf8').split('\n')) {
    if (!line) continue
    const [at, list] = line.split(' ')
    for (const c of list.split(',')) {
      const [created, received] = c.split(':').map(Number)
      if (created < wallStart) continue
      lags.push(Number(at) - created)
      if (Number.isFinite(received)) {
        engineLags.push(received - created)
        consoleLags.push(Number(at) - received)
      }
      first = Math.min(first, created)
      last = Math.max(last, created)
    }
  }
  for (const l of [lags, engineLags, consoleLags]) l.sort((a, b) => a - b)
  const split = engineLags.length ? {engine: {p50: percentile(engineLags, 50), p99: percentile(engineLags, 99)}, console: {p50: percentile(consoleLags, 50), p99: percentile(consoleLags, 99)}} : undefined
  return {cpuMsPerEvent: (cpuS * 1000) / Math.max(1, lags.length), perPayment: per, created: r.count, errors: r.errors, events: lags.length, rate: lags.length / Math.max(0.001, (last - first) / 1000), p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags[lags.length - 1], split, cpu, load: [load0, load1]}
}

export async function consoleBench() {
  if (!existsSync(join(ROOT, 'dist', 'commands', 'console.js'))) throw new Error('dist/ is missing: npm run build first')
  const root = mkdtempSync(join(tmpdir(), 'gw-bench-console-'))
  const home = join(root, 'home')
  const socket = `gw-bench-console-${process.pid}`
  const out = {}
  started.dirs.add(root)
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  process.on('exit', leftovers)
  try {
    // a template payment from a throwaway engine, then 10,000 copies of it in the bench's store
    const a = await startEngine(join(root, 'a'), {label: 'engine-console-template'})
    started.children.add(a.child)
    let template
    try {
      const agent = new Agent({connect: {ca: a.ca}})
      const reference = 'bench-console-template-0001'
      const idemKey = 'bench-console-template-key-0001'
      const res = await request(`${a.base_url}/payments`, {method: 'POST', dispatcher: agent, headers: {authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'idempotency-key': idemKey}, body: JSON.stringify({...JSON.parse(PAYMENT_BODY), reference})})
      const p = await res.body.json()
      await agent.close()
      template = extractTemplate(localEnginePaths(join(root, 'a')).database, p.id, {reference, idemKey})
    } finally {
      await a.stop()
    }
    const dataDir = join(root, 'b')
    // seeded in a child: the store's threads refuse the bench's --expose-gc
    const templateFile = join(root, 'template.json')
    writeFileSync(templateFile, JSON.stringify(template))
    const seeded = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--seed', dataDir, String(STORED), templateFile], {encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})
    if (seeded.status !== 0) throw new Error(`seeding ${STORED} payments failed: ${seeded.stderr}`)
    const engine = await startEngine(dataDir, {label: 'engine-console', durability: 'normal'})
    started.children.add(engine.child)
    try {
      const login = spawnSync(process.execPath, [join(ROOT, 'bin/run.js'), 'login', '--local'], {env: {...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GW_DATA_DIR: dataDir, GW_NO_KEYRING: '1'}, encoding: 'utf8'})
      if (login.status !== 0) throw new Error(`gw login --local failed: ${login.stderr}`)

      let t = openConsole(socket, home, dataDir, ['--view', 'payments'])
      try {
        const load0 = loadavg()[0]
        out.keys = await keysPart(t)
        out.keys.load = [load0, loadavg()[0]]
        process.stderr.write(`console keys: ${JSON.stringify(out.keys)}\n`)
        const load1 = loadavg()[0]
        out.chunk = await chunkPart(t)
        out.chunk.load = [load1, loadavg()[0]]
        process.stderr.write(`console keys in one read: ${JSON.stringify(out.chunk)}\n`)
      } finally {
        await t.quit()
      }

      const trace = join(root, 'trace.txt')
      t = openConsole(socket, home, dataDir, ['--view', 'events'], {GW_CONSOLE_TRACE: trace})
      try {
        out.events = await eventsPart(engine, t, trace)
      } finally {
        await t.quit()
      }
    } finally {
      await engine.stop()
    }
  } finally {
    // an exception included: whatever is still running goes with the directory
    leftovers()
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
    process.off('exit', leftovers)
  }
  return out
}

export function printConsole(r, log = console.log) {
  const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
  const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a')
  const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a')
  const met = (ok) => (ok ? 'met' : 'MISSED')
  log('gw console (in tmux 120×40; the engine in a child process)')
  const k = r.keys
  log(`  keys: ${f0(STORED)} payments stored, Payments scrolled to the end with PageDown/Down: ${f0(k.presses)} presses${k.reachedEnd ? '' : ' (the end was NOT reached)'}; key sent → screen changed p50 ${f1(k.p50)} ms, p99 ${f1(k.p99)} ms, max ${f1(k.max)} ms   target < 100 ms: ${met(k.p99 < 100)}; the console's CPU ${f1(k.cpuMs)} ms per press   (load ${f2(k.load[0])} → ${f2(k.load[1])})`)
  const c = r.chunk
  if (c)
    log(`  keys in one read: ${c.size} per read (send-keys -l ${'j'.repeat(c.size)}), ${f0(c.chunks)} reads${c.missed ? ` (${c.missed} NOT all acted on)` : ''}; read sent → the ${c.size}th move drawn p50 ${f1(c.p50)} ms, p99 ${f1(c.p99)} ms, max ${f1(c.max)} ms, per key p99 ${f1(c.p99 / c.size)} ms   target < 100 ms a key: ${met(c.p99 / c.size < 100 && !c.missed)}; the console's CPU ${f1(c.cpuMs)} ms per read   (load ${f2(c.load[0])} → ${f2(c.load[1])})`)
  const e = r.events
  log(`  events: ${f0(e.created)} payments × ${e.perPayment} events at ${f0(EVENTS_RATE)} events/s offered; ${f0(e.events)} drawn at ${f0(e.rate)} events/s; lag (drawn − created_at) p50 ${f0(e.p50)} ms, p99 ${f0(e.p99)} ms, max ${f0(e.max)} ms   target p99 <= 200 ms: ${met(e.p99 <= 200)}`)
  if (e.split) log(`          of which created_at → received by the console (the engine's commit and stream) p50 ${f0(e.split.engine.p50)} ms, p99 ${f0(e.split.engine.p99)} ms; received → drawn (the console's batch and frame) p50 ${f0(e.split.console.p50)} ms, p99 ${f0(e.split.console.p99)} ms`)
  log(`          console CPU ${f2(e.cpu)} of a core   target < 0.5: ${met(e.cpu < 0.5)}; ${f2(e.cpuMsPerEvent)} ms of CPU per event drawn   (load ${f2(e.load[0])} → ${f2(e.load[1])}${e.errors ? `; ${e.errors} create errors` : ''})`)
}

// the seeding child: node bench/console.js --seed DIR N TEMPLATE.json
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--seed') {
  const [dir, n, file] = process.argv.slice(3)
  await seed(dir, JSON.parse(readFileSync(file, 'utf8')), Number(n))
}
