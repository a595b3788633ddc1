import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import {ConnectionBudget, DEFAULT_CONNECTIONS_PER_ADDRESS, defaultMaxConnections, FIRST_REQUEST_MS} from './connections.js'
import type {IncomingMessage, ServerResponse} from 'node:http'

export interface ListeningServer {
  port: number
  host: string
  /** draining (before close): every response from now on closes its connection, so clients reconnect (through the balancer) elsewhere */
  drain(): void
  /** stop accepting, let in-flight requests finish (within `graceMs`, default 10 s), close idle keep-alive sockets */
  close(graceMs?: number): Promise<void>
  /** the port's connections and their caps (gw_connections{state}) */
  readonly connections: ConnectionBudget
}

const TLS_REQUIRED = JSON.stringify({
  error: {
    type: 'invalid_request_error',
    code: 'tls_required',
    message: 'This service only speaks HTTPS. Use https:// in your base URL.',
    doc_url: 'https://docs.gw.dev/errors#tls_required',
    request_id: '',
  },
})

type ListenOptions = {
  host: string
  port: number
  key: string
  cert: string
  handler: (req: IncomingMessage, res: ServerResponse) => void
  newRequestId: () => string
  /** the port's connections, their caps and the first request's deadline (connections.ts); default: the default caps, no proxies */
  connections?: ConnectionBudget
  /** Node's headersTimeout (a later request's headers, from its first byte; default HEADERS_TIMEOUT_MS), and for tests its requestTimeout and connectionsCheckingInterval (defaults 300 s and HEADERS_CHECK_MS) */
  headersTimeoutMs?: number
  requestTimeoutMs?: number
  timeoutCheckIntervalMs?: number
}

/** How long a request after a connection's first may take to send its headers (the first's are within the connection's deadline). */
export const HEADERS_TIMEOUT_MS = 10_000
/** How often Node looks for requests over their timeouts. */
const HEADERS_CHECK_MS = 2_000

/** What the listener keeps of its connections: for answering a client's error, draining and closing. */
class Connections {
  /** the responses of each HTTPS connection not yet finished, in request order (pipelined requests queue theirs) */
  readonly inFlight = new WeakMap<net.Socket, {req: IncomingMessage; res: ServerResponse}[]>()
  /** connections whose parser failed: the first report decided */
  readonly failed = new WeakSet<net.Socket>()
  readonly sockets = new Set<net.Socket>()
  /** requests not yet closed: what close() waits for */
  active = 0
  draining = false
  drained: (() => void) | undefined
  constructor(
    /** the caps, states and deadlines of the port's connections */
    readonly budget: ConnectionBudget,
  ) {}
}

/**
 * One port, HTTPS only. The first byte of each connection tells a TLS handshake (0x16)
 * from plain text; plain HTTP gets `400 tls_required` as a JSON envelope rather than a hang.
 */
export async function listen(opts: ListenOptions): Promise<ListeningServer> {
  const c = new Connections(opts.connections ?? new ConnectionBudget({total: defaultMaxConnections(), perAddress: DEFAULT_CONNECTIONS_PER_ADDRESS, trustedProxies: 0, firstRequestMs: FIRST_REQUEST_MS}))
  const {httpsServer, plainServer} = createServers(opts)
  httpsServer.on('clientError', answerClientError(c, opts.newRequestId, false))
  plainServer.on('clientError', answerClientError(c, opts.newRequestId, true))
  // (before the handlers: a handler may answer at once, and the budget may want the connection closed after that answer)
  httpsServer.on('request', trackRequests(c))
  httpsServer.on('request', opts.handler)
  plainServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    c.budget.requestStarted(req, res)
    res.once('close', () => c.budget.requestEnded(req))
  })
  plainServer.on('request', answerTlsRequired(opts.newRequestId))
  const front = frontServer(c, httpsServer, plainServer)
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject)
    front.listen(opts.port, opts.host, () => resolve())
  })
  const addr = front.address() as net.AddressInfo
  return {
    port: addr.port,
    host: opts.host,
    drain() {
      c.draining = true
    },
    close: (graceMs = 10_000) => closeGracefully(c, front, httpsServer, plainServer, graceMs),
    connections: c.budget,
  }
}

