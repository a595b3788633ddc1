// A preload for the engine (BENCH_ENGINE_FLAGS="--import ./bench/stmt-probe.js", STMT_PROBE_FILE=out.jsonl,
// STMT_PROBE_FROM=<the build's directory>): times every better-sqlite3 statement run on the main thread
// (get, all, run), by SQL, and appends the 25 costliest (calls, mean and median µs, total ms) every
// STMT_PROBE_MS (30 s). Wall time around a synchronous call: on a busy machine means carry preemption,
// medians and call counts do not; compare builds in the same minutes
// (bench/README.md#comparing-two-builds-on-a-shared-2-core-machine).
import {createRequire} from 'node:module'
import {appendFileSync} from 'node:fs'
import {isMainThread} from 'node:worker_threads'
const file = process.env.STMT_PROBE_FILE
if (isMainThread && file) {
  const require = createRequire(process.env.STMT_PROBE_FROM + '/package.json')
  const Database = require('better-sqlite3')
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1'))
  const stats = new Map()
  const t0 = Date.now()
  for (const m of ['get', 'all', 'run']) {
    const orig = proto[m]
    proto[m] = function (...a) {
      const s = performance.now()
      try { return orig.apply(this, a) } finally {
        const dt = performance.now() - s
        const k = m + ' ' + this.source
        let st = stats.get(k)
        if (!st) stats.set(k, (st = {n: 0, sum: 0, b: new Array(60).fill(0)}))
        st.n++; st.sum += dt
        st.b[Math.min(59, Math.floor(Math.log2(1 + dt * 1000) * 4))]++
      }
    }
  }
  const med = (b, n) => { let c = 0; for (let i = 0; i < b.length; i++) { c += b[i]; if (c >= n / 2) return Math.round((2 ** ((i + 0.5) / 4) - 1) * 10) / 10 } }
  setInterval(() => {
    const rows = [...stats.entries()].map(([k, s]) => ({k: k.slice(0, 160), n: s.n, meanUs: Math.round(s.sum * 10000 / s.n) / 10, medUs: med(s.b, s.n) * 1, totalMs: Math.round(s.sum)}))
    rows.sort((a, b) => b.totalMs - a.totalMs)
    appendFileSync(file, JSON.stringify({t: Math.round((Date.now() - t0) / 1000), rows: rows.slice(0, 25)}) + '\n')
    stats.clear()
  }, Number(process.env.STMT_PROBE_MS ?? 30000)).unref()
}
