// `gw listen`: events from the gateway's live feed, each POSTed to a local server signed like a
// real webhook delivery (./forwarder.ts), one target or one per enabled webhook endpoint; the
// position is kept per profile (./listen-state.ts) so a restart backfills what it missed.
import type {Context} from '../../../base/context.js'
import type {GwClient} from '../../../client/index.js'
import {keepOptimizing} from '../../../client/runtime.js'
import {UsageError} from '../../../errors.js'
import {endpointSecret} from '../../webhooks/shared/secrets.js'
import {describeFailure, EventFeed, type FeedStatus} from './feed.js'
import {typeFilter} from './flags.js'
import {Forwarder, parseForwardTo, parseHeaders, type DeliveryResult} from './forwarder.js'
import {listenSecret, readCursor, writeCursor} from './listen-state.js'

/** What `gw listen` takes (its flags). */
export interface ListenOptions {
  'forward-to'?: string
  events?: string[]
  headers?: string[]
  'skip-verify'?: boolean
  'print-secret'?: boolean
  'from-now'?: boolean
  'from-start'?: boolean
  secret?: string
  'load-from-webhooks-api'?: boolean
  concurrency?: number
}

/** The secret alone (--print-secret), or what was forwarded once listen stops. */
export type ListenResult = {secret: string} | {forwarded: number; failed: number}

