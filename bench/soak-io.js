// node bench/soak-io.js REPO_DIR MS [ACCOUNTS] (docs/decisions.md#storage-per-payment): one soak of that build (its own bench/soak.js and
// dist), with the engine's threads sampled each second from /proc: bytes written to disk per payment
// (write_bytes: the writer thread's WAL, the checkpointer's copies into the file) and CPU µs per payment
// of the main, writer and checkpointer threads, over the window in which payments were made; one JSON line.
// The writer and checkpointer are the two threads that write the most (the writer started first).
import {readFileSync, readdirSync, statSync, existsSync} from 'node:fs'
import {join} from 'node:path'
import {createRequire} from 'node:module'
import {loadavg} from 'node:os'
import {CLOCK_TICKS, statFields, ticks} from './lib.js'
const [dir, ms, accounts = '1'] = process.argv.slice(2)
const {runSoak} = await import(`${dir}/bench/soak.js`)
const Database = createRequire(`${dir}/package.json`)('better-sqlite3')
const read = (f) => { try { return readFileSync(f, 'utf8') } catch { return undefined } }
const children = () => { for (const n of readdirSync('/proc')) { if (!/^\d+$/.test(n)) continue; const f = statFields(n); if (f && Number(f[1]) === process.pid && (read(`/proc/${n}/cmdline`) ?? '').includes('serve')) return Number(n) } }
const tasks = (pid) => {
  const out = {}
  let procIo
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const f = statFields(pid, `/proc/${pid}/task/${tid}/stat`); if (!f) continue
    const comm = (read(`/proc/${pid}/task/${tid}/comm`) ?? '').trim()
    const io = read(`/proc/${pid}/task/${tid}/io`) ?? ''
    out[tid] = {comm, cpu: (ticks(f) * 1e6) / CLOCK_TICKS, wb: Number(/write_bytes: (\d+)/.exec(io)?.[1] ?? 0), wchar: Number(/wchar: (\d+)/.exec(io)?.[1] ?? 0)}
  }
  const pio = read(`/proc/${pid}/io`) ?? ''
  return {tasks: out, wb: Number(/write_bytes: (\d+)/.exec(pio)?.[1] ?? 0), wchar: Number(/wchar: (\d+)/.exec(pio)?.[1] ?? 0)}
}
let pid, db, dbPath
const samples = []
const find = (d) => { for (const n of readdirSync(d)) { const p = join(d, n); if (statSync(p).isDirectory()) { const r = find(p); if (r) return r } else if (n.endsWith('.db')) return p } }
const timer = setInterval(() => {
  try {
    pid ??= children()
    if (!pid) return
    if (!db) {
      const roots = readdirSync('/tmp').filter((n) => n.startsWith('gw-soak-')).map((n) => join('/tmp', n)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
      dbPath = roots[0] && find(join(roots[0], 'engine'))
      if (!dbPath) return
      db = new Database(dbPath, {readonly: true, fileMustExist: true})
    }
    const payments = db.prepare('SELECT COALESCE(MAX(seq), 0) AS n FROM payments').get().n
    samples.push({t: performance.now(), payments, walPages: existsSync(dbPath + '-wal') ? statSync(dbPath + '-wal').size / 4120 : 0, ...tasks(pid)})
  } catch (e) { /* engine gone */ }
}, 1000)
const load0 = loadavg()[0]
const s = await runSoak({durationMs: Number(ms), connections: 32, accounts: Number(accounts), onProgress: () => {}})
clearInterval(timer)
// the window: from the first sample with 200 payments to the last whose payments grew
const i0 = samples.findIndex((x) => x.payments >= 200)
let i1 = samples.length - 1
while (i1 > i0 && samples[i1].payments === samples[i1 - 1].payments) i1--
const a = samples[i0], b = samples[i1]
const n = b.payments - a.payments
// threads: main (tid = pid), the two that write the most (writer: WAL; checkpointer: the file), V8/libuv rest
const rows = Object.entries(b.tasks).map(([tid, x]) => ({tid: Number(tid), comm: x.comm, cpu: x.cpu - (a.tasks[tid]?.cpu ?? 0), wb: x.wb - (a.tasks[tid]?.wb ?? 0), wchar: x.wchar - (a.tasks[tid]?.wchar ?? 0)}))
const writers = rows.filter((r) => r.tid !== pid).sort((x, y) => y.wb - x.wb).slice(0, 2).sort((x, y) => x.tid - y.tid)
const [writer, ckpt] = writers
const main = rows.find((r) => r.tid === pid)
const per = (v) => Math.round(v / n)
console.log(JSON.stringify({dir: dir.split('/').pop(), accounts: Number(accounts), at: new Date().toISOString(), load: +load0.toFixed(2), windowS: +((b.t - a.t) / 1000).toFixed(1), payments: n, createsPerSec: +s.createsPerSec.toFixed(1), cpuPerPaymentUs: Math.round(s.cpuPerPaymentUs),
  kbPerPayment: +((b.wb - a.wb) / n / 1024).toFixed(1), writerKb: +(writer.wb / n / 1024).toFixed(1), ckptKb: +(ckpt.wb / n / 1024).toFixed(1), mainKb: +(main.wb / n / 1024).toFixed(1),
  writerUs: per(writer.cpu), ckptUs: per(ckpt.cpu), mainUs: per(main.cpu), totalThreadsUs: per(rows.reduce((x, r) => x + r.cpu, 0)), writerComm: writer.comm, ckptComm: ckpt.comm, walPagesEnd: Math.round(b.walPages)}))
process.exit(0)
