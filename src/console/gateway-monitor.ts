// The Gateway view's live sources, outside React: the request-log stream (the client `gw logs
// tail` uses) into a sliding window, each instance's own /readyz (every 2 s, at its address as
// the log names it), the base URL's /readyz (which also tells the session the engine is there
// or gone) and its /metrics (the webhook backlog; every 5 s). Runs while the view shows it; the
// window and the last readings stay for when it comes back.
import {hostname} from 'node:os'
import {ApiError, NetworkError} from '../client/errors.js'
import {tailRequestLogs} from '../commands/logs/shared/request-logs.js'
import {backlogFromMetrics, instanceRows, probeOrigins, RequestWindow, type Backlog, type InstanceRow, type Probe} from './models/gateway.js'
import type {Part} from './models/attention.js'
import {BatchedEmitter, deniedPermission, errorText, type ConsoleSession} from './session.js'

export interface MonitorOptions {
  /** how often readiness is probed; default 2 s */
  probeMs?: number
  /** how often /metrics is read; default 5 s */
  metricsMs?: number
  /** an instance silent (and not probeable) this long shows as unknown; default 10 s */
  silentMs?: number
}

export class GatewayMonitor extends BatchedEmitter {
  readonly window: RequestWindow
  readonly probes = new Map<string, Probe>()
  base: Probe | undefined
  stream: {live: boolean; note?: string} = {live: false, note: 'connecting'}
  /** why the request log cannot be read (a 403 names its permission) */
  denied: {message: string; permission?: string} | undefined
  backlog: {value: Backlog; at: number; from: string} | {error: string} | undefined
  /** the instance the base URL's /metrics named (gw_instance_info) */
  self: string | undefined
  readonly silentMs: number
  private readonly probeMs: number
  private readonly metricsMs: number
  /** the origin that answered for each instance last time */
  private readonly reach = new Map<string, string>()
  private ac: AbortController | undefined
  private timers: NodeJS.Timeout[] = []

  constructor(
    private readonly session: ConsoleSession,
    opts: MonitorOptions = {},
  ) {
    super(100)
    this.window = new RequestWindow(session.now())
    this.probeMs = opts.probeMs ?? 2000
    this.metricsMs = opts.metricsMs ?? 5000
    this.silentMs = opts.silentMs ?? 10_000
  }

  /** The instances' rows now. */
  rows(): Part<InstanceRow[]> {
    if (this.denied) return {ok: false, ...this.denied}
    return {ok: true, value: instanceRows(this.window, this.probes, this.session.now(), this.silentMs)}
  }

  protected override onSubscribers(n: number): void {
    if (n > 0 && !this.ac) this.start()
    else if (n === 0 && this.ac) this.stop()
  }

  private start(): void {
    const ac = (this.ac = new AbortController())
    const {session} = this
    this.denied = undefined
    void tailRequestLogs({
      client: session.client,
      filters: {},
      signal: ac.signal,
      onEntry: (e) => {
        this.window.add(e, session.now())
        this.touch()
      },
      onStatus: (s) => {
        this.stream = s.state === 'live' ? {live: true} : {live: false, note: `reconnecting: ${s.reason}`}
        this.touch()
      },
    }).catch((e) => {
      if (ac.signal.aborted) return
      const permission = deniedPermission(e)
      this.denied = permission ? {message: `This key may not read the request log: it needs ${permission}.`, permission} : {message: errorText(e)}
      this.touch()
    })
    const every = (ms: number, fn: () => Promise<void>) => {
      void fn()
      const t = setInterval(() => void fn(), ms)
      t.unref?.()
      this.timers.push(t)
    }
    every(this.probeMs, () => this.probeAll())
    every(this.metricsMs, () => this.readMetrics())
  }

  private stop(): void {
    this.ac?.abort()
    this.ac = undefined
    for (const t of this.timers) clearInterval(t)
    this.timers = []
    this.dispose()
  }

