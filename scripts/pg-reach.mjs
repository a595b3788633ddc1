#!/usr/bin/env node
// Which engine tests reach PostgreSQL store code that the store's own tests do not: the measure
// behind the pg-engine project's list (vitest.config.ts ON_POSTGRES; docs/architecture.md,
// "Tests on PostgreSQL").
//
//   node scripts/pg-reach.mjs run [DIR]     runs the pg-store and pg-engine projects with
//                                           GW_TEST_STORE_REACH=DIR (test/support/store-reach.ts),
//                                           pg-engine over every engine test file that boots an
//                                           engine (GW_TEST_PG_ALL), not only the chosen ones
//   node scripts/pg-reach.mjs report [DIR]  compares: for each pg-engine file, the code of
//                                           src/engine/store/postgres/ it ran that no pg-store
//                                           file ran (the store's contract suite, fleets,
//                                           migrations, outages)
//
// A file listed with nothing is one whose PostgreSQL run cannot differ from its SQLite run in the
// store code it reaches: the contract suite runs all of that code on both stores.
import {spawnSync} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'

const root = resolve(import.meta.dirname, '..')
const [cmd = 'report', dir = join(root, '.gw-test', 'pg-reach')] = process.argv.slice(2)

if (cmd === 'run') {
  const r = spawnSync('npx', ['vitest', 'run', '--project', 'pg-store', '--project', 'pg-engine', ...process.argv.slice(4)], {
    cwd: root,
    stdio: 'inherit',
    env: {...process.env, GW_TEST_STORE_REACH: resolve(dir), GW_TEST_PG_ALL: '1'},
  })
  process.exit(r.status ?? 1)
}

/** The byte intervals [start, end) a script ran: each offset counts as its innermost range says. */
function ran(ranges) {
  const cuts = [...new Set(ranges.flatMap((r) => [r.startOffset, r.endOffset]))].sort((a, b) => a - b)
  const out = []
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [a, b] = [cuts[i], cuts[i + 1]]
    let inner
    for (const r of ranges) if (r.startOffset <= a && r.endOffset >= b && (!inner || r.endOffset - r.startOffset < inner.endOffset - inner.startOffset)) inner = r
    if (inner && inner.count > 0) {
      const last = out.at(-1)
      if (last && last[1] === a) last[1] = b
      else out.push([a, b])
    }
  }
  return out
}

const minus = (xs, ys) => {
  // intervals of xs not in ys (both sorted, disjoint)
  const out = []
  for (const [a0, b] of xs) {
    let a = a0
    for (const [c, d] of ys) {
      if (d <= a || c >= b) continue
      if (c > a) out.push([a, c])
      a = Math.max(a, d)
      if (a >= b) break
    }
    if (a < b) out.push([a, b])
  }
  return out
}
const union = (xs, ys) => {
  const all = [...xs, ...ys].sort((p, q) => p[0] - q[0])
  const out = []
  for (const [a, b] of all) {
    const last = out.at(-1)
    if (last && a <= last[1]) last[1] = Math.max(last[1], b)
    else out.push([a, b])
  }
  return out
}

const entries = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
const isPg = (script) => script.startsWith('src/engine/store/postgres/')
const base = new Map()
const sources = new Map()
for (const e of entries.filter((e) => e.project === 'pg-store')) {
  for (const [script, {ranges, source}] of Object.entries(e.scripts)) {
    if (!isPg(script)) continue
    if (sources.has(script) && sources.get(script) !== source) console.warn(`! ${script} was transformed differently in two workers: offsets may not compare`)
    sources.set(script, source)
    base.set(script, union(base.get(script) ?? [], ran(ranges)))
  }
}
const lineOf = (source, offset) => source.slice(0, offset).split('\n').length
const rows = []
for (const e of entries.filter((e) => e.project === 'pg-engine')) {
  const beyond = []
  for (const [script, {ranges, source}] of Object.entries(e.scripts)) {
    if (!isPg(script)) continue
    const extra = minus(ran(ranges), base.get(script) ?? []).filter(([a, b]) => source.slice(a, b).trim().replace(/[{}();,\s]/g, '').length > 0)
    if (!extra.length) continue
    const lines = [...new Set(extra.map(([a]) => lineOf(source, a)))]
    beyond.push({script, chars: extra.reduce((n, [a, b]) => n + b - a, 0), lines, sample: extra.slice(0, 3).map(([a, b]) => source.slice(a, Math.min(b, a + 80)).replace(/\s+/g, ' ').trim())})
  }
  rows.push({file: e.file, beyond})
}
rows.sort((a, b) => b.beyond.length - a.beyond.length || a.file.localeCompare(b.file))
console.log(`pg-store files: ${entries.filter((e) => e.project === 'pg-store').length}; pg-engine files: ${rows.length}\n`)
for (const r of rows) {
  if (!r.beyond.length) {
    console.log(`-  ${r.file}`)
    continue
  }
  console.log(`+  ${r.file}`)
  for (const b of r.beyond) console.log(`     ${b.script}: ${b.chars} bytes on ${b.lines.length} lines (${b.lines.slice(0, 8).join(', ')}): ${b.sample.map((s) => JSON.stringify(s)).join(' ')}`)
}
