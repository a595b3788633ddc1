// `gw events tail`: the events of the account as they happen, from a live feed (SSE, else
// polling) that reconnects and backfills; a live Ink view on a terminal (./tail-view.tsx, loaded
// only then), NDJSON into a pipe.
import {bareSecondsNotice, parseDuration} from '../../../base/parse.js'
import type {Context} from '../../../base/context.js'
import {keepOptimizing} from '../../../client/runtime.js'
import {canRenderInk} from '../../../ui/gate.js'
import {engineNow} from '../../clock/shared/now.js'
import {describeFailure, EventFeed, type FeedEvent, type FeedStatus} from './feed.js'
import {typeFilter} from './flags.js'
import {loadHistory, type History} from './history.js'

/** One NDJSON line: the event as sent, plus "backfilled": true when it filled a gap. */
export function ndjsonLine(fe: FeedEvent): string {
  const compact = fe.raw.includes('\n') ? JSON.stringify(fe.event) : fe.raw
  if (!fe.backfilled) return compact
  return JSON.stringify({...fe.event, backfilled: true})
}

/** What `gw events tail` takes: the --events filter, and where to start (--since or --last). */
export interface TailOptions {
  events?: string[]
  since?: string
  last?: number
}

/** `gw events tail`: a live view on a terminal, NDJSON into a pipe; connection news on stderr. */
export async function eventsTail(ctx: Context, flags: TailOptions): Promise<void> {
  const types = typeFilter(flags.events)
  const client = await ctx.client()
  const ac = new AbortController()
  const stop = () => ac.abort()
  const host = new URL(client.baseUrl).host
  const tty = canRenderInk({json: ctx.json, stream: ctx.io.stdout})
  keepOptimizing()
  // one clock for every time shown: the gateway's (events carry created_at on it)
  const now = tty || flags.since !== undefined ? await engineNow(ctx, client) : new Date()
  const clockOffsetMs = now.getTime() - Date.now()
  let history: History | undefined
  if (flags.since !== undefined || flags.last !== undefined) {
    let sinceIso: string | undefined
    if (flags.since !== undefined) {
      const bare = bareSecondsNotice(flags.since, '--since')
      if (bare) ctx.notice(ctx.errColor.yellow(bare))
      sinceIso = new Date(now.getTime() - parseDuration(flags.since, '--since') * 1000).toISOString()
    }
    history = await loadHistory(client, {types, last: flags.last, sinceIso})
  }
  const cursor = history ? history.cursor : undefined

  // connection news on stderr
  const e = ctx.errColor
  let connectedOnce = false
  const onStatus = (s: FeedStatus) => {
    if (s.state === 'live') {
      if (!connectedOnce) ctx.notice(e.dim(`Tailing ${types ?? 'all events'} from ${host}${s.mode === 'poll' ? ' (polling)' : ''}. Ctrl-C to stop.`))
      else if (s.resumed) ctx.notice(e.green(`✓ Reconnected to ${host}${s.backfilled ? `; backfilled ${s.backfilled} ${s.backfilled === 1 ? 'event' : 'events'} (marked "backfilled": true)` : ''}.`))
      connectedOnce = true
    } else if (s.state === 'disconnected') ctx.notice(e.yellow(`! Disconnected from ${host}: ${s.reason}. Reconnecting in ${(s.retryInMs / 1000).toFixed(1)}s (attempt ${s.attempt}).`))
    else if (s.state === 'notice') ctx.notice(e.yellow(`! ${s.message}`))
  }
  if (tty) {
    const {TailModel} = await import('./tail-model.js')
    const model = new TailModel()
    model.clockOffsetMs = clockOffsetMs
    for (const ev of history?.events ?? []) model.add({event: ev, raw: JSON.stringify(ev), backfilled: false})
    const feed = new EventFeed({
      client,
      types,
      cursor,
      signal: ac.signal,
      onEvent: (fe) => model.add(fe),
      onStatus: (s) => {
        model.setStatus(s)
        // the view shows the connection; stderr gets it too when it goes elsewhere (2>file)
        if (!ctx.io.stderr.isTTY) onStatus(s)
      },
    })
    let fatal: unknown
    const running = feed.run().catch((err) => {
      fatal = err
      model.close()
    })
    const {mountTail} = await import('./tail-view.js')
    try {
      await mountTail(model, {title: `${types ?? 'all events'} · ${host} · times UTC, gateway clock`})
    } finally {
      ac.abort()
      await running
    }
    if (fatal) throw fatal
    return
  }

  // a pipe: NDJSON on stdout, connection news on stderr
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  ctx.io.stdout.on('error', stop) // the reader went away (| head)
  for (const ev of history?.events ?? []) ctx.out.ndjson(JSON.stringify(ev))
  if (history) ctx.notice(e.dim(`${history.events.length} earlier ${history.events.length === 1 ? 'event' : 'events'} ${flags.since !== undefined ? `of the last ${flags.since}` : `(--last ${flags.last})`}; now live.`))
  const feed = new EventFeed({client, types, cursor, signal: ac.signal, onEvent: (fe) => ctx.out.ndjson(ndjsonLine(fe)), onStatus})
  try {
    await feed.run()
  } catch (err) {
    ctx.notice(e.red(`! Stopped: ${describeFailure(err)}`))
    throw err
  } finally {
    process.removeListener('SIGINT', stop)
    process.removeListener('SIGTERM', stop)
    ctx.io.stdout.removeListener('error', stop)
  }
}