  /** The base URL's /readyz (its answer, or none, is also the session's connection) and each instance's own. */
  async probeAll(): Promise<void> {
    const {session} = this
    const client = session.client
    const at = session.now()
    try {
      const r = await client.operations('/readyz')
      session.heard()
      this.base = r.status === 200 ? {state: 'ready', at} : {state: 'not_ready', at, reason: reasonOf(r.text, r.status)}
      // not ready (its store away): an outage the status line and this view say while it lasts
      if (r.status === 200) session.served()
      else session.unserved(`its /readyz: not ready (${reasonOf(r.text, r.status)})`, false)
    } catch (e) {
      this.base = {state: 'down', at, reason: errorText(e)}
      session.lost(errorText(e))
    }
    await Promise.all(this.window.instances().map((name) => this.probe(name)))
    this.touch()
  }

  /** One instance at its own address: ready, not ready, down (every address refused) or unreachable. */
  private async probe(name: string): Promise<void> {
    const at = this.session.now()
    const known = this.reach.get(name)
    const origins = probeOrigins(name, this.session.client.baseUrl, hostname())
    if (known) origins.sort((a, b) => (a === known ? -1 : b === known ? 1 : 0))
    if (origins.length === 0) {
      this.probes.set(name, {state: 'unreachable', at, reason: `"${name}" is not a host:port the console can probe`})
      return
    }
    let refused = 0
    let first = ''
    for (const origin of origins) {
      try {
        const r = await this.session.client.operations('/readyz', {origin, timeoutMs: Math.min(1500, this.probeMs)})
        this.reach.set(name, origin)
        this.probes.set(name, r.status === 200 ? {state: 'ready', at} : {state: 'not_ready', at, reason: `its /readyz: ${reasonOf(r.text, r.status)}`})
        return
      } catch (e) {
        if (e instanceof NetworkError && e.code === 'ECONNREFUSED') refused++
        first ||= errorText(e)
      }
    }
    // an address that answered before and now refuses: the instance is gone
    const down = refused === origins.length || (known !== undefined && refused > 0)
    this.probes.set(name, down ? {state: 'down', at, reason: `nothing listens at ${known ?? origins[0]}`} : {state: 'unreachable', at, reason: first})
  }

  /** The webhook backlog from /metrics (the base URL's; else an instance's that reports the fleet's gauges). */
  async readMetrics(): Promise<void> {
    const {session} = this
    const account = session.account?.id
    const at = session.now()
    if (!account) {
      // the metrics name every account: without knowing its own, the console shows none
      this.backlog = {error: 'the account of this key could not be read, so its backlog cannot be picked out of /metrics'}
      return this.touch()
    }
    try {
      const r = await session.client.operations('/metrics')
      if (r.status === 404) {
        this.backlog = {error: 'the base URL does not serve /metrics (gw serve --metrics-listen serves it on an address of its own): the backlog is not readable here'}
      } else if (r.status !== 200) {
        this.backlog = {error: `/metrics answered ${r.status}: ${r.text.split('\n')[0]}`}
      } else {
        this.self = /^gw_instance_info\{instance_id="([^"]*)"\} 1$/m.exec(r.text)?.[1]
        const host = new URL(session.client.baseUrl).host
        let value = backlogFromMetrics(r.text, account)
        let from = host
        // a fleet: the fleet's gauges come from one instance at a time; ask the others the console reaches
        for (const [name, origin] of this.reach) {
          if (value.reported) break
          if (name === this.self) continue
          try {
            const o = await session.client.operations('/metrics', {origin, timeoutMs: 1500})
            if (o.status === 200) {
              const v = backlogFromMetrics(o.text, account)
              if (v.reported) {
                value = v
                from = name
              }
            }
          } catch {
            // that one is not reachable now: the next
          }
        }
        this.backlog = {value, at, from}
      }
    } catch (e) {
      // the engine is away: the last reading stays, with its age
      if (!(e instanceof NetworkError) && !(e instanceof ApiError)) this.backlog = {error: errorText(e)}
    }
    this.touch()
  }
}

/** A /readyz answer's reason in words. */
function reasonOf(text: string, status: number): string {
  try {
    const body = JSON.parse(text) as {reason?: string; status?: string}
    return body.reason ?? body.status ?? `HTTP ${status}`
  } catch {
    return `HTTP ${status}`
  }
}
