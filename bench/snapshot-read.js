// Reading a large account's snapshot beside another tenant: an account of BENCH_SNAPSHOT_READ_PAYMENTS
// (25,000) payments is read by two loops of GET /v1/test_helpers/snapshot at once (a loop waits
// Retry-After when it is told to, as a client should), while another account reads GET /v1/account at
// a fixed rate from a worker thread of its own. Prints what the reads did (answered, refused, the
// snapshot's size and each read's time) and the other tenant's latency meanwhile (p50, p99, max; from
// each request's scheduled time, so a stall is not hidden), and the engine's event-loop stretches
// meanwhile (bench/loop-stretch.js): the longest gap, and the most CPU its main thread spent in one
// gap — the stretch of work itself, which a busy machine lengthens less than it lengthens the gap.
// Asserts nothing; target: max ≤ 100 ms on an idle machine.
//   BENCH_ONLY=snapshot BENCH_SNAPSHOT_PARTS=read npm run bench      (BENCH_SNAPSHOT_PG=1 adds PostgreSQL)
//   BENCH_SNAPSHOT_READ_PAYMENTS=25000 BENCH_SNAPSHOT_READ_MS=20000 BENCH_SNAPSHOT_RATE=200
import {randomBytes} from 'node:crypto'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {Agent, request} from 'undici'
import {API_KEY, env, ROOT, startEngine} from './lib.js'

const PAYMENTS = env('BENCH_SNAPSHOT_READ_PAYMENTS', 25_000)
/** how long the two read loops run while the other tenant's latency is recorded */
const READ_MS = env('BENCH_SNAPSHOT_READ_MS', 20_000)
/** payments made through the API, the pattern the rest are copied from */
const TEMPLATE = 20

const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
const f1 = (n) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a')
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a')
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const rand = (n) => [...randomBytes(n)].map((b) => B62[b % 62]).join('')

async function call(engine, dispatcher, key, method, path, body) {
  const res = await request(`${engine.base_url}${path}`, {
    method,
    dispatcher,
    headers: {authorization: `Bearer ${key}`, ...(body !== undefined ? {'content-type': 'application/json', 'idempotency-key': `bench-${rand(16)}`} : {})},
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.body.text()
  return {status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text)}
}

/** Ids the engine makes (a prefix, 20 or more letters and digits); accounts' and providers' ids are kept. */
const ID = /\b([a-z]{2,5})_([0-9A-Za-z]{20,})\b/g
const KEPT = new Set(['acct', 'sk', 'pk', 'whsec'])

/**
 * A snapshot of `n` payments made from a real one of TEMPLATE payments: the payments' rows
 * (objects, events, jobs of them) copied with every id the engine made renewed per copy; idempotency
 * records are left out (keys are unique), the account's own rows (its settlement job, settings,
 * statistics) kept once.
 */
export function manyPayments(template, n) {
  const own = (j) => j.kind === 'settlement.run'
  const part = JSON.stringify({objects: template.rows.objects, events: template.rows.events, jobs: template.rows.jobs.filter((j) => !own(j))})
  const copies = Math.ceil(n / TEMPLATE)
  const objects = []
  const events = []
  const jobs = template.rows.jobs.filter(own)
  for (let c = 0; c < copies; c++) {
    const ids = new Map()
    const copy = JSON.parse(
      part.replace(ID, (whole, prefix) => {
        if (KEPT.has(prefix)) return whole
        let id = ids.get(whole)
        if (!id) ids.set(whole, (id = `${prefix}_${rand(24)}`))
        return id
      }),
    )
    objects.push(...copy.objects)
    events.push(...copy.events)
    jobs.push(...copy.jobs)
  }
  return JSON.stringify({...template, rows: {...template.rows, objects, events, jobs, idempotency: []}})
}

/** The account to read: TEMPLATE payments through the API (every 5th refunded in part), then copied to PAYMENTS by a snapshot load. */
async function seed(engine, dispatcher) {
  const big = (await call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: 'a large account'})).json()
  for (let i = 0; i < TEMPLATE; i++) {
    const p = await call(engine, dispatcher, big.secret_key, 'POST', '/payments', {
      amount: 1000 + i,
      currency: 'EUR',
      payment_method: 'card',
      payment_method_data: {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}},
      description: `bench order ${i}`,
      metadata: {order: String(i)},
    })
    if (p.status !== 201) throw new Error(`template payment: ${p.status} ${p.text.slice(0, 300)}`)
    if (i % 5 === 0) await call(engine, dispatcher, big.secret_key, 'POST', '/refunds', {payment: p.json().id, amount: 100})
  }
  const template = (await call(engine, dispatcher, big.secret_key, 'GET', '/test_helpers/snapshot')).json()
  const body = manyPayments(template, PAYMENTS)
  const t0 = performance.now()
  const loaded = await call(engine, dispatcher, big.secret_key, 'POST', '/test_helpers/snapshot', body)
  if (loaded.status !== 200) throw new Error(`seeding load: ${loaded.status} ${loaded.text.slice(0, 300)}`)
  return {big, loadedBytes: Buffer.byteLength(body), seedS: (performance.now() - t0) / 1000, objects: loaded.json().objects}
}

