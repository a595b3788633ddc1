// GET /v1/test_helpers/snapshot written out in slices. A large account's snapshot is tens of
// megabytes: read whole, then serialised and sent in one go, it held the event loop for seconds
// while every other tenant waited. Its JSON is made a part of the rows at a time
// (app/snapshots.ts snapshotJson, the rows read at one moment by the store) and written to the
// socket as it is made, the event loop given back every few milliseconds and whenever the client
// has not taken what was written; one read per account at a time (docs/api.md#reading-a-large-snapshot).
import type {ServerResponse} from 'node:http'
import {snapshotJson} from '../app/snapshots.js'
import {breather} from '../core/breather.js'
import type {Core} from '../core/core.js'
import type {AccountStore} from '../ports/store.js'
import {tooManyRequests} from './rate-limits.js'
import {JSON_CONTENT_TYPE} from './answer.js'
import type {HandlerResult} from './router.js'

/** The exclusive section (the store's: on every instance) a read of an account's snapshot holds. */
export const SNAPSHOT_READ_SECTION = 'snapshot-read'
/** Work on the event loop in one turn before it is given back (other requests are answered between). */
const SLICE_MS = 8
/** Text gathered before one write to the socket. */
const WRITE_CHARS = 64 * 1024
/** How long a client may leave what was written unread before the read is given up (it holds the account's read and the store's moment meanwhile). */
export const STALL_MS = 30_000
/** What a second read of the same account is told to wait. */
const RETRY_AFTER_S = 1

/**
 * The answer to GET /v1/test_helpers/snapshot: 429 while another read of the account's snapshot
 * is being written out (here or on another instance); otherwise the first part is read before the
 * answer starts (a store that does not answer gets its error answer, not a cut body), and the rest
 * is written out by the stream.
 */
export async function snapshotAnswer(core: Core, includeSecrets: boolean): Promise<HandlerResult> {
  const release = await holdSection(core.store, SNAPSHOT_READ_SECTION)
  if (!release)
    throw tooManyRequests(
      `A snapshot of this account is being read already: one read of an account's snapshot at a time (a large account's takes seconds to write out). Retry after ${RETRY_AFTER_S}s, or once that read has ended.`,
      RETRY_AFTER_S,
    )
  const pieces = snapshotJson(core, {includeSecrets})
  let first: IteratorResult<string, void>
  try {
    first = await pieces.next()
  } catch (e) {
    void release()
    throw e
  }
  return {
    status: 200,
    stream: (_req, res) => {
      void writeOut(res, first, pieces, release)
        .catch((e: unknown) => {
          // the answer has begun: a cut body (no last chunk) tells the client it is not whole
          core.log(`snapshot read of ${core.account} stopped after ${res.socket?.bytesWritten ?? 0} bytes: ${(e as Error).message}`)
          res.destroy()
        })
        .finally(release)
    },
  }
}

/**
 * Writes the snapshot's pieces out: in writes of WRITE_CHARS, a slice of SLICE_MS at a time,
 * waiting for the client to take them. The account's read is let go (its section wholly released,
 * on PostgreSQL a round trip) before the last chunk is sent: a client that has the whole snapshot
 * may read it again at once, and is not told another read is in progress.
 */
async function writeOut(
  res: ServerResponse,
  first: IteratorResult<string, void>,
  pieces: AsyncGenerator<string, void, undefined>,
  release: () => Promise<void>,
): Promise<void> {
  try {
    if (res.destroyed) return
    res.writeHead(200, {'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store'})
    let text = ''
    for (let next = first; !next.done; next = await pieces.next()) {
      text += next.value
      if (text.length >= WRITE_CHARS) {
        if (res.destroyed) return
        const more = res.write(text)
        text = ''
        if (!more) await drained(res)
      }
      const pause = breather(SLICE_MS)
      if (pause) await pause
    }
    await pieces.return()
    await release()
    if (!res.destroyed) res.end(text)
  } finally {
    // (a client gone, or a failure: the reading ends, and with it the store's moment)
    await pieces.return()
  }
}

/** Resolves once the client has taken what was written, or is gone; rejects when it has taken nothing for STALL_MS. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (e?: Error) => {
      clearTimeout(timer)
      res.off('drain', ok)
      res.off('close', ok)
      if (e) reject(e)
      else resolve()
    }
    const ok = () => done()
    const timer = setTimeout(() => done(new Error(`the client took nothing for ${STALL_MS / 1000} s`)), STALL_MS)
    res.on('drain', ok)
    res.on('close', ok)
  })
}

/**
 * Holds the account's exclusive section until the returned function is called; undefined (at once)
 * while someone holds it. The returned function resolves once the store has let the section go.
 */
function holdSection(store: AccountStore, name: string): Promise<(() => Promise<void>) | undefined> {
  return new Promise((resolve, reject) => {
    let letGo!: () => void
    const released = new Promise<void>((r) => (letGo = r))
    const held = store.exclusive(
      name,
      async () => {
        resolve(() => {
          letGo()
          return held.then(
            () => {},
            () => {},
          )
        })
        await released
      },
      {wait: false},
    )
    held.then((r) => {
      if (!r.ran) resolve(undefined)
    }, reject)
  })
}
