// (pg-fleet) what a fleet on one PostgreSQL database costs, by instance count: each instance's
// fixed cost (CPU while idle, and while another instance takes the load: polls, LISTEN wake-ups,
// claim rounds, the fleet reporter) and the cost of a payment (engine and database CPU, and the
// counts that hold on any machine: statements, round trips, transactions, WAL flushes and commit
// group sizes). Counts come from pg_stat_statements and pg_stat_database/pg_stat_wal in the
// throwaway cluster, and the instances' own counters (gw_store_* on /metrics). bench/README
// projects a larger fleet's rate from these figures. `node bench/pg-fleet.js` runs it alone.
import {join} from 'node:path'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {createRequire} from 'node:module'
import {Agent, request} from 'undici'
import {DURABILITY, closedLoopFleet, cpuSeconds, env, median, openLoop, paymentRequest, ROOT, startEngine, startHello, treeCpuSeconds} from './lib.js'

const pg = createRequire(join(ROOT, 'package.json'))('pg')
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** A throwaway cluster with pg_stat_statements loaded (and BENCH_PG_SETTINGS, `name = value` separated by `;`: e.g. commit_delay). */
export async function statsCluster() {
  const {startCluster} = await import('../dist/engine/store/postgres/cluster.js')
  const extra = (process.env.BENCH_PG_SETTINGS ?? '').split(';').map((x) => x.trim()).filter(Boolean)
  return startCluster({fsync: DURABILITY === 'full', settings: [`shared_preload_libraries = 'pg_stat_statements'`, ...extra]})
}

/** The database's counters now: statements by text (calls, rows), transactions, WAL. */
async function dbCounters(client, db, dbc) {
  const st = await client.query('SELECT s.query, s.calls::float8 AS calls, s.rows::float8 AS rows FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1', [db])
  // (payments: the rows, read at the same moment; the cumulative statistics below lag by up to a second)
  const x = (await client.query('SELECT xact_commit::float8 AS commits, xact_rollback::float8 AS rollbacks FROM pg_stat_database WHERE datname = $1', [db])).rows[0]
  x.payments = (await dbc.query('SELECT count(*)::float8 AS n FROM payments')).rows[0].n
  const w = (await client.query('SELECT wal_records::float8 AS records, wal_bytes::float8 AS bytes, wal_write::float8 AS writes, wal_sync::float8 AS syncs FROM pg_stat_wal')).rows[0]
  const statements = new Map()
  for (const r of st.rows) {
    const k = shape(r.query)
    const prev = statements.get(k) ?? {calls: 0, rows: 0}
    statements.set(k, {calls: prev.calls + r.calls, rows: prev.rows + r.rows})
  }
  return {statements, ...x, wal: w}
}

/** A statement's text with its VALUES lists and parameters folded (a group's insert of 3 rows and of 7 is one shape). */
const shape = (q) => q.replace(/\s+/g, ' ').replace(/VALUES (\([^)]*\)(, )?)+/g, 'VALUES (…)').replace(/\$\d+/g, '$').slice(0, 140)

function diff(a, b) {
  const statements = new Map()
  for (const [k, v] of b.statements) {
    const p = a.statements.get(k) ?? {calls: 0, rows: 0}
    if (v.calls - p.calls > 0) statements.set(k, {calls: v.calls - p.calls, rows: v.rows - p.rows})
  }
  return {statements, payments: b.payments - a.payments, commits: b.commits - a.commits, rollbacks: b.rollbacks - a.rollbacks, wal: Object.fromEntries(Object.keys(b.wal).map((k) => [k, b.wal[k] - a.wal[k]]))}
}

/** An instance's gw_store_* counters from its /metrics (round trips, commit groups and the change sets in them). */
async function storeCounters(e) {
  const dispatcher = new Agent({connect: {ca: e.ca}})
  try {
    const res = await request(`${e.origin}/metrics`, {dispatcher})
    const text = await res.body.text()
    const out = {}
    for (const m of text.matchAll(/^(gw_store_[a-z_]+_total)(\{[^}]*\})? ([0-9.e+-]+)$/gm)) out[m[1] + (m[2] ?? '')] = (out[m[1] + (m[2] ?? '')] ?? 0) + Number(m[3])
    return out
  } finally {
    await dispatcher.close()
  }
}
const sumCounters = (list) => list.reduce((a, c) => (Object.entries(c).forEach(([k, v]) => (a[k] = (a[k] ?? 0) + v)), a), {})
const minus = (b, a) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v - (a[k] ?? 0)]))

