// Preload for an engine child (BENCH_ENGINE_FLAGS=--import=./bench/heap-promoted.js): a sampling
// heap profile of the objects that survived the young generation and then died in the old one,
// the garbage that makes the old space (and RSS) grow under sustained load. After
// HEAP_PROMOTED_DELAY_MS (default 30 s) it samples for HEAP_PROMOTED_MS (default 30 s) and writes
// HEAP_PROMOTED_DIR/promoted-<pid>.heapprofile (open it in Chrome DevTools, Memory tab).
import {Session} from 'node:inspector'
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

const env = (name, dflt) => Number(process.env[name] ?? dflt)
const session = new Session()
session.connect()
const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (e, r) => (e ? reject(e) : resolve(r))))

setTimeout(async () => {
  await post('HeapProfiler.enable')
  // objects a scavenge collects are left out; those a mark-compact collects are kept
  await post('HeapProfiler.startSampling', {samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false})
  setTimeout(async () => {
    const {profile} = await post('HeapProfiler.stopSampling')
    writeFileSync(join(process.env.HEAP_PROMOTED_DIR ?? '/tmp', `promoted-${process.pid}.heapprofile`), JSON.stringify(profile))
  }, env('HEAP_PROMOTED_MS', 30_000)).unref()
}, env('HEAP_PROMOTED_DELAY_MS', 30_000)).unref()