/** The HTTPS server (the engine's handler) and the plain one that answers `400 tls_required`, neither listening on a port of its own. */
function createServers(opts: ListenOptions): {httpsServer: https.Server; plainServer: http.Server} {
  const timeouts = {
    headersTimeout: opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
    ...(opts.requestTimeoutMs !== undefined ? {requestTimeout: opts.requestTimeoutMs} : {}),
    connectionsCheckingInterval: opts.timeoutCheckIntervalMs ?? HEADERS_CHECK_MS,
  }
  const httpsServer = https.createServer({key: opts.key, cert: opts.cert, keepAliveTimeout: 30_000, ...timeouts})
  const plainServer = http.createServer(timeouts)
  // Node starts timing requests (headersTimeout, requestTimeout) when a server emits 'listening'; these two
  // never listen (the front socket hands them connections), so without this no slow request ever timed out
  httpsServer.emit('listening')
  plainServer.emit('listening')
  return {httpsServer, plainServer}
}

/** The plain server's one answer: 400 tls_required, as a JSON envelope. */
function answerTlsRequired(newRequestId: () => string) {
  return (_req: IncomingMessage, res: ServerResponse): void => {
    const rid = newRequestId()
    const body = TLS_REQUIRED.replace('"request_id":""', `"request_id":"${rid}"`)
    res.writeHead(400, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Request-Id': rid,
      'X-Content-Type-Options': 'nosniff',
      Connection: 'close',
    })
    res.end(body)
  }
}

/**
 * Requests Node cannot parse (garbage, an oversized header block) still get the JSON envelope and
 * a Request-Id instead of Node's bare 400/431.
 */
function answerClientError(c: Connections, newRequestId: () => string, plain: boolean) {
  return (err: Error & {code?: string}, socket: net.Socket): void => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    // an errored parser reports every later chunk again: the first report decided
    if (c.failed.has(socket)) return
    c.failed.add(socket)
    if (letParsedRequestsFinish(c, socket)) return
    const rid = newRequestId()
    const [status, reason, code, message] = plain
      ? [400, 'Bad Request', 'tls_required', 'This service only speaks HTTPS. Use https:// in your base URL.']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'request_header_too_large', 'The request headers are too large.']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'request_timeout', 'The request was not received in time (its headers or body stopped arriving). Retry it, with the same Idempotency-Key.']
          : [400, 'Bad Request', 'request_malformed', 'The request is not valid HTTP/1.1.']
    const body = JSON.stringify({
      error: {type: 'invalid_request_error', code, message, doc_url: `https://docs.gw.dev/errors#${code}`, request_id: rid},
    })
    const answer = `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRequest-Id: ${rid}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`
    // a head too large is refused while its client is still sending it
    if (status === 431) {
      socket.write(answer)
      lingerThenEnd(socket)
    } else socket.end(answer)
  }
}

/** How long a client still sending after its answer is read (and what it sends dropped) before the connection closes. */
const LINGER_QUIET_MS = 100
const LINGER_MAX_MS = 2000

/**
 * Closes a connection whose client may still be sending (a request target of 80 KB goes on
 * arriving after its 431 is written): closing with unread bytes makes the kernel reset the
 * connection, and a reset can drop the answer before the client reads it. So what it sends is read
 * and dropped until it has been quiet for LINGER_QUIET_MS (at most LINGER_MAX_MS), then the
 * connection is ended — the lingering close HTTP servers do.
 */
function lingerThenEnd(socket: net.Socket): void {
  const done = () => {
    clearTimeout(quiet)
    clearTimeout(deadline)
    socket.off('data', onData)
    socket.end()
  }
  let quiet = setTimeout(done, LINGER_QUIET_MS)
  const deadline = setTimeout(done, LINGER_MAX_MS)
  const onData = () => {
    clearTimeout(quiet)
    quiet = setTimeout(done, LINGER_QUIET_MS)
  }
  socket.on('data', onData)
  socket.resume()
}

