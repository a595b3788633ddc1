import {Flags} from '@oclif/core'
import type {Dispute, DisputeReason} from '../../api/types.js'
import {DISPUTE_REASONS} from './shared/disputes.js'
import {amountFlag, idempotencyKeyFlag} from '../../base/flags.js'
import {renderDispute} from './shared/display.js'
import {formatMoney} from '../../api/money.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class DisputesSimulate extends GwCommand<typeof DisputesSimulate> {
  static override summary = 'Test helper: the card network opens a dispute on a payment.'
  static override operations = ['testCreateDispute'] as const
  static override description =
    'Stands in for the network (test keys only): the dispute opens in needs_response at the chargeback stage, the amount is withheld from the balance, and dispute.created fires. Only succeeded card payments (card, apple_pay, google_pay) can be disputed, once.'
  static override examples = [
    {description: 'A general dispute of the whole payment', command: '<%= config.bin %> <%= command.id %> --payment pay_123'},
    {description: 'A fraud claim over part of it', command: '<%= config.bin %> <%= command.id %> --payment pay_123 --reason fraudulent --amount 1000'},
  ]

  static override flags = {
    payment: Flags.string({description: 'The payment the cardholder disputes (pay_...).', required: true}),
    reason: Flags.string({description: 'Reason of the dispute (default general).', options: [...DISPUTE_REASONS]}),
    amount: amountFlag({description: "Disputed amount in minor units of the payment's currency (default: all captured and not refunded)."}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Dispute> {
    return disputesSimulate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw disputes simulate` takes: its flags and arguments by name (run() passes them as parsed). */
export interface DisputesSimulateOptions {
  payment: string
  reason?: string
  amount?: number
  'idempotency-key'?: string
}

export async function disputesSimulate(ctx: Context, f: DisputesSimulateOptions): Promise<Dispute> {
  if (!f.payment.startsWith('pay_')) throw new UsageError(`--payment "${f.payment}" is not a payment id; payment ids start with pay_.`)
  const client = await ctx.client()
  const dp = await client.testHelpers.createDispute(
    {payment: f.payment, ...(f.reason ? {reason: f.reason as DisputeReason} : {}), ...(f.amount !== undefined ? {amount: f.amount} : {})},
    {idempotencyKey: f['idempotency-key']},
  )
  if (!ctx.json) {
    ctx.print(renderDispute(dp, new Date(dp.created_at), ctx.color))
    ctx.notice(ctx.errColor.dim(`${formatMoney(dp.amount, dp.currency)} is withheld while the dispute is open. Respond with: gw disputes evidence ${dp.id}`))
  }
  return dp
}
