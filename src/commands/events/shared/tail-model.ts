// State of the `gw events tail` view, outside React: the rows received, pause, the connection
// status. The Ink view (./tail-view.tsx) subscribes to it; the feed writes to it.
import type {GwEvent} from '../../../api/types.js'
import type {FeedEvent, FeedStatus} from './feed.js'
import {summarize, type EventSummary} from './format.js'

export interface TailRow {
  summary: EventSummary
  event: GwEvent
  raw: string
  backfilled: boolean
}

export interface Connection {
  /** connecting, live, polling, disconnected */
  state: 'connecting' | 'live' | 'polling' | 'disconnected'
  text: string
}

export class TailModel {
  rows: TailRow[] = []
  /** events that arrived while paused */
  held: TailRow[] = []
  paused = false
  connection: Connection = {state: 'connecting', text: 'connecting…'}
  /** the latest notice (reconnected, polling fallback, ...) */
  notice: string | null = null
  version = 0
  /** set by the view: unmounts it (the feed stopped for good) */
  onClose?: () => void
  private listeners = new Set<() => void>()

  /**
   * Every time in the view is on one clock, the gateway's, in UTC: events carry created_at on
   * the engine clock (which `gw clock advance` moves in test mode), so "reconnected at" adds
   * this offset to the wall clock too.
   */
  clockOffsetMs = 0

  constructor(readonly maxRows = 2000) {}

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  getVersion = (): number => this.version

  private changed() {
    this.version++
    for (const fn of this.listeners) fn()
  }

  add(fe: FeedEvent): void {
    const row: TailRow = {summary: summarize(fe.event), event: fe.event, raw: fe.raw, backfilled: fe.backfilled}
    if (this.paused) this.held.push(row)
    else this.push(row)
    this.changed()
  }

  private push(row: TailRow) {
    this.rows.push(row)
    if (this.rows.length > this.maxRows) this.rows.splice(0, this.rows.length - this.maxRows)
  }

  closed = false

  close(): void {
    this.closed = true
    this.onClose?.()
  }

  togglePause(): void {
    this.paused = !this.paused
    if (!this.paused) {
      for (const r of this.held) this.push(r)
      this.held = []
    }
    this.changed()
  }

  setStatus(s: FeedStatus): void {
    switch (s.state) {
      case 'connecting':
        this.connection = {state: 'connecting', text: 'connecting…'}
        break
      case 'live':
        this.connection = s.mode === 'poll' ? {state: 'polling', text: 'live (polling)'} : {state: 'live', text: 'live'}
        if (s.resumed) this.notice = `reconnected${s.backfilled ? `, backfilled ${s.backfilled}` : ''} at ${new Date(Date.now() + this.clockOffsetMs).toISOString().slice(11, 19)} UTC`
        break
      case 'disconnected':
        this.connection = {state: 'disconnected', text: `disconnected: ${s.reason} — retrying in ${(s.retryInMs / 1000).toFixed(1)}s`}
        break
      case 'notice':
        this.notice = s.message
        break
    }
    this.changed()
  }
}
