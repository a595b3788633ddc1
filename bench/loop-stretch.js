// Preload for an engine child (node --import ./bench/loop-stretch.js): how long the event loop
// went without turning. A 1 ms timer notes every gap between its ticks longer than 2 ms (wall
// clock, so a bench can pick the gaps inside a window of its own); on exit the gaps go to
// LOOP_STRETCH_FILE as JSON [[end ms, gap ms], ...]. A gap is a stretch of synchronous work
// (or the process not being scheduled on a busy machine: compare with the same run idle). With
// LOOP_STRETCH_CPU=1 each gap also carries the CPU time the main thread spent in it (Linux
// /proc/self/task/PID/schedstat, read every tick): [[end ms, gap ms, cpu ms], ...] — the stretch
// of work itself, which a busy machine does not lengthen as it lengthens the gap.
import {readFileSync, writeFileSync} from 'node:fs'

const file = process.env.LOOP_STRETCH_FILE
if (file) {
  const withCpu = process.env.LOOP_STRETCH_CPU === '1'
  const schedstat = `/proc/self/task/${process.pid}/schedstat`
  const cpuMs = () => Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6
  const gaps = []
  let last = performance.now()
  let lastCpu = withCpu ? cpuMs() : 0
  setInterval(() => {
    const now = performance.now()
    const gap = now - last - 1
    const cpu = withCpu ? cpuMs() : 0
    if (gap > 2 && gaps.length < 1_000_000) gaps.push(withCpu ? [Date.now(), Math.round(gap * 100) / 100, Math.round((cpu - lastCpu) * 100) / 100] : [Date.now(), Math.round(gap * 100) / 100])
    last = now
    lastCpu = cpu
  }, 1).unref()
  process.on('exit', () => writeFileSync(file, JSON.stringify(gaps)))
}
