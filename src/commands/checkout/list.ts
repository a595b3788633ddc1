import {Flags} from '@oclif/core'
import type {CheckoutSession, ListEnvelope} from '../../api/types.js'
import {CHECKOUT_SESSION_STATUSES} from '../../api/vocabulary.js'
import {listFlags, pageParams, type PagingOptions} from '../../base/flags.js'
import type {ListCheckoutSessionsParams} from '../../client/params.js'
import {checkoutColumns} from './shared/display.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class CheckoutList extends GwCommand<typeof CheckoutList> {
  static override summary = 'List hosted checkout sessions, newest first.'
  static override operations = ['listCheckoutSessions'] as const
  static override description = 'Shows one page (20 by default). Page on with --starting-after, or fetch every page with --all.'
  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    {description: 'Sessions still waiting for the customer', command: '<%= config.bin %> <%= command.id %> --status open'},
    {description: 'The session a payment came from', command: '<%= config.bin %> <%= command.id %> --payment pay_123 --json'},
  ]

  static override flags = {
    status: Flags.option({description: 'Only sessions in this status.', options: CHECKOUT_SESSION_STATUSES})(),
    payment: Flags.string({description: 'Only the session this payment belongs to (pay_...).'}),
    ...listFlags,
  }

  async run(): Promise<ListEnvelope<CheckoutSession> | CheckoutSession[]> {
    return checkoutList(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw checkout list` takes: its flags and arguments by name (run() passes them as parsed). */
export interface CheckoutListOptions extends PagingOptions {
  status?: "open" | "complete" | "expired"
  payment?: string
}

export async function checkoutList(ctx: Context, o: CheckoutListOptions): Promise<ListEnvelope<CheckoutSession> | CheckoutSession[]> {
  const params: ListCheckoutSessionsParams = {status: o.status, payment: o.payment, ...pageParams(o)}
  const client = await ctx.client()
  return ctx.list({
    all: o.all,
    noun: 'checkout sessions',
    columns: checkoutColumns,
    page: () => client.checkout.list(params),
    iterate: () => client.checkout.iterate({...params, limit: o.limit ?? 100}),
  })
}
