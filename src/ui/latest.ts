import {useRef} from 'react'

/** A ref that follows a value (handlers of an older render read the latest). */
export function useLatest<T>(v: T): {current: T} {
  const r = useRef(v)
  r.current = v
  return r
}
