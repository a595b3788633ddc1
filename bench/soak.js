// Background work under sustained load (docs/decisions.md#background-work-keeps-pace): `gw serve` in a child process takes payments
// (and some refunds) at full rate from closed-loop clients while two webhook endpoints receive
// every event — one answers 204, one always 500 — and the engine clock is advanced now and then.
// Measures what users rely on: deliveries keep pace with creates, the healthy endpoint has every
// payment.succeeded soon after the load stops, clock advances answer under load, memory stays
// flat, refunds settle despite the failing endpoint, SIGTERM exits promptly with a backlog, and
// the data dir's bytes per payment, and the CPU the engine process spent per payment (every thread).
// With `accounts: N` the same load is spread over N accounts, each with its own two endpoints and
// its own clock (BENCH_ONLY=soak10). Used by `npm run bench` (BENCH_ONLY=soak, soak10) and, at a
// reduced scale, by test/soak.e2e.test.ts. Prints nothing itself: returns figures.
import {mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs'
import {createServer} from 'node:https'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Agent, request} from 'undici'
import {API_KEY, PAYMENT_BODY, cpuSeconds, mainThreadCpuSeconds, makePool, nextKey, startEngine} from './lib.js'

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

function rssMiB(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) / 1024 : NaN
  } catch {
    return NaN
  }
}

/** RSS (MiB) at each whole minute of the load and at its end: the sample nearest each mark. */
function rssEachMinute(rss, loadMs) {
  const marks = []
  for (let m = 0; m * 60_000 < loadMs; m++) marks.push(m * 60_000)
  marks.push(loadMs)
  return marks.map((mark) => {
    let best = rss[0]
    for (const p of rss) if (Math.abs(p[0] - mark) < Math.abs(best[0] - mark)) best = p
    return [Math.round(mark / 1000), Math.round(best?.[1] ?? NaN)]
  })
}

/** Least-squares slope of (t ms, v) in v per minute. */
function slopePerMin(points) {
  if (points.length < 2) return NaN
  const n = points.length
  const mt = points.reduce((a, p) => a + p[0], 0) / n
  const mv = points.reduce((a, p) => a + p[1], 0) / n
  let num = 0
  let den = 0
  for (const [t, v] of points) {
    num += (t - mt) * (v - mv)
    den += (t - mt) ** 2
  }
  return den === 0 ? 0 : (num / den) * 60_000
}

function dirBytes(dir) {
  let total = 0
  for (const e of readdirSync(dir, {withFileTypes: true})) {
    const p = join(dir, e.name)
    total += e.isDirectory() ? dirBytes(p) : statSync(p).size
  }
  return total
}

/** An HTTPS receiver on loopback (the engine delivers to loopback without checking the certificate in test mode). */
async function receiver(tlsDir, status) {
  const seen = new Map() // event id -> {type, object id, first arrival ms}
  let hits = 0
  const perSecond = new Map()
  // a failing receiver's retries per second (an event it answered before, at the same path)
  const attempted = new Set()
  const retriesPerSecond = new Map()
  const server = createServer({key: readFileSync(join(tlsDir, 'server.key')), cert: readFileSync(join(tlsDir, 'server.crt'))}, (req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      hits++
      const sec = Math.floor(performance.now() / 1000)
      perSecond.set(sec, (perSecond.get(sec) ?? 0) + 1)
      if (status >= 300) {
        // a failing endpoint's attempt: a retry when this endpoint saw the event before (ids are per account: the path names the account's endpoint)
        const id = /"id":"([^"]+)"/.exec(Buffer.concat(chunks).toString('latin1', 0, 200))?.[1]
        if (id !== undefined) {
          const k = `${req.url} ${id}`
          if (attempted.has(k)) retriesPerSecond.set(sec, (retriesPerSecond.get(sec) ?? 0) + 1)
          else attempted.add(k)
        }
      }
      if (status < 300) {
        try {
          const e = JSON.parse(Buffer.concat(chunks).toString('utf8'))
          if (!seen.has(e.id)) seen.set(e.id, {type: e.type, object: e.data?.object?.id, at: performance.now()})
        } catch {
          /* not our event */
        }
      }
      res.writeHead(status).end()
    })
  })
  // TLS connections the engine opened to this receiver (each a handshake on both sides)
  let connections = 0
  server.on('secureConnection', () => connections++)
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  return {url: `https://127.0.0.1:${server.address().port}/hook`, seen, perSecond, retriesPerSecond, hits: () => hits, connections: () => connections, close: () => new Promise((r) => server.close(r))}
}

