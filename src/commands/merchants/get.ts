import type {Merchant} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'
import {renderMerchant} from '../../output/admin.js'

export default class MerchantsGet extends GwCommand<typeof MerchantsGet> {
  static override summary = 'Show one sub-merchant: KYB status, capabilities and MID.'
  static override examples = ['<%= config.bin %> <%= command.id %> mer_123', '<%= config.bin %> <%= command.id %> mer_123 --json | jq -r .kyb_status']
  static override args = {id: idArg('mer_', 'merchant', 'List them with: gw merchants list')}

  async run(): Promise<Merchant> {
    const merchant = await (await this.client()).merchants.get(this.args.id)
    this.print(renderMerchant(merchant, this.color))
    return merchant
  }
}
