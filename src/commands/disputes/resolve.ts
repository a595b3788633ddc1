import {Flags} from '@oclif/core'
import type {Dispute} from '../../api/types.js'
import {disputeHint, disputeNow, explained, notResolvableReason} from './shared/disputes.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {renderDispute} from './shared/display.js'
import {formatMoney} from '../../api/money.js'
import {GwCommand, type Context} from '../../base/command.js'

const ONE = ['won', 'lost', 'escalate', 'outcome']

export default class DisputesResolve extends GwCommand<typeof DisputesResolve> {
  static override summary = 'Test helper: the issuer or network rules on a dispute under review.'
  static override operations = ['testResolveDispute'] as const
  static override description =
    'Stands in for the ruling (test keys only) on a dispute in under_review: --won returns the withheld amount to the balance, --lost keeps the debit, --escalate moves it to the next stage (pre_arbitration, then arbitration) in needs_response with a new deadline.'
  static override examples = [
    {description: 'The merchant wins: the amount returns to the balance', command: '<%= config.bin %> <%= command.id %> dp_123 --won'},
    {description: 'The cardholder contests: pre-arbitration, respond again', command: '<%= config.bin %> <%= command.id %> dp_123 --escalate'},
    {description: 'The outcome as the API names it', command: '<%= config.bin %> <%= command.id %> dp_123 --outcome lost'},
  ]

  static override args = {id: idArg('dp_', 'dispute')}
  static override flags = {
    won: Flags.boolean({description: 'The merchant wins.', exactlyOne: ONE}),
    lost: Flags.boolean({description: 'The cardholder wins.', exactlyOne: ONE}),
    escalate: Flags.boolean({description: 'Escalate to the next stage.', exactlyOne: ONE}),
    outcome: Flags.string({description: 'The same as the API field: won, lost or escalate (for scripts that hold the outcome in a variable).', options: ['won', 'lost', 'escalate'], exactlyOne: ONE}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Dispute> {
    return disputesResolve(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw disputes resolve` takes: its flags and arguments by name (run() passes them as parsed). */
export interface DisputesResolveOptions {
  won?: boolean
  lost?: boolean
  escalate?: boolean
  outcome?: string
  'idempotency-key'?: string
  id: string
}

export async function disputesResolve(ctx: Context, f: DisputesResolveOptions): Promise<Dispute> {
  const outcome = (f.outcome as 'won' | 'lost' | 'escalate' | undefined) ?? (f.won ? 'won' : f.lost ? 'lost' : 'escalate')
  const client = await ctx.client()
  const dp = await explained(client, f.id, () => client.testHelpers.resolveDispute(f.id, outcome, {idempotencyKey: f['idempotency-key']}), notResolvableReason)
  if (!ctx.json) {
    ctx.print(renderDispute(dp, dp.status === 'needs_response' ? await disputeNow(ctx, client) : new Date(), ctx.color))
    const money = formatMoney(dp.amount, dp.currency)
    const said =
      dp.status === 'won' ? `Won: ${money} returns to the balance.` : dp.status === 'lost' ? `Lost: ${money} goes to the cardholder.` : `Escalated to ${dp.stage}: it needs a response again (what was argued before stays on the dispute: gw disputes get ${dp.id}).`
    ctx.notice(ctx.errColor.dim([said, disputeHint(dp)].filter(Boolean).join(' ')))
  }
  return dp
}
