import type {Account} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderAccount} from './shared/display.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class AccountsGet extends GwCommand<typeof AccountsGet> {
  static override summary = 'Show an account.'
  static override operations = ['retrieveAccount'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> acct_123', '<%= config.bin %> <%= command.id %> acct_123 --json']
  static override args = {id: idArg('acct_', 'account', 'List them with: gw accounts list')}

  async run(): Promise<Account> {
    return accountsGet(this.ctx, this.flags, this.args)
  }
}

export async function accountsGet(ctx: Context, flags: GwFlags<typeof AccountsGet>, args: GwArgs<typeof AccountsGet>): Promise<Account> {
  const account = await (await ctx.client()).accounts.get(args.id)
  ctx.print(renderAccount(account, ctx.color))
  return account
}
