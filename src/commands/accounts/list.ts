import type {Account, ListEnvelope} from '../../api/types.js'
import {listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import {accountColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class AccountsList extends GwCommand<typeof AccountsList> {
  static override summary = "List the engine's accounts, newest first (its own, acct_default, included)."
  static override operations = ['listAccounts'] as const
  static override description = "Needs a key of the engine's own account."
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --all --json | jq -r .id']
  static override flags = {...listFlags}

  async run(): Promise<ListEnvelope<Account> | Account[]> {
    return accountsList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw accounts list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface AccountsListOptions extends PagingOptions {}

export async function accountsList(ctx: Context, o: AccountsListOptions): Promise<ListEnvelope<Account> | Account[]> {
  const params = {...pageParams(o)}
  const client = await ctx.client()
  return ctx.list({
    all: o.all,
    noun: 'accounts',
    columns: accountColumns,
    page: () => client.accounts.list(params),
    iterate: () => client.accounts.iterate({...params, limit: o.limit ?? 100}),
  })
}
