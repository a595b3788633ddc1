import {Flags} from '@oclif/core'
import type {CheckoutSession, ListEnvelope} from '../../api/types.js'
import {CHECKOUT_SESSION_STATUSES} from '../../api/vocabulary.js'
import {listFlags, pageParams} from '../../base/flags.js'
import type {ListCheckoutSessionsParams} from '../../client/params.js'
import {checkoutColumns} from './shared/display.js'
import {GwCommand, type Context, type GwArgs, type GwFlags} from '../../base/command.js'

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
    return checkoutList(this.ctx, this.flags, this.args)
  }
}

export async function checkoutList(ctx: Context, f: GwFlags<typeof CheckoutList>, _args: GwArgs<typeof CheckoutList>): Promise<ListEnvelope<CheckoutSession> | CheckoutSession[]> {
  const params: ListCheckoutSessionsParams = {status: f.status, payment: f.payment, ...pageParams(f)}
  const client = await ctx.client()
  return ctx.list({
    all: f.all,
    noun: 'checkout sessions',
    columns: checkoutColumns,
    page: () => client.checkout.list(params),
    iterate: () => client.checkout.iterate({...params, limit: f.limit ?? 100}),
  })
}