/** Counters, engine CPU (each instance) and database CPU, read together. */
async function snapshot(client, db, dbc, es, postmaster) {
  const [counters, store] = await Promise.all([dbCounters(client, db, dbc), Promise.all(es.map(storeCounters))])
  return {counters, store, cpu: es.map((e) => cpuSeconds(e.child.pid)), dbCpu: treeCpuSeconds(postmaster), t: performance.now()}
}
function span(a, b) {
  return {
    seconds: (b.t - a.t) / 1000,
    db: diff(a.counters, b.counters),
    store: b.store.map((s, i) => minus(s, a.store[i])),
    cpu: b.cpu.map((c, i) => c - a.cpu[i]),
    dbCpu: b.dbCpu - a.dbCpu,
  }
}
const payments = (s) => s.db.payments

/** Two spans of one fleet added (rounds of the same load): seconds, counts and CPU. */
function addSpans(a, b) {
  if (!a) return b
  const statements = new Map(a.db.statements)
  for (const [k, v] of b.db.statements) {
    const p = statements.get(k) ?? {calls: 0, rows: 0}
    statements.set(k, {calls: p.calls + v.calls, rows: p.rows + v.rows})
  }
  const wal = Object.fromEntries(Object.keys(b.db.wal).map((k) => [k, a.db.wal[k] + b.db.wal[k]]))
  return {
    seconds: a.seconds + b.seconds,
    db: {statements, payments: a.db.payments + b.db.payments, commits: a.db.commits + b.db.commits, rollbacks: a.db.rollbacks + b.db.rollbacks, wal},
    store: a.store.map((s, i) => sumCounters([s, b.store[i]])),
    cpu: a.cpu.map((c, i) => c + b.cpu[i]),
    dbCpu: a.dbCpu + b.dbCpu,
  }
}

/** A fleet of `n` instances on a fresh database of `cluster`, and what measures it. */
async function openFleet({cluster, root, n}) {
  const db = `fleet_${n}_${Date.now().toString(36)}`
  const url = await cluster.createDatabase(db)
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
  const client = new pg.Client({connectionString: cluster.url})
  await client.connect()
  const dbc = new pg.Client({connectionString: url})
  await dbc.connect()
  const es = []
  const close = async () => {
    for (const e of es) await e.stop()
    await client.end()
    await dbc.end()
  }
  try {
    for (let i = 0; i < n; i++) es.push(await startEngine(join(root, `fleet-${n}-${i}`), {label: `fleet-${n}-${i}`, args: ['--store', url, '--secrets-key-file', join(root, `fleet-${n}-secrets.key`)]}))
  } catch (e) {
    await close()
    throw e
  }
  const snap = () => snapshot(client, db, dbc, es, postmaster)
  return {
    n,
    db,
    es,
    close,
    /** every instance's background work with no request, for `idleMs` */
    async idle(idleMs) {
      const a = await snap()
      await sleep(idleMs)
      return span(a, await snap())
    },
    /** an open loop of `rateEach` payments a second on each of `targets`, after `warmupMs` of the same unmeasured */
    async open(targets, {rateEach, warmupMs, durationMs}) {
      const run = (ms) => Promise.all(targets.map((e) => openLoop({origin: e.origin, ca: e.ca, rate: rateEach, connections: 16, warmupMs: 0, durationMs: ms, makeRequest: paymentRequest('/v1/payments')})))
      await run(warmupMs)
      const a = await snap()
      const rs = await run(durationMs)
      return {p99: Math.max(...rs.map((r) => r.p99)), errors: rs.reduce((x, r) => x + r.errors, 0), span: span(a, await snap())}
    },
    /** the closed load of (a) on `targets` (some or all of `es`) */
    async load(targets, {connections, warmupMs, durationMs}) {
      let s0, s1
      const r = await closedLoopFleet({targets, connections, warmupMs, durationMs, makeRequest: paymentRequest('/v1/payments'), onMeasure: (on) => void (on ? (s0 = snap()) : (s1 = snap()))})
      return {load: r, span: span(await s0, await s1)}
    },
  }
}

