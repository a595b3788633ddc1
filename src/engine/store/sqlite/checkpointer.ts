import {statSync} from 'node:fs'
import type {Worker} from 'node:worker_threads'
import {startThread} from './thread.js'

/**
 * The WAL size at which the checkpointer's thread starts: SQLite's own default checkpoint size
 * (1000 pages of 4 KiB). A fresh database's migrations write about 1.1 MiB of it.
 */
export const CHECKPOINTER_START_BYTES = 4 * 1024 * 1024

/**
 * Copies WAL pages back into the database file on a worker thread, at most every
 * `intervalMs`, so the copy and its fsyncs do not run on the event loop inside a COMMIT.
 * The store's own connection keeps SQLite's automatic checkpoint as the backstop: it then
 * finds the WAL (nearly) copied already, and restarts the WAL from the top.
 *
 * The thread starts when the WAL first reaches `startBytes` (until then no checkpoint has run,
 * so the file's size is what waits to be copied): a store that writes little, such as a
 * developer's `gw serve` or a test's engine, never starts it. A thread costs about 70 ms of CPU
 * to start here (a V8 isolate and node's bootstrap) and a heap of its own; under load it starts within the
 * first seconds and then runs as before.
 */
export class Checkpointer {
  private worker: Worker | undefined
  private running = false
  private closed = false
  private last = 0
  private exited: Promise<void> = Promise.resolve()

  constructor(
    private readonly path: string,
    // a page written by several commits in one interval is copied once: the end pages of the
    // indexes are written by nearly every commit. 300 ms against 100 halved the bytes and CPU
    // of the checkpoints per payment (10 accounts, docs/decisions.md#storage-per-payment); the WAL is synced at each commit
    // either way, so durability is the same. Longer, the WAL would reach the writer's automatic
    // checkpoint (10000 pages, about a second of the soak) first, and the writer thread would copy.
    private intervalMs = 300,
    private startBytes = CHECKPOINTER_START_BYTES,
  ) {}

  /** whether the thread has started (tests) */
  get started(): boolean {
    return this.worker !== undefined
  }

  private start(): Worker {
    const worker = startThread('./checkpointer-thread.mjs', {path: this.path})
    worker.unref()
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()))
    worker.on('message', () => {
      this.running = false
    })
    // without the worker, SQLite's automatic checkpoint still does the work on the event loop
    worker.on('error', () => {
      this.closed = true
    })
    return worker
  }

  /** After a commit: starts a checkpoint unless one runs or the last began under intervalMs ago (or the WAL is still too small to start the thread for). */
  nudge(now = performance.now()): void {
    if (this.running || this.closed || now - this.last < this.intervalMs) return
    this.last = now
    if (this.worker === undefined) {
      if ((statSync(`${this.path}-wal`, {throwIfNoEntry: false})?.size ?? 0) < this.startBytes) return
      this.worker = this.start()
    }
    this.running = true
    this.worker.postMessage('checkpoint')
  }

  async close(): Promise<void> {
    const worker = this.worker
    if (!this.closed) {
      this.closed = true
      worker?.postMessage('close')
    }
    if (worker === undefined) return
    const t = setTimeout(() => void worker.terminate(), 5000)
    await this.exited
    clearTimeout(t)
  }
}
