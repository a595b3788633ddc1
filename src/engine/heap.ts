// V8 heap settings for a long-running `gw serve` (not for engines booted inside tests or tools).
import {setFlagsFromString} from 'node:v8'

/** Old-space growth after each full collection: 50 % over what stayed alive (V8 lets it reach up to 4x). */
export const HEAP_GROWING_PERCENT = 50

/**
 * Under sustained load V8 lets the old space grow to about four times the live objects before a
 * full collection, so resident memory saws between about 215 and 280 MiB around 24 MiB of live
 * objects. Growing it by half the live size instead keeps RSS within a few MiB of a flat line
 * (about 215 MiB in the 3-minute soak), for no measurable throughput (bench/README.md). A
 * `--heap-growing-percent` given to node (NODE_OPTIONS or the command line) wins.
 */
export function tuneHeapForServing(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  const given = (s: string) => /--heap[-_]growing[-_]percent/.test(s)
  if (execArgv.some(given) || given(nodeOptions)) return false
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
  return true
}
