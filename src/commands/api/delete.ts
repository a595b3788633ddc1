import {normalizePath, pathArg} from './shared/raw.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class ApiDelete extends GwCommand<typeof ApiDelete> {
  static override summary = 'Send a raw DELETE request.'
  static override examples = ['<%= config.bin %> <%= command.id %> /webhook_endpoints/wh_123', '<%= config.bin %> <%= command.id %> /customers/cus_123']
  static override args = {path: pathArg}

  async run(): Promise<unknown> {
    return apiDelete(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw api delete` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ApiDeleteOptions {
  path: string
}

export async function apiDelete(ctx: Context, o: ApiDeleteOptions): Promise<unknown> {
  const path = normalizePath(o.path)
  if (path === '/') throw new UsageError('PATH must name an object, e.g. /customers/cus_123.')
  await ctx.confirmLive(`DELETE ${path}`)
  const res = await (await ctx.client()).request('DELETE', path)
  ctx.print(typeof res.data === 'string' ? res.data : JSON.stringify(res.data, null, 2))
  return res.data
}
