/** Internal fields of a stored object live under `_x`; they never leave the engine. */
export const INTERNAL = '_x'

/** The object as the API shows it: without its internal part. */
export function toApi<T>(obj: T): T {
  if (obj && typeof obj === 'object' && INTERNAL in (obj as object)) {
    const {[INTERNAL]: _drop, ...rest} = obj as Record<string, unknown>
    return rest as T
  }
  return obj
}

/**
 * The API's JSON of an object: JSON.stringify(toApi(obj)), made from a plain clone whose `_x` is
 * undefined (JSON leaves such a member out) instead of a copy without it: a rest pattern copies
 * every member through a runtime call, a spread of an unfrozen object clones its layout at once.
 */
export function apiJson(obj: unknown): string {
  if (obj && typeof obj === 'object' && !Array.isArray(obj) && INTERNAL in obj) {
    const c = {...obj} as Record<string, unknown>
    c[INTERNAL] = undefined
    return JSON.stringify(c)
  }
  return JSON.stringify(obj)
}
