import type {Payout} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'
import {renderPayout} from '../../output/settlement.js'

export default class PayoutsGet extends GwCommand<typeof PayoutsGet> {
  static override summary = 'Show one payout, with its arrival date and settlement reports.'
  static override examples = ['<%= config.bin %> <%= command.id %> po_123']

  static override args = {id: idArg('po_', 'payout', 'List payouts with: gw payouts list')}

  async run(): Promise<Payout> {
    const payout = await (await this.client()).payouts.get(this.args.id)
    this.print(renderPayout(payout, this.color))
    return payout
  }
}
