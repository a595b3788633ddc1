// The API port's connections and the budget they share (docs/api.md#connections). A connection
// that has not finished TLS and sent a request's headers within FIRST_REQUEST_MS is closed; each
// client address holds at most `perAddress` connections, and the port at most `total` (below the
// process's descriptor limit). At either cap a new connection is let in by closing one that waits
// for nothing — first one that has sent no request yet, then an idle one none of whose requests
// authenticated, then an idle authenticated one (its client reconnects) — so a new client, a
// health check included, always gets through; only while every connection is busy (a request in
// flight, an event stream) is a new one refused. Requests and streams are never cut for it.
import {readFileSync} from 'node:fs'
import type {IncomingMessage, ServerResponse} from 'node:http'
import type net from 'node:net'
import {addressKey, clientAddress} from './rate-limits.js'

/** What a connection is doing: `handshake` (TLS, or no request yet), `active` (a request in flight), `idle` (kept alive between requests), `stream` (an event stream open). */
export const CONNECTION_STATES = ['handshake', 'active', 'idle', 'stream'] as const
export type ConnectionState = (typeof CONNECTION_STATES)[number]

/** How long a connection may take to finish TLS and send its first request's headers. */
export const FIRST_REQUEST_MS = 10_000
/** Connections one client address may hold at once, unless the operator says otherwise (gw serve --max-connections-per-address; 0: no cap). */
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 256

/** The process's limit on open descriptors (the soft one), where /proc tells it. */
export function descriptorLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))
    return m ? Number(m[1]) : undefined
  } catch {
    return undefined
  }
}

/**
 * The default cap on the port's connections: below the descriptor limit by a fifth of it (at least
 * 256: the store's files and connections, logs, webhook and provider connections need theirs), at
 * most 16,384; 4,096 where the limit cannot be read.
 */
export function defaultMaxConnections(limit = descriptorLimit()): number {
  if (limit === undefined || !Number.isFinite(limit)) return 4096
  return Math.max(64, Math.min(16_384, limit - Math.max(256, Math.floor(limit / 5))))
}

export interface ConnectionLimits {
  /** connections open at once at most (gw serve --max-connections) */
  total: number
  /** per client address (gw serve --max-connections-per-address); 0: no cap */
  perAddress: number
  /** proxies in front (gw serve --trusted-proxies): connections are then counted by the address X-Forwarded-For names, once a request has named it */
  trustedProxies: number
  /** how long a connection may take to finish TLS and send its first request's headers */
  firstRequestMs: number
}

/** Where a socket keeps its connection's record. */
const CONN = Symbol('gw.connection')

/** The connections a new one may close, in the order it closes them. */
type Sheddable = 'handshake' | 'idleAnonymous' | 'idleKnown'
const SHED_ORDER: readonly Sheddable[] = ['handshake', 'idleAnonymous', 'idleKnown']

/** Connections by what may be closed of them, oldest first (a Set keeps insertion order: a connection that goes idle again goes to the end). */
class Groups {
  count = 0
  readonly sets: Record<Sheddable, Set<Conn>> = {handshake: new Set(), idleAnonymous: new Set(), idleKnown: new Set()}
  /** the first connection to close, if any may be */
  victim(): Conn | undefined {
    for (const g of SHED_ORDER) for (const c of this.sets[g]) return c
    return undefined
  }
}

class Conn {
  state: ConnectionState = 'handshake'
  group: Sheddable | undefined = 'handshake'
  authenticated = false
  requested = false
  /** counted in the caps (until it closes, or is closed to make room) */
  counted = false
  inFlight = 0
  streams = 0
  /** its socket closed: counted out, its requests' and streams' later hooks change nothing */
  gone = false
  deadline: NodeJS.Timeout | undefined
  constructor(
    readonly socket: net.Socket,
    public address: string,
  ) {}
}

export class ConnectionBudget {
  /** open connections by their peer's address and port (the raw socket's and its TLS socket's alike) */
  private readonly open = new Map<string, Conn>()
  private readonly all = new Groups()
  private readonly byAddress = new Map<string, Groups>()
  private readonly counts: Record<ConnectionState, number> = {handshake: 0, active: 0, idle: 0, stream: 0}
  /** connections closed to let another in, and new ones refused (every other was busy) */
  shed = 0
  refused = 0

  constructor(readonly limits: ConnectionLimits) {}

  /** Connections by state now (gw_connections{state}). */
  byState(): Readonly<Record<ConnectionState, number>> {
    return this.counts
  }

  /**
   * A new connection: counted, given its deadline, and let in — by closing one that waits for
   * nothing where a cap is reached — or refused (closed at once: false) when none can be closed.
   */
  accept(socket: net.Socket): boolean {
    const key = keyOf(socket)
    if (key === undefined) {
      // (no peer: the connection is gone already)
      socket.destroy()
      return false
    }
    const address = addressKey(socket.remoteAddress ?? 'unknown')
    // behind trusted proxies the peer is a proxy: clients are counted once a request names them
    if (this.limits.perAddress > 0 && this.limits.trustedProxies === 0) {
      const mine = this.byAddress.get(address)
      if (mine && mine.count >= this.limits.perAddress && !this.makeRoom(mine)) return this.refuse(socket)
    }
    if (this.all.count >= this.limits.total && !this.makeRoom(this.all)) return this.refuse(socket)
    const c = new Conn(socket, address)
    this.open.set(key, c)
    this.join(c)
    this.counts.handshake++
    c.deadline = setTimeout(() => socket.destroy(), this.limits.firstRequestMs)
    socket.once('close', () => this.closed(key, c))
    return true
  }