/** CPU µs a request of `target` (origin, ca, child) in an open loop at each of `rates`, after `warmupMs` of each unmeasured. */
async function costAt(target, rates, {warmupMs, durationMs}) {
  const at = []
  for (const rate of rates) {
    const run = (ms) => openLoop({origin: target.origin, ca: target.ca, rate, connections: 16, warmupMs: 0, durationMs: ms, makeRequest: paymentRequest('/v1/payments')})
    await run(warmupMs)
    const c0 = cpuSeconds(target.child.pid)
    const r = await run(durationMs)
    at.push({rate, us: ((cpuSeconds(target.child.pid) - c0) * 1e6) / Math.max(1, r.count + r.errors)})
  }
  return at
}

/**
 * The fleets' closed loop on node's TLS hello world (no gw code): one server answering after the
 * one-instance fleet's median latency, and three answering after the three's, so each runs at
 * about its fleet's rate per instance; `rounds` rounds, the two in turn. CPU µs a request of each.
 */
async function helloFleets(engine, delays, {connections, warmupMs, durationMs, rounds}) {
  const started = []
  try {
    for (const n of [1, 3]) for (let i = 0; i < n; i++) started.push({n, h: await startHello(engine.tlsDir, {delayMs: Math.max(1, Math.round(delays[n]))})})
    const out = {1: [], 3: []}
    for (let r = 0; r < rounds; r++) {
      for (const n of r % 2 ? [3, 1] : [1, 3]) {
        const hs = started.filter((x) => x.n === n).map((x) => x.h)
        let c0 = []
        let cpu = 0
        const onMeasure = (on) => {
          const now = hs.map((h) => cpuSeconds(h.child.pid))
          if (on) c0 = now
          else cpu = now.reduce((a, c, i) => a + c - c0[i], 0)
        }
        const res = await closedLoopFleet({targets: hs.map((h) => ({origin: h.origin, ca: engine.ca})), connections, warmupMs: r ? 1000 : 2 * warmupMs, durationMs, makeRequest: paymentRequest('/v1/payments'), onMeasure})
        out[n].push({rps: res.rps, us: (cpu * 1e6) / Math.max(1, res.count)})
      }
    }
    const ratios = out[3].map((x, i) => x.us / out[1][i].us)
    return {delays, one: out[1], three: out[3], ratios, median: median(ratios)}
  } finally {
    for (const x of started) await x.h.stop()
  }
}

/**
 * The platform at `rates`: node's TLS hello world (bench/hello-server.js on the engine's key, no
 * gw code) and one gw instance on SQLite (no PostgreSQL), each in an open loop at every rate.
 */
async function platformAt(root, engine, rates, o) {
  const h = await startHello(engine.tlsDir)
  let hello
  try {
    hello = await costAt({...h, ca: engine.ca}, rates, o)
  } finally {
    await h.stop()
  }
  const e = await startEngine(join(root, 'platform-sqlite'), {label: 'platform-sqlite'})
  try {
    // (its JIT warmed as the fleets' were: a closed loop's worth of payments first)
    await costAt(e, [rates[0]], {warmupMs: 2 * o.warmupMs, durationMs: 0})
    return {hello, sqlite: await costAt(e, rates, o)}
  } finally {
    await e.stop()
  }
}

/**
 * The fleets of `sizes` (1 and 3 instances) on databases of one cluster: each one's idle, with
 * n > 1 the load on its first instance only, then `rounds` rounds of the load spread over all its
 * instances, the fleets in turn (the order swapped each round), so a drifting machine hits both
 * alike and the 3/1 ratios are taken round by round. The other fleet idles meanwhile.
 */
