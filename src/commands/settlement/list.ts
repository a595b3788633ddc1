import {Flags} from '@oclif/core'
import type {ListEnvelope, SettlementReport} from '../../api/types.js'
import {currencyFlag, listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import {settlementColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class SettlementList extends GwCommand<typeof SettlementList> {
  static override summary = 'List settlement reports (one per provider, day and currency), newest first.'
  static override operations = ['listSettlementReports'] as const
  static override description = 'Reports for a day are built early the next day (engine clock). Each has gross, refunds, fees, net (gross + refunds + fees), adjustments (dispute debits and returns) and the payout amount.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: "One day's EUR reports", command: '<%= config.bin %> <%= command.id %> --date 2025-01-31 --currency EUR'},
    {description: 'The reports of one provider', command: '<%= config.bin %> <%= command.id %> --provider prov_adyen_eu'},
  ]

  static override flags = {
    provider: Flags.string({description: 'Only reports of this provider (prov_...).'}),
    currency: currencyFlag({description: 'Only reports in this currency.'}),
    date: Flags.string({
      description: 'Only reports of this day, YYYY-MM-DD (UTC).',
      parse: async (input) => {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(input.trim()) || Number.isNaN(Date.parse(input.trim()))) throw new UsageError(`--date "${input}" is not a date.`, 'e.g. --date 2025-01-31')
        return input.trim()
      },
    }),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<SettlementReport> | SettlementReport[]> {
    return settlementList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw settlement list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface SettlementListOptions extends PagingOptions {
  provider?: string
  currency?: string
  date?: string
}

export async function settlementList(ctx: Context, f: SettlementListOptions): Promise<ListEnvelope<SettlementReport> | SettlementReport[]> {
  const params = {provider: f.provider, currency: f.currency, date: f.date, ...pageParams(f)}
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'settlement reports',
    columns: settlementColumns,
    page: () => client.settlementReports.list(params),
    iterate: () => client.settlementReports.iterate({...params, limit: f.limit ?? 100}),
  })
}
