import type {ApiKey, ListEnvelope} from '../../api/types.js'
import {listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import {keyColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class KeysList extends GwCommand<typeof KeysList> {
  static override summary = "List the account's API keys: redacted, with their permissions, state and last use."
  static override operations = ['listApiKeys'] as const
  static override description = 'The key in use is marked. Managing keys needs a secret key.'
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --json | jq -r ".data[] | [.id, .redacted, .type] | @tsv"']
  static override flags = {...listFlags}

  async run(): Promise<ListEnvelope<ApiKey> | ApiKey[]> {
    return keysList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw keys list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface KeysListOptions extends PagingOptions {}

export async function keysList(ctx: Context, o: KeysListOptions): Promise<ListEnvelope<ApiKey> | ApiKey[]> {
  const params = {...pageParams(o)}
  const client = await ctx.client()
  const inUse = ctx.json ? undefined : (await client.apiKeys.self()).id
  return ctx.list({
    all: o.all,
    noun: 'keys',
    columns: keyColumns(inUse),
    page: () => client.apiKeys.list(params),
    iterate: () => client.apiKeys.iterate({...params, limit: o.limit ?? 100}),
  })
}