export async function measureFleets({cluster, root, sizes, rounds, idleMs = 10_000, settleMs = 3000, warmupMs = 2000, durationMs = 4000, connections = 32, splitShare = 0.6, platform = true, vacuum = true}) {
  const fleets = []
  const out = {}
  try {
    for (const n of sizes) {
      const f = await openFleet({cluster, root, n})
      fleets.push(f)
      // idle once start-up has settled (its module loading, JIT and first collections are not the fixed cost)
      await sleep(settleMs)
      out[n] = {n, idle: await f.idle(idleMs), rounds: []}
      // the load on its first instance alone: with n > 1 what the others spend meanwhile; with one
      // instance it gives its database the same history, so that both fleets' rounds start alike
      const one = await f.load([f.es[0]], {connections, warmupMs, durationMs})
      if (n > 1) out[n].one = one
    }
    // and each database vacuumed and analyzed, as a running one is (the load's fresh rows would
    // otherwise have autovacuum's first pass fall in the first rounds, the larger database's first)
    if (vacuum) for (const f of fleets) await cluster.sql('VACUUM ANALYZE', f.db)
    for (let r = 0; r < rounds; r++) {
      for (const f of r % 2 ? [...fleets].reverse() : fleets) {
        // a fleet's first window warms it twice as long (an instance's CPU per payment is still
        // falling after 2 s of load: JIT); later ones only reopen connections
        const w = await f.load(f.es, {connections, warmupMs: out[f.n].rounds.length ? Math.min(warmupMs, 1000) : 2 * warmupMs, durationMs})
        out[f.n].rounds.push(w)
      }
    }
    for (const n of sizes) out[n].all = {load: {errors: out[n].rounds.reduce((a, w) => a + w.load.errors, 0)}, span: out[n].rounds.reduce((a, w) => addSpans(a, w.span), undefined)}
    // the same open load Q (a share of the fleet of three's closed rate) on one instance and spread
    // over three, and a third of it on one instance: the fleet's cost per payment against one
    // instance's at the same rate per instance tells what neighbours cost from what a smaller share of the load costs
    const one = fleets.find((f) => f.n === 1)
    const three = fleets.find((f) => f.n === 3)
    if (one && three && splitShare > 0) {
      const q = Math.max(30, Math.round((splitShare * payments(out[3].all.span)) / out[3].all.span.seconds / 3) * 3)
      const o = {warmupMs: 1000, durationMs}
      out.split = {rate: q, one: await one.open(one.es, {rateEach: q, ...o}), three: await three.open(three.es, {rateEach: q / 3, ...o}), oneThird: await one.open(one.es, {rateEach: q / 3, ...o})}
    }
    // the platform at the same rates: node's TLS hello world (no gw code) at the rate one instance
    // served and at each of three's, and at the open loop's two, so that what a smaller share of
    // the load costs any node server on this machine is told from what it costs gw
    if (one && three && platform) {
      const rate = (n) => payments(out[n].all.span) / out[n].all.span.seconds / n
      const rates = [rate(1), rate(3), ...(out.split ? [out.split.rate, out.split.rate / 3] : [])].map((r) => Math.max(10, Math.round(r)))
      out.platform = await platformAt(root, one.es[0], rates, {warmupMs: 1000, durationMs})
      const p50 = (n) => median(out[n].rounds.map((w) => w.load.p50))
      out.platform.closed = await helloFleets(one.es[0], {1: p50(1), 3: p50(3)}, {connections, warmupMs, durationMs, rounds})
    }
    return out
  } finally {
    for (const f of fleets) await f.close()
  }
}

/** Per payment: statements, round trips, transactions, WAL flushes, notices, group sizes, CPU. */
export function perPayment(s) {
  const p = payments(s)
  const calls = [...s.db.statements.values()].reduce((a, v) => a + v.calls, 0)
  const st = sumCounters(s.store)
  return {
    payments: p,
    rps: p / s.seconds,
    statements: calls / p,
    roundTrips: st.gw_store_round_trips_total / p,
    commits: s.db.commits / p,
    walFlushes: s.db.wal.syncs / p,
    groupSize: st.gw_store_committed_change_sets_total / st.gw_store_commit_groups_total,
    groupsPerSecond: st.gw_store_commit_groups_total / s.seconds,
    notices: st.gw_store_notices_total / p,
    engineUs: (s.cpu.reduce((a, c) => a + c, 0) * 1e6) / p,
    dbUs: (s.dbCpu * 1e6) / p,
  }
}

