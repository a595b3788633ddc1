// (pg) the PostgreSQL store: the create load of (a) against 1 and 3 `gw serve --store postgres://…`
// instances on one database of a throwaway cluster (fsync on, like the SQLite engine's default
// durability), SQLite in the same windows for the ratio, then an open loop. bench/README "pg".
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {DURABILITY, closedLoopFleet, cpuMeter, cpuSeconds, env, errNote, f0, f2, gc, median, merge, openLoop, paymentRequest, slowBursts, startEngine, treeCpuSeconds, verdict} from './lib.js'

/** each round's figure and their median: `0.50 / 0.53 / 0.49, median 0.50` */
const byRound = (xs, fmt = f2) => `${xs.map(fmt).join(' / ')}${xs.length > 1 ? `, median ${fmt(median(xs))}` : ''}`

/** windows of the closed loop per target: each round is one window of every target, in turn */
const PG_ROUNDS = Math.max(1, env('BENCH_PG_ROUNDS', 3))

/**
 * The `pg` part. `o`: duration, warmup, connections, rate (the open loop's), log, loadLine (run.js's
 * line of a closed loop). Fills results.pgSqlite/pg1/pg3 (merged windows), pgCpu, pgRatio,
 * pgCpuRatio, pgScale (medians of the rounds), pgOpen, pgOpen3.
 */
