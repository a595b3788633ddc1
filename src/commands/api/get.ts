import {dataFlag, normalizePath, parseDataPairs, pathArg} from './shared/raw.js'
import type {Query} from '../../client/http.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class ApiGet extends GwCommand<typeof ApiGet> {
  static override summary = 'Send a raw GET request; -d pairs become the query string.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> /payments -d limit=5 -d status=succeeded',
    '<%= config.bin %> <%= command.id %> /balance',
    '<%= config.bin %> <%= command.id %> /providers',
  ]

  static override args = {path: pathArg}
  static override flags = {data: dataFlag}

  async run(): Promise<unknown> {
    return apiGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw api get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ApiGetOptions {
  data?: string[]
  path: string
}

export async function apiGet(ctx: Context, o: ApiGetOptions): Promise<unknown> {
  const query = parseDataPairs(o.data) as Query
  const res = await (await ctx.client()).request('GET', normalizePath(o.path), {query})
  ctx.print(typeof res.data === 'string' ? res.data : JSON.stringify(res.data, null, 2))
  return res.data
}
