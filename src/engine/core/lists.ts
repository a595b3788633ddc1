// One page of a list operation, as every list use case reads it: the operation's checked query
// (its cursors and page size; its filters, which the use case turns into store filters), one
// read of the store, and a cursor that names no object of the account answered 400 naming it.
import type {OperationId, Query} from '../../api/types.js'
import {invalid} from '../domain/errors.js'
import type {Filter, Kind, ListPage, StoredObject} from '../ports/store.js'
import type {Core} from './core.js'

/** A list operation's query as its use case takes it: the document's query (`Query<'listRefunds'>`), the page size defaulted by the route. */
export type PageQuery<O extends OperationId> = Query<O> & {limit: number}

/** The cursors and page size of any list's query. */
interface Paging {
  limit: number
  starting_after?: string
  ending_before?: string
}

/**
 * 400 parameter_invalid naming the cursor when a page's cursor names no object of the account
 * (`starting_after: no such refund.`); `quote`: the message repeats the cursor's value
 * (`starting_after: no such refund 'rf_…'.`), as the lists of payments, refunds, disputes and
 * checkout sessions say it.
 */
export function cursorFound<P extends Pick<ListPage<unknown>, 'cursor_missing'>>(page: P, noun: string, q: Paging, quote = false): P {
  const c = page.cursor_missing
  if (c) throw invalid(c, `${c}: no such ${noun}${quote ? ` '${q[c]}'` : ''}.`)
  return page
}

/** One page of a kind's objects, newest first, filtered (see cursorFound for `noun` and `quote`). */
export async function listPage<T extends StoredObject, K extends Kind>(core: Core, kind: K, q: Paging, filters: Filter<K>[], noun: string, quote = false): Promise<ListPage<T>> {
  const page = await core.store.list<T, K>(kind, {limit: q.limit, starting_after: q.starting_after, ending_before: q.ending_before, filters})
  return cursorFound(page, noun, q, quote)
}
