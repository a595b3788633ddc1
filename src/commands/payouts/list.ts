import {Flags} from '@oclif/core'
import type {ListEnvelope, Payout} from '../../api/types.js'
import {currencyFlag, listFlags, pageParams} from '../../base/flags.js'
import {payoutColumns} from './shared/display.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'
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
    return payoutsList(this.ctx, this.flags, this.args)
  }
}

export async function payoutsList(ctx: Context, flags: GwFlags<typeof PayoutsList>, args: GwArgs<typeof PayoutsList>): Promise<ListEnvelope<Payout> | Payout[]> {
  const f = flags
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