export async function listen(ctx: Context, flags: ListenOptions): Promise<ListenResult> {
  const f = flags
  const profile = ctx.settings().profile.value
  if (f.secret !== undefined && !/^whsec_\S{8,}$/.test(f.secret)) throw new UsageError('--secret must look like whsec_ followed by at least 8 characters.', 'e.g. --secret whsec_test_harness_1')
  const {secret, created} = f.secret !== undefined ? {secret: f.secret, created: false} : listenSecret(ctx.configStore, profile)
  if (f['print-secret']) {
    if (!ctx.json) ctx.io.stdout.write(secret + '\n')
    return {secret}
  }
  if (!f['forward-to']) throw new UsageError('Missing --forward-to.', 'e.g. gw listen --forward-to localhost:3000/webhooks')
  const url = parseForwardTo(f['forward-to'])
  const headers = parseHeaders(f.headers)
  const types = typeFilter(f.events)
  // a long-running process: keep undici's parser optimizing (src/client/runtime.ts)
  keepOptimizing()
  const client = await ctx.client()
  const c = ctx.color
  const e = ctx.errColor
  const say = (line: string) => ctx.notice(line)
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`

  // where events go: one target, or (--load-from-webhooks-api) one per enabled endpoint, at
  // --forward-to's origin plus the endpoint's path, signed with the endpoint's own secret
  let targets: Target[] = [{url, secret, matches: () => true, label: url.toString()}]
  if (f['load-from-webhooks-api']) targets = await endpointTargets(ctx, client, url, secret, say)

  const ac = new AbortController()
  const stop = () => ac.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  ctx.io.stdout.on('error', stop) // a closed pipe

  // --from-start: as if the last run had seen an empty log, so everything after it is forwarded
  const saved = f['from-start'] ? {last_event_id: null} : f['from-now'] ? undefined : readCursor(profile)
  // the cursor is kept on disk at most every 200 ms (and at the end): a crash may forward the
  // last few events twice, never lose one (event.id deduplicates: docs/api.md#webhook-delivery)
  let pendingCursor: string | null | undefined
  let cursorTimer: NodeJS.Timeout | undefined
  const flushCursor = () => {
    if (cursorTimer) clearTimeout(cursorTimer)
    cursorTimer = undefined
    if (pendingCursor === undefined) return
    writeCursor(profile, {last_event_id: pendingCursor, base_url: client.baseUrl, updated_at: new Date().toISOString()})
    pendingCursor = undefined
  }
  const saveCursor = (id: string | null) => {
    pendingCursor = id
    cursorTimer ??= setTimeout(flushCursor, 200)
  }
  // an event is finished when every target it went to is done with it; the cursor moves over
  // the finished prefix only
  const tracker = new CursorTracker((id) => saveCursor(id))
  let forwarded = 0
  let failed = 0
  if (ctx.json) ctx.out.streamed = true

  // one clock, the gateway's, as gw events tail shows it (docs/decisions.md#the-gateways-clock): the forward's wall
  // time moved by the engine clock's offset (every answer says it), said once when it is ahead;
  // a date line where the day changes
  let lastDay: string | undefined
  let clockSaid = false
  const show = (r: DeliveryResult) => {
    if (ctx.json) return ctx.out.ndjson(r)
    const engine = client.engineTime()
    const offset = engine ? engine.getTime() - Date.now() : 0
    const at = new Date(Date.parse(r.at) + offset).toISOString()
    if (!clockSaid && Math.abs(offset) >= 60_000) say(e.dim(`Times are UTC on the gateway's clock (${gatewayAhead(offset)} this machine's), as gw events tail shows them.`))
    clockSaid = true
    const day = at.slice(0, 10)
    if (lastDay !== undefined && day !== lastDay) ctx.print(c.dim(`── ${day} ──`))
    lastDay = day
    const time = at.slice(11, 19)
    const outcome = r.status_code !== null ? (r.ok ? c.green(`[${r.status_code}]`) : c.red(`[${r.status_code}]`)) : c.red(`[${r.error}]`)
    const retry = r.ok ? '' : r.retry_in_ms !== null ? c.yellow(` retry ${r.attempt + 1} in ${(r.retry_in_ms / 1000).toFixed(r.retry_in_ms < 1000 ? 2 : 0)}s`) : c.red(' gave up')
    const back = r.backfilled ? c.yellow(' (backfilled)') : ''
    const why = r.error_message ? c.dim(` ${r.error_message}`) : ''
    const where = f['load-from-webhooks-api'] ? c.dim(` → ${new URL(r.url).pathname}`) : ''
    ctx.print(`${c.dim(time)}  ${r.type.padEnd(24)} ${r.event}  ${outcome} ${r.latency_ms}ms${why}${r.attempt > 1 ? c.dim(` attempt ${r.attempt}`) : ''}${retry}${back}${where}`)
  }

  const forwarders = targets.map(
    (t) =>
      new Forwarder({
        url: t.url,
        secret: t.secret,
        headers,
        skipVerify: f['skip-verify'],
        signal: ac.signal,
        concurrency: f.concurrency,
        userAgent: `gw-listen/${ctx.version}`,
        onResult: (r) => {
          if (r.ok) forwarded++
          else if (r.retry_in_ms === null) failed++
          show(r)
        },
        onDone: (id) => tracker.done(id),
        onDown: (reason, held) => say(e.red(`! ${t.url.host} is down (${reason}). Holding ${plural(held, 'event')}; each is listed below and sent the moment it answers.`)),
        onHeld: (fe, held, r) => {
          if (ctx.json) {
            if (r) ctx.out.ndjson(r)
            return
          }
          say(e.yellow(`  held ${fe.event.id} ${fe.event.type}${r ? ` (${r.error_message ?? r.error})` : ''}; ${plural(held, 'event')} held`))
        },
        onUp: (held) => say(e.green(`✓ ${t.url.host} is answering again; delivering ${plural(held, 'held event')} now, oldest first.`)),
      }),
  )

  let ready = false
  const onStatus = (st: FeedStatus) => {
    switch (st.state) {
      case 'live':
        if (!ready) {
          ready = true
          const resume = st.backfilled ? ` Backfilled ${plural(st.backfilled, 'event')} missed since the last run.` : ''
          const where = f['load-from-webhooks-api'] ? `${targets.length} ${targets.length === 1 ? 'endpoint' : 'endpoints'} at ${url.origin}` : e.bold(url.toString())
          say(`${e.green('Ready.')} Forwarding ${types ? e.bold(types) : 'all'} events to ${where}${st.mode === 'poll' ? ' (polling)' : ''}.${resume} Ctrl-C to stop.`)
          // a harness reading --json waits for this line before it makes events
          if (ctx.json) ctx.out.ndjson({object: 'listen_ready', forward_to: url.toString(), secret, mode: st.mode, backfilled: st.backfilled ?? 0})
        } else if (st.resumed) say(e.green(`✓ Reconnected${st.backfilled ? `; backfilled ${st.backfilled} missed ${st.backfilled === 1 ? 'event' : 'events'}` : ''}.`))
        break
      case 'disconnected':
        say(e.yellow(`! Disconnected from ${new URL(client.baseUrl).host}: ${st.reason}. Reconnecting in ${(st.retryInMs / 1000).toFixed(1)}s (attempt ${st.attempt}).`))
        break
      case 'notice':
        say(e.yellow(`! ${st.message}`))
        break
      default:
        break
    }
  }

  say(`${created ? "Created this profile's listen signing secret" : 'Listen signing secret'} (profile ${profile}): ${e.bold(secret)}`)
  say(e.dim(`Verify deliveries with it: verifySignature({payload: rawBody, header: req.headers['service-signature'], secret}).`))
  const feed = new EventFeed({
    client,
    types,
    cursor: saved?.last_event_id ?? null,
    fromEmptyLog: saved !== undefined && saved.last_event_id === null,
    signal: ac.signal,
    onEvent: (fe) => {
      const to = forwarders.filter((_, i) => targets[i]!.matches(fe.event.type))
      tracker.add(fe.event.id, to.length)
      for (const fw of to) fw.push(fe)
    },
    onStatus,
    // a first run starts from the newest event: keep that position at once, so a restart
    // before the first delivery still backfills everything after it
    onStart: (id) => {
      saveCursor(id)
      flushCursor()
    },
  })
  try {
    await feed.run()
  } catch (err) {
    say(e.red(`! Stopped: ${describeFailure(err)}`))
    throw err
  } finally {
    ac.abort()
    process.removeListener('SIGINT', stop)
    process.removeListener('SIGTERM', stop)
    ctx.io.stdout.removeListener('error', stop)
    await Promise.all(forwarders.map((fw) => fw.close()))
    flushCursor()
  }
  if (!ctx.json) say(e.dim(`Stopped. Forwarded ${forwarded}, gave up on ${failed}.`))
  return {forwarded, failed}
}

interface Target {
  url: URL
  secret: string
  matches: (type: string) => boolean
  label: string
}

/** `--load-from-webhooks-api`: one target per enabled endpoint, at --forward-to's origin plus the endpoint's path. */
async function endpointTargets(ctx: Context, client: GwClient, forwardTo: URL, listenSecret: string, say: (l: string) => void): Promise<Target[]> {
  const targets: Target[] = []
  const unsigned: string[] = []
  for await (const ep of client.webhookEndpoints.iterate({disabled: false, limit: 100})) {
    if (ep.disabled) continue
    const epUrl = new URL(ep.url)
    const url = new URL(`${epUrl.pathname}${epUrl.search}`, forwardTo.origin)
    const own = await endpointSecret(ctx, ep.id)
    if (!own) unsigned.push(ep.id)
    const patterns = ep.enabled_events
    targets.push({
      url,
      secret: own ?? listenSecret,
      label: `${ep.id} ${url}`,
      matches: (type) => patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1)))),
    })
    say(ctx.errColor.dim(`  ${ep.id} (${patterns.join(', ')}) → ${url}${own ? '' : ' (listen secret)'}`))
  }
  if (!targets.length) throw new UsageError('No enabled webhook endpoints to load.', 'Create one with `gw webhooks create --url https://shop.example/webhooks`, or drop --load-from-webhooks-api.')
  if (unsigned.length) {
    say(
      ctx.errColor.yellow(
        `! No secret kept for ${unsigned.join(', ')} (created elsewhere, or before gw kept secrets): ${unsigned.length === 1 ? 'its forwards are' : 'their forwards are'} signed with the listen secret instead. \`gw webhooks rotate-secret ID\` makes one gw keeps.`,
      ),
    )
  }
  return targets
}

