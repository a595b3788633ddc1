import {Flags} from '@oclif/core'
import type {ListEnvelope, Refund} from '../../api/types.js'
import {listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import type {ListRefundsParams} from '../../client/params.js'
import {refundColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class RefundsList extends GwCommand<typeof RefundsList> {
  static override summary = 'List refunds, newest first.'
  static override operations = ['listRefunds'] as const
  static override description = 'Shows one page (20 by default). Page on with --starting-after, or fetch every page with --all.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'The refunds of one payment', command: '<%= config.bin %> <%= command.id %> --payment pay_123'},
    {description: 'Failed refunds, every page, as NDJSON', command: '<%= config.bin %> <%= command.id %> --status failed --all --json'},
  ]

  static override flags = {
    payment: Flags.string({description: 'Only refunds of this payment (pay_...).'}),
    status: Flags.string({description: 'Only refunds in this status.', options: ['pending', 'succeeded', 'failed']}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<Refund> | Refund[]> {
    return refundsList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw refunds list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface RefundsListOptions extends PagingOptions {
  payment?: string
  status?: string
}

export async function refundsList(ctx: Context, f: RefundsListOptions): Promise<ListEnvelope<Refund> | Refund[]> {
  const params: ListRefundsParams = {
    payment: f.payment,
    status: f.status as ListRefundsParams['status'],
    ...pageParams(f),
  }
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'refunds',
    columns: refundColumns,
    page: () => client.refunds.list(params),
    iterate: () => client.refunds.iterate({...params, limit: f.limit ?? 100}),
  })
}
