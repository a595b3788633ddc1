// The Server-Sent Events responses the engine keeps open (GET /v1/events/stream,
// GET /v1/request_logs/stream): how one starts, its heartbeat, and how each is let go of. An
// account holds at most so many at once on an instance (StreamBudget: 429 beyond), and a stream
// whose client takes nothing any more is ended rather than kept (docs/api.md#connections).
import type {IncomingMessage, ServerResponse} from 'node:http'
import {tooManyRequests} from './rate-limits.js'
import {sendError} from './answer.js'

const HEARTBEAT_MS = 15_000
/** Unsent bytes a stream may have queued at a heartbeat: more, and its client has stopped reading (the stream ends). */
const STALLED_BYTES = 1024 * 1024
/** Streams one account may hold open on one instance, unless the operator says otherwise (gw serve --max-event-streams). */
export const DEFAULT_STREAMS_PER_ACCOUNT = 20
/** What a refused stream is told to wait before asking again. */
const STREAM_RETRY_AFTER_S = 5

/** The streams each account holds open on this instance, both kinds together, and the connections they hold (gw_connections{state="stream"}). */
export class StreamBudget {
  private readonly open = new Map<string, number>()

  constructor(
    readonly perAccount = DEFAULT_STREAMS_PER_ACCOUNT,
    private readonly connections?: {streaming(req: IncomingMessage, on: boolean): void},
  ) {}

  /** A stream of `account` opens: the function that lets go of it, or undefined when the account holds perAccount already. */
  take(account: string, req: IncomingMessage): (() => void) | undefined {
    const n = this.open.get(account) ?? 0
    if (n >= this.perAccount) return undefined
    this.open.set(account, n + 1)
    this.connections?.streaming(req, true)
    let done = false
    return () => {
      if (done) return
      done = true
      const left = (this.open.get(account) ?? 1) - 1
      if (left > 0) this.open.set(account, left)
      else this.open.delete(account)
      this.connections?.streaming(req, false)
    }
  }
}

export class SseStreams {
  /** open streams and how each is let go of (unsubscribed, heartbeat stopped) */
  private readonly open = new Map<ServerResponse, () => void>()

  constructor(private readonly budget = new StreamBudget()) {}

  /**
   * Starts an event stream of `account` on `res`: headers, the retry hint, a heartbeat, then
   * `subscribe`, whose returned function is called when the stream is let go of (its client
   * gone, or closeAll()). A client already gone gets nothing: its 'close' has been and will not
   * come again, so nothing would ever let go of the stream. An account at its limit of open
   * streams gets 429 instead. Returns whether it started.
   */
  start(req: IncomingMessage, res: ServerResponse, requestId: string, account: string, subscribe: () => () => void): boolean {
    if (req.destroyed || res.destroyed) return false
    const release = this.budget.take(account, req)
    if (!release) {
      sendError(
        res,
        requestId,
        tooManyRequests(
          `This account has ${this.budget.perAccount} event streams open on this instance, the most it may (GET /v1/events/stream and /v1/request_logs/stream together; each gw listen or gw events tail holds one). Close one, then retry after ${STREAM_RETRY_AFTER_S}s; a stream that ends resumes from its Last-Event-ID.`,
          STREAM_RETRY_AFTER_S,
        ),
      )
      return false
    }
    res.writeHead(200, {'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no', 'X-Content-Type-Options': 'nosniff'})
    res.flushHeaders()
    // a peer gone without a word (its network cut) is found by TCP keep-alive, not only at the next write
    req.socket.setKeepAlive(true, HEARTBEAT_MS)
    const unsubscribe = subscribe()
    res.write(`retry: 1000\n: connected ${requestId}\n\n`)
    const beat = setInterval(() => {
      // a client that takes nothing any more would hold its stream (and what is queued for it) for good
      if ((res.socket?.writableLength ?? 0) + res.writableLength > STALLED_BYTES) return void res.destroy()
      res.write(': heartbeat\n\n')
    }, HEARTBEAT_MS)
    const done = () => {
      clearInterval(beat)
      unsubscribe()
      release()
      this.open.delete(res)
    }
    this.open.set(res, done)
    req.on('close', done)
    res.on('close', done)
    return true
  }

  /** Ends every open stream (shutdown): let go of first, so what happens while requests finish is not written after the end. */
  closeAll(): void {
    for (const [res, done] of this.open) {
      done()
      res.end()
    }
  }
}
