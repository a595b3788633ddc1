import {Flags} from '@oclif/core'
import type {ListEnvelope, Payment, PaymentStatus} from '../../api/types.js'
import {listFlags, paymentStatusFlag, timestampFlag} from '../../base/flags.js'
import type {ListPaymentsParams} from '../../client/params.js'
import {paymentColumns} from '../../output/table.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

export default class PaymentsList extends GwCommand<typeof PaymentsList> {
  static override summary = 'List payments, newest first.'
  static override description = 'Shows one page (20 by default). Page on with --starting-after, or fetch every page with --all. Filters combine.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Succeeded payments of one customer', command: '<%= config.bin %> <%= command.id %> --status succeeded --customer cus_123'},
    {description: 'Everything created in January, as NDJSON for jq', command: '<%= config.bin %> <%= command.id %> --created-gte 2025-01-01 --created-lte 2025-01-31T23:59:59Z --all --json | jq .id'},
    {description: 'The next page', command: '<%= config.bin %> <%= command.id %> --limit 50 --starting-after pay_123'},
  ]

  static override flags = {
    status: paymentStatusFlag,
    customer: Flags.string({description: 'Only payments of this customer (cus_...).'}),
    reference: Flags.string({description: 'Only payments with this merchant reference.'}),
    'created-gte': timestampFlag({description: 'Created at or after this ISO 8601 date or date-time.'}),
    'created-lte': timestampFlag({description: 'Created at or before this ISO 8601 date or date-time.'}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<Payment> | Payment[]> {
    return paymentsList(this.ctx, this.flags, this.args)
  }
}

export async function paymentsList(ctx: Context, flags: GwFlags<typeof PaymentsList>, args: GwArgs<typeof PaymentsList>): Promise<ListEnvelope<Payment> | Payment[]> {
  const f = flags
  const params: ListPaymentsParams = {
    status: f.status as PaymentStatus | undefined,
    customer: f.customer,
    reference: f.reference,
    created_gte: f['created-gte'],
    created_lte: f['created-lte'],
    limit: f.limit,
    starting_after: f['starting-after'],
    ending_before: f['ending-before'],
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
