import type {ApiKey, ListEnvelope} from '../../api/types.js'
import {listFlags, pageParams} from '../../base/flags.js'
import {keyColumns} from './shared/display.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class KeysList extends GwCommand<typeof KeysList> {
  static override summary = "List the account's API keys: redacted, with their permissions, state and last use."
  static override operations = ['listApiKeys'] as const
  static override description = 'The key in use is marked. Managing keys needs a secret key.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json | jq -r ".data[] | [.id, .redacted, .type] | @tsv"']
  static override flags = {...listFlags}

  async run(): Promise<ListEnvelope<ApiKey> | ApiKey[]> {
    return keysList(this.ctx, this.flags, this.args)
  }
}

export async function keysList(ctx: Context, flags: GwFlags<typeof KeysList>, args: GwArgs<typeof KeysList>): Promise<ListEnvelope<ApiKey> | ApiKey[]> {
  const params = {...pageParams(flags)}
  const client = await ctx.client()
  const inUse = ctx.json ? undefined : (await client.apiKeys.self()).id
  return ctx.list({
    all: flags.all,
    noun: 'keys',
    columns: keyColumns(inUse),
    page: () => client.apiKeys.list(params),
    iterate: () => client.apiKeys.iterate({...params, limit: flags.limit ?? 100}),
  })
}
