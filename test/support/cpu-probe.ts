// vitest setupFile for `npm run test:slowest`: with GW_TEST_CPU_LOG=FILE set, each test file
// appends one JSON line when it ends: its wall time from the start of this setup file and the CPU
// its worker process used (user + system, its own and that of the children it waited for, such as
// spawned CLIs and tools), read from /proc/self/stat. Without the variable it does nothing.
import {appendFileSync, readFileSync} from 'node:fs'
import {afterAll, beforeAll, expect} from 'vitest'

const log = process.env.GW_TEST_CPU_LOG
if (log) {
  const ticks = 100 // USER_HZ on Linux
  const cpu = () => {
    // fields after the command name in parentheses: utime stime cutime cstime are 14-17 (1-based)
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const n = (i: number) => Number(f[i - 3])
    return {self: (n(14) + n(15)) / ticks, children: (n(16) + n(17)) / ticks}
  }
  let start = {self: 0, children: 0}
  let t0 = 0
  beforeAll(() => {
    start = cpu()
    t0 = performance.now()
  })
  afterAll(() => {
    const end = cpu()
    const file = expect.getState().testPath ?? ''
    // the project's name, from vitest's worker state (not a public API: '' if it moves)
    const project = (globalThis as {__vitest_worker__?: {ctx?: {projectName?: string}}}).__vitest_worker__?.ctx?.projectName ?? ''
    // process: the worker's CPU from its start (module loading included; in the quick project, whose
    // files share their worker's process, the files it ran before this one too)
    appendFileSync(log, JSON.stringify({file, project, wall: (performance.now() - t0) / 1000, cpu: end.self - start.self, children: end.children - start.children, process: end.self}) + '\n')
  })
}
