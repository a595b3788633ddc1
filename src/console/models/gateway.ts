// The Gateway view apart from Ink: a sliding window over the request log (each instance's
// requests/s, p50/p99 latency and 5xx over the last minute, and when it was last seen), what an
// instance's state is from that and its readiness probe, the webhook backlog read from the
// Prometheus text, and the view's lines. Times are wall ms as the console received them.
import type {ChaosRule, Provider} from '../../api/types.js'
import {describeRule} from '../../commands/chaos/shared/display.js'
import type {Tone} from '../theme.js'
import type {Part} from './attention.js'

/** What the window needs of a request-log entry. */
export interface SeenRequest {
  instance?: string
  status: number
  latency_ms: number
}

export interface InstanceFigures {
  instance: string
  /** requests in the window */
  requests: number
  /** requests per second over the window (or over the time watched, when shorter) */
  rps: number
  p50: number | undefined
  p99: number | undefined
  errors5xx: number
  /** wall ms the last entry of this instance arrived */
  lastSeen: number
  /** wall ms the figures are as of: now, or the last sighting of an instance that is down */
  asOf: number
}

/** The value at quantile q of sorted numbers (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number | undefined {
  if (sorted.length === 0) return undefined
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}

/**
 * The last `windowMs` of requests per instance. Entries are kept in arrival order per instance;
 * those older than a window before its newest are dropped as more arrive. `since` is when watching began: before a whole
 * window has passed, the rate is over the time watched.
 */
export class RequestWindow {
  private readonly per = new Map<string, {at: number[]; latency: number[]; status: number[]; lastSeen: number}>()
  constructor(
    readonly since: number,
    readonly windowMs = 60_000,
    /** at most this many entries per instance are kept (the oldest go first): 1,000/s for a minute */
    private readonly cap = 60_000,
  ) {}

  add(e: SeenRequest, at: number): void {
    const name = e.instance ?? '(unnamed instance)'
    let s = this.per.get(name)
    if (!s) this.per.set(name, (s = {at: [], latency: [], status: [], lastSeen: at}))
    s.at.push(at)
    s.latency.push(e.latency_ms)
    s.status.push(e.status)
    s.lastSeen = Math.max(s.lastSeen, at)
    // what is older than a window before this instance's newest entry is of no use any more
    // (kept until then: the figures of an instance gone silent stay those of its last minute)
    let old = 0
    while (old < s.at.length && s.at[old]! <= s.lastSeen - this.windowMs) old++
    if (old > 1024 || s.at.length > this.cap) {
      const drop = Math.max(old, s.at.length - this.cap)
      s.at.splice(0, drop)
      s.latency.splice(0, drop)
      s.status.splice(0, drop)
    }
  }

  instances(): string[] {
    return [...this.per.keys()].sort()
  }

  /** One instance's figures over the window ending at `asOf` (now, or when it was last seen). */
  figures(instance: string, now: number, frozen = false): InstanceFigures | undefined {
    const s = this.per.get(instance)
    if (!s) return undefined
    const asOf = frozen ? s.lastSeen : now
    const from = asOf - this.windowMs
    const lat: number[] = []
    let errors5xx = 0
    for (let i = 0; i < s.at.length; i++) {
      const t = s.at[i]!
      if (t <= from || t > asOf) continue
      lat.push(s.latency[i]!)
      if (s.status[i]! >= 500) errors5xx++
    }
    lat.sort((a, b) => a - b)
    const spanMs = Math.max(1000, Math.min(this.windowMs, asOf - this.since))
    return {instance, requests: lat.length, rps: lat.length / (spanMs / 1000), p50: quantile(lat, 0.5), p99: quantile(lat, 0.99), errors5xx, lastSeen: s.lastSeen, asOf}
  }
}

/** What the readiness probe of an instance (its own /readyz) said. */
export type Probe =
  | {state: 'ready'; at: number}
  | {state: 'not_ready'; at: number; reason: string}
  /** nothing answers at its address: it is down */
  | {state: 'down'; at: number; reason: string}
  /** the console cannot reach it (a name it cannot resolve, a certificate not for that name, a private network) */
  | {state: 'unreachable'; at: number; reason: string}

/**
 * Where to probe an instance named `host:port` (the request log's instance): there itself, and
 * when the name is this machine's own host name, on the base URL's loopback host first (an
 * engine on this machine listens on 127.0.0.1 by default, and its certificate names localhost
 * and 127.0.0.1, not the machine's name).
 */
export function probeOrigins(instance: string, baseUrl: string, localHostname: string): string[] {
  const m = /^(.+):(\d+)$/.exec(instance)
  if (!m) return []
  const [, host, port] = m
  const base = new URL(baseUrl)
  const origins = [`${base.protocol}//${host}:${port}`]
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname)
  if (loopback && (host!.toLowerCase() === localHostname.toLowerCase() || host === 'localhost' || host === '127.0.0.1')) origins.unshift(`${base.protocol}//${base.hostname}:${port}`)
  return [...new Set(origins)]
}

