import {Flags} from '@oclif/core'
import type {ListEnvelope, Payout} from '../../api/types.js'
import {currencyFlag, listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import {payoutColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {PAYOUT_STATUSES} from '../../api/vocabulary.js'

export default class PayoutsList extends GwCommand<typeof PayoutsList> {
  static override summary = 'List payouts to the bank account, newest first.'
  static override operations = ['listPayouts'] as const
  static override description = "One payout per currency and day, referencing that day's settlement reports; in_transit until its arrival date, then paid."
  static override examples = ['<%= config.bin %> <%= command.id %>', {description: 'EUR payouts still on their way', command: '<%= config.bin %> <%= command.id %> --currency EUR --status in_transit'}]

  static override flags = {
    currency: currencyFlag({description: 'Only payouts in this currency.'}),
    status: Flags.option({description: 'Only payouts in this status.', options: PAYOUT_STATUSES})(),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<Payout> | Payout[]> {
    return payoutsList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payouts list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PayoutsListOptions extends PagingOptions {
  currency?: string
  status?: "in_transit" | "paid"
}

export async function payoutsList(ctx: Context, f: PayoutsListOptions): Promise<ListEnvelope<Payout> | Payout[]> {
  const params = {currency: f.currency, status: f.status, ...pageParams(f)}
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'payouts',
    columns: payoutColumns,
    page: () => client.payouts.list(params),
    iterate: () => client.payouts.iterate({...params, limit: f.limit ?? 100}),
  })
}
