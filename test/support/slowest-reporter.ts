// A vitest reporter (npm test, npm run test:slowest): at the end of a run, the slowest test files
// and each project's total, so that a file or a tier that got slower is seen in every run's output.
// A file's time is its import and collection plus its tests and hooks, as vitest measured them.
// With GW_TEST_CPU_LOG=FILE (test/support/cpu-probe.ts writes it) each file's CPU seconds too:
// the worker's own from its start, and its children's (spawned CLIs, tsc, npm).
// GW_TEST_SLOWEST=N lists N files (default 10).
// And every test vitest reports as skipped, with why: the suite has no skip or todo flags
// (src/no-skipped-tests.test.ts), so a skipped test is one whose beforeAll or beforeEach failed
// (vitest runs none of the hook's tests then and counts them as skipped, not failed).
import {existsSync, readFileSync} from 'node:fs'
import {relative} from 'node:path'
import type {Reporter, TestCase, TestModule, TestSuite} from 'vitest/node'

/** Why vitest skipped a test: the first error of its nearest suite (or file) that has one, i.e. a failed hook. */
function skipReason(test: TestCase): string {
  const result = test.result()
  if (result.state === 'skipped' && result.note) return result.note
  for (let at: TestSuite | TestModule = test.parent; ; at = at.parent) {
    const [e] = at.errors()
    if (e) return `${at.type === 'module' ? 'the file' : `suite "${at.name}"`}: ${String(e.message ?? e).split('\n')[0]}`
    if (at.type === 'module') return test.options.mode === 'run' ? 'no hook error reported' : `marked ${test.options.mode}`
  }
}

interface Cpu {
  file: string
  project: string
  process: number
  children: number
}

export default class SlowestReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const n = Number(process.env.GW_TEST_SLOWEST ?? 10)
    const cpuLog = process.env.GW_TEST_CPU_LOG
    const cpu = new Map<string, Cpu>()
    if (cpuLog && existsSync(cpuLog)) {
      for (const line of readFileSync(cpuLog, 'utf8').split('\n').filter(Boolean)) {
        const c = JSON.parse(line) as Cpu
        cpu.set(`${c.project}\0${c.file}`, c)
      }
    }
    const rows = modules.map((m) => {
      const d = m.diagnostic()
      const project = m.project.name
      const c = cpu.get(`${project}\0${m.moduleId}`)
      return {project, file: relative(process.cwd(), m.moduleId), seconds: (d.collectDuration + d.setupDuration + d.duration) / 1000, tests: [...m.children.allTests()].length, cpu: c}
    })
    if (!rows.length) return
    const skipped = modules.flatMap((m) => [...m.children.allTests()].filter((t) => t.result().state === 'skipped'))
    const totals = new Map<string, {files: number; seconds: number; cpu: number}>()
    for (const r of rows) {
      const t = totals.get(r.project) ?? {files: 0, seconds: 0, cpu: 0}
      t.files++
      t.seconds += r.seconds
      t.cpu += r.cpu ? r.cpu.process : 0
      totals.set(r.project, t)
    }
    const withCpu = cpu.size > 0
    const s = (x: number) => x.toFixed(1).padStart(7)
    const out: string[] = ['', ` Slowest ${Math.min(n, rows.length)} test files (seconds: import + tests${withCpu ? '; CPU of the worker / of its children' : ''})`]
    for (const r of [...rows].sort((a, b) => b.seconds - a.seconds).slice(0, n))
      out.push(`${s(r.seconds)}${withCpu ? `${s(r.cpu?.process ?? NaN)} /${s(r.cpu?.children ?? NaN)}` : ''}  ${r.project.padEnd(12)} ${r.file} (${r.tests} tests)`)
    out.push(' Per project (sum of its files; workers run them side by side)')
    for (const [p, t] of [...totals].sort((a, b) => b[1].seconds - a[1].seconds))
      out.push(`${s(t.seconds)}${withCpu ? `${s(t.cpu)} CPU` : ''}  ${p.padEnd(12)} ${t.files} files`)
    if (skipped.length) {
      out.push(` Skipped: ${skipped.length} tests (their hook failed, above; none is skipped on purpose)`)
      for (const t of skipped) out.push(`   ${t.project.name.padEnd(12)} ${relative(process.cwd(), t.module.moduleId)} > ${t.fullName}: ${skipReason(t)}`)
    }
    process.stdout.write(out.join('\n') + '\n')
  }
}
