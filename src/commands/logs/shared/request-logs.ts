// The engine's API request log, live: GET /request_logs/stream (Server-Sent Events) with the
// same filters as GET /request_logs; reconnects with backoff and fills a gap from the list
// (GET /request_logs?ending_before=<last seen>), so a dropped connection loses no line.
import {createParser} from 'eventsource-parser'
import type {ListEnvelope, RequestLog} from '../../../api/types.js'
import {ApiError} from '../../../client/errors.js'
import type {GwClient} from '../../../client/index.js'
import {abortableSleep, describeFailure} from '../../events/shared/feed.js'

/** An entry as the API writes it (the document's RequestLog); an engine from before fleets leaves out instance and api_key. */
export type RequestLogEntry = Omit<RequestLog, 'instance' | 'api_key'> & Partial<Pick<RequestLog, 'instance' | 'api_key'>>

export interface RequestLogFilters {
  status?: string
  method?: string
  path?: string
}

const BACKOFF = [250, 1000, 2000, 5000]

export async function tailRequestLogs(opts: {
  client: GwClient
  filters: RequestLogFilters
  last?: number
  signal: AbortSignal
  onEntry: (e: RequestLogEntry) => void
  onStatus?: (s: {state: 'live'; resumed: boolean} | {state: 'disconnected'; reason: string; retryInMs: number}) => void
}): Promise<void> {
  const {client, filters, signal} = opts
  const seen = new Set<string>()
  let lastId: string | null = null
  const emit = (e: RequestLogEntry) => {
    if (seen.has(e.id)) return
    seen.add(e.id)
    if (seen.size > 10_000) seen.delete(seen.values().next().value!)
    lastId = e.id
    opts.onEntry(e)
  }
  if (opts.last) {
    const page = await client.get<ListEnvelope<RequestLogEntry>>('/request_logs', {...filters, limit: Math.min(100, opts.last)})
    for (const e of [...page.data].reverse()) emit(e)
  }
  let failures = 0
  let resumed = false
  while (!signal.aborted) {
    try {
      // a gap after a disconnect: what the list holds after the last line shown
      if (resumed && lastId) {
        const page = await client.get<ListEnvelope<RequestLogEntry>>('/request_logs', {...filters, ending_before: lastId, limit: 100}).catch((e) => {
          if (e instanceof ApiError && e.status === 400) return undefined // fell out of the bounded log
          throw e
        })
        for (const e of [...(page?.data ?? [])].reverse()) emit(e)
      }
      const decoder = new TextDecoder()
      const parser = createParser({
        onEvent: (m) => {
          if (!m.data) return
          try {
            emit(JSON.parse(m.data) as RequestLogEntry)
          } catch {
            // not JSON: skip
          }
        },
      })
      await client.openStream('/request_logs/stream', {
        query: {...filters},
        signal,
        onOpen: () => {
          opts.onStatus?.({state: 'live', resumed})
          failures = 0
        },
        onChunk: (chunk) => parser.feed(decoder.decode(chunk, {stream: true})),
      })
      if (signal.aborted) return
      throw new Error('the server closed the stream')
    } catch (e) {
      if (signal.aborted) return
      if (e instanceof ApiError && e.status < 500 && e.status !== 429) throw e
      const retryInMs = BACKOFF[Math.min(failures++, BACKOFF.length - 1)]!
      opts.onStatus?.({state: 'disconnected', reason: describeFailure(e).replace(/\.+$/, ''), retryInMs})
      resumed = true
      await abortableSleep(retryInMs, signal)
    }
  }
}
