// Instructions per payment on each thread of the engine, counted by valgrind's callgrind: a
// figure that does not move with the host's speed (on this shared machine, wall-clock CPU per
// request drifted 44-90 µs for the same hello world within an hour), so a change of a few
// percent can be seen in one run. It misses what instruction counts cannot show (cache misses,
// waiting on the disk), so confirm a change with a timed A/B as well.
//
// Usage: node bench/instructions.js [ROOT] [--warm N] [--count N] [--connections N] [--pg]   (BENCH_KEEP=1 keeps the files)
//   ROOT: a built checkout (default: this one). Needs valgrind (apt-get install valgrind).
//   --pg: the engine on PostgreSQL (`--store`, a throwaway cluster of ROOT's build, fsync off).
// The engine runs under callgrind with counting off; WARM payments warm V8 up, then counting is
// switched on for COUNT payments (4 connections by default: no group commit to speak of, so the writer
// thread's figure is per single-payment transaction, higher than under the bench's load).
import {execFileSync, spawn} from 'node:child_process'
import {mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {Agent, request} from 'undici'
import {API_KEY, PAYMENT_BODY, ROOT} from './lib.js'

const args = process.argv.slice(2)
const flag = (name, def) => {
  const i = args.indexOf(name)
  return i >= 0 ? Number(args.splice(i, 2)[1]) : def
}
const WARM = flag('--warm', 2000)
const COUNT = flag('--count', 1000)
const CONNECTIONS = flag('--connections', 4)
const PG = args.includes('--pg') ? (args.splice(args.indexOf('--pg'), 1), true) : false
const root = resolve(args[0] ?? ROOT)

try {
  execFileSync('valgrind', ['--version'], {stdio: 'ignore'})
} catch {
  process.stderr.write('bench/instructions.js needs valgrind: sudo apt-get install valgrind\n')
  process.exit(2)
}

const dir = mkdtempSync(join(tmpdir(), 'gw-instr-'))
const out = join(dir, 'cg')
const cluster = PG ? await (await import(join(root, 'dist/engine/store/postgres/cluster.js'))).startCluster() : undefined
const store = cluster ? ['--store', await cluster.createDatabase('instr')] : []
const child = spawn(
  'valgrind',
  ['--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', '--smc-check=all-non-file', `--callgrind-out-file=${out}.%p`, process.execPath, join(root, 'bin/run.js'), 'serve', '--port', '0', '--data-dir', join(dir, 'data'), '--api-key', API_KEY, '--rate-limit', '0', '--json', ...store],
  {stdio: ['ignore', 'pipe', 'pipe']},
)
// a failed run takes its engine with it
process.once('exit', () => child.kill('SIGKILL'))
let stderr = ''
child.stderr.on('data', (d) => (stderr += d))
const info = await new Promise((res, rej) => {
  let buf = ''
  child.stdout.on('data', (d) => {
    buf += d
    const nl = buf.indexOf('\n')
    if (nl >= 0) res(JSON.parse(buf.slice(0, nl)))
  })
  child.once('exit', (code) => rej(new Error(`the engine exited (${code}) before it listened:\n${stderr}`)))
})

// under valgrind on a busy machine a TLS handshake can take longer than undici's 10 s
const agent = new Agent({connect: {ca: readFileSync(info.ca_file, 'utf8'), timeout: 300_000}, connections: CONNECTIONS, headersTimeout: 0, bodyTimeout: 0})
let seq = 0
async function payments(n) {
  let left = n
  const worker = async () => {
    while (left-- > 0) {
      const r = await request(`${info.base_url}/payments`, {method: 'POST', dispatcher: agent, headers: {authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', 'idempotency-key': `instr-${process.pid}-${++seq}`}, body: PAYMENT_BODY})
      const text = await r.body.text()
      if (r.statusCode !== 201) throw new Error(`POST /v1/payments answered ${r.statusCode}: ${text}`)
    }
  }
  await Promise.all(Array.from({length: CONNECTIONS}, worker))
}

const control = (...a) => execFileSync('callgrind_control', [...a, String(child.pid)], {stdio: 'ignore'})
process.stderr.write(`warming up: ${WARM} payments (under valgrind: a minute or two)\n`)
await payments(WARM)
control('-i', 'on')
await payments(COUNT)
control('-d')
await agent.close()
child.kill('SIGTERM')
await new Promise((r) => child.once('exit', r))
await cluster?.stop()

// one file per thread: its total instructions and thread number
const threads = []
for (const f of readdirSync(dir).filter((n) => n.startsWith('cg.'))) {
  const text = readFileSync(join(dir, f), 'utf8')
  const total = Number(/^totals:\s+(\d+)/m.exec(text)?.[1] ?? 0)
  const thread = Number(/^thread:\s+(\d+)/m.exec(text)?.[1] ?? 0)
  const part = Number(/^part:\s+(\d+)/m.exec(text)?.[1] ?? 0)
  if (total > 0) threads.push({thread, part, total})
}
if (process.env.BENCH_KEEP) process.stderr.write(`callgrind files kept in ${dir} (callgrind_annotate <file>)\n`)
else rmSync(dir, {recursive: true, force: true})
// the counted window is the dump's first part; threads are numbered by valgrind (1: the event loop)
const counted = threads.filter((t) => t.part === Math.min(...threads.map((x) => x.part)))
counted.sort((a, b) => b.total - a.total)
console.log(`instructions per payment (${COUNT} payments, ${root}):`)
for (const t of counted.slice(0, 6)) console.log(`  thread ${String(t.thread).padStart(2)}${t.thread === 1 ? ' (event loop)' : ''}: ${Math.round(t.total / COUNT).toLocaleString('en-US')}`)
console.log("(the others: the SQLite writer, the checkpointer and V8's compiler and GC helpers; the helpers' share falls as --warm grows)")
