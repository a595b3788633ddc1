import {Flags} from '@oclif/core'
import type {CheckoutSession, CheckoutSessionCreate} from '../../api/types.js'
import {parseDuration} from '../../base/parse.js'
import {renderCheckoutSession} from './shared/display.js'
import {GwCommand, UsageError, type Context} from '../../base/command.js'

export default class CheckoutCreate extends GwCommand<typeof CheckoutCreate> {
  static override summary = 'Create a hosted checkout session: a page where a customer pays, tries again after a decline, and returns to your shop.'
  static override operations = ['createCheckoutSession'] as const
  static override description = `Prints the session and its page (url); --open opens it. The customer returns to --success-url with session and payment added, or to --cancel-url; without them, to a stand-in page of the gateway that shows what your shop would receive. The outcome reaches your server by webhook: checkout.session.completed, checkout.session.expired.
Amounts are integer minor units (--amount 2000 is 20.00 EUR). --methods limits what the page offers (default: every method that takes the currency and has a customer page).`
  static override examples = [
    {description: 'Try it by hand: pay €20.00 in the browser', command: '<%= config.bin %> <%= command.id %> --amount 2000 --currency EUR --open'},
    {description: 'Card or iDEAL, back to your shop', command: '<%= config.bin %> <%= command.id %> --amount 2000 --currency EUR --methods card,ideal --success-url https://shop.example/thanks --cancel-url https://shop.example/cart'},
    {description: 'The page url only, for a script', command: '<%= config.bin %> <%= command.id %> --amount 2000 --currency EUR --json | jq -r .url'},
  ]

  static override flags = {
    amount: Flags.integer({description: 'Amount in the currency\'s minor unit (2000 = 20.00 EUR).', required: true, min: 1}),
    currency: Flags.string({description: 'ISO 4217 currency code, e.g. EUR.', required: true}),
    methods: Flags.string({description: 'Comma-separated method codes to offer, e.g. card,ideal,klarna.'}),
    'success-url': Flags.string({description: 'Where the customer returns after paying.'}),
    'cancel-url': Flags.string({description: 'Where "Back to the shop" leads.'}),
    reference: Flags.string({description: 'Your order id, given to every payment of the session.'}),
    customer: Flags.string({description: 'Existing customer id (cus_...).'}),
    'expires-in': Flags.string({description: 'How long the page stays open: 30m to 24h (default 24h).'}),
    open: Flags.boolean({description: 'Open the page in the browser.'}),
  }

  async run(): Promise<CheckoutSession> {
    return checkoutCreate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw checkout create` takes: its flags and arguments by name (run() passes them as parsed). */
export interface CheckoutCreateOptions {
  amount: number
  currency: string
  methods?: string
  'success-url'?: string
  'cancel-url'?: string
  reference?: string
  customer?: string
  'expires-in'?: string
  open?: boolean
}

export async function checkoutCreate(ctx: Context, o: CheckoutCreateOptions): Promise<CheckoutSession> {
  const currency = o.currency.trim()
  if (!/^[A-Za-z]{3}$/.test(currency)) throw new UsageError(`--currency "${o.currency}" is not a currency code.`, 'e.g. --currency EUR')
  const body: CheckoutSessionCreate = {amount: o.amount, currency: currency.toUpperCase()}
  if (o.methods !== undefined) body.payment_methods = o.methods.split(',').map((m) => m.trim()).filter(Boolean)
  if (o['success-url'] !== undefined) body.success_url = o['success-url']
  if (o['cancel-url'] !== undefined) body.cancel_url = o['cancel-url']
  if (o.reference !== undefined) body.reference = o.reference
  if (o.customer !== undefined) body.customer = o.customer
  if (o['expires-in'] !== undefined) body.expires_in = parseDuration(o['expires-in'], '--expires-in')
  const s = await (await ctx.client()).checkout.create(body)
  if (o.open) {
    const {openUrl} = await import('../../base/io.js')
    ctx.notice((await openUrl(s.url)) ? `Opened ${s.url}` : `Could not open a browser; open this URL yourself: ${s.url}`)
  }
  if (ctx.json) return s
  ctx.print(renderCheckoutSession(s, ctx.color))
  ctx.notice(ctx.errColor.dim(`See how it went: gw checkout get ${s.id}   (or watch: gw events tail --type 'checkout.*')`))
  return s
}
