// `npm run bench`: engine throughput and latency figures from one run on this machine.
// Prints figures and their targets; asserts nothing. See bench/README.md.
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {cpus, loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {Agent, request} from 'undici'
import {API_KEY, DURABILITY, PAYMENT_BODY, closedLoop, env, errNote, f0, f1, f2, gc, closedLoopFleet, cpuMeter, cpuSeconds, merge, openLoop, paymentRequest, peakRssMiB, startEngine, startHello, treeCpuSeconds, verdict} from './lib.js'
import {extractTemplate, seed} from './seed.js'
import {printStartup, startupBench} from './startup.js'
import {listenBench, printListen} from './listen.js'
import {consoleBench, printConsole} from './console.js'
import {measureStorage, runSoak} from './soak.js'
import {claimRoundsBench} from './claim-rounds.js'
import {fleetBench, printFleet} from './pg-fleet.js'
import {pgPart} from './pg.js'
import {reconcileBench} from './reconcile.js'
import {accountsBench, printAccounts} from './accounts.js'
import {printTesting, testingBench} from './testing.js'
import {packagesBench, printPackages} from './packages.js'
import {printSnapshot, snapshotBench} from './snapshot.js'
import {printTenants, tenantsBenchAll} from './tenants.js'
import {localEnginePaths} from '../dist/local-engine.js'

// `npm run bench -- --profile DIR`: every engine child writes a CPU profile into DIR (BENCH_PROFILE)
{
  const i = process.argv.indexOf('--profile')
  if (i > 0) {
    const dir = process.argv[i + 1]
    if (!dir || dir.startsWith('--')) {
      process.stderr.write('--profile needs a directory: npm run bench -- --profile /tmp/prof\n')
      process.exit(2)
    }
    process.env.BENCH_PROFILE = dir
  }
}
const DURATION = env('BENCH_DURATION_MS', 10_000)
const WARMUP = env('BENCH_WARMUP_MS', 2_000)
const CONNECTIONS = env('BENCH_CONNECTIONS', 32)
const RATE = env('BENCH_RATE', 1000)
const SMALL = env('BENCH_SEED_SMALL', 10_000)
const LARGE = env('BENCH_SEED_LARGE', 1_000_000)
const ONLY = new Set((process.env.BENCH_ONLY ?? 'a,b,c,claims,soak,soak10,storage,reconcile,listen,pg,startup,accounts,tenants,testing,snapshot,console').split(','))
const SOAK_MS = env('BENCH_SOAK_MS', 360_000)
/** the soak over 10 accounts (soak10): its rate is what matters, not its memory plateau */
const SOAK10_MS = env('BENCH_SOAK10_MS', 120_000)
const SOAK10_ACCOUNTS = env('BENCH_SOAK10_ACCOUNTS', 10)
/** retrying deliveries behind the due ones in the claims part */
const CLAIM_BACKLOG = env('BENCH_CLAIM_BACKLOG', 50_000)
/** the soak's creates per second / (a)'s closed-loop payments per second: ~0.21 before accounts (74367a4), 0.16 on 4fab4ff */
const SOAK_RATIO_TARGET = 0.2
/** open-loop rate of the PostgreSQL part */
const PG_RATE = env('BENCH_PG_RATE', 500)
/** closed-loop windows alternate between the compared targets, so drifting machine load hits both alike */
const ROUNDS = Math.max(1, env('BENCH_ROUNDS', 2))

const log = (s = '') => process.stdout.write(s + '\n')

function loadLine(label, r) {
  const rounds = r.rounds?.length > 1 ? `; windows ${r.rounds.map(f0).join(' / ')} req/s` : ''
  return `${label.padEnd(34)} ${f0(r.rps).padStart(7)} req/s   p50 ${f2(r.p50).padStart(6)} ms   p99 ${f2(r.p99).padStart(7)} ms   (${f0(r.count)} requests${rounds})${errNote(r)}`
}

async function createTemplatePayment(engine) {
  const dispatcher = new Agent({connect: {ca: engine.ca}})
  const reference = 'bench-template-reference-0001'
  const idemKey = 'bench-template-idempotency-key-0001'
  const body = {...JSON.parse(PAYMENT_BODY), reference}
  const res = await request(`${engine.base_url}/payments`, {
    method: 'POST',
    dispatcher,
    headers: {authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'idempotency-key': idemKey},
    body: JSON.stringify(body),
  })
  const p = await res.body.json()
  await dispatcher.close()
  if (res.statusCode !== 201 || p.status !== 'succeeded') throw new Error(`template payment failed: ${res.statusCode} ${JSON.stringify(p)}`)
  return {id: p.id, reference, idemKey}
}

async function main() {
  const began = performance.now()
  const root = mkdtempSync(join(tmpdir(), 'gw-bench-'))
  log(`gw bench: node ${process.version}, ${cpus().length} cpu(s) (${cpus()[0]?.model ?? '?'}), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${new Date().toISOString()}`)
  if (loadavg()[0] > 0.5 * cpus().length) log(`warning: the machine is busy (load ${loadavg()[0].toFixed(2)} on ${cpus().length} cpus); figures will be low and noisy`)
  log(`load: undici Pool, ${CONNECTIONS} keep-alive connections, pipelining 1, in this process; engine and baseline servers in child processes`)
  log(`windows: ${WARMUP / 1000}s warm-up, ${DURATION / 1000}s measured${ROUNDS > 1 ? ` (closed loop: ${ROUNDS} alternating windows of ${DURATION / ROUNDS / 1000}s per target)` : ''}; engine: gw serve --rate-limit 0 --durability ${DURABILITY}${DURABILITY === 'full' ? ' (every commit fsynced, the default)' : ''}`)
  log()
  const results = {}
  const sink = []
  try {
    // ---------------------------------------------------------------- (a) and (b)
    let template
    if (ONLY.has('a') || ONLY.has('b') || ONLY.has('c')) {
      const engine = await startEngine(join(root, 'a'), {label: 'engine-a'})
      try {
        const t = await createTemplatePayment(engine)
        template = extractTemplate(localEnginePaths(join(root, 'a')).database, t.id, {reference: t.reference, idemKey: t.idemKey})
        if (ONLY.has('a')) {
          // engine and hello world take turns under the same load
          const hello = await startHello(join(root, 'a', 'tls'))
          const we = []
          const wh = []
          const cpu = new Map([[engine, cpuMeter(engine.child.pid)], [hello, cpuMeter(hello.child.pid)]])
          try {
            for (let r = 0; r < ROUNDS; r++) {
              for (const [target, into, path] of [
                [engine, we, '/v1/payments'],
                [hello, wh, '/'],
              ]) {
                gc()
                into.push(await closedLoop({origin: target.origin, ca: engine.ca, connections: CONNECTIONS, warmupMs: WARMUP, durationMs: DURATION / ROUNDS, makeRequest: paymentRequest(path), onMeasure: cpu.get(target).onMeasure}))
              }
            }
          } finally {
            await hello.stop()
          }
          results.engine = merge(we)
          results.hello = merge(wh)
          results.ratio = results.engine.rps / results.hello.rps
          results.engineCpuUs = (cpu.get(engine).seconds * 1e6) / results.engine.count
          results.helloCpuUs = (cpu.get(hello).seconds * 1e6) / results.hello.count
          log(loadLine('(a) engine POST /payments', results.engine))
          log(loadLine('(a) node:https hello world', results.hello))
          log(`(a) CPU per request (process CPU time / requests, all threads): engine ${f0(results.engineCpuUs)} µs, hello world ${f0(results.helloCpuUs)} µs = ${f1(results.engineCpuUs / results.helloCpuUs)}x`)
          log(`(a) ratio engine / hello world        ${f2(results.ratio)}   target >= 0.25: ${verdict(results.ratio >= 0.25)}`)
          log()
        }
        if (ONLY.has('b')) {
          gc()
          results.open = await openLoop({origin: engine.origin, ca: engine.ca, rate: RATE, connections: CONNECTIONS, warmupMs: WARMUP, durationMs: DURATION, makeRequest: paymentRequest('/v1/payments')})
        }
      } finally {
        const r = await engine.stop()
        if (r.code !== 0) sink.push(`engine-a exited ${r.code ?? r.signal}: ${engine.stderr().slice(-2000)}`)
      }
      if (results.open) {
        const r = results.open
        log(`(b) open loop ${f0(RATE)} req/s POST /payments: p50 ${f2(r.p50)} ms   p99 ${f2(r.p99)} ms   p99.9 ${f2(r.p999)} ms   max ${f2(r.max)} ms   (${f0(r.count)}/${f0(r.sent)} answered)${errNote(r)}`)
        log(`(b) p99 at ${f0(RATE)} req/s                    ${f2(r.p99)} ms   target <= 15 ms: ${verdict(r.p99 <= 15)}`)
        log()
      }
    }

    // ---------------------------------------------------------------- (c)
    if (ONLY.has('c')) {
      const stores = [
        {name: 'small', n: SMALL, dir: join(root, 'c-small'), windows: []},
        {name: 'large', n: LARGE, dir: join(root, 'c-large'), windows: []},
      ]
      for (const st of stores) {
        gc()
        const s = await seed(st.dir, template, st.n)
        log(`(c) seeded ${f0(st.n)} payments (${f0(s.rows)} rows in ${[...new Set(template.rows.map((x) => x.table))].join(', ')}) in ${f1(s.ms / 1000)} s`)
      }
      try {
        // the two stores take turns, an engine started on each in every round
        for (let r = 0; r < ROUNDS; r++) {
          for (const st of stores) {
            const engine = await startEngine(st.dir, {label: `engine-${st.name}`})
            try {
              gc()
              st.windows.push(await closedLoop({origin: engine.origin, ca: engine.ca, connections: CONNECTIONS, warmupMs: WARMUP, durationMs: DURATION / ROUNDS, makeRequest: paymentRequest('/v1/payments')}))
              st.peakRssMiB = Math.max(st.peakRssMiB ?? 0, peakRssMiB(engine.child.pid))
            } finally {
              const x = await engine.stop()
              if (x.code !== 0) sink.push(`engine-${st.name} exited ${x.code ?? x.signal}: ${engine.stderr().slice(-2000)}`)
            }
          }
        }
      } finally {
        for (const st of stores) rmSync(st.dir, {recursive: true, force: true})
      }
      for (const st of stores) {
        results[st.name] = merge(st.windows)
        log(loadLine(`(c) create rate, ${f0(st.n)} stored`, results[st.name]))
      }
      results.scale = results.large.rps / results.small.rps
      results.peakRssMiB = stores[1].peakRssMiB
      log(`(c) engine peak RSS under load with ${f0(LARGE)} stored: ${f0(stores[1].peakRssMiB)} MiB (${f0(SMALL)} stored: ${f0(stores[0].peakRssMiB)} MiB)   target <= 300 MiB: ${verdict(stores[1].peakRssMiB <= 300)}`)
      log(`(c) ratio ${f0(LARGE)} / ${f0(SMALL)} stored       ${f2(results.scale)}   target >= 0.85 (within 15%): ${verdict(results.scale >= 0.85)}`)
      log()
    }

    // ---------------------------------------------------------------- reconcile (docs/decisions.md#routing-explained-and-reconciliation)
    if (ONLY.has('reconcile')) {
      gc()
      const r = await reconcileBench()
      log(`(reconcile) ${f0(r.orders)}-line orders file against ${f0(r.settled)} settlement lines: ${f1(r.ms / 1000)} s = ${f0(r.linesPerSec)} lines/s; heap retained ${f1(r.retainedMiB)} MiB (bounded: the join runs in a temporary SQLite file)`)
      log()
    }

    // ---------------------------------------------------------------- storage (docs/decisions.md#storage-per-payment)
    if (ONLY.has('storage')) {
      const st = await measureStorage({payments: 10_000})
      results.storage = st
      log(`(storage) ${f0(st.payments)} card payments, one webhook endpoint: data dir ${f1(st.bytes / 1048576)} MiB = ${f0(st.bytesPerPayment)} bytes per payment   (7,389 before the reshape on this machine)`)
      log()
    }

    // ---------------------------------------------------------------- claim rounds (docs/decisions.md#background-work-under-load)
    if (ONLY.has('claims')) {
      gc()
      const c = (results.claims = await claimRoundsBench({backlog: CLAIM_BACKLOG}))
      const ratio = (x) => x.backlog / x.empty
      log(`(claims) a delivery claim round on SQLite (16 claimed while ~200 are held): 1 account ${f1(c.one.empty)} µs, behind ${f0(c.backlog)} retrying deliveries ${f1(c.one.backlog)} µs (${f2(ratio(c.one))}x)   target <= 2x: ${verdict(ratio(c.one) <= 2)}`)
      log(`(claims) ${c.accounts} accounts (an endpoint of each with deliveries due, one retrying): ${f1(c.many.empty)} µs, behind the same backlog ${f1(c.many.backlog)} µs (${f2(ratio(c.many))}x)   target <= 2x: ${verdict(ratio(c.many) <= 2)}`)
      log()
    }

    // ---------------------------------------------------------------- soak and soak10 (docs/decisions.md#background-work-under-load)
    if (ONLY.has('soak') || ONLY.has('soak10')) await soakPart(root, results, sink)
    // ---------------------------------------------------------------- (accounts)
    if (ONLY.has('accounts')) {
      results.accounts = await accountsBench(join(root, 'accounts'))
      printAccounts(results.accounts, log)
      log()
    }
    // ---------------------------------------------------------------- (tenants): one tenant cannot starve the others (docs/decisions.md#one-tenant-cannot-starve-the-others)
    if (ONLY.has('tenants')) {
      results.tenants = await tenantsBenchAll()
      printTenants(results.tenants, log)
      log()
    }
    // ---------------------------------------------------------------- (testing): gw/testing and the SDK (docs/decisions.md#test-suites)
    if (ONLY.has('testing')) {
      results.testing = await testingBench()
      printTesting(results.testing, log)
      log()
    }
    // ---------------------------------------------------------------- (packages): the tarballs, installed as users do (not in the default run)
    if (ONLY.has('packages')) {
      results.packages = await packagesBench()
      printPackages(results.packages, log)
      log()
    }
    // ---------------------------------------------------------------- (snapshot): a large snapshot loaded while another tenant works (docs/decisions.md#large-snapshots)
    if (ONLY.has('snapshot')) {
      results.snapshot = await snapshotBench(root)
      printSnapshot(results.snapshot, log)
      log()
    }
    // ---------------------------------------------------------------- (pg)
    if (ONLY.has('pg')) {
      await pgPart(root, results, sink, {duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, rate: PG_RATE, log, loadLine})
      // the fleet's fixed and per-payment costs by instance count, and the projection (bench/pg-fleet.js); BENCH_PG_FLEET=0 skips it
      if (env('BENCH_PG_FLEET', 1)) {
        results.pgFleet = await fleetBench(root)
        printFleet(results.pgFleet, log)
      }
      log()
    }
  } finally {
    rmSync(root, {recursive: true, force: true})
  }
  for (const s of sink) log(`warning: ${s}`)

  if (ONLY.has('listen')) {
    results.listen = await listenBench()
    printListen(results.listen)
    log()
  }

  if (ONLY.has('console')) {
    results.console = await consoleBench()
    printConsole(results.console, log)
    log()
  }

  let startup
  if (process.env.BENCH_SKIP_STARTUP !== '1' && ONLY.has('startup')) {
    startup = await startupBench()
    printStartup(startup)
    log()
  }

  log('summary')
  if (results.ratio !== undefined)
    log(`  throughput: engine ${f0(results.engine.rps)} req/s vs hello world ${f0(results.hello.rps)} req/s = ${f2(results.ratio)} (target >= 0.25: ${verdict(results.ratio >= 0.25)})`)
  if (results.engineCpuUs !== undefined) log(`  CPU per request: engine ${f0(results.engineCpuUs)} µs, hello world ${f0(results.helloCpuUs)} µs`)
  if (results.engine) log(`  closed-loop latency (${CONNECTIONS} conns): p50 ${f2(results.engine.p50)} ms, p99 ${f2(results.engine.p99)} ms`)
  if (results.open) log(`  p99 at ${f0(RATE)} req/s open loop: ${f2(results.open.p99)} ms (target <= 15 ms: ${verdict(results.open.p99 <= 15)})`)
  if (results.scale !== undefined)
    log(`  create rate: ${f0(results.small.rps)} req/s with ${f0(SMALL)} stored, ${f0(results.large.rps)} req/s with ${f0(LARGE)} stored = ${f2(results.scale)} (target >= 0.85: ${verdict(results.scale >= 0.85)})`)
  if (results.peakRssMiB !== undefined) log(`  peak RSS under load with ${f0(LARGE)} stored: ${f0(results.peakRssMiB)} MiB (target <= 300 MiB: ${verdict(results.peakRssMiB <= 300)})`)
  if (results.claims) {
    const c = results.claims
    log(`  claim round: ${f1(c.one.empty)} µs, ${f2(c.one.backlog / c.one.empty)}x behind ${f0(c.backlog)} retrying deliveries (target <= 2x: ${verdict(c.one.backlog / c.one.empty <= 2)}); ${c.accounts} accounts ${f1(c.many.empty)} µs, ${f2(c.many.backlog / c.many.empty)}x`)
  }
  if (results.soak) {
    const s = results.soak
    log(`  soak: creates ${f0(s.createsPerSec)}/s = ${f2(s.createsPerSec / results.closedLoopRps)} x the closed loop's ${f0(results.closedLoopRps)} req/s (target >= ${SOAK_RATIO_TARGET}: ${verdict(s.createsPerSec / results.closedLoopRps >= SOAK_RATIO_TARGET)}), CPU per payment ${f0(s.cpuPerPaymentUs)} µs (closed loop ${f0(results.closedLoopCpuUs)} µs), RSS slope over minutes ${f1(s.rssSlopeMinutes[0])}–${f1(s.rssSlopeMinutes[1])} ${f1(s.rssSecondHalfSlopeMiBPerMin)} MiB/min (target < 1: ${verdict(s.rssSecondHalfSlopeMiBPerMin < 1)})`)
  }
  if (results.soak10) {
    const s = results.soak10
    const vs = results.soak ? ` = ${f2(s.createsPerSec / results.soak.createsPerSec)} x one account's (target >= 0.9: ${verdict(s.createsPerSec / results.soak.createsPerSec >= 0.9)})` : ''
    log(`  soak over ${s.accounts} accounts: creates ${f0(s.createsPerSec)}/s${vs}, ${f2(s.createsPerSec / results.closedLoopRps)} x the closed loop, CPU per payment ${f0(s.cpuPerPaymentUs)} µs`)
  }
  if (results.listen)
    log(`  gw listen: backlog ${f0(results.listen.backlog.rate)} events/s (target >= 2,000), burst lag p50 ${f0(results.listen.burst.p50)} ms / p99 ${f0(results.listen.burst.p99)} ms (target p99 <= 100 ms)`)
  if (results.pg1) {
    log(`  postgres: ${f0(results.pg1.rps)} req/s with 1 instance, ${f0(results.pg3.rps)} req/s with 3 (median of the rounds ${f2(results.pgScale)}x, target >= 1: ${verdict(results.pgScale >= 1)}); ${f2(results.pgRatio)}x SQLite's ${f0(results.pgSqlite.rps)} req/s (target >= 0.5: ${verdict(results.pgRatio >= 0.5)}), ${f2(results.pgCpuRatio)}x its engine CPU per payment (target <= 1.3: ${verdict(results.pgCpuRatio <= 1.3)})`)
    log(`  postgres p99 at ${f0(PG_RATE)} req/s open loop: ${f2(results.pgOpen.p99)} ms with 1 instance (target <= 50 ms: ${verdict(results.pgOpen.p99 <= 50)}), ${f2(results.pgOpen3.p99)} ms with 3`)
  }
  if (startup)
    log(`  start-up: gw --version ${f2(startup.gwVersionMs / startup.bareMs)}x a bare oclif CLI (target <= 1.15x), gw payments get ${f2(startup.getMs / startup.bareMs)}x (target <= 1.5x)`)
  log(`  bench took ${f0((performance.now() - began) / 1000)} s`)
}

/**
 * The soak (one account) and soak10 (the same load spread over accounts, each with its own
 * endpoints and clock), each beside the closed loop of (a): the soak's creates per second over
 * the closed loop's payments per second says how much the engine still gets done while its
 * background work runs (bench/README.md#soak-and-soak10-background-work-under-load). Without (a) in this run, the closed loop is
 * measured here first, on an engine of its own.
 */
async function soakPart(root, results, sink) {
  if (results.engine) {
    results.closedLoopRps = results.engine.rps
    results.closedLoopCpuUs = results.engineCpuUs
  } else {
    const engine = await startEngine(join(root, 'soak-closed-loop'), {label: 'engine-closed-loop'})
    try {
      const cpu = cpuMeter(engine.child.pid)
      const windows = []
      for (let r = 0; r < ROUNDS; r++) {
        gc()
        windows.push(await closedLoop({origin: engine.origin, ca: engine.ca, connections: CONNECTIONS, warmupMs: WARMUP, durationMs: DURATION / ROUNDS, makeRequest: paymentRequest('/v1/payments'), onMeasure: cpu.onMeasure}))
      }
      const m = merge(windows)
      results.closedLoopRps = m.rps
      results.closedLoopCpuUs = (cpu.seconds * 1e6) / m.count
      log(loadLine('(soak) closed loop for the ratio', m))
    } finally {
      const x = await engine.stop()
      if (x.code !== 0) sink.push(`engine-closed-loop exited ${x.code ?? x.signal}: ${engine.stderr().slice(-2000)}`)
    }
  }
  const closed = results.closedLoopRps
  const rateLines = (tag, s) => {
    log(`(${tag}) creates ${f0(s.createsPerSec)}/s, deliveries to the healthy endpoint${s.accounts > 1 ? 's' : ''} ${f0(s.deliveriesPerSec)}/s (ratio ${f2(s.deliveriesPerSec / s.createsPerSec)}), to the failing one${s.accounts > 1 ? 's' : ''} ${f0(s.failingPerSec)}/s (${f0(s.failingRetriesPerSec)}/s retries: ${f2(s.failingRetriesPerSec / s.createsPerSec)} per payment); ${f0(s.creates)} payments, ${f0(s.refunds)} refunds, ${s.errors} errors${s.firstError ? ` (first: ${s.firstError})` : ''}`)
    log(`(${tag}) creates / closed-loop payments (${f0(closed)} req/s)   ${f2(s.createsPerSec / closed)}   target >= ${SOAK_RATIO_TARGET}: ${verdict(s.createsPerSec / closed >= SOAK_RATIO_TARGET)}`)
    log(`(${tag}) CPU per payment, engine process (all threads): ${f0(s.cpuPerPaymentUs)} µs, its main thread ${f0(s.mainThreadCpuPerPaymentUs)} µs (closed loop: ${f0(results.closedLoopCpuUs)} µs)`)
    log(`(${tag}) TLS connections the engine opened to the receivers: ${f0(s.webhookConnections)} (a handshake each: churn shows here)`)
    log(`(${tag}) every payment.succeeded at the healthy endpoint${s.accounts > 1 ? 's' : ''} ${Number.isFinite(s.drainMs) ? `${f2(s.drainMs / 1000)} s` : `NOT within the limit (${s.missing} missing)`} after the load   target <= 10 s: ${verdict(s.drainMs <= 10_000)}`)
    log(`(${tag}) clock advance under load: slowest ${f0(s.advanceP100)} ms of ${s.advances.length} (${s.advanceFailures} failed)   target: a few seconds: ${verdict(s.advanceP100 <= 5000 && s.advanceFailures === 0)}`)
    log(`(${tag}) refunds pending after advancing 31 min: ${s.refundsStillPending} (the advance took ${f0(s.refundAdvanceMs)} ms${s.accounts > 1 ? ' at most per account' : ''})`)
  }
  if (ONLY.has('soak')) {
    gc()
    log(`(soak) ${SOAK_MS / 1000}s of closed-loop POST /payments (every 10th a refund) on ${CONNECTIONS} connections; endpoints: one answers 204, one 500; clock advanced 60 s every 20 s`)
    const s = await runSoak({durationMs: SOAK_MS, connections: CONNECTIONS, onProgress: () => {}})
    results.soak = s
    rateLines('soak', s)
    log(`(soak) RSS ${f0(s.rssStartMiB)} -> peak ${f0(s.rssPeakMiB)} -> ${f0(s.rssEndMiB)} MiB; slope after the first minute ${f1(s.rssSlopeMiBPerMin)} MiB/min`)
    log(`(soak) RSS each minute: ${s.rssByMinute.map(([t, v]) => `${t / 60 === Math.floor(t / 60) ? `${t / 60}m` : `${t}s`} ${v}`).join(', ')} MiB`)
    const [from, to] = s.rssSlopeMinutes
    log(`(soak) RSS slope over the second half, minutes ${f1(from)}–${f1(to)} (the plateau) ${f1(s.rssSecondHalfSlopeMiBPerMin)} MiB/min   target < 1: ${verdict(s.rssSecondHalfSlopeMiBPerMin < 1)}`)
    // the main arena's warm-up lasts ~150-200k payments (bench/README.md#memory-under-the-soak): a shorter soak reads part of it as a slope
    if (s.creates < 300_000) log(`(soak) (${f0(s.creates)} payments: the second half may still hold the allocator's warm-up; BENCH_SOAK_MS=1440000 reads the plateau itself)`)
    log(`(soak) SIGTERM with the failing endpoint's backlog due: exit ${s.exitCode} after ${f0(s.sigtermMs)} ms   target <= 10 s: ${verdict(s.exitCode === 0 && s.sigtermMs <= 10_000)}`)
    log(`(soak) data dir ${f1(s.dataDirBytes / 1048576)} MiB = ${f0(s.bytesPerPayment)} bytes per payment (two endpoints, refunds, retries included)`)
    log()
  }
  if (ONLY.has('soak10')) {
    gc()
    log(`(soak10) the same load for ${SOAK10_MS / 1000}s spread over ${SOAK10_ACCOUNTS} accounts: each with its own endpoints (one 204, one 500) and its own clock advanced 60 s every 20 s`)
    const s = await runSoak({durationMs: SOAK10_MS, connections: CONNECTIONS, accounts: SOAK10_ACCOUNTS, onProgress: () => {}})
    results.soak10 = s
    rateLines('soak10', s)
    if (results.soak) {
      log(`(soak10) creates / one account's soak (${f0(results.soak.createsPerSec)}/s)   ${f2(s.createsPerSec / results.soak.createsPerSec)}   target >= 0.9 (per-account work does not multiply): ${verdict(s.createsPerSec / results.soak.createsPerSec >= 0.9)}`)
      // each failing endpoint may have 32 attempts in flight: ten of them clear the retries each clock advance makes due sooner than one does (bench/README)
      const per = (x) => x.failingRetriesPerSec / x.createsPerSec
      log(`(soak10) retries made per payment during the load: ${f2(per(s))} against one account's ${f2(per(results.soak))} (${f2(per(s) / per(results.soak))}x: ten failing endpoints have ten times the attempts in flight)`)
    }
    log(`(soak10) RSS ${f0(s.rssStartMiB)} -> peak ${f0(s.rssPeakMiB)} MiB; SIGTERM: exit ${s.exitCode} after ${f0(s.sigtermMs)} ms`)
    log()
  }
}

main().catch((e) => {
  process.stderr.write(`bench failed: ${e.stack ?? e}\n`)
  process.exitCode = 1
})
