// A list that pages as you scroll: pages of the API's cursor pagination (starting_after the
// last row), fetched ahead of the selection so that moving through ten thousand rows never waits
// on the network; a filter the API lacks is applied to each page (and said so). No Ink.
//
// A page fetched ahead is not a redraw of its own: its start draws nothing, and its arrival
// draws at once only when the view is waiting on it (the rows shown reach the end of what is
// loaded, or nothing is loaded yet); otherwise the next redraw (the next key) shows it, or a
// quiet one a second later if none comes (the count of rows loaded in the status line).
import type {ListEnvelope} from '../../api/types.js'
import {BatchedEmitter, type ConsoleSession} from '../session.js'

export interface PagedSource<T> {
  /** one page after `cursor` (the last id shown), newest first */
  page(cursor: string | undefined, limit: number): Promise<ListEnvelope<T>>
  /** rows kept from each page (a filter the API does not have) */
  keep?: (row: T) => boolean
  /** most rows scanned for `keep` before it stops and says so */
  scanLimit?: number
}

export class PagedList<T extends {id: string}> extends BatchedEmitter {
  rows: T[] = []
  hasMore = true
  loading = false
  error: string | undefined
  permission: string | undefined
  /** rows the API sent (with `keep`, more than are shown) */
  scanned = 0
  /** wall ms of the first page (the age of the list) */
  at: number | undefined
  /** `keep` stopped at its scan limit */
  scanCapped = false
  /** the row just past the last one the view shows (set by the view as it draws) */
  shownTo = 0
  private generation = 0
  private pending: Promise<void> | undefined
  /** bumped when rows arrive; `drawn` is what the view last drew */
  private dataVersion = 0
  private drawnVersion = 0
  private quiet: NodeJS.Timeout | undefined

  constructor(
    private readonly session: ConsoleSession,
    private source: PagedSource<T>,
    readonly pageSize = 100,
  ) {
    super(16)
  }

  /** The view waits on the next page: the rows it shows reach past what is loaded (or none is). */
  get waiting(): boolean {
    return this.hasMore && (this.rows.length === 0 || this.shownTo >= this.rows.length)
  }

  /** The view drew rows up to `to` (exclusive) of what is loaded now. */
  drawn(to: number): void {
    this.shownTo = to
    this.drawnVersion = this.dataVersion
  }

  /** Starts over with another source (a new search). */
  reset(source: PagedSource<T>): void {
    this.source = source
    this.generation++
    this.rows = []
    this.hasMore = true
    this.loading = false
    this.pending = undefined
    this.error = undefined
    this.permission = undefined
    this.scanned = 0
    this.at = undefined
    this.scanCapped = false
    this.lastScanned = undefined
    this.changed()
    void this.more()
  }

  /** Reloads from the first page, keeping the rows shown until the new ones arrive. */
  reload(): void {
    this.reset(this.source)
  }

  /** Fetches the next page (one at a time); with `keep`, pages until a row is kept or the scan limit. */
  more(): Promise<void> {
    if (this.pending || !this.hasMore) return this.pending ?? Promise.resolve()
    const gen = this.generation
    // no redraw for the start: the view says "loading" only where it waits (see `waiting`)
    this.loading = true
    const before = this.rows.length
    this.pending = (async () => {
      for (;;) {
        const cursor = this.lastScanned
        const r = await this.session.call(() => this.source.page(cursor, this.pageSize))
        if (gen !== this.generation) return
        if (!r.ok) {
          this.error = r.offline ? undefined : r.message
          this.permission = r.permission
          if (!r.offline) this.hasMore = false
          break
        }
        this.at ??= this.session.now()
        const page = r.value
        this.scanned += page.data.length
        if (page.data.length) this.lastScanned = page.data[page.data.length - 1]!.id
        const kept = this.source.keep ? page.data.filter(this.source.keep) : page.data
        this.rows.push(...kept)
        this.hasMore = page.has_more && page.data.length > 0
        if (this.source.keep && this.hasMore && this.scanned >= (this.source.scanLimit ?? Number.POSITIVE_INFINITY)) {
          this.hasMore = false
          this.scanCapped = true
        }
        if (kept.length > 0 || !this.hasMore || !this.source.keep) break
      }
    })().finally(() => {
      if (gen !== this.generation) return
      this.pending = undefined
      this.loading = false
      this.dataVersion++
      // waited: the rows shown reached past what was loaded when it started (or none was)
      if (before === 0 || this.shownTo >= before || this.error !== undefined || this.permission !== undefined || !this.hasMore) this.changed()
      else this.later()
    })
    return this.pending
  }

  /** A redraw in a second, unless one came meanwhile (it drew these rows already). */
  private later(): void {
    if (this.quiet) return
    this.quiet = setTimeout(() => {
      this.quiet = undefined
      if (this.drawnVersion !== this.dataVersion) this.changed()
    }, 1000)
    this.quiet.unref?.()
  }

  override dispose(): void {
    super.dispose()
    if (this.quiet) clearTimeout(this.quiet)
    this.quiet = undefined
  }

  /** the last row the API sent (a filtered page may keep none): where the next page starts */
  private lastScanned: string | undefined

  /** Keeps `ahead` rows loaded past `index` (called as the selection moves). */
  ensure(index: number, ahead = this.pageSize): void {
    if (this.hasMore && !this.pending && index + ahead >= this.rows.length) void this.more()
  }

  /** Loads every page (G: to the end); resolves when there is none left. */
  async all(): Promise<void> {
    while (this.hasMore) {
      const before = this.rows.length + this.scanned
      await this.more()
      if (this.rows.length + this.scanned === before && !this.hasMore) break
      if (this.error) break
    }
  }
}
