import {Flags} from '@oclif/core'
import type {Dispute} from '../../api/types.js'
import {disputeNow, timeLeft} from './shared/disputes.js'
import {bareSecondsNotice, parseDuration} from '../../base/parse.js'
import {disputeColumns, exactDuration} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class DisputesDue extends GwCommand<typeof DisputesDue> {
  static override summary = 'Disputes that need a response within a time window, soonest deadline first.'
  static override description = `Lists every dispute in needs_response whose evidence_due_by falls within --within from now (overdue ones included), soonest first. In test mode "now" is the engine's clock. A missed deadline loses the dispute.
--json prints the matching disputes as a JSON array in the same order.`
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Everything due this week', command: '<%= config.bin %> <%= command.id %> --within 7d'},
    {description: 'Ids only, for a script', command: '<%= config.bin %> <%= command.id %> --within 24h --json | jq -r ".[].id"'},
  ]

  static override flags = {
    within: Flags.string({description: 'Time window from now: 72h, 7d, 1d12h, ...', default: '72h'}),
  }

  async run(): Promise<Dispute[]> {
    return disputesDue(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw disputes due` takes: its flags and arguments by name (run() passes them as parsed). */
export interface DisputesDueOptions {
  within: string
}

export async function disputesDue(ctx: Context, o: DisputesDueOptions): Promise<Dispute[]> {
  const bare = bareSecondsNotice(o.within, '--within')
  if (bare) ctx.notice(ctx.errColor.yellow(bare))
  const seconds = parseDuration(o.within, '--within')
  if (seconds <= 0) throw new UsageError('--within must be more than zero.', 'e.g. --within 72h')
  const client = await ctx.client()
  const open: Dispute[] = []
  for await (const d of client.disputes.iterate({status: 'needs_response', limit: 100})) if (d.status === 'needs_response' && d.evidence_due_by) open.push(d)
  // the engine clock as the list's answers said it (no request of its own)
  const now = await disputeNow(ctx, client)
  const until = now.getTime() + seconds * 1000
  const due = open.filter((d) => Date.parse(d.evidence_due_by!) <= until)
  due.sort((a, b) => Date.parse(a.evidence_due_by!) - Date.parse(b.evidence_due_by!))
  const window = exactDuration(seconds)
  if (due.length === 0) {
    ctx.print(`No disputes need a response within ${window}.`)
    return due
  }
  ctx.print(await ctx.table(due, disputeColumns(now)))
  if (!ctx.json) {
    const n = due.length
    ctx.notice(
      ctx.errColor.dim(`${n} dispute${n === 1 ? '' : 's'} need${n === 1 ? 's' : ''} a response within ${window}; the soonest: ${due[0].id}, ${timeLeft(due[0], now)}. Respond with: gw disputes evidence ${due[0].id}`),
    )
  }
  return due
}