export interface InstanceRow {
  figures: InstanceFigures
  probe: Probe | undefined
  /** up: ready or seen within the threshold; down: refused (or silent and not ready); unknown: silent and not probeable */
  status: 'up' | 'not ready' | 'down' | 'unknown'
}

/**
 * An instance's state: its readiness probe where the console can reach it; else the request
 * log alone — seen within `silentMs` is up, silent longer is unknown (idle or gone: the log
 * cannot tell). A down or unknown instance's figures are those of its last minute seen.
 */
export function instanceRows(w: RequestWindow, probes: ReadonlyMap<string, Probe>, now: number, silentMs: number): InstanceRow[] {
  return w.instances().map((name) => {
    const probe = probes.get(name)
    const seen = w.figures(name, now)!
    const silent = now - seen.lastSeen > silentMs
    let status: InstanceRow['status']
    if (probe?.state === 'ready') status = 'up'
    else if (probe?.state === 'not_ready') status = 'not ready'
    else if (probe?.state === 'down') status = 'down'
    else status = silent ? 'unknown' : 'up'
    const frozen = status === 'down' || status === 'unknown'
    return {figures: frozen ? w.figures(name, now, true)! : seen, probe, status}
  })
}

/** The webhook backlog in a /metrics text: this account's deliveries waiting, per endpoint, and the oldest due. */
export type Backlog =
  | {reported: true; pending: number; endpoints: number; oldestDueSeconds: number}
  /** this instance does not report the fleet's gauges (another one of the fleet does), or is too old to */
  | {reported: false}

export function backlogFromMetrics(text: string, account: string): Backlog {
  if (!/^# TYPE gw_webhook_backlog gauge$/m.test(text)) return {reported: false}
  let pending = 0
  let endpoints = 0
  let oldest = 0
  for (const line of text.split('\n')) {
    const m = /^(gw_webhook_backlog|gw_webhook_backlog_oldest_due_seconds)\{([^}]*)\} ([0-9.eE+-]+)$/.exec(line)
    if (!m) continue
    const acct = /account="([^"]*)"/.exec(m[2]!)?.[1]
    if (acct !== account) continue
    const v = Number(m[3])
    if (m[1] === 'gw_webhook_backlog') {
      pending += v
      if (v > 0) endpoints++
    } else oldest = Math.max(oldest, v)
  }
  return {reported: true, pending, endpoints, oldestDueSeconds: oldest}
}

export interface GatewayLine {
  text: string
  tone?: Tone
  heading?: boolean
}

export interface GatewayData {
  now: number
  /** wall ms watching began */
  since: number
  host: string
  /** the base URL's own /readyz */
  base: Probe | undefined
  instances: Part<InstanceRow[]>
  /** the stream's state: live, or why not */
  stream: {live: boolean; note?: string}
  providers: Part<Provider[]> | undefined
  backlog: {value: Backlog; at: number; from: string} | {error: string} | undefined
  chaos: Part<ChaosRule[]> | undefined
  /** the instance the base URL answered from, when the console knows (its requests in the log) */
  self?: string
  /** the engine answers but cannot serve (session.ts Outage) */
  outage?: {since: number; reason: string; seen: readonly number[]}
}

const ms = (v: number | undefined) => (v === undefined ? '-' : `${v}ms`)
const ago = (atMs: number, now: number) => {
  const s = Math.max(0, Math.round((now - atMs) / 1000))
  return s < 2 ? 'just now' : s < 60 ? `${s}s ago` : s < 3600 ? `${Math.floor(s / 60)}m ${s % 60}s ago` : `${Math.floor(s / 3600)}h ago`
}
const probeText = (p: Probe | undefined) => (p === undefined ? 'probing…' : p.state === 'ready' ? 'ready' : p.state === 'not_ready' ? `not ready` : p.state === 'down' ? 'refused' : 'no probe')