/** The statements of a span by calls per unit (a payment, a second), most first. */
export function topStatements(s, per, limit = 25) {
  return [...s.db.statements].sort((x, y) => y[1].calls - x[1].calls).slice(0, limit).map(([k, v]) => `${(v.calls / per).toFixed(3).padStart(9)}  ${k}`)
}

/** CPU (ms per second) of each instance over a span. */
const msPerSec = (s) => s.cpu.map((c) => (c * 1000) / s.seconds)
const mean = (xs) => xs.reduce((a, x) => a + x, 0) / xs.length

/**
 * The fleet's model (bench/README "A fleet on PostgreSQL"): one instance and three, on their own
 * databases of a cluster with pg_stat_statements. Returns the figures; printFleet prints them.
 */
export async function fleetBench(root, {sizes = [1, 3], rounds = Math.max(1, env('BENCH_FLEET_ROUNDS', 3)), idleMs = env('BENCH_FLEET_IDLE_MS', 10_000), settleMs = env('BENCH_FLEET_SETTLE_MS', 3000), splitShare = env('BENCH_FLEET_SPLIT', 0.6), durationMs = env('BENCH_FLEET_MS', 4000), warmupMs = 2000, connections = 32, platform = env('BENCH_FLEET_PLATFORM', 1) !== 0, vacuum = env('BENCH_FLEET_VACUUM', 1) !== 0} = {}) {
  const cluster = await statsCluster()
  try {
    await cluster.sql('CREATE EXTENSION pg_stat_statements')
    const out = {}
    const ms = await measureFleets({cluster, root, sizes, rounds, idleMs, settleMs, durationMs, warmupMs, connections, splitShare, platform, vacuum})
    if (ms.platform) out.platform = ms.platform
    if (ms.split) {
      const x = ms.split
      out.split = {rate: x.rate, one: {...perPayment(x.one.span), p99: x.one.p99}, three: {...perPayment(x.three.span), p99: x.three.p99}, oneThird: {...perPayment(x.oneThird.span), p99: x.oneThird.p99}}
    }
    for (const n of sizes) {
      const m = ms[n]
      out[n] = {
        idleMsPerSec: mean(msPerSec(m.idle)),
        idleEach: msPerSec(m.idle),
        idleSeconds: m.idle.seconds,
        idleDbMsPerSec: (m.idle.dbCpu * 1000) / m.idle.seconds,
        idleStatementsPerSec: [...m.idle.db.statements.values()].reduce((a, v) => a + v.calls, 0) / m.idle.seconds / n,
        idleTop: topStatements(m.idle, m.idle.seconds * n, 6),
        all: perPayment(m.all.span),
        rounds: m.rounds.map((w) => perPayment(w.span)),
        top: topStatements(m.all.span, payments(m.all.span), 12),
        errors: m.all.load.errors,
      }
      if (m.one) {
        // the instances without load, while the first takes it: what another instance's commits cost them
        const s = m.one.span
        const others = msPerSec(s).slice(1)
        const notices = s.store.slice(1).reduce((a, c) => a + (c.gw_store_notices_total ?? 0), 0) / (n - 1)
        out[n].besideMsPerSec = mean(others)
        out[n].besideNoticesPerSec = notices / s.seconds
        out[n].besideRps = payments(s) / s.seconds
        out[n].besideAboveIdle = mean(others) - out[n].idleMsPerSec
        // (an instance that heard no notice has no cost per notice: what it spent above idle is its timers' noise)
        out[n].usPerNotice = notices > 0 ? (out[n].besideAboveIdle * 1000) / (notices / s.seconds) : 0
      }
    }
    return out
  } finally {
    await cluster.stop()
  }
}

