import type {ApiKey} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderKey} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class KeysGet extends GwCommand<typeof KeysGet> {
  static override summary = 'Show an API key (redacted).'
  static override operations = ['retrieveApiKey'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> key_123']
  static override args = {id: idArg('key_', 'API key', 'List them with: gw keys list')}

  async run(): Promise<ApiKey> {
    return keysGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw keys get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface KeysGetOptions {
  id: string
}

export async function keysGet(ctx: Context, o: KeysGetOptions): Promise<ApiKey> {
  const key = await (await ctx.client()).apiKeys.get(o.id)
  ctx.print(renderKey(key, ctx.color))
  return key
}
