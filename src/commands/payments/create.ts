import {Flags} from '@oclif/core'
import type {Payment} from '../../api/types.js'
import {amountFlag, currencyFlag, idempotencyKeyFlag, metadataFlag, methodFlag} from '../../base/flags.js'
import {amountFromFlags} from '../../base/amount.js'
import {parseMetadata} from '../../base/parse.js'
import {cardInput, generateReference, PAYMENT_PARAMS, referenceForKey} from './shared/input.js'
import {withFlagNames} from '../../base/flag-errors.js'
import {followPayment, showPayment} from './shared/show.js'
import type {CreatePaymentParams} from '../../client/params.js'
import {formatMoney} from '../../api/money.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class PaymentsCreate extends GwCommand<typeof PaymentsCreate> {
  static override summary = 'Create a payment (and confirm it, unless --no-confirm).'
  static override operations = ['createPayment'] as const
  static override description = `Creates and routes a payment in one call. Amounts are integer minor units (--amount 2000 is 20.00 EUR); --display-amount takes the decimal form instead.
In test mode --card takes a test card number (4242424242424242 succeeds, 4000000000003220 asks for 3-D Secure, 4000000000000002 is declined). When the payment needs the customer (3-D Secure, a bank redirect), the command prints next_action.url; --open opens it and --wait follows the payment to a final state.`

  static override examples = [
    {description: 'A card payment that succeeds (test card)', command: '<%= config.bin %> <%= command.id %> --amount 2000 --currency EUR --method card --card 4242424242424242'},
    {description: 'The same amount written as a decimal', command: '<%= config.bin %> <%= command.id %> --display-amount 20.00 --currency EUR --card 4242424242424242'},
    {description: 'A 3-D Secure card: open the challenge page and wait for the outcome', command: '<%= config.bin %> <%= command.id %> --amount 2000 --currency EUR --card 4000000000003220 --open --wait'},
    {description: 'An iDEAL bank redirect', command: '<%= config.bin %> <%= command.id %> --amount 1500 --currency EUR --method ideal --return-url https://shop.example/return'},
    {description: 'Authorize now, capture later', command: '<%= config.bin %> <%= command.id %> --amount 5000 --currency USD --card 4242424242424242 --capture manual'},
    {description: 'Create without confirming, with metadata', command: '<%= config.bin %> <%= command.id %> --amount 900 --currency EUR --no-confirm --metadata order=1234 --metadata channel=web'},
  ]

  static override flags = {
    amount: amountFlag({description: 'Amount in minor units (2000 = 20.00 EUR; JPY has none: 500 = ¥500).', exclusive: ['display-amount']}),
    'display-amount': Flags.string({description: 'Amount as a decimal in the currency (20.00), instead of --amount.', exclusive: ['amount']}),
    currency: currencyFlag({required: true}),
    method: methodFlag({default: 'card'}),
    card: Flags.string({description: 'Test card number (test mode only), used once and not saved.', exclusive: ['payment-method-id']}),
    exp: Flags.string({description: 'Card expiry MM/YY (default: 12, three years ahead).', dependsOn: ['card']}),
    cvc: Flags.string({description: 'Card security code (default: 123, or 1234 for American Express).', dependsOn: ['card']}),
    'payment-method-id': Flags.string({description: 'Saved payment method (pm_...) to charge.'}),
    customer: Flags.string({description: 'Existing customer id (cus_...).', exclusive: ['customer-email', 'customer-name']}),
    'customer-email': Flags.string({description: 'Create the customer inline with this email.'}),
    'customer-name': Flags.string({description: 'Create the customer inline with this name.'}),
    reference: Flags.string({description: 'Merchant order id (default: a generated gw_YYYYMMDD_... reference).'}),
    capture: Flags.string({description: 'Capture method; manual authorizes only (cards).', options: ['automatic', 'manual']}),
    confirm: Flags.boolean({description: 'Confirm the payment now; --no-confirm leaves it in requires_confirmation.', allowNo: true, default: true}),
    'return-url': Flags.string({description: 'Absolute URL the customer returns to after a redirect or challenge.'}),
    description: Flags.string({description: 'Description of the payment.'}),
    merchant: Flags.string({description: 'Sub-merchant id (mer_...) the payment is for.'}),
    metadata: metadataFlag,
    'idempotency-key': idempotencyKeyFlag(),
    open: Flags.boolean({description: 'Open next_action.url in the browser when the customer must act.'}),
    wait: Flags.boolean({description: 'Follow the payment until it no longer waits for the customer or a provider.'}),
    timeout: Flags.string({description: 'How long --wait waits, e.g. 90s, 10m (default 10m).', dependsOn: ['wait']}),
  }

  async run(): Promise<Payment> {
    return paymentsCreate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments create` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsCreateOptions {
  amount?: number
  'display-amount'?: string
  currency: string
  method: string
  card?: string
  exp?: string
  cvc?: string
  'payment-method-id'?: string
  customer?: string
  'customer-email'?: string
  'customer-name'?: string
  reference?: string
  capture?: string
  confirm: boolean
  'return-url'?: string
  description?: string
  merchant?: string
  metadata?: string[]
  'idempotency-key'?: string
  open?: boolean
  wait?: boolean
  timeout?: string
}

export async function paymentsCreate(ctx: Context, f: PaymentsCreateOptions): Promise<Payment> {
  const amount = amountFromFlags(f, f.currency)
  if (f['return-url'] !== undefined && !/^https?:\/\/\S+$/.test(f['return-url'])) {
    throw new UsageError(`--return-url "${f['return-url']}" is not an absolute URL.`, 'e.g. --return-url https://shop.example/return')
  }

  const body: CreatePaymentParams = {
    amount,
    currency: f.currency,
    payment_method: f.method,
    // the same command line with the same --idempotency-key must send the same body, so the
    // generated reference comes from the key (a new key, a new reference)
    reference: f.reference ?? (f['idempotency-key'] ? referenceForKey(f['idempotency-key']) : generateReference()),
  }
  if (f.card !== undefined) {
    if (f.method !== 'card') throw new UsageError(`--card needs --method card, not --method ${f.method}.`)
    if (await ctx.isLive()) {
      throw new UsageError('Raw card numbers are accepted in test mode only.', 'In live mode, collect the card with hosted checkout and pass --payment-method-id.')
    }
    body.payment_method_data = {
      type: 'card',
      card: cardInput(f.card, f.exp, f.cvc),
    }
  }
  if (f['payment-method-id']) body.payment_method_id = f['payment-method-id']
  if (f.customer) body.customer = {id: f.customer}
  else if (f['customer-email'] || f['customer-name']) {
    body.customer = {...(f['customer-email'] ? {email: f['customer-email']} : {}), ...(f['customer-name'] ? {name: f['customer-name']} : {})}
  }
  if (f.capture) body.capture_method = f.capture as 'automatic' | 'manual'
  if (!f.confirm) body.confirm = false
  if (f['return-url']) body.return_url = f['return-url']
  if (f.description) body.description = f.description
  if (f.merchant) body.merchant = f.merchant
  const metadata = parseMetadata(f.metadata)
  if (metadata) body.metadata = metadata

  await ctx.confirmLive(`charge ${formatMoney(amount, f.currency)}`)
  const client = await ctx.client()
  let payment = await withFlagNames(PAYMENT_PARAMS, () => client.payments.create(body, {idempotencyKey: f['idempotency-key']}))
  if (f.open || f.wait) payment = await followPayment(ctx, payment, {open: f.open, wait: f.wait, timeout: f.timeout})
  else showPayment(ctx, payment)
  return payment
}