/** 3 instances / 1, round by round (the rounds of the two fleets alternate in the same minutes), and the medians that decide the targets. */
export function fleetRatios(f) {
  if (!f[3] || !f[1]) return undefined
  const k = Math.min(f[3].rounds.length, f[1].rounds.length)
  const by = (field) => Array.from({length: k}, (_, r) => f[3].rounds[r][field] / f[1].rounds[r][field])
  const engines = by('engineUs')
  const database = by('dbUs')
  const roundTrips = by('roundTrips')
  return {engines, database, roundTrips, median: {engines: median(engines), database: median(database), roundTrips: median(roundTrips)}}
}

/**
 * The rate N instances on C cores could serve by this run's figures (bench/README): what a payment
 * costs with three instances, less their fixed costs, the fixed costs of N instances, and the
 * notices each instance handles of the others' commit groups (N-1 of them per group).
 */
export function project(f, {instances = 8, cores = 16} = {}) {
  const three = f[3] ?? f[1]
  const n3 = f[3] ? 3 : 1
  const perPayment = (three.all.engineUs + three.all.dbUs) / 1e6 - (n3 * three.idleMsPerSec) / 1000 / three.all.rps
  const fixed = (instances * f[1].idleMsPerSec) / 1000
  // every instance commits about as many groups a second as here, and hears of the others'
  const groupsPerInstance = three.all.groupsPerSecond / n3
  const notices = (instances * (instances - 1) * groupsPerInstance * Math.max(0, three.usPerNotice ?? 0)) / 1e6
  return {instances, cores, perPaymentUs: perPayment * 1e6, fixedCores: fixed, noticeCores: notices, rps: (cores - fixed - notices) / perPayment}
}

/** The fleets' figures of fleetBench's answer, by instance count (not its `split` and `platform` parts). */
const fleetsOf = (f) => Object.entries(f).filter(([n]) => /^\d+$/.test(n))

