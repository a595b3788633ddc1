// Accounts (docs/decisions.md#accounts): how long making one takes (and its first payment), and whether many
// accounts with data slow any one account's requests. Prints figures; asserts nothing.
//   BENCH_ONLY=accounts npm run bench          (part of the default run)
//   BENCH_ACCOUNTS=1000 BENCH_ACCOUNT_PAYMENTS=100
import {Agent, request} from 'undici'
import {API_KEY, PAYMENT_BODY, closedLoop, env, nextKey, percentile, startEngine} from './lib.js'

const ACCOUNTS = env('BENCH_ACCOUNTS', 1000)
const PER_ACCOUNT = env('BENCH_ACCOUNT_PAYMENTS', 100)
const CREATIONS = env('BENCH_ACCOUNT_CREATIONS', 200)
const WINDOW_MS = env('BENCH_ACCOUNT_WINDOW_MS', 5000)

const f0 = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a')
const f2 = (n) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a')

async function call(engine, dispatcher, key, method, path, body) {
  const res = await request(`${engine.base_url}${path}`, {
    method,
    dispatcher,
    headers: {authorization: `Bearer ${key}`, ...(body ? {'content-type': 'application/json', 'idempotency-key': nextKey()} : {})},
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.body.text()
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`)
  return JSON.parse(text)
}

/** One account's payments, closed loop, as the main bench's part (a) sends them. */
function paymentsOf(engine, key) {
  return closedLoop({
    origin: engine.origin,
    ca: engine.ca,
    connections: 16,
    warmupMs: 1000,
    durationMs: WINDOW_MS,
    makeRequest: () => ({path: '/v1/payments', method: 'POST', headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': nextKey()}, body: PAYMENT_BODY}),
  })
}

export async function accountsBench(dataDir) {
  const engine = await startEngine(dataDir, {label: 'accounts'})
  const dispatcher = new Agent({connect: {ca: engine.ca}, connections: 32})
  try {
    // a fresh engine: one account's payments, as a reference
    const first = await call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: 'reference'})
    const before = await paymentsOf(engine, first.secret_key)

    // making an account, then its first payment, one after the other
    const create = []
    const firstPayment = []
    for (let i = 0; i < CREATIONS; i++) {
      const t0 = performance.now()
      const a = await call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: `made-${i}`})
      const t1 = performance.now()
      await call(engine, dispatcher, a.secret_key, 'POST', '/payments', PAYMENT_BODY)
      create.push(t1 - t0)
      firstPayment.push(performance.now() - t0)
    }
    create.sort((x, y) => x - y)
    firstPayment.sort((x, y) => x - y)

    // many accounts with data
    const fillStarted = performance.now()
    const keys = []
    for (let i = 0; i < ACCOUNTS; i += 16) {
      const batch = await Promise.all(Array.from({length: Math.min(16, ACCOUNTS - i)}, (_, j) => call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: `fill-${i + j}`})))
      keys.push(...batch.map((a) => a.secret_key))
    }
    let next = 0
    const jobs = []
    for (const key of keys) for (let n = 0; n < PER_ACCOUNT; n++) jobs.push(key)
    await Promise.all(
      Array.from({length: 32}, async () => {
        while (next < jobs.length) await call(engine, dispatcher, jobs[next++], 'POST', '/payments', PAYMENT_BODY)
      }),
    )
    const fillS = (performance.now() - fillStarted) / 1000
    // the same account's payments again, and a new account's
    const after = await paymentsOf(engine, first.secret_key)
    const fresh = await call(engine, dispatcher, API_KEY, 'POST', '/accounts', {name: 'after'})
    const afterFresh = await paymentsOf(engine, fresh.secret_key)
    return {create, firstPayment, before, after, afterFresh, fillS, stored: ACCOUNTS * PER_ACCOUNT}
  } finally {
    await dispatcher.close()
    await engine.stop()
  }
}

export function printAccounts(r, log) {
  log('(accounts) making an account: POST /accounts, then its first payment, one after the other')
  log(`(accounts) create: p50 ${f2(percentile(r.create, 50))} ms   p99 ${f2(percentile(r.create, 99))} ms   (${r.create.length} accounts)   target < 20 ms: ${percentile(r.create, 50) < 20 ? 'met' : 'MISSED'}`)
  log(`(accounts) create -> first payment answered: p50 ${f2(percentile(r.firstPayment, 50))} ms   p99 ${f2(percentile(r.firstPayment, 99))} ms`)
  log(`(accounts) filled ${f0(ACCOUNTS)} accounts with ${f0(PER_ACCOUNT)} payments each (${f0(r.stored)} payments) in ${f2(r.fillS)} s`)
  const line = (label, x) => `(accounts) ${label.padEnd(44)} ${f0(x.rps).padStart(6)} req/s   p50 ${f2(x.p50).padStart(6)} ms   p99 ${f2(x.p99).padStart(6)} ms${x.errors ? `   (${x.errors} errors: ${x.firstError})` : ''}`
  log(line('one account, engine otherwise empty', r.before))
  log(line(`the same account, ${f0(ACCOUNTS)} others with data`, r.after))
  log(line(`a new account, ${f0(ACCOUNTS)} others with data`, r.afterFresh))
  log(`(accounts) ratio after/before: ${f2(r.after.rps / r.before.rps)} (target: within noise of 1)`)
}
