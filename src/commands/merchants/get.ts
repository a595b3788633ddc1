import type {Merchant} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderMerchant} from './shared/display.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class MerchantsGet extends GwCommand<typeof MerchantsGet> {
  static override summary = 'Show one sub-merchant: KYB status, capabilities and MID.'
  static override operations = ['retrieveMerchant'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> mer_123', '<%= config.bin %> <%= command.id %> mer_123 --json | jq -r .kyb_status']
  static override args = {id: idArg('mer_', 'merchant', 'List them with: gw merchants list')}

  async run(): Promise<Merchant> {
    return merchantsGet(this.ctx, this.flags, this.args)
  }
}

export async function merchantsGet(ctx: Context, flags: GwFlags<typeof MerchantsGet>, args: GwArgs<typeof MerchantsGet>): Promise<Merchant> {
  const merchant = await (await ctx.client()).merchants.get(args.id)
  ctx.print(renderMerchant(merchant, ctx.color))
  return merchant
}
