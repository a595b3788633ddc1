import type {Deleted} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class AccountsDelete extends GwCommand<typeof AccountsDelete> {
  static override summary = 'Delete an account and all of its data: payments, events, webhook endpoints, keys.'
  static override operations = ['deleteAccount'] as const
  static override description = 'Its keys stop working at once. Asks for confirmation on a terminal; pass --yes to skip it (required without a terminal, e.g. at the end of a CI job).'
  static override examples = ['<%= config.bin %> <%= command.id %> acct_123', {description: 'At the end of a CI job', command: '<%= config.bin %> <%= command.id %> "$GW_ACCOUNT" --yes'}]
  static override args = {id: idArg('acct_', 'account', 'List them with: gw accounts list')}

  async run(): Promise<Deleted<'account'>> {
    return accountsDelete(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw accounts delete` takes: its flags and arguments by name (run() passes them as parsed). */
export interface AccountsDeleteOptions {
  id: string
}

export async function accountsDelete(ctx: Context, o: AccountsDeleteOptions): Promise<Deleted<'account'>> {
  await ctx.confirmDestructive(`delete account ${o.id} with every payment, event, webhook endpoint and key it holds`, 'nothing was deleted')
  const res = await (await ctx.client()).accounts.delete(o.id)
  ctx.print(`Deleted ${res.id} and all of its data.`)
  return res
}
