// A resource read whole (the disputes queue, the endpoints) as a list's data. No Ink.
import type {Resource} from '../../session.js'
import type {ListData} from './list.js'

/** The rows of a resource's value (narrowed and sorted as the view says). */
export function resourceData<V, T>(res: Resource<V>, rowsOf: (value: V) => readonly T[]): ListData<T> {
  return {
    rows: res.value === undefined ? [] : rowsOf(res.value),
    // a refresh over rows shown is no "loading": the rows stay until the new ones come
    loading: res.value === undefined,
    error: res.error,
    permission: res.permission,
    // read when drawn (Age): a poll that brought the same rows moves it without a redraw
    get at() {
      return res.at
    },
    every: res.every,
    reload: () => void res.refresh(),
  }
}
