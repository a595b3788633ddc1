import type {ListPage} from '../ports/store.js'

// What both adapters' pages share (sqlite/reads.ts, postgres/reads.ts page): a page of one
// account's rows in seq order, newest first, or oldest first when paging back before a cursor.

export interface PageQuery {
  limit: number
  starting_after?: string
  ending_before?: string
}

/** The cursors a page may start from, with how seq compares to the cursor's row on the page. */
export const CURSORS = [
  ['starting_after', '<'],
  ['ending_before', '>'],
] as const

/** The answer for a cursor that names no row of the account (another account's is none here). */
export function cursorMissing<R>(name: 'starting_after' | 'ending_before'): ListPage<R> {
  return {data: [], has_more: false, cursor_missing: name}
}

/** The order the rows are read in: ascending when paging back (ending_before). */
export function seqOrder(q: PageQuery): 'ASC' | 'DESC' {
  return q.ending_before !== undefined ? 'ASC' : 'DESC'
}

/** The page from up to `limit + 1` rows read in seqOrder: newest first, and whether more follow. */
export function pageOf<R>(rows: R[], q: PageQuery): ListPage<R> {
  const data = rows.slice(0, q.limit)
  if (q.ending_before !== undefined) data.reverse()
  return {data, has_more: rows.length > q.limit}
}
