import {dataFlag, normalizePath, parseDataPairs, pathArg} from './shared/raw.js'
import type {Query} from '../../client/http.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

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
    return apiGet(this.ctx, this.flags, this.args)
  }
}

export async function apiGet(ctx: Context, flags: GwFlags<typeof ApiGet>, args: GwArgs<typeof ApiGet>): Promise<unknown> {
  const query = parseDataPairs(flags.data) as Query
  const res = await (await ctx.client()).request('GET', normalizePath(args.path), {query})
  ctx.print(typeof res.data === 'string' ? res.data : JSON.stringify(res.data, null, 2))
  return res.data
}
