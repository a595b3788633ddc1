// A preload for the engine (BENCH_ENGINE_FLAGS="--import ./bench/mem-probe.js", MEM_PROBE_FILE=out.jsonl):
// every MEM_PROBE_MS (60 s) each thread appends one JSON line — process.memoryUsage() (the V8 heap is
// the thread's own), and from the main thread /proc/self/smaps_rollup (anonymous vs file-backed RSS)
// and the RSS of glibc's arenas (the brk heap, and 64 MiB-aligned mmapped heaps of the other arenas).
// Tells allocator growth from a leak outside the JS heap (bench/README.md#memory-under-the-soak). Writes nothing without MEM_PROBE_FILE.
import {appendFileSync, readFileSync} from 'node:fs'
import {isMainThread, threadId} from 'node:worker_threads'

const file = process.env.MEM_PROBE_FILE
const every = Number(process.env.MEM_PROBE_MS ?? 60_000)
const MiB = (kb) => Math.round(kb / 102.4) / 10

function rollup() {
  const out = {}
  for (const line of readFileSync('/proc/self/smaps_rollup', 'utf8').split('\n')) {
    const m = /^(\w+):\s+(\d+) kB/.exec(line)
    if (m && ['Rss', 'Anonymous', 'Shared_Clean', 'Private_Clean', 'Private_Dirty'].includes(m[1])) out[m[1]] = MiB(Number(m[2]))
  }
  out.File = Math.round((out.Rss - out.Anonymous) * 10) / 10
  return out
}

/** glibc's arenas: the brk heap ([heap]) and each other arena's heap, an anonymous rw region at a 64 MiB boundary followed by its reserve. */
function arenas() {
  const maps = []
  let cur
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const h = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line)
    if (h) {
      cur = {start: BigInt('0x' + h[1]), end: BigInt('0x' + h[2]), perms: h[3], inode: h[4], name: h[5], rss: 0}
      maps.push(cur)
    } else if (cur && line.startsWith('Rss:')) cur.rss = Number(/(\d+)/.exec(line)[1])
  }
  const SIXTY_FOUR = 64n << 20n
  let brk = 0
  const heaps = []
  let anonOther = 0
  for (let i = 0; i < maps.length; i++) {
    const m = maps[i]
    if (m.name === '[heap]') brk += m.rss
    else if (m.inode === '0' && m.name === '' && m.perms.startsWith('rw')) {
      const next = maps[i + 1]
      const size = m.end - m.start + (next && next.start === m.end && next.perms.startsWith('---') ? next.end - next.start : 0n)
      if (m.start % SIXTY_FOUR === 0n && size === SIXTY_FOUR) heaps.push(m.rss)
      else anonOther += m.rss
    }
  }
  return {brk: MiB(brk), arenaHeaps: heaps.length, arenaRss: MiB(heaps.reduce((a, b) => a + b, 0)), arenaEach: heaps.map(MiB).sort((a, b) => b - a), anonOther: MiB(anonOther)}
}

if (file) {
  const t0 = Date.now()
  const sample = () => {
    const u = process.memoryUsage()
    const mu = Object.fromEntries(Object.entries(u).map(([k, v]) => [k, Math.round(v / 104857.6) / 10]))
    const row = {t: Math.round((Date.now() - t0) / 1000), thread: threadId, ...mu}
    if (isMainThread) Object.assign(row, rollup(), arenas())
    appendFileSync(file, JSON.stringify(row) + '\n')
  }
  setInterval(sample, every).unref()
}
