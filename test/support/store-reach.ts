// vitest setupFile for `node scripts/pg-reach.mjs`: with GW_TEST_STORE_REACH=DIR set, each test
// file writes DIR/<project>--<file>.json: the code of the store adapters (src/engine/store/) it ran,
// as V8's block coverage reports it (the byte ranges of the module as vitest transformed it, each
// with its count), and that module's source. pg-reach compares what the engine's tests reach of
// the PostgreSQL adapter with what the store's own tests reach of it. Without the variable it
// does nothing.
import {mkdirSync, writeFileSync} from 'node:fs'
import {Session} from 'node:inspector/promises'
import {join, relative} from 'node:path'
import {afterAll, expect} from 'vitest'

interface Range {
  startOffset: number
  endOffset: number
  count: number
}

const dir = process.env.GW_TEST_STORE_REACH
if (dir) {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Debugger.enable')
  await session.post('Profiler.startPreciseCoverage', {callCount: true, detailed: true})
  afterAll(async () => {
    const {result} = (await session.post('Profiler.takePreciseCoverage')) as {result: {scriptId: string; url: string; functions: {ranges: Range[]}[]}[]}
    const scripts: Record<string, {ranges: Range[]; source: string}> = {}
    for (const s of result) {
      const at = s.url.indexOf('/src/engine/store/')
      if (at < 0 || s.url.includes('/contract/') || s.url.endsWith('.test.ts')) continue
      const {scriptSource} = (await session.post('Debugger.getScriptSource', {scriptId: s.scriptId})) as {scriptSource: string}
      scripts[s.url.slice(at + 1).replace(/\?.*$/, '')] = {ranges: s.functions.flatMap((f) => f.ranges), source: scriptSource}
    }
    const file = relative(process.cwd(), expect.getState().testPath ?? 'unknown')
    const project = (globalThis as {__vitest_worker__?: {ctx?: {projectName?: string}}}).__vitest_worker__?.ctx?.projectName ?? ''
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, `${project}--${file.replace(/[/\\]/g, '_')}.json`), JSON.stringify({project, file, scripts}))
  })
}
