// Summarises a V8 .cpuprofile (node --cpu-prof): top functions by self time and by
// inclusive time, with file:line. Usage: node bench/hotspots.js FILE.cpuprofile [N]
import {existsSync, readFileSync} from 'node:fs'
import {SourceMap} from 'node:module'
import {dirname, relative, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'
import {ROOT} from './lib.js'

const [file, nArg] = process.argv.slice(2)
if (!file) {
  process.stderr.write('usage: node bench/hotspots.js FILE.cpuprofile [N]\n')
  process.exit(2)
}
const N = Number(nArg ?? 25)
const prof = JSON.parse(readFileSync(file, 'utf8'))
const byId = new Map(prof.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

const dt = new Map()
const total = prof.endTime - prof.startTime
for (let i = 0; i < prof.samples.length; i++) {
  const d = prof.timeDeltas[i + 1] ?? 0
  dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + d)
}

// dist/*.js frames are shown at their src/*.ts line through the build's source maps
const maps = new Map()
function sourceMapFor(path) {
  if (!maps.has(path)) {
    const mapFile = `${path}.map`
    maps.set(path, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : null)
  }
  return maps.get(path)
}
const where = (cf) => {
  let url = cf.url || ''
  if (url.startsWith('file://')) {
    const path = fileURLToPath(url)
    const sm = sourceMapFor(path)
    const e = sm?.findEntry(cf.lineNumber, cf.columnNumber)
    if (e?.originalSource) return `${relative(ROOT, resolve(dirname(path), e.originalSource.replace(/^file:\/\//, '')))}:${e.originalLine + 1}`
    url = relative(ROOT, path)
  }
  return `${url || '(native)'}:${cf.lineNumber + 1}`
}
const label = (cf) => `${cf.functionName || '(anonymous)'} ${where(cf)}`

const self = new Map()
const incl = new Map()
for (const [id, t] of dt) {
  const n = byId.get(id)
  const k = label(n.callFrame)
  self.set(k, (self.get(k) ?? 0) + t)
  // inclusive: count each distinct frame once per stack
  const seen = new Set()
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const kk = label(byId.get(cur).callFrame)
    if (seen.has(kk)) continue
    seen.add(kk)
    incl.set(kk, (incl.get(kk) ?? 0) + t)
  }
}
const pct = (t) => ((100 * t) / total).toFixed(1).padStart(5) + '%'
const show = (title, m, filter = () => true) => {
  process.stdout.write(`\n${title}\n`)
  for (const [k, t] of [...m].filter(([k]) => filter(k)).sort((a, b) => b[1] - a[1]).slice(0, N)) process.stdout.write(`${pct(t)}  ${k}\n`)
}
process.stdout.write(`profile ${file}: ${(total / 1e6).toFixed(1)} s\n`)
show('self time', self)
show('inclusive time, project code', incl, (k) => / (src|dist)\//.test(k))
