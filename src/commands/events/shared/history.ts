// `gw events tail --since 10m` / `--last 50`: the history a tail starts with, oldest first,
// and the cursor the live feed resumes from, so nothing falls between the two.
import type {GwEvent} from '../../../api/types.js'
import type {GwClient} from '../../../client/index.js'

export interface History {
  events: GwEvent[]
  /** where the live feed starts: the newest event shown, else the log's newest event before the history was read */
  cursor: string | null
}

export async function loadHistory(client: GwClient, opts: {types?: string; last?: number; sinceIso?: string; max?: number}): Promise<History> {
  // the log's newest event before reading history: the feed resumes from it if history is empty
  const newest = (await client.events.list({limit: 1})).data[0]?.id ?? null
  const events: GwEvent[] = []
  const max = opts.last ?? opts.max ?? 10_000
  const params = {type: opts.types, created_gte: opts.sinceIso, limit: Math.min(100, max)}
  for await (const e of client.events.iterate(params, max)) events.push(e)
  events.reverse()
  return {events, cursor: events.length ? events[events.length - 1]!.id : newest}
}
