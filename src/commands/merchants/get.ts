import type {Merchant} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderMerchant} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class MerchantsGet extends GwCommand<typeof MerchantsGet> {
  static override summary = 'Show one sub-merchant: KYB status, capabilities and MID.'
  static override operations = ['retrieveMerchant'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> mer_123', '<%= config.bin %> <%= command.id %> mer_123 --json | jq -r .kyb_status']
  static override args = {id: idArg('mer_', 'merchant', 'List them with: gw merchants list')}

  async run(): Promise<Merchant> {
    return merchantsGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw merchants get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface MerchantsGetOptions {
  id: string
}

export async function merchantsGet(ctx: Context, o: MerchantsGetOptions): Promise<Merchant> {
  const merchant = await (await ctx.client()).merchants.get(o.id)
  ctx.print(renderMerchant(merchant, ctx.color))
  return merchant
}
