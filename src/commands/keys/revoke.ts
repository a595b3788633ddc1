import type {ApiKey} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class KeysRevoke extends GwCommand<typeof KeysRevoke> {
  static override summary = 'Revoke an API key: it stops working at once, on every instance.'
  static override operations = ['revokeApiKey'] as const
  static override description = 'Asks for confirmation on a terminal; pass --yes to skip it (required without a terminal).'
  static override examples = ['<%= config.bin %> <%= command.id %> key_123', '<%= config.bin %> <%= command.id %> key_123 --yes --json']
  static override args = {id: idArg('key_', 'API key', 'List them with: gw keys list')}

  async run(): Promise<ApiKey> {
    return keysRevoke(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw keys revoke` takes: its flags and arguments by name (run() passes them as parsed). */
export interface KeysRevokeOptions {
  id: string
}

export async function keysRevoke(ctx: Context, o: KeysRevokeOptions): Promise<ApiKey> {
  const client = await ctx.client()
  const inUse = (await client.apiKeys.self()).id === o.id
  const what = inUse ? `revoke ${o.id}, the key this profile uses: after it, this profile's requests fail until you log in with another key` : `revoke key ${o.id}: whatever uses it stops working at once`
  await ctx.confirmDestructive(what, 'nothing was revoked')
  const key = await client.apiKeys.revoke(o.id)
  ctx.print(`Revoked ${key.id} (${key.redacted}).`)
  if (inUse) ctx.notice(ctx.errColor.yellow('! That was the key in use: log in again with another key (gw login).'))
  return key
}
