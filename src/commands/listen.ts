import {Flags} from '@oclif/core'
import {describeFailure, EventFeed, type FeedStatus} from '../events/feed.js'
import {eventsFilterFlag, typeFilter} from '../events/flags.js'
import {Forwarder, parseForwardTo, parseHeaders, type DeliveryResult} from '../events/forwarder.js'
import {listenSecret, readCursor, writeCursor} from '../events/listen-state.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../base/command.js'
import {UsageError} from '../errors.js'

export default class Listen extends GwCommand<typeof Listen> {
  static override summary = 'Forward events to a local server, signed like real webhooks.'
  static override description = `Streams events from the gateway and POSTs each event's exact JSON to --forward-to with a Service-Signature header made with this profile's listen secret (whsec_..., created once and kept in the profile; shown at start, or with --print-secret). Your server verifies it exactly as it would a real delivery.
Failed forwards are retried with backoff; while your server is down the events are held and retried until it is back. The last forwarded event is kept per profile, so after a disconnect, a sleep or a restart, listen backfills what it missed (marked "backfilled") and no event is lost. Ctrl-C stops it.`

  static override examples = [
    '<%= config.bin %> <%= command.id %> --forward-to localhost:3000/webhooks',
    {description: 'Only payment events, with an extra header', command: "<%= config.bin %> <%= command.id %> --forward-to localhost:3000/webhooks --events 'payment.*' --headers 'X-Env: dev'"},
    {description: 'A local HTTPS server with a self-signed certificate', command: '<%= config.bin %> <%= command.id %> --forward-to https://localhost:8443/hook --skip-verify'},
    {description: 'The secret for your server, without listening', command: 'export WHSEC=$(<%= config.bin %> <%= command.id %> --print-secret)'},
    {description: 'Delivery results as NDJSON', command: '<%= config.bin %> <%= command.id %> --forward-to localhost:3000/webhooks --json | jq -c "{event, status_code, latency_ms}"'},
  ]

  static override flags = {
    'forward-to': Flags.string({char: 'f', description: 'Where to POST events: localhost:3000/path, http://... or https://... (no scheme: http for localhost).'}),
    events: eventsFilterFlag,
    headers: Flags.string({char: 'H', description: 'Extra request header "Key: Value"; repeat or separate with commas.', multiple: true}),
    'skip-verify': Flags.boolean({description: "Don't verify the certificate of an https:// --forward-to (a self-signed local server)."}),
    'print-secret': Flags.boolean({description: 'Print the listen signing secret and exit.'}),
    'from-now': Flags.boolean({description: 'Forget the saved position: skip events created while listen was not running.'}),
  }

  async run(): Promise<{secret: string} | {forwarded: number; failed: number}> {
    return listen(this.ctx, this.flags, this.args)
  }
}

