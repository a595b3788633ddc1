import {Flags} from '@oclif/core'
import type {Payment} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {withFlagNames} from '../../base/flag-errors.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'
import {cardInput, PAYMENT_PARAMS} from '../payments/shared/input.js'
import {followPayment} from '../payments/shared/show.js'

export default class CheckoutPay extends GwCommand<typeof CheckoutPay> {
  static override summary = 'Pay an open checkout session with a card, one try, as the hosted card fields do (card.confirmCheckoutSession).'
  static override operations = ['payCheckoutSession'] as const
  static override description =
    'Each try is a payment of the session. A decline (exit 4) leaves the session open for another card; a payment that succeeds completes it (checkout.session.completed). A try that needs 3-D Secure waits for the customer (--open shows the page); an earlier try still waiting is canceled.'
  static override examples = [
    {description: 'A declined card, then another on the same session', command: '<%= config.bin %> <%= command.id %> cs_123 --card 4000000000000002; <%= config.bin %> <%= command.id %> cs_123 --card 4242424242424242'},
    {description: 'With a card saved before (a pm_ of the card fields)', command: '<%= config.bin %> <%= command.id %> cs_123 --payment-method-id pm_456'},
  ]

  static override args = {id: idArg('cs_', 'checkout session')}
  static override flags = {
    'payment-method-id': Flags.string({description: 'A saved card (pm_...) to pay with.', exactlyOne: ['payment-method-id', 'card']}),
    card: Flags.string({description: 'A card number to save and pay with (test mode only), as the card fields do.', exactlyOne: ['payment-method-id', 'card']}),
    exp: Flags.string({description: 'Expiry MM/YY of --card (default: 12, three years ahead).', dependsOn: ['card']}),
    cvc: Flags.string({description: 'Security code of --card (default: 123, or 1234 for American Express).', dependsOn: ['card']}),
    'idempotency-key': idempotencyKeyFlag(),
    open: Flags.boolean({description: 'Open next_action.url in the browser when the customer must act (3-D Secure).'}),
  }

  async run(): Promise<Payment> {
    return checkoutPay(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw checkout pay` takes: its flags and arguments by name (run() passes them as parsed). */
export interface CheckoutPayOptions {
  'payment-method-id'?: string
  card?: string
  exp?: string
  cvc?: string
  'idempotency-key'?: string
  open?: boolean
  id: string
}

export async function checkoutPay(ctx: Context, f: CheckoutPayOptions): Promise<Payment> {
  await ctx.confirmLive(`pay checkout session ${f.id}`)
  const client = await ctx.client()
  let pm = f['payment-method-id']
  if (f.card !== undefined) {
    if (await ctx.isLive()) throw new UsageError('Raw card numbers are accepted in test mode only.', 'In live mode the customer types the card into the hosted card fields or the checkout page.')
    const card = cardInput(f.card, f.exp, f.cvc)
    pm = (await withFlagNames(PAYMENT_PARAMS, () => client.paymentMethods.create({type: 'card', card}))).id
  }
  const payment = await client.checkout.pay(f.id, {payment_method_id: pm!}, {idempotencyKey: f['idempotency-key']})
  const shown = await followPayment(ctx, payment, {open: f.open})
  if (!ctx.json && payment.status === 'succeeded') ctx.print(`Checkout session ${f.id} is complete.`)
  return shown
}
