import type {CheckoutSession} from '../../api/types.js'
import {idArg} from '../../base/args.js'
import {renderCheckoutSession} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class CheckoutGet extends GwCommand<typeof CheckoutGet> {
  static override summary = 'Show a hosted checkout session: open, complete (with its payment) or expired.'
  static override operations = ['retrieveCheckoutSession'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> cs_123', {description: 'Its payment id, once paid', command: '<%= config.bin %> <%= command.id %> cs_123 --json | jq -r .payment'}]
  static override args = {id: idArg('cs_', 'checkout session')}

  async run(): Promise<CheckoutSession> {
    return checkoutGet(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw checkout get` takes: its flags and arguments by name (run() passes them as parsed). */
export interface CheckoutGetOptions {
  id: string
}

export async function checkoutGet(ctx: Context, o: CheckoutGetOptions): Promise<CheckoutSession> {
  const s = await (await ctx.client()).checkout.get(o.id)
  if (!ctx.json) ctx.print(renderCheckoutSession(s, ctx.color))
  return s
}
