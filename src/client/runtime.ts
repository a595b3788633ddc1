// V8 settings for short-lived CLI processes that make API requests.
import {setFlagsFromString} from 'node:v8'

/**
 * undici parses HTTP/1.1 with llhttp compiled to WebAssembly. V8 compiles it with its baseline
 * compiler (Liftoff) and re-compiles it with TurboFan on background threads, and a process
 * cannot exit before those threads finish: ~75 ms after the last byte of a `gw payments get`.
 * A CLI process parses a few kilobytes, so the baseline code is all it needs. Set before the
 * first connection compiles the module; only in CLI processes (not in `gw serve`'s engine,
 * which delivers webhooks with undici for hours, nor in `gw listen`, which forwards for hours).
 * The plain (non-SIMD) build of llhttp, which the baseline compiler handles on every CPU,
 * unless UNDICI_NO_WASM_SIMD says otherwise.
 */
let wasmFlagSet = false
export function wasmBaselineOnly(): void {
  if (wasmFlagSet) return
  wasmFlagSet = true
  process.env.UNDICI_NO_WASM_SIMD ??= '1'
  setFlagsFromString('--liftoff-only')
}

/** Long-running commands (listen, tails) skip the baseline-only setting: they parse a lot. */
export function keepOptimizing(): void {
  wasmFlagSet = true
}