/**
 * @param {object} o
 * @param {number} o.durationMs   load phase
 * @param {number} o.connections  closed-loop clients
 * @param {number} o.refundEvery  every n-th request is a refund of an earlier payment (0: none)
 * @param {number} o.advanceEveryMs, o.advanceSeconds  clock advances during the load (each account's clock, spread over the interval)
 * @param {number} o.drainLimitMs how long to wait, after the load, for every payment.succeeded to reach the healthy endpoint
 * @param {number} o.accounts     1: the platform account takes the load; N > 1: N accounts made for it, the connections
 *                                spread over them, each with its own two endpoints and clock
 * @param {number} o.rate         0: closed loop (as fast as the engine answers); N: N requests per second in all, each
 *                                connection sending on its schedule (builds compared on the same work: CPU per payment)
 * @param {{creates: number, advances: number}} [o.enough]  the load ends as soon as it has made this many payments and
 *                                clock advances (durationMs is then the most it may take): the test's soak, whose
 *                                assertions need an amount of work, not a length of time
 */
export async function runSoak({durationMs = 180_000, connections = 32, refundEvery = 10, advanceEveryMs = 20_000, advanceSeconds = 60, drainLimitMs = 60_000, accounts: accountCount = 1, rate = 0, enough, onProgress = () => {}} = {}) {
  const root = mkdtempSync(join(tmpdir(), 'gw-soak-'))
  const dataDir = join(root, 'engine')
  const engine = await startEngine(dataDir, {label: accountCount > 1 ? `engine-soak${accountCount}` : 'engine-soak'})
  const pid = engine.child.pid
  const dispatcher = new Agent({connect: {ca: engine.ca}})
  const api = async (method, path, body, key = API_KEY) => {
    const res = await request(`${engine.base_url}${path}`, {
      method,
      dispatcher,
      headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(method === 'POST' ? {'idempotency-key': nextKey()} : {})},
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.body.text()
    return {status: res.statusCode, body: text ? JSON.parse(text) : undefined}
  }
  const healthy = await receiver(engine.tlsDir, 204)
  const failing = await receiver(engine.tlsDir, 500)
  const out = {accounts: accountCount}
  try {
    // the accounts that take the load: the platform account, or N made for the soak
    const keys = []
    if (accountCount <= 1) keys.push(API_KEY)
    else
      for (let i = 0; i < accountCount; i++) {
        const r = await api('POST', '/accounts', {name: `soak-${i}`})
        if (r.status !== 201) throw new Error(`account: ${r.status} ${JSON.stringify(r.body)}`)
        keys.push(r.body.secret_key)
      }
    for (const [i, key] of keys.entries())
      for (const rx of [healthy, failing]) {
        // each account's endpoints are its own (a path of their own at the shared receivers)
        const r = await api('POST', '/webhook_endpoints', {url: `${rx.url}/${i}`, enabled_events: ['*']}, key)
        if (r.status !== 201) throw new Error(`endpoint: ${r.status} ${JSON.stringify(r.body)}`)
      }

    // ---- the load: payments, some refunds, clock advances
    const pool = makePool(engine.origin, engine.ca, connections)
    const succeeded = [] // payment ids whose create answered succeeded
    const refundable = keys.map(() => [])
    let creates = 0
    let refunds = 0
    let errors = 0
    let firstError
    let stop = false
    const started = performance.now()
    const worker = async (w) => {
      // connection w sends for account w mod N
      const a = w % keys.length
      const key = keys[a]
      let n = 0
      // at a fixed rate: this connection's requests are due every connections / rate seconds, staggered
      const every = rate > 0 ? (connections * 1000) / rate : 0
      let due = performance.now() + (every * w) / connections
      while (!stop) {
        if (every) {
          const wait = due - performance.now()
          if (wait > 0) await sleep(wait)
          due += every
          if (stop) break
        }
        const refund = refundEvery > 0 && ++n % refundEvery === 0 && refundable[a].length > 0
        const body = refund ? JSON.stringify({payment: refundable[a].pop(), amount: 100}) : PAYMENT_BODY
        try {
          const res = await pool.request({
            path: refund ? '/v1/refunds' : '/v1/payments',
            method: 'POST',
            headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': nextKey()},
            body,
          })
          const text = await res.body.text()
          if (res.statusCode !== 201) {
            errors++
            firstError ??= `${res.statusCode} ${text.slice(0, 200)}`
            continue
          }
          if (refund) refunds++
          else {
            creates++
            const p = JSON.parse(text)
            if (p.status === 'succeeded') {
              succeeded.push(p.id)
              refundable[a].push(p.id)
            }
          }
        } catch (e) {
          errors++
          firstError ??= e.message
        }
      }
    }
    const rss = []
    const advances = []
    const sampler = setInterval(() => rss.push([performance.now() - started, rssMiB(pid)]), 2000)
    // every account's clock moves every advanceEveryMs; the accounts' advances are spread over the interval
    const advancer = async (a) => {
      await sleep((advanceEveryMs * a) / keys.length)
      while (!stop) {
        await sleep(advanceEveryMs)
        if (stop) break
        const t0 = performance.now()
        const r = await api('POST', '/test_helpers/clock/advance', {seconds: advanceSeconds}, keys[a]).catch((e) => ({status: 0, body: e.message}))
        advances.push({ms: performance.now() - t0, status: r.status})
        onProgress(`advance ${advances.length}: ${r.status} in ${Math.round(performance.now() - t0)} ms; ${creates} payments, ${healthy.seen.size} events at the healthy endpoints`)
      }
    }
    const cpu0 = cpuSeconds(pid)
    const main0 = mainThreadCpuSeconds(pid)
    const advancers = keys.map((_, a) => advancer(a))
    const workers = Array.from({length: connections}, (_, w) => worker(w))
    if (!enough) await sleep(durationMs)
    else while (performance.now() - started < durationMs && (creates < enough.creates || advances.length < enough.advances)) await sleep(100)
    stop = true
    const loadMs = performance.now() - started
    const cpu = cpuSeconds(pid) - cpu0
    const mainCpu = mainThreadCpuSeconds(pid) - main0
    await Promise.all(workers)
    await Promise.all(advancers)
    await pool.close()
    const loadEnd = performance.now()

    // ---- after the load: every payment.succeeded at the healthy endpoints?
    const ids = new Set(succeeded)
    const delivered = () => {
      let k = 0
      for (const v of healthy.seen.values()) if (v.type === 'payment.succeeded' && ids.has(v.object)) k++
      return k
    }
    while (delivered() < ids.size && performance.now() - loadEnd < drainLimitMs) await sleep(100)
    const drainMs = delivered() >= ids.size ? performance.now() - loadEnd : NaN
    const missing = ids.size - delivered()
    clearInterval(sampler)
    rss.push([performance.now() - started, rssMiB(pid)])

    // deliveries per second to the healthy and the failing endpoints during the load (a receiver counts by second), next to creates per second
    const inLoad = (m) => [...m.entries()].filter(([s]) => s * 1000 >= started && s * 1000 < started + loadMs).reduce((a, [, c]) => a + c, 0) / (loadMs / 1000)
    out.deliveriesPerSec = inLoad(healthy.perSecond)
    out.failingPerSec = inLoad(failing.perSecond)
    out.failingRetriesPerSec = inLoad(failing.retriesPerSecond)

    // ---- refunds settle although one endpoint fails every delivery: move 31 min (card refunds answer after 30)
    let refundAdvanceMs = 0
    let refundAdvanceStatus = 200
    let refundsStillPending = 0
    for (const key of keys) {
      const t0 = performance.now()
      const adv = await api('POST', '/test_helpers/clock/advance', {seconds: 31 * 60}, key)
      refundAdvanceMs = Math.max(refundAdvanceMs, performance.now() - t0)
      if (adv.status !== 200) refundAdvanceStatus = adv.status
      refundsStillPending += (await api('GET', '/refunds?status=pending&limit=1', undefined, key)).body?.data?.length ?? NaN
    }

    Object.assign(out, {
      loadMs,
      creates,
      createsPerSec: creates / (loadMs / 1000),
      refunds,
      errors,
      firstError,
      succeeded: ids.size,
      missing,
      drainMs,
      advances,
      advanceP100: Math.max(0, ...advances.map((a) => a.ms)),
      advanceFailures: advances.filter((a) => a.status !== 200).length,
      refundAdvanceMs,
      refundAdvanceStatus,
      refundsStillPending,
      // CPU the engine process used during the load (every thread; its main thread apart), per payment created:
      // the payment, its share of the refunds, its webhook attempts and the clock's jobs all included
      cpuSeconds: cpu,
      cpuPerPaymentUs: creates ? (cpu * 1e6) / creates : NaN,
      mainThreadCpuPerPaymentUs: creates ? (mainCpu * 1e6) / creates : NaN,
      rssStartMiB: rss[0]?.[1],
      rssEndMiB: rss[rss.length - 1]?.[1],
      rssPeakMiB: Math.max(...rss.map((r) => r[1])),
      // after the first minute (or the first third of a short run): warm-up, caches, JIT
      rssSlopeMiBPerMin: slopePerMin(rss.filter(([t]) => t >= Math.min(60_000, loadMs / 3))),
      // the plateau is what matters: the slope over the load's second half, and RSS at each minute
      rssSecondHalfSlopeMiBPerMin: slopePerMin(rss.filter(([t]) => t >= loadMs / 2 && t <= loadMs)),
      // the minutes that slope is read over: short soaks still hold the allocator's warm-up there (bench/README.md#memory-under-the-soak)
      rssSlopeMinutes: [loadMs / 2 / 60_000, loadMs / 60_000],
      rssByMinute: rssEachMinute(rss, loadMs),
      failingHits: failing.hits(),
      webhookConnections: healthy.connections() + failing.connections(),
      rss: rss.map(([t, v]) => [Math.round(t / 1000), Math.round(v)]),
    })
  } finally {
    await dispatcher.close()
    // SIGTERM with the failing endpoint's backlog still due: the engine must exit promptly
    const t0 = performance.now()
    const exit = await engine.stop()
    out.sigtermMs = performance.now() - t0
    out.exitCode = exit.code
    await healthy.close()
    await failing.close()
    out.dataDirBytes = dirBytes(dataDir)
    out.bytesPerPayment = out.creates ? out.dataDirBytes / out.creates : NaN
    rmSync(root, {recursive: true, force: true})
  }
  return out
}

/** Bytes in the data dir per payment: `payments` card payments with one webhook endpoint answering 204 (docs/decisions.md#storage-per-payment). */
export async function measureStorage({payments = 10_000, connections = 16} = {}) {
  const root = mkdtempSync(join(tmpdir(), 'gw-storage-'))
  const dataDir = join(root, 'engine')
  const engine = await startEngine(dataDir, {label: 'engine-storage'})
  const dispatcher = new Agent({connect: {ca: engine.ca}})
  const rx = await receiver(engine.tlsDir, 204)
  try {
    const res = await request(`${engine.base_url}/webhook_endpoints`, {
      method: 'POST',
      dispatcher,
      headers: {authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'idempotency-key': nextKey()},
      body: JSON.stringify({url: rx.url, enabled_events: ['*']}),
    })
    await res.body.text()
    const pool = makePool(engine.origin, engine.ca, connections)
    let sent = 0
    const worker = async () => {
      while (sent < payments) {
        sent++
        const r = await pool.request({path: '/v1/payments', method: 'POST', headers: {authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'idempotency-key': nextKey()}, body: PAYMENT_BODY})
        await r.body.text()
      }
    }
    await Promise.all(Array.from({length: connections}, worker))
    await pool.close()
    while (rx.seen.size < payments) await sleep(100)
  } finally {
    await dispatcher.close()
    await engine.stop()
    await rx.close()
  }
  const bytes = dirBytes(dataDir)
  rmSync(root, {recursive: true, force: true})
  return {payments, bytes, bytesPerPayment: bytes / payments}
}
