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
