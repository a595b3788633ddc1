import type {Account} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderAccount} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class AccountsGet extends GwCommand<typeof AccountsGet> {
  static override summary = 'Show an account.'
  static override operations = ['retrieveAccount'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> acct_123', '<%= config.bin %> <%= command.id %> acct_123 --json']
  static override args = {id: idArg('acct_', 'account', 'List them with: gw accounts list')}

  async run(): Promise<Account> {
    return accountsGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw accounts get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface AccountsGetOptions {
  id: string
}

export async function accountsGet(ctx: Context, o: AccountsGetOptions): Promise<Account> {
  const account = await (await ctx.client()).accounts.get(o.id)
  ctx.print(renderAccount(account, ctx.color))
  return account
}
