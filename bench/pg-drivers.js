// `node bench/pg-drivers.js`: picks the PostgreSQL driver by measurement (docs/decisions.md#several-instances-on-postgresql). Runs the
// same representative unit of work with `pg` (node-postgres, its Pool) and `postgres`
// (porsager) against a throwaway cluster (fsync on), and prints units per second and the CPU
// time of this process per unit. Needs `npm run build` first (the cluster helper is in dist/).
//
// The unit: BEGIN; a transaction advisory lock on the object's key; three SELECTs by id; two
// INSERTs and one UPDATE; COMMIT — the shape of a payment create or a capture.
import {cpus, loadavg} from 'node:os'
import pg from 'pg'
import postgres from 'postgres'
import {startCluster} from '../dist/engine/store/postgres/cluster.js'

const DURATION = Number(process.env.BENCH_DURATION_MS ?? 8000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32)
const POOL = Number(process.env.BENCH_POOL ?? 16)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
const log = (s = '') => process.stdout.write(s + '\n')

const SCHEMA = `
CREATE TABLE objs (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text NOT NULL UNIQUE, created_at timestamptz NOT NULL, version bigint NOT NULL, data json NOT NULL, status text, amount bigint);
CREATE TABLE evts (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, id text NOT NULL UNIQUE, type text NOT NULL, created_at timestamptz NOT NULL, json text NOT NULL);
`
const DATA = JSON.stringify({
  id: 'pay_x', object: 'payment', amount: 2000, amount_captured: 2000, amount_refunded: 0, currency: 'EUR', status: 'succeeded', payment_method: 'card',
  payment_method_details: {card: {brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, funding: 'credit', country: 'US'}},
  capture_method: 'automatic', customer: null, description: 'bench order', reference: 'pay_x', metadata: {}, provider: 'prov_1',
  provider_attempts: [{provider: 'prov_1', outcome: 'approved', decline_code: null, latency_ms: 120, attempted_at: '2030-01-01T00:00:00.000Z'}],
  risk: {score: 12, decision: 'approved', checks: {avs_result: 'pass', cvv_result: 'pass'}}, next_action: null, return_url: null, refunded: false, partially_refunded: false,
  failure_code: null, failure_message: null, livemode: false, created_at: '2030-01-01T00:00:00.000Z',
})
const SEEDED = 1000
let n = 0
const nextId = (p) => `${p}_${process.pid}_${++n}`
const seedIds = Array.from({length: SEEDED}, (_, i) => `pay_seed_${i}`)
const pick = () => seedIds[Math.floor(Math.random() * SEEDED)]

async function seed(sql) {
  await sql(SCHEMA)
  for (let i = 0; i < SEEDED; i += 100) {
    const vals = []
    for (let j = i; j < i + 100; j++) vals.push(`('${seedIds[j]}', now(), 1, '${DATA}', 'succeeded', 2000)`)
    await sql(`INSERT INTO objs (id, created_at, version, data, status, amount) VALUES ${vals.join(',')}`)
  }
}

/** node-postgres: one pooled client per unit, one round trip per statement (it does not pipeline). */
function pgDriver(url) {
  const pool = new pg.Pool({connectionString: url, max: POOL})
  return {
    name: 'pg (node-postgres, Pool)',
    simple: async (text) => void (await pool.query(text)),
    async unit() {
      const c = await pool.connect()
      try {
        await c.query('BEGIN')
        const id = pick()
        await c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [id])
        for (let i = 0; i < 3; i++) await c.query('SELECT data, version FROM objs WHERE id = $1', [i === 0 ? id : pick()])
        await c.query('INSERT INTO objs (id, created_at, version, data, status, amount) VALUES ($1, $2, 1, $3, $4, $5)', [nextId('pay'), new Date().toISOString(), DATA, 'succeeded', 2000])
        await c.query('INSERT INTO evts (id, type, created_at, json) VALUES ($1, $2, $3, $4)', [nextId('evt'), 'payment.succeeded', new Date().toISOString(), DATA])
        await c.query('UPDATE objs SET version = version + 1, data = $2 WHERE id = $1', [id, DATA])
        await c.query('COMMIT')
      } catch (e) {
        await c.query('ROLLBACK').catch(() => {})
        throw e
      } finally {
        c.release()
      }
    },
    end: () => pool.end(),
  }
}

/** postgres (porsager): sql.begin reserves a connection; statements are prepared and pipelined where independent. */
function postgresDriver(url) {
  const sql = postgres(url, {max: POOL, onnotice: () => {}})
  return {
    name: 'postgres (porsager, sql.begin)',
    simple: async (text) => void (await sql.unsafe(text)),
    async unit() {
      await sql.begin(async (tx) => {
        const id = pick()
        await tx`SELECT pg_advisory_xact_lock(hashtextextended(${id}, 0))`
        for (let i = 0; i < 3; i++) await tx`SELECT data, version FROM objs WHERE id = ${i === 0 ? id : pick()}`
        await tx`INSERT INTO objs (id, created_at, version, data, status, amount) VALUES (${nextId('pay')}, ${new Date().toISOString()}, 1, ${DATA}, 'succeeded', 2000)`
        await tx`INSERT INTO evts (id, type, created_at, json) VALUES (${nextId('evt')}, 'payment.succeeded', ${new Date().toISOString()}, ${DATA})`
        await tx`UPDATE objs SET version = version + 1, data = ${DATA} WHERE id = ${id}`
      })
    },
    end: () => sql.end({timeout: 5}),
  }
}

