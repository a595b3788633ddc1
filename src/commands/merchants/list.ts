import {Flags} from '@oclif/core'
import type {ListEnvelope, Merchant} from '../../api/types.js'
import {listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import type {ListMerchantsParams} from '../../client/params.js'
import {merchantColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {KYB_STATUSES} from '../../api/vocabulary.js'

export default class MerchantsList extends GwCommand<typeof MerchantsList> {
  static override summary = 'List sub-merchants, newest first.'
  static override operations = ['listMerchants'] as const
  static override examples = ['<%= config.bin %> <%= command.id %>', '<%= config.bin %> <%= command.id %> --kyb-status pending', '<%= config.bin %> <%= command.id %> --all --json']
  static override flags = {
    'kyb-status': Flags.option({description: 'Only merchants with this KYB status.', options: KYB_STATUSES})(),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<Merchant> | Merchant[]> {
    return merchantsList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw merchants list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface MerchantsListOptions extends PagingOptions {
  'kyb-status'?: "active" | "pending" | "restricted" | "rejected"
}

export async function merchantsList(ctx: Context, f: MerchantsListOptions): Promise<ListEnvelope<Merchant> | Merchant[]> {
  const params: ListMerchantsParams = {...pageParams(f)}
  if (f['kyb-status']) params.kyb_status = f['kyb-status']
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'merchants',
    columns: merchantColumns,
    page: () => client.merchants.list(params),
    iterate: () => client.merchants.iterate({...params, limit: f.limit ?? 100}),
  })
}
