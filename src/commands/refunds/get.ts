import type {Refund} from '../../api/types.js'
import {GwCommand} from '../../base/command.js'
import {idArg} from '../../base/flags.js'
import {refundHint, renderRefund} from '../../output/disputes.js'

export default class RefundsGet extends GwCommand<typeof RefundsGet> {
  static override summary = 'Show one refund.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> rf_123',
    {description: 'Only the status, with jq', command: '<%= config.bin %> <%= command.id %> rf_123 --json | jq -r .status'},
  ]

  static override args = {id: idArg('rf_', 'refund', 'List the refunds of a payment with: gw refunds list --payment pay_...')}

  async run(): Promise<Refund> {
    const refund = await (await this.client()).refunds.get(this.args.id)
    this.print(renderRefund(refund, this.color))
    const hint = refundHint(refund)
    if (hint && !this.json) this.notice(this.errColor.dim(hint))
    return refund
  }
}