/** A loop of snapshot reads until `until`: each body read whole; a 429 waits its Retry-After. */
async function readLoop(engine, dispatcher, key, until) {
  const out = {ok: 0, refused: 0, other: 0, bytes: 0, times: [], firstOther: undefined, retryAfter: undefined, message: undefined}
  while (performance.now() < until) {
    const t0 = performance.now()
    let r
    try {
      r = await call(engine, dispatcher, key, 'GET', '/test_helpers/snapshot')
    } catch (e) {
      out.other++
      out.firstOther ??= e.message
      continue
    }
    if (r.status === 200) {
      out.ok++
      out.bytes = Buffer.byteLength(r.text)
      out.times.push(performance.now() - t0)
    } else if (r.status === 429) {
      out.refused++
      out.retryAfter ??= r.headers['retry-after']
      out.message ??= r.json().error?.message
      await sleep(Number(r.headers['retry-after'] ?? 1) * 1000)
    } else {
      out.other++
      out.firstOther ??= `${r.status} ${r.text.slice(0, 200)}`
    }
  }
  return out
}

/** One engine: seeds the large account, then two read loops beside the other tenant's steady reads; its event-loop stretches meanwhile. */
export async function readOnce(dataDir, label, args, steadyReader, rate) {
  const stretchDir = mkdtempSync(join(tmpdir(), 'gw-bench-stretch-'))
  const stretchFile = join(stretchDir, 'loop-stretch.json')
  Object.assign(process.env, {LOOP_STRETCH_FILE: stretchFile, LOOP_STRETCH_CPU: '1'})
  const engine = await startEngine(dataDir, {label, args: [...args, '--snapshot-max-bytes', String(512 * 1024 * 1024)], flags: ['--import', join(ROOT, 'bench/loop-stretch.js')]})
  delete process.env.LOOP_STRETCH_FILE
  delete process.env.LOOP_STRETCH_CPU
  const dispatcher = new Agent({connect: {ca: engine.ca}, bodyTimeout: 600_000, headersTimeout: 600_000})
  let result
  try {
    const seeded = await seed(engine, dispatcher)
    const other = (await call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: 'another tenant'})).json()
    const reader = steadyReader(engine, other.secret_key, rate)
    await sleep(1000) // the reader's connections open, warm
    reader.record(true)
    const w0 = Date.now()
    const until = performance.now() + READ_MS
    const loops = await Promise.all([readLoop(engine, dispatcher, seeded.big.secret_key, until), readLoop(engine, dispatcher, seeded.big.secret_key, until)])
    const window = [w0, Date.now()]
    reader.record(false)
    const during = await reader.stop()
    result = {label, ...seeded, big: undefined, loops, during, window}
  } finally {
    await dispatcher.close()
    await engine.stop()
  }
  result.loop = stretches(stretchFile, result.window)
  rmSync(stretchDir, {recursive: true, force: true})
  return result
}

/** The engine's event-loop gaps inside the reads' window: the longest (wall) and the most main-thread CPU in one. */
function stretches(file, [from, to]) {
  let gaps = []
  try {
    gaps = JSON.parse(readFileSync(file, 'utf8')).filter(([end, gap]) => end - gap >= from && end <= to)
  } catch {
    // no file: the engine did not stop cleanly
  }
  return {gapMs: Math.max(0, ...gaps.map((g) => g[1])), cpuMs: Math.max(0, ...gaps.map((g) => g[2] ?? 0)), over20: gaps.filter((g) => (g[2] ?? 0) > 20).length}
}

export function printRead(results, log, rate) {
  for (const r of results) {
    const store = r.label.replace('snapshot-read-', '')
    const ok = r.loops.reduce((a, l) => a + l.ok, 0)
    const refused = r.loops.reduce((a, l) => a + l.refused, 0)
    const other = r.loops.reduce((a, l) => a + l.other, 0)
    const times = r.loops.flatMap((l) => l.times).sort((a, b) => a - b)
    const bytes = Math.max(...r.loops.map((l) => l.bytes))
    log(`(snapshot read, ${store}) account of ${f0(PAYMENTS)} payments (${f0(r.objects)} objects; seeded by a load of ${f1(r.loadedBytes / 1048576)} MiB in ${f1(r.seedS)} s)`)
    log(
      `(snapshot read, ${store}) two loops of GET /test_helpers/snapshot for ${f0(READ_MS / 1000)} s: ${ok} answered (${f1(bytes / 1048576)} MiB each, ${times.length ? `${f2(times[0] / 1000)}–${f2(times[times.length - 1] / 1000)} s` : 'n/a'}), ${refused} refused 429${refused ? ` (Retry-After ${r.loops.find((l) => l.retryAfter)?.retryAfter}: ${r.loops.find((l) => l.message)?.message})` : ''}${other ? `, ${other} other (${r.loops.find((l) => l.firstOther)?.firstOther})` : ''}`,
    )
    const d = r.during
    log(`(snapshot read, ${store}) another tenant's GET /v1/account at ${f0(rate)} req/s meanwhile: p50 ${f2(d.p50)} ms   p99 ${f2(d.p99)} ms   max ${f2(d.max)} ms   (target: max ≤ 100 ms on an idle machine; ${f0(d.count)} answered${d.errors ? `, ${d.errors} errors: ${d.firstError}` : ''})`)
    log(`(snapshot read, ${store}) the engine's event loop meanwhile: longest gap ${f1(r.loop.gapMs)} ms; most CPU of its main thread in one gap ${f1(r.loop.cpuMs)} ms (${r.loop.over20} gaps over 20 ms of CPU)`)
  }
}
