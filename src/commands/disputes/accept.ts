import type {Dispute} from '../../api/types.js'
import {explained, notActionableReason} from './shared/disputes.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {renderDispute} from './shared/display.js'
import {formatMoney} from '../../api/money.js'
import {GwCommand, type Context} from '../../base/command.js'
import {AbortedError} from '../../errors.js'

export default class DisputesAccept extends GwCommand<typeof DisputesAccept> {
  static override summary = 'Accept a dispute: give it up, and the disputed amount goes to the cardholder.'
  static override operations = ['acceptDispute'] as const
  static override description = `Final and irreversible: the dispute becomes accepted, the debit on your balance stands, and no evidence can be submitted afterwards. Only a dispute in needs_response can be accepted.
On a terminal it shows the amount and the consequences and asks for confirmation; --yes skips the question. Without a terminal it refuses unless --yes is given.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> dp_123',
    {description: 'In a script', command: '<%= config.bin %> <%= command.id %> dp_123 --yes --json'},
  ]

  static override args = {id: idArg('dp_', 'dispute')}
  static override flags = {'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<Dispute> {
    return disputesAccept(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw disputes accept` takes: its flags and arguments by name (run() passes them as parsed). */
export interface DisputesAcceptOptions {
  yes?: boolean
  'idempotency-key'?: string
  id: string
}

export async function disputesAccept(ctx: Context, o: DisputesAcceptOptions): Promise<Dispute> {
  const id = o.id
  const client = await ctx.client()
  const dp = await client.disputes.get(id)
  // a dispute that cannot be accepted needs no confirmation: the API says no, explained below
  if (!notActionableReason(dp) && !o.yes) {
    if (!ctx.interactive()) {
      throw new AbortedError(
        `Refusing to accept ${id} without confirmation: accepting is final and ${formatMoney(dp.amount, dp.currency)} goes to the cardholder.`,
        'Re-run with --yes to accept it (nothing was sent).',
      )
    }
    const c = ctx.errColor
    const money = formatMoney(dp.amount, dp.currency)
    ctx.notice(
      [
        `${c.bold(`Accept ${id}?`)} ${dp.reason}, ${dp.stage} stage, payment ${dp.payment}`,
        `  ${c.yellow(money)} goes to the cardholder: the amount withheld from your balance is not returned.`,
        '  This is final: the dispute closes as accepted, no evidence can be submitted afterwards, and it cannot be undone.',
      ].join('\n'),
    )
    if (await ctx.isLive()) await ctx.confirmLive(`accept ${id} (${money} to the cardholder)`)
    else {
      const answer = await ctx.prompt(`Accept ${id} and give up ${money}? [y/N] `, {hidden: false})
      if (!/^y(es)?$/i.test(answer.trim())) throw new AbortedError('Not accepted; nothing was sent.')
    }
  }
  const accepted = await explained(client, id, () => client.disputes.accept(id, {idempotencyKey: o['idempotency-key']}))
  ctx.print(renderDispute(accepted, new Date(), ctx.color))
  return accepted
}
