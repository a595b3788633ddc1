// One resource list for the console's list views (Payments, Disputes, Webhooks): a search or
// filter line (`/`), the columns' heading, the rows painted by the frame's painter (painter.ts:
// only the rows that changed, without Ink), the selection and its keys (move, page, G to the end,
// Enter opens, r reloads), a status line under the rows, and what stops the list from showing
// (a permission the key lacks, an error). A view gives its data (pages of the API, or a resource
// read whole), its columns, what its search means and where a row leads.
import {Box} from 'ink'
import {useState, type ReactNode} from 'react'
import {Text} from '../../../ui/text.js'
import {Age, LineInput, moveKey, PaintedList, Problem, useFrame, useKeys, useTextField, type InputKey, type Route} from '../../frame.js'
import {scrollWindow} from '../../format.js'
import {displayWidth} from '../../width.js'
import type {PaintedLine} from '../../painter.js'
import {headerText, layoutColumns, rowText, type Column} from './columns.js'

/** What a list shows: its rows so far, and how they are read. */
export interface ListData<T> {
  readonly rows: readonly T[]
  readonly loading: boolean
  readonly error?: string
  readonly permission?: string
  /** wall ms of the last read (the age shown) */
  readonly at?: number
  /** the rows are read again at this interval (ms) while shown */
  readonly every?: number
  /** the rows shown reach past what is loaded: more is on its way */
  readonly waiting?: boolean
  /** keeps rows loaded ahead of `index` (a list read page by page) */
  ensure?(index: number): void
  /** reads to the end (G) */
  all?(): Promise<void>
  reload(): void
  /** the view drew rows up to `to` */
  drawn?(to: number): void
}

/** What `/` does in a list. */
export interface ListSearch {
  /** "Search" or "Filter" */
  label: string
  placeholder: string
  /** the footer's hint while typing */
  hint?: string
  /** what the line above the list says when no one types (the query in words, or how to search) */
  describe(query: string): string
  /** Enter: the query is the list's now; a route (a payment's id) opens instead */
  apply(query: string): Route | void
  /**
   * a filter of what is loaded, applied as it is typed (a search the API does waits for Enter):
   * draws the view again, whose rows and counts come from the query
   */
  live?: () => void
}

/** A list's state that outlives the view while the console runs: the query, the selection, the first row shown. */
export interface ListState {
  query: string
  sel: number
  top: number
  /** the column rows are sorted by (its index; undefined: the list's own order), and which way */
  sortBy?: number
  descending?: boolean
  /** leaving the view for another (a jump): the filter goes, as k9s does (opening a row and coming back keeps it) */
  leave?(): void
}

export function newListState(): ListState {
  return {
    query: '',
    sel: 0,
    top: 0,
    leave(this: ListState) {
      this.query = ''
      this.sel = 0
      this.top = 0
    },
  }
}

export interface ResourceListProps<T> {
  state: ListState
  data: ListData<T>
  columns: readonly Column<T>[]
  search?: ListSearch
  /** where Enter on a row leads */
  open?(row: T): Route | undefined
  /** a row's id: `c` copies it */
  idOf?(row: T): string
  /** a row's colour (the selected row is in reverse video instead) */
  tone?(row: T): string | undefined
  /** the line under the rows */
  status: string
  /** what the list says when it has no row */
  empty: string
  /** the right of the search line (default: the data's age) */
  right?: ReactNode
  /** a line between the heading and the rows (a filter the engine lacks), wrapped to the width */
  notice?: {text: string; color?: string}
  /** the view's own keys, heard before the list's (true: used), and their footer entries */
  keys?: {handle(input: string, key: InputKey, row: T | undefined): boolean; footer: readonly (readonly [string, string])[]}
}

