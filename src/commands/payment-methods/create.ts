import {Flags} from '@oclif/core'
import type {PaymentMethod} from '../../api/types.js'
import {idempotencyKeyFlag} from '../../base/flags.js'
import {cardInput, PAYMENT_PARAMS} from '../payments/shared/input.js'
import {withFlagNames} from '../../base/flag-errors.js'
import type {CreatePaymentMethodParams} from '../../client/params.js'
import {renderPaymentMethod} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

export default class PaymentMethodsCreate extends GwCommand<typeof PaymentMethodsCreate> {
  static override summary = 'Save a card as a payment method (test mode: raw test card numbers).'
  static override operations = ['createPaymentMethod'] as const
  static override description = 'In live mode cards are collected by hosted checkout; raw numbers are refused.'
  static override examples = [
    '<%= config.bin %> <%= command.id %> --card 4242424242424242 --customer cus_123',
    {description: 'With expiry, CVC and billing details', command: '<%= config.bin %> <%= command.id %> --card 5555555555554444 --exp 08/29 --cvc 123 --billing-name "Jane Doe" --billing-country NL'},
  ]

  static override flags = {
    card: Flags.string({description: 'Card number (test mode only).', required: true}),
    exp: Flags.string({description: 'Expiry MM/YY (default: 12, three years ahead).'}),
    cvc: Flags.string({description: 'Security code (default: 123, or 1234 for American Express).'}),
    customer: Flags.string({description: 'Attach to this customer (cus_...).'}),
    'billing-name': Flags.string({description: 'Cardholder name.'}),
    'billing-email': Flags.string({description: 'Billing email.'}),
    'billing-line1': Flags.string({description: 'Billing address, first line.'}),
    'billing-postal-code': Flags.string({description: 'Billing postal code.'}),
    'billing-country': Flags.string({description: 'Billing country, two letters.'}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<PaymentMethod> {
    return paymentMethodsCreate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payment-methods create` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentMethodsCreateOptions {
  card: string
  exp?: string
  cvc?: string
  customer?: string
  'billing-name'?: string
  'billing-email'?: string
  'billing-line1'?: string
  'billing-postal-code'?: string
  'billing-country'?: string
  'idempotency-key'?: string
}

export async function paymentMethodsCreate(ctx: Context, f: PaymentMethodsCreateOptions): Promise<PaymentMethod> {
  if (await ctx.isLive()) {
    throw new UsageError('Raw card numbers are accepted in test mode only.', 'In live mode, save cards through hosted checkout.')
  }
  const body: CreatePaymentMethodParams = {
    type: 'card',
    card: cardInput(f.card, f.exp, f.cvc),
  }
  if (f.customer) body.customer = f.customer
  const address = {
    ...(f['billing-line1'] ? {line1: f['billing-line1']} : {}),
    ...(f['billing-postal-code'] ? {postal_code: f['billing-postal-code']} : {}),
    ...(f['billing-country'] ? {country: f['billing-country'].toUpperCase()} : {}),
  }
  const billing = {
    ...(f['billing-name'] ? {name: f['billing-name']} : {}),
    ...(f['billing-email'] ? {email: f['billing-email']} : {}),
    ...(Object.keys(address).length ? {address} : {}),
  }
  if (Object.keys(billing).length) body.billing_details = billing
  const client = await ctx.client()
  const pm = await withFlagNames(PAYMENT_PARAMS, () => client.paymentMethods.create(body, {idempotencyKey: f['idempotency-key']}))
  ctx.print(renderPaymentMethod(pm, ctx.color))
  return pm
}
