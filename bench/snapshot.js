// Loading a large snapshot (docs/decisions.md#large-snapshots): one tenant loads a snapshot of BENCH_SNAPSHOT_CUSTOMERS
// customers (about 330 bytes each: 49 MB for 150,000, the default) while another tenant reads GET /v1/account at a fixed rate. Prints the load's time,
// the engine's peak RSS, and the other tenant's latency during the load (p50, p99, max; from each
// request's scheduled time, so a stall is not hidden). Asserts nothing. Then a large account's
// snapshot read beside another tenant (snapshot-read.js).
//   BENCH_ONLY=snapshot npm run bench           (SQLite; BENCH_SNAPSHOT_PG=1 adds PostgreSQL)
//   BENCH_SNAPSHOT_PARTS=load or read           (one of the two; default both)
//   BENCH_SNAPSHOT_CUSTOMERS=150000 BENCH_SNAPSHOT_RATE=200
import {randomBytes} from 'node:crypto'
import {join} from 'node:path'
import {isMainThread, parentPort, Worker, workerData} from 'node:worker_threads'
import {Agent, request} from 'undici'
import {API_KEY, env, makePool, peakRssMiB, percentile, startEngine} from './lib.js'
import {printRead, readOnce} from './snapshot-read.js'

const CUSTOMERS = env('BENCH_SNAPSHOT_CUSTOMERS', 150_000)
/** the other tenant's requests per second during the load */
const RATE = env('BENCH_SNAPSHOT_RATE', 200)
/** which measurements: `load` (a large snapshot loaded), `read` (a large account's snapshot read, snapshot-read.js) */
const PARTS = new Set((process.env.BENCH_SNAPSHOT_PARTS ?? 'load,read').split(','))

const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a')
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a')
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const id = (prefix) => `${prefix}_${[...randomBytes(24)].map((b) => B62[b % 62]).join('')}`

