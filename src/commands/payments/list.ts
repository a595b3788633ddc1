import {Flags} from '@oclif/core'
import {PAYMENT_STATUSES, type ListEnvelope, type Payment, type PaymentStatus} from '../../api/types.js'
import {createdFlags, createdParams, listFlags, pageParams, type PagingOptions, type CreatedOptions} from '../../base/flags.js'
import type {ListPaymentsParams} from '../../client/params.js'
import {paymentColumns} from './shared/display.js'
import {GwCommand, UsageError, type Context} from '../../base/command.js'

export default class PaymentsList extends GwCommand<typeof PaymentsList> {
  static override summary = 'List payments, newest first.'
  static override operations = ['listPayments'] as const
  static override description = 'Shows one page (20 by default). Page on with --starting-after, or fetch every page with --all. Filters combine.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Succeeded payments of one customer', command: '<%= config.bin %> <%= command.id %> --status succeeded --customer cus_123'},
    {description: 'Every payment of the customer with this email (all their cus_ ids)', command: '<%= config.bin %> <%= command.id %> --customer ada@example.com'},
    {description: 'What a customer tells support: the card\'s last four digits and part of their name', command: '<%= config.bin %> <%= command.id %> --card-last4 4242 --customer-name "zoe love"'},
    {description: 'Every payment of customers at one email domain (any case)', command: '<%= config.bin %> <%= command.id %> --email-domain lovelace-shop.example'},
    {description: 'Orders 1000 to 1099, by reference prefix', command: '<%= config.bin %> <%= command.id %> --reference-prefix 10'},
    {description: 'By a metadata value', command: '<%= config.bin %> <%= command.id %> --metadata order_id=1008'},
    {description: 'Everything created in January, as NDJSON for jq', command: '<%= config.bin %> <%= command.id %> --created-gte 2025-01-01 --created-lte 2025-01-31T23:59:59Z --all --json | jq .id'},
    {description: 'The next page', command: '<%= config.bin %> <%= command.id %> --limit 50 --starting-after pay_123'},
  ]

  static override flags = {
    status: Flags.string({description: 'Only payments in this status.', options: [...PAYMENT_STATUSES]}),
    customer: Flags.string({description: 'Only payments of this customer: a cus_ id, or an email (every customer with it, in any case).'}),
    'customer-email': Flags.string({description: 'Only payments of customers with this email, in any case.', exclusive: ['customer']}),
    'customer-name': Flags.string({description: 'Only payments of customers whose name, or its last word, starts with this (case and accents ignored).'}),
    'email-domain': Flags.string({description: 'Only payments of customers whose email is at this domain (any case).'}),
    'card-last4': Flags.string({description: 'Only card payments whose card ends in these four digits.'}),
    reference: Flags.string({description: 'Only payments with exactly this merchant reference.', exclusive: ['reference-prefix']}),
    'reference-prefix': Flags.string({description: 'Only payments whose merchant reference starts with this.'}),
    metadata: Flags.string({description: 'Only payments whose metadata has this value: key=value.'}),
    ...createdFlags,
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<Payment> | Payment[]> {
    return paymentsList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsListOptions extends PagingOptions, CreatedOptions {
  status?: string
  customer?: string
  'customer-email'?: string
  'customer-name'?: string
  'email-domain'?: string
  'card-last4'?: string
  reference?: string
  'reference-prefix'?: string
  metadata?: string
}

export async function paymentsList(ctx: Context, f: PaymentsListOptions): Promise<ListEnvelope<Payment> | Payment[]> {
  const params: ListPaymentsParams = {
    status: f.status as PaymentStatus | undefined,
    ...customerFilter(f.customer),
    ...(f['customer-email'] === undefined ? {} : {customer_email: f['customer-email']}),
    customer_name: f['customer-name'],
    email_domain: f['email-domain'],
    card_last4: last4Filter(f['card-last4']),
    reference: f.reference,
    reference_prefix: f['reference-prefix'],
    metadata: metadataFilter(f.metadata),
    ...createdParams(f),
    ...pageParams(f),
  }
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'payments',
    columns: paymentColumns,
    page: () => client.payments.list(params),
    iterate: () => client.payments.iterate({...params, limit: f.limit ?? 100}),
  })
}

/** --customer takes a cus_ id or an email; anything else is the wrong kind of id, said so. */
export function customerFilter(value: string | undefined): {customer?: string; customer_email?: string} {
  if (value === undefined) return {}
  if (value.startsWith('cus_')) return {customer: value}
  if (/^[^@\s]+@[^@\s]+$/.test(value)) return {customer_email: value}
  const kind = /^[a-z]+_/.exec(value)?.[0]
  throw new UsageError(
    `--customer "${value}" is ${kind ? `a ${kind}... id, not a customer id` : 'neither a customer id nor an email'}.`,
    'Pass a customer id (cus_...) or the customer\'s email, e.g. --customer ada@example.com',
  )
}

function metadataFilter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const at = value.search(/[=:]/)
  if (at <= 0) throw new UsageError(`--metadata "${value}" is not key=value.`, 'e.g. --metadata order_id=1008')
  return `${value.slice(0, at)}:${value.slice(at + 1)}`
}

/** --card-last4 takes four digits, checked before a request is made. */
function last4Filter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const digits = value.trim()
  if (!/^[0-9]{4}$/.test(digits)) throw new UsageError(`--card-last4 "${value}" is not four digits.`, "Pass the card's last four digits, e.g. --card-last4 4242")
  return digits
}
