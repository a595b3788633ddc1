import type {Worker} from 'node:worker_threads'
import {startThread} from './thread.js'

/**
 * Writer threads kept for the next store of this process. A thread costs ~70-85 ms of CPU to
 * start (a V8 isolate, node's bootstrap, better-sqlite3 loaded in it), and a process that opens
 * store after store (a test suite booting engines, an engine's `restart`) would pay it for each.
 * A store that closes cleanly gives its writer's thread back here once the thread has closed its
 * database and answered 'closed' (writer-thread.mjs: every statement, handle and setting of that
 * database gone with it); the next store opens its database on it instead of starting a thread.
 * A thread that failed, was terminated or whose store did not close cleanly never comes back.
 *
 * At most POOL_SIZE threads wait, unref'd (they keep no process alive), each ended after
 * IDLE_MS without a taker.
 */
export const POOL_SIZE = 2
export const IDLE_MS = 2000

const idle: {worker: Worker; timer: NodeJS.Timeout}[] = []

/** The listeners a writer or the pool put on a thread (not all: node's own 'newListener'/'removeListener' keep its port referenced while a 'message' listener is on). */
const forget = (worker: Worker): void => {
  for (const e of ['message', 'error', 'exit', 'messageerror'] as const) worker.removeAllListeners(e)
}

/** Threads started and threads reused by writers of this process (tests, benchmarks). */
export const writerThreads = {started: 0, reused: 0}

/** A writer thread with `open` as its database: an idle one told to open it, else a new one. */
export function takeWriterThread(open: unknown): Worker {
  const kept = idle.pop()
  if (kept === undefined) {
    writerThreads.started++
    return startThread('./writer-thread.mjs', open)
  }
  clearTimeout(kept.timer)
  forget(kept.worker)
  kept.worker.ref()
  kept.worker.postMessage({open})
  writerThreads.reused++
  return kept.worker
}

/** Gives back a thread whose database is closed (it answered 'closed'); one the pool has no room for is ended. */
export function giveBackWriterThread(worker: Worker): void {
  forget(worker)
  if (idle.length >= POOL_SIZE) {
    void worker.terminate()
    return
  }
  worker.unref()
  const entry = {
    worker,
    timer: setTimeout(() => {
      const i = idle.indexOf(entry)
      if (i >= 0) idle.splice(i, 1)
      void worker.terminate()
    }, IDLE_MS).unref(),
  }
  // a thread that dies while it waits leaves the pool
  worker.once('exit', () => {
    const i = idle.indexOf(entry)
    if (i >= 0) idle.splice(i, 1)
    clearTimeout(entry.timer)
  })
  // (an error on an idle thread: it exits; nothing waits for it)
  worker.on('error', () => {})
  idle.push(entry)
}

/** Threads waiting in the pool now (tests). */
export function idleWriterThreads(): number {
  return idle.length
}