export function printFleet(f, log) {
  const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
  const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a')
  const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a')
  for (const [n, x] of fleetsOf(f)) {
    log(`(pg fleet) ${n} instance${n > 1 ? 's' : ''} idle (${f1(x.idleSeconds)} s, from ${f1(env('BENCH_FLEET_SETTLE_MS', 3000) / 1000)} s after the instances were ready): ${f1(x.idleMsPerSec)} ms of CPU a second per instance${x.idleEach.length > 1 ? ` (${x.idleEach.map(f1).join(' / ')})` : ''}, database ${f1(x.idleDbMsPerSec)} ms/s, ${f1(x.idleStatementsPerSec)} statements a second per instance`)
    if (x.besideMsPerSec !== undefined)
      log(`(pg fleet) ${n} instances, the load (${f0(x.besideRps)} req/s) on one: each other instance ${f1(x.besideMsPerSec)} ms/s (${x.besideAboveIdle >= 0 ? '+' : ''}${f1(x.besideAboveIdle)} on idle), ${f0(x.besideNoticesPerSec)} notices/s, ${x.besideNoticesPerSec > 0 ? `${f0(x.usPerNotice)} µs per notice above idle` : 'no notice heard'}`)
    const a = x.all
    const perRound = (k) => (x.rounds?.length > 1 ? ` (rounds ${x.rounds.map((r) => f0(r[k])).join(' / ')})` : '')
    log(
      `(pg fleet) ${n} instance${n > 1 ? 's' : ''} under load: ${f0(a.rps)} req/s; per payment engines ${f0(a.engineUs)} µs${perRound('engineUs')}, database ${f0(a.dbUs)} µs${perRound('dbUs')}; ${f2(a.statements)} statements, ${f2(a.roundTrips)} round trips, ${f2(a.commits)} commits, ${f2(a.walFlushes)} WAL flushes, ${f2(a.notices)} notices; commit groups of ${f1(a.groupSize)} (${f0(a.groupsPerSecond)}/s)${x.errors ? `; ${x.errors} errors` : ''}`,
    )
  }
  const r = fleetRatios(f)
  if (r) {
    const rounds = (xs) => (xs.length > 1 ? ` (rounds ${xs.map(f2).join(' / ')})` : '')
    const ok = (x) => (x <= 1.2 ? 'met' : 'MISSED')
    log(`(pg fleet) 3 instances / 1, median of ${r.engines.length} rounds: engines ${f2(r.median.engines)}x CPU per payment${rounds(r.engines)} target <= 1.2: ${ok(r.median.engines)}; database ${f2(r.median.database)}x${rounds(r.database)} target <= 1.2: ${ok(r.median.database)}; round trips ${f2(r.median.roundTrips)}x`)
  }
  if (f.split) {
    const {rate, one, three, oneThird} = f.split
    const line = (x) => `engines ${f0(x.engineUs)} µs, database ${f0(x.dbUs)} µs, ${f2(x.roundTrips)} round trips, groups of ${f1(x.groupSize)}, p99 ${f0(x.p99)} ms`
    log(`(pg fleet) open loop of ${f0(rate)} req/s: 1 instance ${line(one)}; 3 instances (${f0(rate / 3)} each) ${line(three)}; 1 instance at ${f0(rate / 3)} req/s ${line(oneThird)}`)
    log(`(pg fleet) same open load: 3 instances / 1 instance ${f2(three.engineUs / one.engineUs)}x engines, ${f2(three.dbUs / one.dbUs)}x database; 3 instances / 1 instance at a third of it (the same rate per instance: what neighbours cost) ${f2(three.engineUs / oneThird.engineUs)}x engines, ${f2(three.dbUs / oneThird.dbUs)}x database`)
  }
  if (f.platform && r) {
    const {hello, sqlite} = f.platform
    const at = (xs) => xs.map((x) => `${f0(x.us)} µs at ${f0(x.rate)}`).join(', ')
    const ratio = (xs, i, j) => xs[i].us / xs[j].us
    log(`(pg fleet) the platform at those rates, open loop: node's TLS hello world ${at(hello)} req/s; gw on SQLite, 1 instance ${at(sqlite)} req/s`)
    const split = hello.length > 3 && f.split ? `; at the open loop's third / its whole: hello world ${f2(ratio(hello, 3, 2))}x, SQLite ${f2(ratio(sqlite, 3, 2))}x, PostgreSQL 1 instance ${f2(f.split.oneThird.engineUs / f.split.one.engineUs)}x` : ''
    log(`(pg fleet) a smaller share of the load, open loop: at each of three's rate / one's, hello world ${f2(ratio(hello, 1, 0))}x CPU a request, gw on SQLite ${f2(ratio(sqlite, 1, 0))}x${split}`)
    const c = f.platform.closed
    if (c) {
      const rounds = (xs) => (xs.length > 1 ? ` (rounds ${xs.map(f2).join(' / ')})` : '')
      log(
        `(pg fleet) the fleets' closed loop on node's TLS hello world answering after each fleet's p50 (${f1(c.delays[1])} / ${f1(c.delays[3])} ms): 1 server ${f0(median(c.one.map((x) => x.rps)))} req/s, ${f0(median(c.one.map((x) => x.us)))} µs a request; 3 servers ${f0(median(c.three.map((x) => x.rps)))} req/s, ${f0(median(c.three.map((x) => x.us)))} µs; 3 / 1 ${f2(c.median)}x${rounds(c.ratios)}. The fleet's engines ${f2(r.median.engines)}x: ${f2(r.median.engines / c.median)}x the platform's own`,
      )
    }
  }
  if (!f[1]) return
  const p = project(f)
  log(`(pg fleet) projection, ${p.instances} instances on ${p.cores} cores (load generator elsewhere): ${f0(p.perPaymentUs)} µs per payment, fixed ${f2(p.fixedCores)} cores, notices ${f2(p.noticeCores)} cores -> ${f0(p.rps)} req/s`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = mkdtempSync(join(tmpdir(), 'gw-pgfleet-'))
  try {
    const f = await fleetBench(root, {sizes: (process.env.BENCH_FLEET_SIZES ?? '1,3').split(',').map(Number)})
    printFleet(f, (s) => process.stdout.write(s + '\n'))
    if (process.env.BENCH_FLEET_TOP) for (const [n, x] of fleetsOf(f)) for (const l of [...x.idleTop, ...x.top]) process.stdout.write(`  ${n}: ${l}\n`)
  } finally {
    rmSync(root, {recursive: true, force: true})
  }
}