export function ResourceList<T>({state: st, data, columns, search, open: lead, idOf, tone, status, empty, right, notice, keys}: ResourceListProps<T>) {
  const {height, width, open, copy} = useFrame()
  const [, rerender] = useState(0)
  const field = useTextField()
  const editing = field.editing
  // sorted by a column (s: the next one, S: the other way), the loaded rows
  const sortCol = st.sortBy === undefined ? undefined : columns.filter((c) => c.sort)[st.sortBy]
  const rows = sortCol ? [...data.rows].sort((a, b) => compare(sortCol.sort!(a), sortCol.sort!(b)) * (st.descending ? -1 : 1)) : data.rows
  const noticeRows = notice ? Math.ceil(displayWidth(notice.text) / Math.max(1, width)) : 0
  const listHeight = Math.max(1, height - 4 - noticeRows)
  const sel = Math.min(st.sel, Math.max(0, rows.length - 1))
  const first = scrollWindow(rows.length, sel, listHeight, st.top)
  st.top = first
  // what this draw shows: a page that arrives for rows below it waits for the next draw
  data.drawn?.(first + listHeight)
  const widths = layoutColumns(columns, width)

  const move = (to: number) => {
    st.sel = to
    data.ensure?.(to)
    rerender((n) => n + 1)
  }

  const apply = (query: string) => {
    if (editing) field.stop()
    const route = search?.apply(query)
    if (route) return open(route)
    st.query = query
    st.sel = 0
    st.top = 0
    search?.live?.()
    rerender((n) => n + 1)
  }

  const sortable = columns.filter((c) => c.sort)
  useKeys(
    (input, key) => {
      if (search && field.keys(input, key)) return true
      // Esc clears the filter before it leaves the view
      if (key.escape && st.query && search) {
        apply('')
        return true
      }
      if (keys?.handle(input, key, rows[sel])) return true
      if ((input === 's' || input === 'S') && sortable.length) {
        if (input === 'S') st.descending = !st.descending
        else st.sortBy = st.sortBy === undefined ? 0 : st.sortBy + 1 < sortable.length ? st.sortBy + 1 : undefined
        st.sel = 0
        rerender((n) => n + 1)
        return true
      }
      if (input === 'G' || key.end) {
        void data.all?.().then(() => move(Math.max(0, data.rows.length - 1)))
        move(Math.max(0, rows.length - 1))
        return true
      }
      const next = moveKey(input, key, sel, rows.length, listHeight)
      if (next !== undefined) return move(next), true
      const to = key.return && rows[sel] ? lead?.(rows[sel]!) : undefined
      if (to) return open(to), true
      if (input === 'r') return data.reload(), true
      if (input === 'c' && idOf && rows[sel]) return copy(idOf(rows[sel]!)), true
      return false
    },
    editing
      ? [['Enter', search?.label.toLowerCase() ?? 'search'], ['Esc', 'cancel'], ...(search?.hint ? [['', search.hint] as const] : [])]
      : [
          ...(search ? [['/', search.label.toLowerCase()] as const] : []),
          ...(st.query && search ? [['Esc', `clear the ${search.label.toLowerCase()}`] as const] : []),
          ['↑↓ PgUp PgDn', 'move'],
          ['G', 'end'],
          ...(lead ? [['Enter', 'open'] as const] : []),
          ...(keys?.footer ?? []),
          ...(idOf ? [['c', 'copy id'] as const] : []),
          ...(sortable.length ? [['s', sortCol ? `sort: ${sortCol.title.toLowerCase()}${st.descending ? ' ↓' : ' ↑'}` : 'sort'] as const] : []),
          ['r', 'reload'],
        ],
  )

  const lines = (): PaintedLine[] =>
    rows.slice(first, first + listHeight).map((r, i) => {
      const selected = first + i === sel
      return {text: rowText(r, columns, widths), inverse: selected, color: selected ? undefined : tone?.(r)}
    })
  return (
    <Box flexDirection="column">
      <Box>
        <Box flexShrink={0}>
          <Text bold>{`${search?.label ?? ''} `}</Text>
        </Box>
        {editing && search ? (
          <LineInput
            initial={st.query}
            placeholder={search.placeholder}
            onSubmit={apply}
            // a filter of what is loaded narrows the rows as it is typed
            onChange={search.live ? (q) => ((st.query = q), (st.sel = 0), (st.top = 0), search.live!(), rerender((n) => n + 1)) : undefined}
          />
        ) : (
          <Box justifyContent="space-between" flexGrow={1}>
            <Box flexShrink={1}>
              <Text dimColor wrap="truncate">
                {search?.describe(st.query) ?? ''}
              </Text>
            </Box>
            {right ?? <Age of={data} />}
          </Box>
        )}
      </Box>
      <Text bold wrap="truncate">
        {headerText(columns, widths)}
      </Text>
      {notice ? (
        <Text color={notice.color} wrap="wrap">
          {notice.text}
        </Text>
      ) : null}
      {data.permission || (data.error && rows.length === 0) ? <Problem message={data.error ?? ''} permission={data.permission} /> : null}
      {!data.loading && rows.length === 0 && !data.error && !data.permission ? <Text dimColor>{empty}</Text> : null}
      <PaintedList height={Math.max(0, Math.min(listHeight, rows.length - first))} lines={lines} />
      <Text dimColor wrap="truncate">
        {status}
      </Text>
    </Box>
  )
}

/** Two sort keys in order: numbers as numbers, texts as a person reads them. */
function compare(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return String(a).localeCompare(String(b), undefined, {numeric: true, sensitivity: 'base'})
}

