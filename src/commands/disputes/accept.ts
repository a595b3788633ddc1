import type {Dispute} from '../../api/types.js'
import {AbortedError} from '../../base/command.js'
import {DisputeCommand} from '../../base/dispute-command.js'
import {notActionableReason} from '../../base/disputes.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {renderDispute} from '../../output/disputes.js'
import {formatMoney} from '../../output/money.js'

export default class DisputesAccept extends DisputeCommand<typeof DisputesAccept> {
  static override summary = 'Accept a dispute: give it up, and the disputed amount goes to the cardholder.'
  static override description = `Final and irreversible: the dispute becomes accepted, the debit on your balance stands, and no evidence can be submitted afterwards. Only a dispute in needs_response can be accepted.
On a terminal it shows the amount and the consequences and asks for confirmation; --yes skips the question. Without a terminal it refuses unless --yes is given.`
  static override examples = [
    '<%= config.bin %> <%= command.id %> dp_123',
    {description: 'In a script', command: '<%= config.bin %> <%= command.id %> dp_123 --yes --json'},
  ]

  static override args = {id: idArg('dp_', 'dispute')}
  static override flags = {'idempotency-key': idempotencyKeyFlag()}

  async run(): Promise<Dispute> {
    const id = this.args.id
    const client = await this.client()
    const dp = await client.disputes.get(id)
    // a dispute that cannot be accepted needs no confirmation: the API says no, explained below
    if (!notActionableReason(dp) && !this.flags.yes) {
      if (!this.interactive()) {
        throw new AbortedError(
          `Refusing to accept ${id} without confirmation: accepting is final and ${formatMoney(dp.amount, dp.currency)} goes to the cardholder.`,
          'Re-run with --yes to accept it (nothing was sent).',
        )
      }
      const c = this.errColor
      const money = formatMoney(dp.amount, dp.currency)
      this.notice(
        [
          `${c.bold(`Accept ${id}?`)} ${dp.reason}, ${dp.stage} stage, payment ${dp.payment}`,
          `  ${c.yellow(money)} goes to the cardholder: the amount withheld from your balance is not returned.`,
          '  This is final: the dispute closes as accepted, no evidence can be submitted afterwards, and it cannot be undone.',
        ].join('\n'),
      )
      if (await this.isLive()) await this.confirmLive(`accept ${id} (${money} to the cardholder)`)
      else {
        const answer = await this.prompt(`Accept ${id} and give up ${money}? [y/N] `, {hidden: false})
        if (!/^y(es)?$/i.test(answer.trim())) throw new AbortedError('Not accepted; nothing was sent.')
      }
    }
    const accepted = await this.explained(client, id, () => client.disputes.accept(id, {idempotencyKey: this.flags['idempotency-key']}))
    this.print(renderDispute(accepted, new Date(), this.color))
    return accepted
  }
}
