import type {Worker} from 'node:worker_threads'
import {startThread} from './thread.js'

/**
 * Copies WAL pages back into the database file on a worker thread, at most every
 * `intervalMs`, so the copy and its fsyncs do not run on the event loop inside a COMMIT.
 * The store's own connection keeps SQLite's automatic checkpoint as the backstop: it then
 * finds the WAL (nearly) copied already, and restarts the WAL from the top.
 */
export class Checkpointer {
  private worker: Worker
  private running = false
  private closed = false
  private last = 0
  private exited: Promise<void>

  constructor(
    path: string,
    // a page written by several commits in one interval is copied once: the end pages of the
    // indexes are written by nearly every commit. 300 ms against 100 halved the bytes and CPU
    // of the checkpoints per payment (10 accounts, docs/decisions.md#storage-per-payment); the WAL is synced at each commit
    // either way, so durability is the same. Longer, the WAL would reach the writer's automatic
    // checkpoint (10000 pages, about a second of the soak) first, and the writer thread would copy.
    private intervalMs = 300,
  ) {
    this.worker = startThread('./checkpointer-thread.mjs', {path})
    this.worker.unref()
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()))
    this.worker.on('message', () => {
      this.running = false
    })
    // without the worker, SQLite's automatic checkpoint still does the work on the event loop
    this.worker.on('error', () => {
      this.closed = true
    })
  }

  /** After a commit: starts a checkpoint unless one runs or the last began under intervalMs ago. */
  nudge(now = performance.now()): void {
    if (this.running || this.closed || now - this.last < this.intervalMs) return
    this.running = true
    this.last = now
    this.worker.postMessage('checkpoint')
  }

  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true
      this.worker.postMessage('close')
    }
    const t = setTimeout(() => void this.worker.terminate(), 5000)
    await this.exited
    clearTimeout(t)
  }
}
