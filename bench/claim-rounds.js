// Delivery claim rounds on the SQLite store (docs/decisions.md#background-work-under-load): the CPU one round takes with no backlog
// and behind a backlog of deliveries retrying later, for one account and for ten. A round runs
// after nearly every commit under load, so its cost must not grow with the backlog (a row value
// seek read every retrying delivery on every round, and the soak's rate halved) nor, beyond one
// seek per endpoint, with the accounts. Part `claims` of `npm run bench`; prints nothing itself.
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {SqliteStore} from '../dist/engine/store/sqlite/sqlite-store.js'

const T0 = Date.parse('2030-01-01T00:00:00.000Z')
const iso = (ms) => new Date(ms).toISOString()

/**
 * Per account: a failing endpoint with `backlog / accounts` deliveries due an hour later and
 * 100 due now, and a healthy endpoint with 100 due now. Each round claims up to 16 while about
 * 200 claims are held (released oldest first), as the worker does with attempts in flight.
 * Returns µs of process CPU per round (after `rounds / 5` rounds of warm-up).
 */
async function measure({accounts, backlog, rounds}) {
  const dir = mkdtempSync(join(tmpdir(), 'gw-claims-'))
  const store = new SqliteStore({path: join(dir, 'gw.db'), durability: 'normal'})
  try {
    let n = 0
    const delivery = (endpoint, due) => ({
      kind: 'delivery',
      obj: {id: `whd_${String(++n).padStart(22, '0')}`, object: 'webhook_delivery', event: `evt_${String(n).padStart(22, '0')}`, endpoint, status: 'failed_retrying', attempts: [], next_attempt_at: iso(due), created_at: iso(T0), _x: {retry_until: iso(T0 + 86_400_000)}},
    })
    for (let a = 0; a < accounts; a++) {
      const account = store.account(`acct_bench_${a}`)
      const mine = Math.round(backlog / accounts)
      for (let i = 0; i < mine; i += 5000) await account.commit({puts: Array.from({length: Math.min(5000, mine - i)}, () => delivery('wh_failing', T0 + 3_600_000))})
      await account.commit({puts: [...Array.from({length: 100}, () => delivery('wh_failing', T0)), ...Array.from({length: 100}, () => delivery('wh_healthy', T0))]})
    }
    const held = []
    const nowOf = () => iso(T0)
    const round = async () => {
      const got = await store.claimDeliveries(nowOf, {limit: 16, perEndpoint: 128, leaseMs: 600_000})
      held.push(...got)
      if (held.length > 200) await store.releaseDeliveries(held.splice(0, Math.max(16, got.length)))
    }
    for (let r = 0; r < rounds / 5; r++) await round()
    const t0 = process.cpuUsage()
    for (let r = 0; r < rounds; r++) await round()
    const t = process.cpuUsage(t0)
    return (t.user + t.system) / rounds
  } finally {
    await store.close()
    rmSync(dir, {recursive: true, force: true})
  }
}

/** µs per claim round with no backlog and behind `backlog` retrying deliveries, for 1 and `accounts` accounts. */
export async function claimRoundsBench({backlog = 50_000, rounds = 2000, accounts = 10} = {}) {
  const out = {backlog, rounds, accounts}
  for (const a of [1, accounts]) out[a === 1 ? 'one' : 'many'] = {empty: await measure({accounts: a, backlog: 0, rounds}), backlog: await measure({accounts: a, backlog, rounds})}
  return out
}