export async function pgPart(root, results, sink, o) {
  const {log} = o
  const {startCluster} = await import('../dist/engine/store/postgres/cluster.js')
  const cluster = await startCluster({fsync: DURABILITY === 'full'})
  try {
    const db1 = await cluster.createDatabase('bench_one')
    const db3 = await cluster.createDatabase('bench_three')
    log(`(pg) PostgreSQL ${(await cluster.sql('SHOW server_version')).trim()} on 127.0.0.1 (throwaway cluster, fsync ${DURABILITY === 'full' ? 'on' : 'off'}), engines as child processes; ${PG_ROUNDS} rounds`)
    const fleet = async (name, n, store) => {
      const es = []
      // every instance on one database shares one secrets key (the first makes the file), the open
      // loop's fleet too: a database sealed with one key refuses an instance with another
      const keyFile = store ? join(root, `${new URL(store).pathname.slice(1)}-secrets.key`) : ''
      for (let i = 0; i < n; i++) es.push(await startEngine(join(root, `${name}-${i}`), {label: `${name}-${i}`, args: store ? ['--store', store, '--secrets-key-file', keyFile] : []}))
      return es
    }
    const stop = async (es) => {
      for (const e of es) {
        const x = await e.stop()
        if (x.code !== 0) sink.push(`${e.base_url} exited ${x.code ?? x.signal}: ${e.stderr().slice(-2000)}`)
      }
    }
    const targets = [
      {name: 'pg-sqlite', label: '(pg) sqlite, 1 instance', n: 1, store: undefined, windows: [], cpu: []},
      {name: 'pg-one', label: '(pg) postgres, 1 instance', n: 1, store: db1, windows: [], cpu: []},
      {name: 'pg-three', label: '(pg) postgres, 3 instances', n: 3, store: db3, windows: [], cpu: []},
    ]
    // CPU of the engine processes and of the database server (the postmaster and its backends) in the measuring windows
    const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0])
    for (let r = 0; r < PG_ROUNDS; r++) {
      for (const t of targets) {
        const es = await fleet(t.name, t.n, t.store)
        try {
          gc()
          const engines = cpuMeter(() => es.reduce((a, e) => a + cpuSeconds(e.child.pid), 0))
          const database = cpuMeter(() => treeCpuSeconds(postmaster))
          const onMeasure = (on) => [engines, database].forEach((m) => m.onMeasure(on))
          const w = await closedLoopFleet({targets: es, connections: o.connections, warmupMs: o.warmup, durationMs: o.duration / PG_ROUNDS, makeRequest: paymentRequest('/v1/payments'), onMeasure})
          t.windows.push(w)
          t.cpu.push({engines: (engines.seconds * 1e6) / w.count, database: (database.seconds * 1e6) / w.count, enginesS: engines.seconds, databaseS: database.seconds})
        } finally {
          await stop(es)
        }
      }
    }
    ;[results.pgSqlite, results.pg1, results.pg3] = targets.map((t) => merge(t.windows))
    for (const [i, t] of targets.entries()) log(o.loadLine(t.label, [results.pgSqlite, results.pg1, results.pg3][i]))
    for (const [i, t] of targets.entries()) {
      const count = [results.pgSqlite, results.pg1, results.pg3][i].count
      const sum = (k) => t.cpu.reduce((a, c) => a + c[k], 0)
      t.cpuUs = {engines: (sum('enginesS') * 1e6) / count, database: (sum('databaseS') * 1e6) / count}
      const rounds = PG_ROUNDS > 1 ? ` (rounds ${t.cpu.map((c) => f0(c.engines)).join(' / ')})` : ''
      log(`(pg) CPU per request, ${t.label.slice(5).padEnd(22)} engine processes ${f0(t.cpuUs.engines)} µs${rounds}${t.store ? `, PostgreSQL ${f0(t.cpuUs.database)} µs` : ''}`)
    }
    results.pgCpu = Object.fromEntries(targets.map((t) => [t.name, t.cpuUs]))
    // ratios of the same round (the same minutes), and their median: one round's swing decides nothing
    const [sq, one, three] = targets
    const rateRatios = one.windows.map((w, r) => w.rps / sq.windows[r].rps)
    const cpuRatios = one.cpu.map((c, r) => c.engines / sq.cpu[r].engines)
    const scales = three.windows.map((w, r) => w.rps / one.windows[r].rps)
    results.pgRatio = median(rateRatios)
    results.pgCpuRatio = median(cpuRatios)
    results.pgScale = median(scales)
    log(`(pg) postgres 1 instance / sqlite: rate ${byRound(rateRatios)}   target >= 0.5: ${verdict(results.pgRatio >= 0.5)}`)
    log(`(pg) postgres 1 instance / sqlite: engine CPU per payment ${byRound(cpuRatios)}   target <= 1.3: ${verdict(results.pgCpuRatio <= 1.3)}`)
    log(`(pg) 3 instances / 1 instance: rate ${byRound(scales)}   target >= 1 (no collapse under contention): ${verdict(results.pgScale >= 1)}`)
    // The closed loop left a minute of fresh rows in both databases; autovacuum's first pass over
    // them (vacuum and analyze of every table, ~0.5 s of a core) comes about a minute after the
    // cluster started: inside the open loop's window, on the two cores the engine shares with the
    // database here. A running database has its tables vacuumed and analyzed: so are these first.
    // What autovacuum and checkpoints still do in the window is counted and printed (bench/README "pg").
    // (BENCH_PG_VACUUM=0 leaves them as the closed loop left them, to see what that pass does)
    if (env('BENCH_PG_VACUUM', 1)) for (const db of ['bench_one', 'bench_three']) await cluster.sql('VACUUM ANALYZE', db)
    const background = async () => {
      let autovacuums = 0
      for (const db of ['bench_one', 'bench_three']) autovacuums += Number(await cluster.sql('SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0) FROM pg_stat_user_tables', db))
      const checkpoints = Number(await cluster.sql('SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter'))
      return {autovacuums, checkpoints}
    }
    for (const [key, n, db] of [
      ['pgOpen', 1, db1],
      ['pgOpen3', 3, db3],
    ]) {
      const es = await fleet(`pg-open-${n}`, n, db)
      let bg0, bg1
      try {
        // a fresh engine serves less than it will once warm (the JIT; the pools and TLS connections
        // open): an open loop's warm-up at 500 req/s piled up a backlog that was still draining when
        // the window opened (the largest burst of slow answers began at 0.0 s). A closed loop first,
        // which cannot pile up: BENCH_PG_PREWARM_MS (4 s)
        const prewarm = env('BENCH_PG_PREWARM_MS', 4000)
        if (prewarm > 0) await closedLoopFleet({targets: es, connections: o.connections, warmupMs: 0, durationMs: prewarm, makeRequest: paymentRequest('/v1/payments')})
        gc()
        bg0 = await background()
        // one open loop per instance, the rate split between them
        const rs = await Promise.all(es.map((e) => openLoop({origin: e.origin, ca: e.ca, rate: o.rate / n, connections: Math.ceil(o.connections / n), warmupMs: o.warmup, durationMs: o.duration, makeRequest: paymentRequest('/v1/payments')})))
        const all = Float64Array.from(rs.flatMap((x) => [...x.samples])).sort()
        const pct = (p) => all[Math.min(all.length - 1, Math.max(0, Math.ceil((p / 100) * all.length) - 1))]
        results[key] = {p50: pct(50), p99: pct(99), p999: pct(99.9), max: all[all.length - 1], count: all.length, sent: rs.reduce((a, x) => a + x.sent, 0), errors: rs.reduce((a, x) => a + x.errors, 0), firstError: rs.find((x) => x.firstError)?.firstError, bursts: slowBursts(rs.flatMap((x) => x.slow))}
        bg1 = await background()
      } finally {
        await stop(es)
      }
      const r = results[key]
      log(`(pg) open loop ${f0(o.rate)} req/s, ${n} instance${n > 1 ? 's' : ''}: p50 ${f2(r.p50)} ms   p99 ${f2(r.p99)} ms   p99.9 ${f2(r.p999)} ms   max ${f2(r.max)} ms   (${f0(r.count)}/${f0(r.sent)} answered)${errNote(r)}${n === 1 ? `   target p99 <= 50 ms: ${verdict(r.p99 <= 50)}` : ''}`)
      // when the answers over 50 ms were due (s from the window's start), the five largest bursts, and what the database did meanwhile
      const top = [...r.bursts].sort((a, b) => b.max - a.max).slice(0, 5).sort((a, b) => a.start - b.start)
      const slowN = r.bursts.reduce((a, b) => a + b.n, 0)
      log(`(pg)   answers over 50 ms: ${f0(slowN)} in ${f0(r.bursts.length)} bursts${top.length ? `; largest at ${top.map((b) => `${(b.start / 1000).toFixed(1)}-${(b.end / 1000).toFixed(1)} s (${b.n}, max ${f0(b.max)} ms)`).join(', ')}` : ''}; meanwhile autovacuum/analyze runs ${bg1 && bg0 ? bg1.autovacuums - bg0.autovacuums : 'n/a'}, checkpoints ${bg1 && bg0 ? bg1.checkpoints - bg0.checkpoints : 'n/a'}`)
    }
  } finally {
    await cluster.stop()
  }
}
