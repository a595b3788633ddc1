import type {Payout} from '../../api/types.js'
import {idArg} from '../../base/flags.js'
import {renderPayout} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class PayoutsGet extends GwCommand<typeof PayoutsGet> {
  static override summary = 'Show one payout, with its arrival date and settlement reports.'
  static override operations = ['retrievePayout'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> po_123']

  static override args = {id: idArg('po_', 'payout', 'List payouts with: gw payouts list')}

  async run(): Promise<Payout> {
    return payoutsGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payouts get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PayoutsGetOptions {
  id: string
}

export async function payoutsGet(ctx: Context, o: PayoutsGetOptions): Promise<Payout> {
  const payout = await (await ctx.client()).payouts.get(o.id)
  ctx.print(renderPayout(payout, ctx.color))
  return payout
}