export async function listen(ctx: Context, flags: GwFlags<typeof Listen>, args: GwArgs<typeof Listen>): Promise<{secret: string} | {forwarded: number; failed: number}> {
  const f = flags
  const profile = ctx.settings().profile.value
  const {secret, created} = listenSecret(ctx.configStore, profile)
  if (f['print-secret']) {
    if (!ctx.json) ctx.io.stdout.write(secret + '\n')
    return {secret}
  }
  if (!f['forward-to']) throw new UsageError('Missing --forward-to.', 'e.g. gw listen --forward-to localhost:3000/webhooks')
  const url = parseForwardTo(f['forward-to'])
  const headers = parseHeaders(f.headers)
  const types = typeFilter(f.events)
  const client = await ctx.client()
  const c = ctx.color
  const e = ctx.errColor
  const say = (line: string) => ctx.notice(line)

  const ac = new AbortController()
  const stop = () => ac.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  ctx.io.stdout.on('error', stop) // a closed pipe

  const saved = f['from-now'] ? undefined : readCursor(profile)
  const saveCursor = (id: string | null) => writeCursor(profile, {last_event_id: id, base_url: client.baseUrl, updated_at: new Date().toISOString()})
  let forwarded = 0
  let failed = 0

  const show = (r: DeliveryResult) => {
    if (ctx.json) {
      ctx.out.ndjson(r)
      return
    }
    const time = new Date(r.at).toLocaleTimeString('en-GB', {hour12: false})
    const outcome =
      r.status_code !== null
        ? r.ok
          ? c.green(`[${r.status_code}]`)
          : c.red(`[${r.status_code}]`)
        : c.red(`[${r.error}]`)
    const retry = r.ok ? '' : r.retry_in_ms !== null ? c.yellow(` retry ${r.attempt + 1} in ${(r.retry_in_ms / 1000).toFixed(0)}s`) : c.red(' gave up')
    const back = r.backfilled ? c.yellow(' (backfilled)') : ''
    const why = r.error_message ? c.dim(` ${r.error_message}`) : ''
    ctx.print(`${c.dim(time)}  ${r.type.padEnd(24)} ${r.event}  ${outcome} ${r.latency_ms}ms${why}${r.attempt > 1 ? c.dim(` attempt ${r.attempt}`) : ''}${retry}${back}`)
  }

  const forwarder = new Forwarder({
    url,
    secret,
    headers,
    skipVerify: f['skip-verify'],
    signal: ac.signal,
    userAgent: `gw-listen/${ctx.version ?? '0'}`,
    onResult: (r) => {
      if (r.ok) forwarded++
      else if (r.retry_in_ms === null) failed++
      show(r)
    },
    onDown: (reason, held) =>
      say(e.red(`! ${url.host} is down (${reason}). Holding ${held} ${held === 1 ? 'event' : 'events'} and retrying until it answers; start your server and they will be delivered.`)),
    onUp: (held) => say(e.green(`✓ ${url.host} is answering again${held > 1 ? `; delivering ${held - 1} held ${held - 1 === 1 ? 'event' : 'events'}` : ''}.`)),
    onCursor: saveCursor,
  })

  let ready = false
  const onStatus = (s: FeedStatus) => {
    switch (s.state) {
      case 'live':
        if (!ready) {
          ready = true
          const resume = s.backfilled ? ` Backfilled ${s.backfilled} ${s.backfilled === 1 ? 'event' : 'events'} missed since the last run.` : ''
          say(`${e.green('Ready.')} Forwarding ${types ? e.bold(types) : 'all'} events to ${e.bold(url.toString())}${s.mode === 'poll' ? ' (polling)' : ''}.${resume} Ctrl-C to stop.`)
        } else if (s.resumed) say(e.green(`✓ Reconnected${s.backfilled ? `; backfilled ${s.backfilled} missed ${s.backfilled === 1 ? 'event' : 'events'}` : ''}.`))
        break
      case 'disconnected':
        say(e.yellow(`! Disconnected from ${new URL(client.baseUrl).host}: ${s.reason}. Reconnecting in ${(s.retryInMs / 1000).toFixed(1)}s (attempt ${s.attempt}).`))
        break
      case 'notice':
        say(e.yellow(`! ${s.message}`))
        break
      default:
        break
    }
  }

  say(`${created ? 'Created this profile\'s listen signing secret' : 'Listen signing secret'} (profile ${profile}): ${e.bold(secret)}`)
  say(e.dim(`Verify deliveries with it: verifySignature({payload: rawBody, header: req.headers['service-signature'], secret}).`))
  const feed = new EventFeed({
    client,
    types,
    cursor: saved?.last_event_id ?? null,
    fromEmptyLog: saved !== undefined && saved.last_event_id === null,
    signal: ac.signal,
    onEvent: (fe) => forwarder.push(fe),
    onStatus,
    // a first run starts from the newest event: keep that position at once, so a restart
    // before the first delivery still backfills everything after it
    onStart: (id) => saveCursor(id),
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
    await forwarder.close()
  }
  if (!ctx.json) say(e.dim(`Stopped. Forwarded ${forwarded}, gave up on ${failed}.`))
  return {forwarded, failed}
}