/** The view's lines, in order: instances, readiness, providers, backlog, chaos. */
export function gatewayLines(d: GatewayData): GatewayLine[] {
  const lines: GatewayLine[] = []
  // an outage first, while it lasts: the request log is kept in the store that is away, so the
  // instances' 5xx below cannot count what fails meanwhile; what this console got is counted here
  if (d.outage) {
    const seen = d.outage.seen.filter((t) => d.now - t < 60_000).length
    lines.push({text: `Outage since ${ago(d.outage.since, d.now)}: ${d.outage.reason}`, tone: 'bad'})
    lines.push({text: `  ${seen} 5xx to this console in the last minute; the request log (in the same store) records none until it is back`, tone: 'bad'})
  }
  const watched = Math.round((d.now - d.since) / 1000)
  const over = watched >= 60 ? 'the last minute' : `the last ${Math.max(1, watched)}s (watching since then)`
  const base = d.base
  lines.push({
    text: `Base URL ${d.host}: /readyz ${base === undefined ? 'probing…' : base.state === 'ready' ? 'ready' : base.state === 'not_ready' ? `not ready (${base.reason})` : `no answer (${base.reason})`}`,
    tone: base === undefined ? 'muted' : base.state === 'ready' ? 'ok' : 'bad',
  })
  if (!d.instances.ok) {
    lines.push({text: 'Instances', heading: true}, {text: d.instances.permission ? `  needs ${d.instances.permission} (this key may not read the request log)` : `  the request log could not be read: ${d.instances.message}`, tone: 'warn'})
  } else {
    const rows = d.instances.value
    lines.push({text: `Instances (${rows.length}) over ${over}${d.stream.live ? '' : ` · stream ${d.stream.note ?? 'reconnecting'}`}`, heading: true})
    lines.push({text: `  ${'INSTANCE'.padEnd(20)} ${'STATE'.padEnd(9)} ${'READY'.padEnd(9)} ${'REQ/S'.padStart(6)} ${'P50'.padStart(6)} ${'P99'.padStart(6)} ${'5XX'.padStart(4)}  LAST SEEN`, tone: 'muted'})
    if (rows.length === 0) lines.push({text: '  none seen yet: an instance shows once it answers a request', tone: 'muted'})
    for (const r of rows) {
      const f = r.figures
      const name = `${f.instance}${d.self === f.instance ? ' *' : ''}`
      lines.push({
        text: `  ${name.padEnd(20)} ${r.status.padEnd(9)} ${probeText(r.probe).padEnd(9)} ${f.rps.toFixed(1).padStart(6)} ${ms(f.p50).padStart(6)} ${ms(f.p99).padStart(6)} ${String(f.errors5xx).padStart(4)}  ${ago(f.lastSeen, d.now)}`,
        tone: r.status === 'up' ? (f.errors5xx > 0 ? 'warn' : undefined) : r.status === 'unknown' ? 'warn' : 'bad',
      })
      // a down or silent instance: its figures are those of its last minute seen, and how old they are
      const aged = f.asOf < d.now ? `figures as of ${ago(f.asOf, d.now)}, when last seen` : ''
      const why = r.probe && r.probe.state !== 'ready' ? `${r.probe.state === 'unreachable' ? 'readiness unknown: ' : ''}${r.probe.reason}` : ''
      if (aged || why) lines.push({text: `    ${[aged, why].filter(Boolean).join(' · ')}`, tone: 'muted'})
    }
    if (d.self) lines.push({text: '  * answers the console (its requests are in the log too)', tone: 'muted'})
  }
  if (d.providers) {
    if (!d.providers.ok) lines.push({text: 'Providers', heading: true}, {text: d.providers.permission ? `  needs ${d.providers.permission} (this key may not read it)` : `  could not be read: ${d.providers.message}`, tone: 'warn'})
    else {
      lines.push({text: `Providers (${d.providers.value.length}): health, authorization rate over 7 days`, heading: true})
      for (const p of d.providers.value) {
        const rate = p.auth_rate_7d === null ? '-' : `${Math.round(p.auth_rate_7d * 100)}%`
        lines.push({text: `  ${p.id.padEnd(22)} ${p.status.padEnd(9)} auth ${rate.padStart(4)} of ${p.attempts_7d} · p50 ${p.latency_ms.p50}ms p99 ${p.latency_ms.p99}ms`, tone: p.status === 'active' ? undefined : p.status === 'disabled' ? 'bad' : 'warn'})
      }
    }
  }
  lines.push({text: 'Webhook backlog (this account)', heading: true})
  const b = d.backlog
  if (b === undefined) lines.push({text: '  reading /metrics…', tone: 'muted'})
  else if ('error' in b) lines.push({text: `  ${b.error}`, tone: 'warn'})
  else if (!b.value.reported) lines.push({text: `  not in ${b.from}'s metrics: one instance of a fleet reports it, and none the console reached does`, tone: 'warn'})
  else
    lines.push({
      text: b.value.pending === 0 ? `  nothing waiting · from ${b.from}/metrics, ${ago(b.at, d.now)}` : `  ${b.value.pending} deliveries waiting on ${b.value.endpoints} endpoint${b.value.endpoints === 1 ? '' : 's'}, oldest due ${Math.round(b.value.oldestDueSeconds)}s · ${ago(b.at, d.now)}`,
      tone: b.value.pending === 0 ? 'muted' : b.value.oldestDueSeconds > 60 ? 'bad' : 'warn',
    })
  if (d.chaos) {
    if (!d.chaos.ok) lines.push({text: 'Chaos rules', heading: true}, {text: d.chaos.permission ? `  needs ${d.chaos.permission} (this key may not read them)` : `  could not be read: ${d.chaos.message}`, tone: 'warn'})
    else {
      lines.push({text: `Chaos rules active (${d.chaos.value.length})`, heading: true})
      if (d.chaos.value.length === 0) lines.push({text: '  none: no failure is being rehearsed', tone: 'muted'})
      for (const r of d.chaos.value) lines.push({text: `  ${describeRule(r)}`, tone: 'warn'})
    }
  }
  return lines
}