async function call(engine, dispatcher, key, method, path, body) {
  const res = await request(`${engine.base_url}${path}`, {
    method,
    dispatcher,
    headers: {authorization: `Bearer ${key}`, ...(body !== undefined ? {'content-type': 'application/json'} : {})},
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.body.text()
  return {status: res.statusCode, text, json: () => JSON.parse(text)}
}

/** A snapshot of `n` customers, made from a real (empty) snapshot of the account. */
export function bigSnapshot(empty, n) {
  const start = Date.parse(empty.engine_time) - n * 1000
  const objects = []
  for (let i = 0; i < n; i++) {
    const created = new Date(start + i * 1000).toISOString()
    const obj = {id: id('cus'), object: 'customer', email: `customer-${i}@example.com`, name: `Customer number ${i}`, description: `Made by the bench as customer ${i} of ${n}`, metadata: {segment: 'bench', index: String(i)}, livemode: false, created_at: created}
    objects.push({kind: 'customer', obj, version: 1})
  }
  return JSON.stringify({...empty, rows: {...empty.rows, objects: [...empty.rows.objects, ...objects]}})
}

/**
 * Requests at a fixed rate until stopped, latency from each one's scheduled time, in a worker
 * thread of its own: the bench's main thread is busy sending the snapshot meanwhile, and its
 * stalls are not the engine's.
 */
function steadyReader(engine, key, rate) {
  const worker = new Worker(new URL(import.meta.url), {workerData: {reader: {origin: engine.origin, ca: engine.ca, key, rate}}})
  const result = new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  return {
    record(on) {
      worker.postMessage(on ? 'record' : 'pause')
    },
    async stop() {
      worker.postMessage('stop')
      const r = await result
      await worker.terminate()
      return r
    },
  }
}

/** The reader's thread: GET /v1/account every 1/rate s until told to stop; answers its figures. */
async function readerThread({origin, ca, key, rate}) {
  const pool = makePool(origin, ca, 8)
  const samples = []
  const errors = {count: 0, first: undefined}
  const inflight = new Set()
  let stopped = false
  let recording = false
  parentPort.on('message', (m) => {
    if (m === 'record') recording = true
    else if (m === 'pause') recording = false
    else stopped = true
  })
  const interval = 1000 / rate
  const start = performance.now()
  let i = 0
  const fire = (due) => {
    const measured = recording
    const p = pool
      .request({path: '/v1/account', method: 'GET', headers: {authorization: `Bearer ${key}`}})
      .then(async (res) => {
        await res.body.text()
        if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`)
        if (measured) samples.push(performance.now() - due)
      })
      .catch((e) => {
        errors.count++
        errors.first ??= e.message
      })
      .finally(() => inflight.delete(p))
    inflight.add(p)
  }
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now()
      while (!stopped && start + i * interval <= now) fire(start + i++ * interval)
      if (stopped) resolve()
      else setTimeout(tick, 1)
    }
    tick()
  })
  await Promise.all(inflight)
  await pool.close()
  const s = Float64Array.from(samples).sort()
  parentPort.postMessage({count: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1], errors: errors.count, firstError: errors.first})
}

async function loadOnce(dataDir, label, args) {
  const engine = await startEngine(dataDir, {label, args})
  const dispatcher = new Agent({connect: {ca: engine.ca}, bodyTimeout: 600_000, headersTimeout: 600_000})
  try {
    const loader = (await call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: 'loads a snapshot'})).json()
    const other = (await call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: 'another tenant'})).json()
    const empty = (await call(engine, dispatcher, loader.secret_key, 'GET', '/test_helpers/snapshot')).json()
    const body = bigSnapshot(empty, CUSTOMERS)
    const rssBefore = peakRssMiB(engine.child.pid)
    const reader = steadyReader(engine, other.secret_key, RATE)
    await new Promise((r) => setTimeout(r, 1000)) // the reader's connections open, warm
    reader.record(true)
    const t0 = performance.now()
    const res = await call(engine, dispatcher, loader.secret_key, 'POST', '/test_helpers/snapshot', body)
    const loadS = (performance.now() - t0) / 1000
    reader.record(false)
    const during = await reader.stop()
    const after = res.status === 200 ? (await call(engine, dispatcher, loader.secret_key, 'GET', '/customers?limit=1')).json() : undefined
    return {label, bytes: Buffer.byteLength(body), status: res.status, answer: res.text.slice(0, 300), loadS, rssBefore, rssPeak: peakRssMiB(engine.child.pid), during, loaded: after?.data?.length === 1}
  } finally {
    await dispatcher.close()
    await engine.stop()
  }
}

export async function snapshotBench(root) {
  const out = {load: [], read: []}
  const stores = [['sqlite', async (run) => run([])]]
  if (process.env.BENCH_SNAPSHOT_PG === '1')
    stores.push([
      'postgres',
      async (run) => {
        const {startCluster} = await import('../dist/engine/store/postgres/cluster.js')
        const cluster = await startCluster({fsync: true})
        try {
          return await run(['--store', await cluster.createDatabase(`bench_snapshot_${Date.now()}`)])
        } finally {
          await cluster.stop()
        }
      },
    ])
  for (const [store, on] of stores) {
    if (PARTS.has('load')) out.load.push(await on((args) => loadOnce(join(root, `snapshot-load-${store}`), `snapshot-${store}`, args)))
    if (PARTS.has('read')) out.read.push(await on((args) => readOnce(join(root, `snapshot-read-${store}`), `snapshot-read-${store}`, args, steadyReader, RATE)))
  }
  return out
}

export function printSnapshot(results, log) {
  for (const r of results.load) {
    const store = r.label.replace('snapshot-', '')
    log(`(snapshot, ${store}) POST /test_helpers/snapshot of ${f0(CUSTOMERS)} customers (${f1(r.bytes / 1048576)} MiB): ${r.status}${r.status === 200 ? '' : ` ${r.answer}`} in ${f2(r.loadS)} s${r.status === 200 && !r.loaded ? ' (but the customers are not there)' : ''}`)
    log(`(snapshot, ${store}) engine peak RSS: ${f0(r.rssBefore)} MiB before the load, ${f0(r.rssPeak)} MiB after`)
    const d = r.during
    log(`(snapshot, ${store}) another tenant's GET /v1/account at ${f0(RATE)} req/s during the load: p50 ${f2(d.p50)} ms   p99 ${f2(d.p99)} ms   max ${f2(d.max)} ms   (${f0(d.count)} answered${d.errors ? `, ${d.errors} errors: ${d.firstError}` : ''})`)
  }
  printRead(results.read, log, RATE)
}

if (!isMainThread && workerData?.reader) await readerThread(workerData.reader)
// `node bench/snapshot.js` runs this part alone
else if (import.meta.url === `file://${process.argv[1]}`) {
  const {mkdtempSync, rmSync} = await import('node:fs')
  const {tmpdir} = await import('node:os')
  const root = mkdtempSync(join(tmpdir(), 'gw-bench-snapshot-'))
  try {
    printSnapshot(await snapshotBench(root), (s) => process.stdout.write(s + '\n'))
  } finally {
    rmSync(root, {recursive: true, force: true})
  }
}
