import type {Balance} from '../api/types.js'
import {balanceColumns, balanceRows} from './shared/balance.js'
import {GwCommand, type Context} from '../base/command.js'

export default class BalanceCommand extends GwCommand<typeof BalanceCommand> {
  static override summary = 'Show the balance: available and pending, per currency.'
  static override operations = ['retrieveBalance'] as const
  static override description =
    'Captured funds are pending until the settlement run of their day (02:00 UTC the next day, engine clock), which pays them out at once: a payout takes the money off the balance. Refunds and dispute debits take effect at once; a won dispute returns its amount at once. A negative available balance is taken from the next payout.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Available EUR, with jq', command: '<%= config.bin %> <%= command.id %> --json | jq \'.available[] | select(.currency == "EUR") | .amount\''},
  ]

  async run(): Promise<Balance> {
    return balance(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw balance` takes: its flags and arguments by name (run() passes them as parsed). */
export interface BalanceCommandOptions {

}

export async function balance(ctx: Context, o: BalanceCommandOptions): Promise<Balance> {
  const balance = await (await ctx.client()).balance.get()
  if (!ctx.json) {
    const rows = balanceRows(balance)
    ctx.print(rows.length ? await ctx.table(rows, balanceColumns) : 'No balance yet: nothing has been captured.')
  }
  return balance
}