/**
 * Requests parsed before a client's error may still be answering (a pipelined POST that may commit money):
 * an error written now would be read as their answer. Those the client sent whole are let finish,
 * then the connection closes; the unparseable one gets no answer. A request whose own body broke
 * (not complete) cannot be answered by its handler: the error is its answer when nothing of one is
 * on the wire yet, else the connection is cut (as Node does). True when the error gets no answer of its own.
 */
function letParsedRequestsFinish(c: Connections, socket: net.Socket): boolean {
  const open = c.inFlight.get(socket) ?? []
  const whole = open.filter((x) => x.req.complete)
  const broken = open.find((x) => !x.req.complete)
  if (whole.length > 0) {
    const last = whole[whole.length - 1]!
    // its headers tell the client the connection closes after it (Node then ends the socket itself)
    if (!last.res.headersSent) last.res.shouldKeepAlive = false
    let left = whole.length
    const next = () => {
      if (--left > 0) return
      if (broken) socket.destroy()
      else socket.end()
    }
    for (const x of whole) x.res.once('finish', next)
    return true
  }
  if (broken?.res.headersSent) {
    socket.destroy()
    return true
  }
  return false
}

/** The port's own server: each connection goes to the HTTPS or the plain server by its first byte. */
function frontServer(c: Connections, httpsServer: https.Server, plainServer: http.Server): net.Server {
  return net.createServer((socket) => {
    socket.on('error', () => socket.destroy())
    // counted, given its deadline (TLS done and a request's headers sent), or refused at a cap when every connection is busy
    if (!c.budget.accept(socket)) return
    c.sockets.add(socket)
    socket.on('close', () => c.sockets.delete(socket))
    socket.once('data', (first) => {
      socket.pause()
      socket.unshift(first)
      const target = first[0] === 0x16 ? httpsServer : plainServer
      target.emit('connection', socket)
      process.nextTick(() => socket.resume())
    })
  })
}

/**
 * One listener per request for all the listener keeps (a listener per concern cost the event loop measurably):
 * the first request ends the silent-connection timeout; the response joins its connection's unfinished ones
 * (until 'finish': see answerClientError) and the count that close() waits for (until 'close').
 */
function trackRequests(c: Connections) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const socket = req.socket
    c.budget.requestStarted(req, res)
    // a connection kept alive past the drain would be cut at close, maybe as its next request is sent
    if (c.draining) res.shouldKeepAlive = false
    let list = c.inFlight.get(socket)
    if (!list) c.inFlight.set(socket, (list = []))
    const entry = {req, res}
    list.push(entry)
    const done = () => {
      const i = list.indexOf(entry)
      if (i >= 0) list.splice(i, 1)
    }
    res.once('finish', done)
    c.active++
    res.once('close', () => {
      done()
      c.budget.requestEnded(req)
      c.active--
      if (c.active === 0 && c.drained) c.drained()
    })
  }
}

/** Stop accepting, let in-flight requests finish (within graceMs), close idle keep-alive sockets. */
async function closeGracefully(c: Connections, front: net.Server, httpsServer: https.Server, plainServer: http.Server, graceMs: number): Promise<void> {
  c.draining = true
  const closed = new Promise<void>((resolve) => front.close(() => resolve()))
  // sockets that never sent a byte carry no request
  for (const s of c.sockets) if (s.bytesRead === 0) s.destroy()
  const deadline = setTimeout(() => {
    for (const s of c.sockets) s.destroy()
  }, graceMs)
  const finish = () => {
    if (c.active > 0) return
    httpsServer.closeIdleConnections()
    plainServer.closeIdleConnections()
    setImmediate(() => {
      for (const s of c.sockets) s.destroy()
    })
  }
  c.drained = () => setImmediate(finish)
  finish()
  await closed
  clearTimeout(deadline)
  httpsServer.close()
  plainServer.close()
}
