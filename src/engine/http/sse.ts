// The Server-Sent Events responses the engine keeps open (GET /v1/events/stream,
// GET /v1/request_logs/stream): how one starts, its heartbeat, and how each is let go of.
import type {IncomingMessage, ServerResponse} from 'node:http'

const HEARTBEAT_MS = 15_000

export class SseStreams {
  /** open streams and how each is let go of (unsubscribed, heartbeat stopped) */
  private readonly open = new Map<ServerResponse, () => void>()

  /**
   * Starts an event stream on `res`: headers, the retry hint, a heartbeat, then `subscribe`,
   * whose returned function is called when the stream is let go of (its client gone, or
   * closeAll()). A client already gone gets nothing: its 'close' has been and will not come
   * again, so nothing would ever let go of the stream. Returns whether it started.
   */
  start(req: IncomingMessage, res: ServerResponse, requestId: string, subscribe: () => () => void): boolean {
    if (req.destroyed || res.destroyed) return false
    res.writeHead(200, {'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no', 'X-Content-Type-Options': 'nosniff'})
    res.flushHeaders()
    const unsubscribe = subscribe()
    res.write(`retry: 1000\n: connected ${requestId}\n\n`)
    const beat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS)
    const done = () => {
      clearInterval(beat)
      unsubscribe()
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