/** Which events are finished on every target they went to; reports the newest id of the finished prefix. */
class CursorTracker {
  private order: {id: string; left: number}[] = []
  private byId = new Map<string, {id: string; left: number}>()
  constructor(private onCursor: (id: string) => void) {}

  add(id: string, targets: number): void {
    const entry = {id, left: targets}
    this.order.push(entry)
    this.byId.set(id, entry)
    if (targets === 0) this.advance()
  }

  done(id: string): void {
    const entry = this.byId.get(id)
    if (!entry) return
    entry.left--
    if (entry.left <= 0) this.advance()
  }

  private advance() {
    let last: string | undefined
    while (this.order.length && this.order[0]!.left <= 0) {
      last = this.order.shift()!.id
      this.byId.delete(last)
    }
    if (last) this.onCursor(last)
  }
}

/** "6d 18h ahead of" / "5m behind": the gateway clock against this machine's. */
function gatewayAhead(offsetMs: number): string {
  const abs = Math.abs(offsetMs) / 1000
  const d = Math.floor(abs / 86_400)
  const h = Math.floor((abs % 86_400) / 3600)
  const m = Math.floor((abs % 3600) / 60)
  const text = [d ? `${d}d` : '', h ? `${h}h` : '', !d && m ? `${m}m` : ''].filter(Boolean).join(' ') || '1m'
  return `${text} ${offsetMs > 0 ? 'ahead of' : 'behind'}`
}
