// One tenant cannot starve the others (docs/decisions.md#one-tenant-cannot-starve-the-others): what another account sees while one account
// A advances its clock 400 days over a history of payments, refunds and disputes; C has 16
// webhook endpoints pointing at a black hole (accepts connections, never answers) with a backlog.
// Prints figures; asserts nothing.
//   BENCH_ONLY=tenants npm run bench
//   BENCH_TENANT_PAYMENTS=600 (A's payments before the advance), BENCH_TENANT_DAYS=400
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {createServer as createTcpServer} from 'node:net'
import {createServer as createHttpsServer} from 'node:https'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Agent, request} from 'undici'
import {API_KEY, PAYMENT_BODY, ROOT, env, makePool, nextKey, percentile, startEngine} from './lib.js'

const PAYMENTS = env('BENCH_TENANT_PAYMENTS', 600)
const DAYS = env('BENCH_TENANT_DAYS', 400)
const B_CONNECTIONS = env('BENCH_TENANT_B_CONNECTIONS', 4)
const DELIVERIES = env('BENCH_TENANT_DELIVERIES', 20)

const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a')
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function call(engine, dispatcher, key, method, path, body) {
  const res = await request(`${engine.base_url}${path}`, {
    method,
    dispatcher,
    headers: {authorization: `Bearer ${key}`, ...(body ? {'content-type': 'application/json', 'idempotency-key': nextKey()} : {})},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.body.text()
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

/** B's payments on `connections` keep-alive connections until `until` settles: latencies (ms) of those answered meanwhile. */
async function paymentsUntil(engine, key, connections, until) {
  const pool = makePool(engine.origin, engine.ca, connections)
  const lat = []
  let errors = 0
  let stop = false
  until.finally(() => (stop = true))
  await Promise.all(
    Array.from({length: connections}, async () => {
      while (!stop) {
        const t0 = performance.now()
        const res = await pool.request({path: '/v1/payments', method: 'POST', headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': nextKey()}, body: PAYMENT_BODY})
        await res.body.text()
        if (res.statusCode === 201) lat.push(performance.now() - t0)
        else errors++
      }
    }),
  )
  await pool.close()
  return {lat: lat.sort((x, y) => x - y), errors}
}

const summary = (r) => `p50 ${f2(percentile(r.lat, 50))} ms   p99 ${f2(percentile(r.lat, 99))} ms   max ${f2(r.lat.at(-1))} ms   (${f0(r.lat.length)} payments${r.errors ? `, ${r.errors} errors` : ''})`

async function httpsReceiver(tlsDir) {
  const received = []
  const server = createHttpsServer({key: readFileSync(join(tlsDir, 'server.key')), cert: readFileSync(join(tlsDir, 'server.crt'))}, (req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      received.push({at: performance.now(), body})
      res.writeHead(204).end()
    })
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  return {url: `https://127.0.0.1:${server.address().port}/hooks`, received, close: () => (server.closeAllConnections(), new Promise((r) => server.close(r)))}
}

/** Accepts connections and never answers (not even the TLS handshake). */
async function blackHole() {
  const sockets = new Set()
  const server = createTcpServer((s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
    s.on('error', () => {})
  })
  await new Promise((r) => server.listen(0, '127.0.0.1', r))
  return {url: `https://127.0.0.1:${server.address().port}`, open: () => sockets.size, close: () => (sockets.forEach((s) => s.destroy()), new Promise((r) => server.close(r)))}
}

/** The parts on one store: SQLite (`store` undefined) or a PostgreSQL URL. */
export async function tenantsBench({store} = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-bench-tenants-'))
  const stretchFile = join(dir, 'loop-stretch.json')
  process.env.LOOP_STRETCH_FILE = stretchFile
  const engine = await startEngine(join(dir, 'data'), {label: 'tenants', flags: ['--import', join(ROOT, 'bench/loop-stretch.js')], args: store ? ['--store', store] : []})
  delete process.env.LOOP_STRETCH_FILE
  const dispatcher = new Agent({connect: {ca: engine.ca}, connections: 32})
  const rx = await httpsReceiver(engine.tlsDir)
  const hole = await blackHole()
  const out = {}
  try {
    const a = await call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: 'tenant-a'})
    const b = await call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: 'tenant-b'})
    // ---- (a) A's history: payments over several days, some refunded, some disputed (the test card), an endpoint
    await call(engine, dispatcher, a.secret_key, 'POST', '/webhook_endpoints', {url: `${rx.url}/a`, enabled_events: ['*']})
    const body = JSON.parse(PAYMENT_BODY)
    const seeded = performance.now()
    for (let day = 0, made = 0; made < PAYMENTS; day++) {
      const batch = Math.min(PAYMENTS - made, Math.ceil(PAYMENTS / 5))
      await Promise.all(
        Array.from({length: batch}, async (_, i) => {
          const n = made + i
          const number = n % 10 === 3 ? '4000000000000259' : '4242424242424242'
          const p = await call(engine, dispatcher, a.secret_key, 'POST', '/payments', {...body, payment_method_data: {...body.payment_method_data, card: {...body.payment_method_data.card, number}}})
          if (n % 7 === 0) await call(engine, dispatcher, a.secret_key, 'POST', '/refunds', {payment: p.id, amount: 500})
        }),
      )
      made += batch
      await call(engine, dispatcher, a.secret_key, 'POST', '/test_helpers/clock/advance', {seconds: 86_400})
    }
    out.seedS = (performance.now() - seeded) / 1000
    const b0 = Date.now()
    out.before = await paymentsUntil(engine, b.secret_key, B_CONNECTIONS, sleep(3000))
    out.beforeWindow = [b0, Date.now()]
    // A's advance, with B's payments going on meanwhile
    const t0 = performance.now()
    const w0 = Date.now()
    const advance = call(engine, dispatcher, a.secret_key, 'POST', '/test_helpers/clock/advance', {seconds: DAYS * 86_400})
    const during = paymentsUntil(engine, b.secret_key, B_CONNECTIONS, advance)
    out.fired = (await advance).fired
    out.advanceMs = performance.now() - t0
    const w1 = Date.now()
    out.during = await during
    out.window = [w0, w1]

    // ---- (b) another account C: 16 endpoints at a black hole and a backlog; B: one healthy endpoint
    const c = await call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: 'tenant-c'})
    for (let i = 0; i < 16; i++) await call(engine, dispatcher, c.secret_key, 'POST', '/webhook_endpoints', {url: `${hole.url}/a${i}`, enabled_events: ['payment.succeeded']})
    await Promise.all(Array.from({length: 40}, () => call(engine, dispatcher, c.secret_key, 'POST', '/payments', body)))
    for (let i = 0; i < 200 && hole.open() < 200; i++) await sleep(25)
    out.holeOpen = hole.open()
    await call(engine, dispatcher, b.secret_key, 'POST', '/webhook_endpoints', {url: `${rx.url}/b`, enabled_events: ['payment.succeeded']})
    const lat = []
    for (let i = 0; i < DELIVERIES; i++) {
      const t = performance.now()
      const p = await call(engine, dispatcher, b.secret_key, 'POST', '/payments', body)
      for (let w = 0; w < 7500 && !rx.received.some((r) => r.at >= t && r.body.includes(p.id)); w++) await sleep(2)
      const got = rx.received.find((r) => r.at >= t && r.body.includes(p.id))
      lat.push(got ? got.at - t : Infinity)
    }
    out.delivery = lat.sort((x, y) => x - y)
    out.holeOpenAfter = hole.open()
  } finally {
    await dispatcher.close()
    await engine.stop()
    await rx.close()
    await hole.close()
  }
  try {
    const gaps = JSON.parse(readFileSync(stretchFile, 'utf8'))
    const within = ([w0, w1]) => gaps.filter(([at]) => at >= w0 && at <= w1).map(([, g]) => g).sort((x, y) => x - y)
    out.gaps = within(out.window)
    out.gapsBefore = within(out.beforeWindow)
  } catch {
    out.gaps = undefined
  }
  rmSync(dir, {recursive: true, force: true})
  out.store = store ? 'postgres' : 'sqlite'
  return out
}

