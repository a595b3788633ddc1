// Lists: one page (the list envelope as it came) or, with --all, every object. Into a pipe
// --all streams NDJSON (one object per line, with or without --json), so `| head` and `| jq`
// work as the README says; on a terminal it is a JSON array under --json, else one table.
import type {ListEnvelope} from '../api/types.js'
import type {Renderer} from './renderer.js'
import type {Columns} from './table.js'

export interface ListOptions<I> {
  /** every page (--all); absent or false: one page */
  all?: boolean
  page: () => Promise<ListEnvelope<I>>
  iterate: () => AsyncIterable<I>
  columns: Columns<I>
  noun: string
  /** orders a fetched set for people (disputes by deadline); NDJSON and JSON keep the API's order */
  sort?: (a: I, b: I) => number
  /** columns that depend on something fetched after the items (the engine clock) */
  columnsFor?: (items: I[]) => Promise<Columns<I>>
}

export async function showList<I extends {id: string}>(out: Renderer, opts: ListOptions<I>): Promise<ListEnvelope<I> | I[]> {
  const human = async (items: I[]) => {
    if (!items.length) return out.print(`No ${opts.noun}.`)
    const cols = opts.columnsFor ? await opts.columnsFor(items) : opts.columns
    out.print(await out.table(opts.sort ? [...items].sort(opts.sort) : items, cols))
  }
  if (!opts.all) {
    const env = await opts.page()
    if (out.json) return env
    await human(env.data)
    if (env.has_more && env.data.length) {
      out.notice(out.errColor.dim(`More ${opts.noun}: add --starting-after ${env.data[env.data.length - 1]!.id}, or --all for every page.`))
    }
    return env
  }
  const items: I[] = []
  if (!out.io.stdout.isTTY) {
    for await (const item of opts.iterate()) {
      items.push(item)
      out.ndjson(item)
    }
    return items
  }
  const {startProgress} = await import('../ui/progress.js')
  const progress = await startProgress(`Fetching ${opts.noun}…`, {json: out.json, stream: out.io.stderr as NodeJS.WriteStream})
  try {
    for await (const item of opts.iterate()) {
      items.push(item)
      if (items.length % 100 === 0) progress.update(`Fetching ${opts.noun}… ${items.length}`)
    }
  } finally {
    progress.stop()
  }
  if (!out.json) await human(items)
  return items
}
