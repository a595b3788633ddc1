// node bench/wal-frames.js [REPO_DIR] [MS] [ACCOUNTS] (docs/decisions.md#storage-per-payment): where a soak's WAL pages go. One soak of that
// build (its own bench/soak.js and dist, the soak's drill); from half-way through, the engine's `-wal` file is
// read every 2.5 s, and each frame of the WAL's current generation is mapped to the b-tree (table or index)
// that owns its page, with `dbstat` on a read-only connection to the live database. The sample with the most
// commits is printed: frames per event by b-tree (events made in the sample: the events table's highest rowid
// in its first and last commits), and how many commits wrote a payment and how many only deliveries' outcomes.
// Prints figures; asserts nothing. Writes nothing but the soak's own temp dir.
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {createRequire} from 'node:module'

const [dir = process.cwd(), ms = '60000', accounts = '1'] = process.argv.slice(2)
const {runSoak} = await import(join(dir, 'bench/soak.js'))
const Database = createRequire(join(dir, 'package.json'))('better-sqlite3')

const before = new Set(readdirSync('/tmp').filter((n) => n.startsWith('gw-soak-')))
const varint = (b, i) => {
  let v = 0
  for (let k = 0; k < 9; k++) {
    const x = b[i + k]
    if (k === 8) return [v * 256 + x, i + 9]
    v = v * 128 + (x & 127)
    if (x < 128) return [v, i + k + 1]
  }
}
/** the highest rowid on a table leaf page (0x0d), else -1 */
const maxRowid = (d) => {
  if (d[0] !== 13) return -1
  let m = -1
  for (let j = 0; j < d.readUInt16BE(3); j++) m = Math.max(m, varint(d, varint(d, d.readUInt16BE(8 + 2 * j))[1])[0])
  return m
}

/** One reading of the WAL: its frames (page, commit flag, and the events leaf pages' highest rowid) with their owners. */
function sample(dbPath) {
  const db = new Database(dbPath, {readonly: true, fileMustExist: true})
  try {
    const owner = new Map()
    for (const r of db.prepare('SELECT name, pageno, pagetype FROM dbstat').iterate()) owner.set(r.pageno, r.pagetype === 'leaf' ? r.name : `${r.name} (interior)`)
    const wal = readFileSync(`${dbPath}-wal`)
    const size = wal.readUInt32BE(8)
    const salt = [wal.readUInt32BE(16), wal.readUInt32BE(20)]
    const byTree = {}
    const commits = []
    let current = {frames: 0, trees: new Set(), events: -1}
    let firstEvents = -1
    let lastEvents = -1
    for (let o = 32; o + 24 + size <= wal.length && wal.readUInt32BE(o + 8) === salt[0] && wal.readUInt32BE(o + 12) === salt[1]; o += 24 + size) {
      const tree = owner.get(wal.readUInt32BE(o)) ?? '(freed or new)'
      byTree[tree] = (byTree[tree] ?? 0) + 1
      current.frames++
      current.trees.add(tree)
      if (tree === 'events') current.events = Math.max(current.events, maxRowid(wal.subarray(o + 24, o + 24 + size)))
      if (wal.readUInt32BE(o + 4) !== 0) {
        if (current.events >= 0) {
          if (firstEvents < 0) firstEvents = current.events
          lastEvents = current.events
        }
        commits.push(current)
        current = {frames: 0, trees: new Set(), events: -1}
      }
    }
    return {byTree, commits, events: lastEvents - firstEvents}
  } finally {
    db.close()
  }
}

const samples = []
let dbPath
const timers = []
for (let j = 0; j < 8; j++)
  timers.push(
    setTimeout(() => {
      try {
        if (!dbPath) {
          const root = readdirSync('/tmp').find((n) => n.startsWith('gw-soak-') && !before.has(n))
          if (!root) return
          dbPath = join('/tmp', root, 'engine', 'gw.db')
        }
        samples.push(sample(dbPath))
      } catch (e) {
        console.error(`a sample failed: ${e.message}`)
      }
    }, Number(ms) / 2 + j * 2500),
  )
const s = await runSoak({durationMs: Number(ms), connections: 32, accounts: Number(accounts), onProgress: () => {}})
for (const t of timers) clearTimeout(t)
const best = samples.filter((x) => x.events > 0).sort((a, b) => b.commits.length - a.commits.length)[0]
console.log(`soak: ${accounts} account(s), ${(s.createsPerSec ?? 0).toFixed(0)} creates/s, ${Math.round(s.cpuPerPaymentUs ?? 0)} µs CPU per payment`)
if (!best) {
  console.log('no sample held a whole commit with events (a longer soak reads one)')
  process.exit(0)
}
const frames = best.commits.reduce((n, c) => n + c.frames, 0)
const withPayments = best.commits.filter((c) => c.trees.has('payments'))
const outcomesOnly = best.commits.filter((c) => !c.trees.has('payments') && [...c.trees].every((t) => t.startsWith('deliveries') || t.startsWith('webhook_endpoints') || t === 'sqlite_schema (interior)'))
const per = (n) => (n / best.events).toFixed(3)
console.log(`WAL sample: ${frames} frames in ${best.commits.length} commits, ${best.events} events made: ${per(frames)} frames per event`)
console.log(`  commits with a payment: ${withPayments.length} (${withPayments.reduce((n, c) => n + c.frames, 0)} frames); deliveries' outcomes only: ${outcomesOnly.length} (${outcomesOnly.reduce((n, c) => n + c.frames, 0)} frames)`)
console.log('  frames per event, by b-tree:')
for (const [tree, n] of Object.entries(best.byTree).sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${per(n).padStart(8)}  ${tree}`)
process.exit(0)
