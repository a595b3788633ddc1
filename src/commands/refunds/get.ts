import type {Refund} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {refundHint, renderRefund} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class RefundsGet extends GwCommand<typeof RefundsGet> {
  static override summary = 'Show one refund.'
  static override operations = ['retrieveRefund'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %> rf_123',
    {description: 'Only the status, with jq', command: '<%= config.bin %> <%= command.id %> rf_123 --json | jq -r .status'},
  ]

  static override args = {id: idArg('rf_', 'refund', 'List the refunds of a payment with: gw refunds list --payment pay_...')}

  async run(): Promise<Refund> {
    return refundsGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw refunds get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface RefundsGetOptions {
  id: string
}

export async function refundsGet(ctx: Context, o: RefundsGetOptions): Promise<Refund> {
  const refund = await (await ctx.client()).refunds.get(o.id)
  ctx.print(renderRefund(refund, ctx.color))
  const hint = refundHint(refund)
  if (hint && !ctx.json) ctx.notice(ctx.errColor.dim(hint))
  return refund
}