async function measure(driver) {
  let stop = false
  let done = 0
  let errors = 0
  let firstError
  const worker = async () => {
    while (!stop) {
      try {
        await driver.unit()
        done++
      } catch (e) {
        errors++
        firstError ??= e.message
      }
    }
  }
  // warm-up
  const warm = Array.from({length: CONCURRENCY}, worker)
  await new Promise((r) => setTimeout(r, 1000))
  stop = true
  await Promise.all(warm)
  stop = false
  done = 0
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const ws = Array.from({length: CONCURRENCY}, worker)
  await new Promise((r) => setTimeout(r, DURATION / ROUNDS))
  stop = true
  await Promise.all(ws)
  const elapsed = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  return {rate: done / (elapsed / 1000), cpuUsPerUnit: (cpu.user + cpu.system) / done, done, errors, firstError}
}

/** The column type of an object's JSON: insert and read back by id, `text` vs `json` vs `jsonb` (node-postgres). */
async function jsonTypes(url) {
  const pool = new pg.Pool({connectionString: url, max: 4})
  const N = Number(process.env.BENCH_JSON_ROWS ?? 3000)
  const out = []
  for (const type of ['text', 'json', 'jsonb']) {
    await pool.query(`CREATE TABLE j_${type} (id text PRIMARY KEY, data ${type} NOT NULL)`)
    const ids = Array.from({length: N}, (_, i) => `pay_${type}_${i}`)
    let t0 = performance.now()
    for (let i = 0; i < N; i += 4) await Promise.all(ids.slice(i, i + 4).map((id) => pool.query(`INSERT INTO j_${type} (id, data) VALUES ($1, $2)`, [id, DATA])))
    const insert = ((performance.now() - t0) * 1000) / N
    t0 = performance.now()
    let sameBytes = true
    for (let i = 0; i < N; i += 4) {
      const rs = await Promise.all(ids.slice(i, i + 4).map((id) => pool.query({text: `SELECT data::text AS d FROM j_${type} WHERE id = $1`, values: [id]})))
      for (const r of rs) sameBytes &&= r.rows[0].d === DATA
    }
    const select = ((performance.now() - t0) * 1000) / N
    out.push({type, insert, select, sameBytes})
  }
  await pool.end()
  return out
}

async function main() {
  log(`pg driver bench: node ${process.version}, ${cpus().length} cpu(s), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  log(`unit: BEGIN; pg_advisory_xact_lock; 3 SELECT by id; 2 INSERT; 1 UPDATE; COMMIT — ${CONCURRENCY} concurrent units, pool of ${POOL}, fsync ${process.env.BENCH_FSYNC === '0' ? 'off' : 'on'}, TCP loopback`)
  const cluster = await startCluster({fsync: process.env.BENCH_FSYNC !== '0'})
  try {
    const url = await cluster.createDatabase('drivers')
    const drivers = [pgDriver(url), postgresDriver(url)]
    await seed(drivers[0].simple)
    const results = new Map(drivers.map((d) => [d.name, []]))
    for (let r = 0; r < ROUNDS; r++) for (const d of drivers) results.get(d.name).push(await measure(d))
    for (const j of await jsonTypes(url))
      log(`object JSON as ${j.type.padEnd(5)}  insert ${Math.round(j.insert)} µs/row, read by id ${Math.round(j.select)} µs/row (4 at a time); bytes read back as written: ${j.sameBytes ? 'yes' : 'no (keys reordered)'}`)
    for (const d of drivers) {
      const rs = results.get(d.name)
      const rate = rs.reduce((a, x) => a + x.rate, 0) / rs.length
      const cpu = rs.reduce((a, x) => a + x.cpuUsPerUnit, 0) / rs.length
      const errs = rs.reduce((a, x) => a + x.errors, 0)
      log(`${d.name.padEnd(44)} ${Math.round(rate).toLocaleString('en-US').padStart(6)} units/s   client CPU ${Math.round(cpu)} µs/unit   (windows ${rs.map((x) => Math.round(x.rate)).join(' / ')})${errs ? `  ${errs} errors: ${rs.find((x) => x.firstError)?.firstError}` : ''}`)
      await d.end()
    }
  } finally {
    await cluster.stop()
  }
}

main().catch((e) => {
  process.stderr.write(`pg driver bench failed: ${e.stack ?? e}\n`)
  process.exitCode = 1
})
