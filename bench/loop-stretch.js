// Preload for an engine child (node --import ./bench/loop-stretch.js): how long the event loop
// went without turning. A 1 ms timer notes every gap between its ticks longer than 2 ms (wall
// clock, so a bench can pick the gaps inside a window of its own); on exit the gaps go to
// LOOP_STRETCH_FILE as JSON [[end ms, gap ms], ...]. A gap is a stretch of synchronous work
// (or the process not being scheduled on a busy machine: compare with the same run idle).
import {writeFileSync} from 'node:fs'

const file = process.env.LOOP_STRETCH_FILE
if (file) {
  const gaps = []
  let last = performance.now()
  setInterval(() => {
    const now = performance.now()
    const gap = now - last - 1
    if (gap > 2 && gaps.length < 1_000_000) gaps.push([Date.now(), Math.round(gap * 100) / 100])
    last = now
  }, 1).unref()
  process.on('exit', () => writeFileSync(file, JSON.stringify(gaps)))
}
