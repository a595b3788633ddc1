import type {Dispute} from '../../api/types.js'
import {attachedFacts, disputeHint, disputeNow} from './shared/disputes.js'
import {idArg} from '../../base/flags.js'
import {renderDispute} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class DisputesGet extends GwCommand<typeof DisputesGet> {
  static override summary = 'Show one dispute, with a checklist of the evidence that suits its reason.'
  static override operations = ['retrieveDispute'] as const
  static override description =
    'The checklist names the recognized evidence keys that suit the reason (e.g. tracking_number for product_not_received) and marks [x] those the evidence submitted at the current stage covers. The deadline shows the time left (engine clock in test mode).'
  static override examples = [
    '<%= config.bin %> <%= command.id %> dp_123',
    {description: 'Only the status and deadline, with jq', command: '<%= config.bin %> <%= command.id %> dp_123 --json | jq "{status, evidence_due_by}"'},
  ]

  static override args = {id: idArg('dp_', 'dispute', 'Find the dispute of a payment with: gw disputes list --payment pay_...')}

  async run(): Promise<Dispute> {
    return disputesGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw disputes get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface DisputesGetOptions {
  id: string
}

export async function disputesGet(ctx: Context, o: DisputesGetOptions): Promise<Dispute> {
  const client = await ctx.client()
  const dp = await client.disputes.get(o.id)
  if (!ctx.json) {
    const now = dp.status === 'needs_response' ? await disputeNow(ctx, client) : new Date()
    const closedEmpty = (dp.status === 'won' || dp.status === 'lost' || dp.status === 'accepted') && !dp.evidence
    ctx.print(renderDispute(dp, now, ctx.color, closedEmpty ? undefined : await attachedFacts(client, dp)))
    const hint = disputeHint(dp)
    if (hint) ctx.notice(ctx.errColor.dim(hint))
  }
  return dp
}