/** Both stores: SQLite, then PostgreSQL on a throwaway cluster (BENCH_TENANT_STORES=sqlite for one). */
export async function tenantsBenchAll() {
  const stores = (process.env.BENCH_TENANT_STORES ?? 'sqlite,postgres').split(',')
  const out = []
  if (stores.includes('sqlite')) out.push(await tenantsBench())
  if (stores.includes('postgres')) {
    const {startCluster} = await import('../dist/engine/store/postgres/cluster.js')
    const cluster = await startCluster({fsync: true})
    try {
      out.push(await tenantsBench({store: await cluster.createDatabase('bench_tenants')}))
    } finally {
      await cluster.stop()
    }
  }
  return out
}

export function printTenants(rs, log) {
  for (const r of rs) printOne(r, log)
}

function printOne(r, log) {
  log(`(tenants, ${r.store}) account A: ${f0(PAYMENTS)} payments over 5 days (every 7th refunded, every 10th disputed), seeded in ${f2(r.seedS)} s; account B: POST /payments on ${B_CONNECTIONS} connections`)
  log(`(tenants, ${r.store}) B alone                          ${summary(r.before)}`)
  log(`(tenants, ${r.store}) B while A advances ${DAYS} days      ${summary(r.during)}`)
  log(`(tenants, ${r.store}) A's ${DAYS}-day advance took ${f0(r.advanceMs)} ms; fired ${Object.entries(r.fired ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')}`)
  const stretches = (g) => `longest stretch ${f2(g.at(-1) ?? 0)} ms, ${g.filter((x) => x > 10).length} over 10 ms, ${g.filter((x) => x > 5).length} over 5 ms`
  if (r.gaps) log(`(tenants, ${r.store}) event loop, B alone: ${stretches(r.gapsBefore)}; during the advance: ${stretches(r.gaps)} (gaps of a 1 ms timer)`)
  log(`(tenants, ${r.store}) account C: 16 endpoints at a black hole, ${r.holeOpen} connections held open; B's delivery to its healthy endpoint (payment answered -> received): p50 ${f0(percentile(r.delivery, 50))} ms   p99 ${f0(percentile(r.delivery, 99))} ms   max ${f0(r.delivery.at(-1))} ms (${r.delivery.length} deliveries, ${r.delivery.filter((x) => x > 1000).length} over 1 s, ${r.delivery.filter((x) => !Number.isFinite(x)).length} not within 15 s)`)
}
