import {Flags} from '@oclif/core'
import {GwCommand, type Context} from '../../base/command.js'
import {keepOptimizing} from '../../client/runtime.js'
import {UsageError} from '../../errors.js'
import {tailRequestLogs, type RequestLogEntry, type RequestLogFilters} from './shared/request-logs.js'
import type {Painter} from '../../output/color.js'

export default class LogsTail extends GwCommand<typeof LogsTail> {
  static override summary = "Stream the gateway's API request log live: method, path, status, request id, latency, idempotent replays."
  static override operations = ['listRequestLogs', 'streamRequestLogs'] as const
  static override description = `Every API request the engine answers (except these log requests themselves) as it happens, newest last. Filter by status (404, 4xx, or a list 4xx,5xx), method and path prefix. On a terminal one line per request; in a pipe or with --json one JSON object per line (NDJSON). After a dropped connection it reconnects and fills the gap from the log. The engine keeps the last 1,000 requests of each account (GET /v1/request_logs); instances sharing a PostgreSQL store keep one log for the fleet, each entry naming the instance that answered and the key that asked.`

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Failed POSTs to payments', command: '<%= config.bin %> <%= command.id %> --status 4xx --method POST --path /payments'},
    {description: 'Start with the last 20 requests', command: '<%= config.bin %> <%= command.id %> --last 20'},
    {description: 'Server errors only, into jq', command: "<%= config.bin %> <%= command.id %> --status 5xx | jq -r '.id'"},
  ]

  static override flags = {
    status: Flags.string({description: 'Only these statuses: 404, 4xx, or a comma list like 4xx,5xx.'}),
    method: Flags.string({description: 'Only this method: GET, POST or DELETE (comma list allowed).'}),
    path: Flags.string({description: 'Only paths starting with this, e.g. /payments (the /v1 prefix is optional).'}),
    last: Flags.integer({description: 'Start with the last N requests (1 to 100).', min: 1, max: 100}),
  }

  async run(): Promise<void> {
    return logsTail(this.ctx, {...this.flags, ...this.args})
  }
}

/** Checks the filters before anything is sent: each names its flag and the fix. */
export function requestLogFilters(f: {status?: string; method?: string; path?: string}): RequestLogFilters {
  const out: RequestLogFilters = {}
  if (f.status !== undefined) {
    const parts = f.status.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)
    const bad = parts.find((p) => !/^[1-5](xx|\d\d)$/.test(p))
    if (!parts.length || bad !== undefined) throw new UsageError(`--status "${bad ?? f.status}" is not an HTTP status or class.`, 'e.g. --status 404, --status 4xx or --status 4xx,5xx')
    out.status = parts.join(',')
  }
  if (f.method !== undefined) {
    const parts = f.method.split(',').map((s) => s.trim().toUpperCase()).filter(Boolean)
    const bad = parts.find((p) => !['GET', 'POST', 'DELETE'].includes(p))
    if (!parts.length || bad !== undefined) throw new UsageError(`--method "${bad ?? f.method}" is not GET, POST or DELETE.`, 'e.g. --method POST')
    out.method = parts.join(',')
  }
  if (f.path !== undefined) {
    const p = f.path.trim()
    if (!p.startsWith('/')) throw new UsageError(`--path "${f.path}" must start with /.`, `e.g. --path /${p.replace(/^\/*/, '')}`)
    out.path = p
  }
  return out
}

export function requestLogLine(e: RequestLogEntry, c: Painter): string {
  const status = e.status >= 500 ? c.red(String(e.status)) : e.status >= 400 ? c.yellow(String(e.status)) : c.green(String(e.status))
  const replay = e.idempotent_replayed ? c.cyan('  (idempotent replay)') : ''
  // an injected fault reads as one: a rehearsal, not an outage
  const chaos = e.chaos ? c.magenta(`  [chaos: ${e.chaos.split(' ').slice(1).join(' ')} by ${e.chaos.split(' ')[0]}]`) : ''
  // which instance of a fleet answered, and with which key
  const where = e.instance ? c.dim(`  ${e.instance}${e.api_key ? ` ${e.api_key}` : ''}`) : ''
  return `${c.dim(e.created_at.slice(11, 19))}  ${e.method.padEnd(6)} ${status}  ${e.path.padEnd(40)} ${c.dim(e.id)}  ${String(e.latency_ms).padStart(4)}ms${replay}${chaos}${where}`
}

/** What `gw logs tail` takes: its flags and arguments by name (run() passes them as parsed). */
export interface LogsTailOptions {
  status?: string
  method?: string
  path?: string
  last?: number
}

export async function logsTail(ctx: Context, o: LogsTailOptions): Promise<void> {
  const filters = requestLogFilters(o)
  keepOptimizing()
  const client = await ctx.client()
  const host = new URL(client.baseUrl).host
  const ndjson = ctx.json || !ctx.io.stdout.isTTY
  if (ndjson) ctx.out.streamed = true
  const ac = new AbortController()
  const stop = () => ac.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  ctx.io.stdout.on('error', stop)
  const e = ctx.errColor
  const described = Object.entries(filters).map(([k, v]) => `${k} ${v}`).join(', ')
  let connected = false
  try {
    await tailRequestLogs({
      client,
      filters,
      last: o.last,
      signal: ac.signal,
      onEntry: (entry) => (ndjson ? ctx.out.ndjson(entry) : ctx.print(requestLogLine(entry, ctx.color))),
      onStatus: (s) => {
        if (s.state === 'live') {
          if (!connected) ctx.notice(e.dim(`Tailing API requests${described ? ` (${described})` : ''} on ${host}; times UTC, gateway clock. Ctrl-C to stop.`))
          else if (s.resumed) ctx.notice(e.green(`✓ Reconnected to ${host}.`))
          connected = true
        } else ctx.notice(e.yellow(`! Disconnected from ${host}: ${s.reason}. Reconnecting in ${(s.retryInMs / 1000).toFixed(1)}s.`))
      },
    })
  } finally {
    process.removeListener('SIGINT', stop)
    process.removeListener('SIGTERM', stop)
    ctx.io.stdout.removeListener('error', stop)
  }
}
