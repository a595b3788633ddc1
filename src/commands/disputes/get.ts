import type {Dispute} from '../../api/types.js'
import {DisputeCommand} from '../../base/dispute-command.js'
import {disputeHint} from '../../base/disputes.js'
import {idArg} from '../../base/flags.js'
import {renderDispute} from '../../output/disputes.js'

export default class DisputesGet extends DisputeCommand<typeof DisputesGet> {
  static override summary = 'Show one dispute, with a checklist of the evidence that suits its reason.'
  static override description =
    'The checklist names the recognized evidence keys that suit the reason (e.g. tracking_number for product_not_received) and marks [x] those the evidence submitted at the current stage covers. The deadline shows the time left (engine clock in test mode).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> dp_123',
    {description: 'Only the status and deadline, with jq', command: '<%= config.bin %> <%= command.id %> dp_123 --json | jq "{status, evidence_due_by}"'},
  ]

  static override args = {id: idArg('dp_', 'dispute', 'Find the dispute of a payment with: gw disputes list --payment pay_...')}

  async run(): Promise<Dispute> {
    const client = await this.client()
    const dp = await client.disputes.get(this.args.id)
    if (!this.json) {
      const now = dp.status === 'needs_response' ? await this.now(client) : new Date()
      this.print(renderDispute(dp, now, this.color))
      const hint = disputeHint(dp)
      if (hint) this.notice(this.errColor.dim(hint))
    }
    return dp
  }
}
