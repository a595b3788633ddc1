import {Flags} from '@oclif/core'
import type {ListEnvelope, Provider} from '../../api/types.js'
import {currencyFlag, listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import type {ListProvidersParams} from '../../client/params.js'
import {providerColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class ProvidersList extends GwCommand<typeof ProvidersList> {
  static override summary = 'List payment providers with their health, 7-day auth rate, fees and latency.'
  static override operations = ['listProviders'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --payment-method ideal --currency EUR',
    {description: 'Ids of degraded providers', command: "<%= config.bin %> <%= command.id %> --json | jq -r '.data[] | select(.status==\"degraded\") | .id'"},
  ]

  static override flags = {
    'payment-method': Flags.string({description: 'Only providers that support this payment method code, e.g. card, ideal, pix.'}),
    currency: currencyFlag({description: 'Only providers that support this currency, e.g. EUR.'}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<Provider> | Provider[]> {
    return providersList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw providers list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface ProvidersListOptions extends PagingOptions {
  'payment-method'?: string
  currency?: string
}

export async function providersList(ctx: Context, f: ProvidersListOptions): Promise<ListEnvelope<Provider> | Provider[]> {
  const params: ListProvidersParams = {...pageParams(f)}
  if (f['payment-method']) params.payment_method = f['payment-method']
  if (f.currency) params.currency = f.currency
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'providers',
    columns: providerColumns,
    page: () => client.providers.list(params),
    iterate: () => client.providers.iterate({...params, limit: f.limit ?? 100}),
  })
}
