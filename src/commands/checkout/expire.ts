import type {CheckoutSession} from '../../api/types.js'
import {idArg} from '../../base/args.js'
import {renderCheckoutSession} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class CheckoutExpire extends GwCommand<typeof CheckoutExpire> {
  static override summary = 'End an open hosted checkout session now: its page says it has expired (checkout.session.expired).'
  static override operations = ['expireCheckoutSession'] as const
  static override examples = ['<%= config.bin %> <%= command.id %> cs_123']
  static override args = {id: idArg('cs_', 'checkout session')}

  async run(): Promise<CheckoutSession> {
    return checkoutExpire(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw checkout expire` takes: its flags and arguments by name (run() passes them as parsed). */
export interface CheckoutExpireOptions {
  id: string
}

export async function checkoutExpire(ctx: Context, o: CheckoutExpireOptions): Promise<CheckoutSession> {
  const s = await (await ctx.client()).checkout.expire(o.id)
  if (!ctx.json) ctx.print(renderCheckoutSession(s, ctx.color))
  return s
}
