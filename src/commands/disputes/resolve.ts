import {Flags} from '@oclif/core'
import type {Dispute} from '../../api/types.js'
import {DisputeCommand} from '../../base/dispute-command.js'
import {disputeHint, notResolvableReason} from '../../base/disputes.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {renderDispute} from '../../output/disputes.js'
import {formatMoney} from '../../output/money.js'

const ONE = ['won', 'lost', 'escalate']

export default class DisputesResolve extends DisputeCommand<typeof DisputesResolve> {
  static override summary = 'Test helper: the issuer or network rules on a dispute under review.'
  static override description =
    'Stands in for the ruling (test keys only) on a dispute in under_review: --won returns the withheld amount to the balance, --lost keeps the debit, --escalate moves it to the next stage (pre_arbitration, then arbitration) in needs_response with a new deadline.'
  static override examples = [
    {description: 'The merchant wins: the amount returns to the balance', command: '<%= config.bin %> <%= command.id %> dp_123 --won'},
    {description: 'The cardholder contests: pre-arbitration, respond again', command: '<%= config.bin %> <%= command.id %> dp_123 --escalate'},
  ]

  static override args = {id: idArg('dp_', 'dispute')}
  static override flags = {
    won: Flags.boolean({description: 'The merchant wins.', exactlyOne: ONE}),
    lost: Flags.boolean({description: 'The cardholder wins.', exactlyOne: ONE}),
    escalate: Flags.boolean({description: 'Escalate to the next stage.', exactlyOne: ONE}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Dispute> {
    const f = this.flags
    const outcome = f.won ? 'won' : f.lost ? 'lost' : 'escalate'
    const client = await this.client()
    const dp = await this.explained(client, this.args.id, () => client.testHelpers.resolveDispute(this.args.id, outcome, {idempotencyKey: f['idempotency-key']}), notResolvableReason)
    if (!this.json) {
      this.print(renderDispute(dp, dp.status === 'needs_response' ? await this.now(client) : new Date(), this.color))
      const money = formatMoney(dp.amount, dp.currency)
      const said =
        dp.status === 'won' ? `Won: ${money} returns to the balance.` : dp.status === 'lost' ? `Lost: ${money} goes to the cardholder.` : `Escalated to ${dp.stage}: it needs a response again; earlier evidence is not carried over.`
      this.notice(this.errColor.dim([said, disputeHint(dp)].filter(Boolean).join(' ')))
    }
    return dp
  }
}