  /** A request's headers arrived on a connection (`res`: its answer, which closes the connection after it when it is over its address's cap). */
  requestStarted(req: IncomingMessage, res?: ServerResponse): void {
    const c = this.connOf(req)
    if (!c) return
    if (!c.requested) {
      c.requested = true
      clearTimeout(c.deadline)
      c.deadline = undefined
    }
    if (this.limits.trustedProxies > 0) this.reattribute(c, clientAddress(req, this.limits.trustedProxies), res)
    c.inFlight++
    this.settle(c)
  }

  /** A request's answer is done with (finished or cut). */
  requestEnded(req: IncomingMessage): void {
    const c = this.connOf(req)
    if (!c || c.inFlight === 0) return
    c.inFlight--
    this.settle(c)
  }

  /** A request on the connection authenticated with a key: an idle connection of a known client is closed last. */
  authenticated(req: IncomingMessage): void {
    const c = this.connOf(req)
    if (c) c.authenticated = true
  }

  /** An event stream opened on the connection (and its request stays in flight while it lasts), or ended. */
  streaming(req: IncomingMessage, on: boolean): void {
    const c = this.connOf(req)
    if (!c) return
    c.streams = Math.max(0, c.streams + (on ? 1 : -1))
    this.settle(c)
  }

  /** The connection of a request: found by its peer's address and port once, then kept on its socket (a request's hooks cost no string) */
  private connOf(req: IncomingMessage): Conn | undefined {
    const socket = req.socket as net.Socket & {[CONN]?: Conn}
    let c = socket[CONN]
    if (c === undefined) {
      const key = keyOf(socket)
      c = key === undefined ? undefined : this.open.get(key)
      if (c) socket[CONN] = c
    }
    return c?.gone ? undefined : c
  }

  /** Closes the first connection of `groups` that may be closed; false when none may. */
  private makeRoom(groups: Groups): boolean {
    const victim = groups.victim()
    if (!victim) return false
    this.shed++
    // (counted out now: its 'close' comes later, and the new connection is counted at once)
    this.leave(victim)
    victim.socket.destroy()
    return true
  }

  private refuse(socket: net.Socket): false {
    this.refused++
    socket.destroy()
    return false
  }

  /** A proxied connection is counted by the client address its latest request names; beyond the cap the address's oldest waiting connection goes, or else this one closes after its answer. */
  private reattribute(c: Conn, address: string, res: ServerResponse | undefined): void {
    if (c.address === address || !c.counted) return
    this.leave(c)
    c.address = address
    const mine = this.byAddress.get(address)
    if (this.limits.perAddress > 0 && mine && mine.count >= this.limits.perAddress && !this.makeRoom(mine) && res) res.shouldKeepAlive = false
    this.join(c)
  }

  /** The state a connection's requests and streams put it in, and the group it may be closed from. */
  private settle(c: Conn): void {
    const state: ConnectionState = c.streams > 0 ? 'stream' : c.inFlight > 0 ? 'active' : c.requested ? 'idle' : 'handshake'
    const group: Sheddable | undefined = state === 'handshake' ? 'handshake' : state === 'idle' ? (c.authenticated ? 'idleKnown' : 'idleAnonymous') : undefined
    if (c.state !== state) {
      this.counts[c.state]--
      this.counts[state]++
      c.state = state
    }
    if (c.group === group) return
    // (idle again: to the end of its group, as the most recently used)
    this.ungroup(c)
    c.group = group
    this.group(c)
  }

  private join(c: Conn): void {
    c.counted = true
    this.all.count++
    let mine = this.byAddress.get(c.address)
    if (!mine) this.byAddress.set(c.address, (mine = new Groups()))
    mine.count++
    this.group(c)
  }

  private leave(c: Conn): void {
    if (!c.counted) return
    c.counted = false
    this.ungroup(c)
    this.all.count--
    const mine = this.byAddress.get(c.address)
    if (mine && --mine.count <= 0) this.byAddress.delete(c.address)
  }

  private group(c: Conn): void {
    if (!c.group || !c.counted) return
    this.all.sets[c.group].add(c)
    this.byAddress.get(c.address)?.sets[c.group].add(c)
  }

  private ungroup(c: Conn): void {
    if (!c.group) return
    this.all.sets[c.group].delete(c)
    this.byAddress.get(c.address)?.sets[c.group].delete(c)
  }

  private closed(key: string, c: Conn): void {
    c.gone = true
    clearTimeout(c.deadline)
    if (this.open.get(key) === c) this.open.delete(key)
    this.counts[c.state]--
    this.leave(c)
  }
}

/** A connection's key: its peer's address and port, the same on the raw socket and the TLS socket over it. */
function keyOf(socket: net.Socket): string | undefined {
  const {remoteAddress, remotePort} = socket
  return remoteAddress === undefined || remotePort === undefined ? undefined : `${remoteAddress}|${remotePort}`
}
