import {Flags} from '@oclif/core'
import {idArg} from '../../base/args.js'
import {GwCommand, type Context} from '../../base/command.js'
import {buildTimeline, renderTimeline, type PaymentTimeline, type TimelineEntry} from './shared/timeline.js'
import {noticeUnavailable} from './shared/unavailable.js'

export type {PaymentTimeline, TimelineEntry}

export default class PaymentsTimeline extends GwCommand<typeof PaymentsTimeline> {
  static override summary = "A payment's whole story in time order: status changes, provider attempts, refunds, dispute stages, webhook deliveries."
  static override description =
    "What a support agent needs to answer a customer: the payment's creation and every provider attempt (with its decline), every event of the payment and of its refunds and disputes, and every webhook attempt made for them (endpoint, HTTP status or error). From the 30-day event log (GET /events?object=...) and the delivery log."
  static override examples = [
    '<%= config.bin %> <%= command.id %> pay_123',
    {description: 'Without the webhook attempts', command: '<%= config.bin %> <%= command.id %> pay_123 --no-webhooks'},
    {description: 'For a script', command: '<%= config.bin %> <%= command.id %> pay_123 --json | jq ".timeline[] | select(.kind == \\"event\\") | .what"'},
  ]

  static override args = {id: idArg('pay_', 'payment', 'Find a payment by its order reference with: gw payments list --reference REF')}
  static override flags = {
    webhooks: Flags.boolean({description: 'Include every webhook attempt of its events.', default: true, allowNo: true}),
  }

  async run(): Promise<PaymentTimeline> {
    return paymentsTimeline(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments timeline` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsTimelineOptions {
  webhooks: boolean
  id: string
}

export async function paymentsTimeline(ctx: Context, o: PaymentsTimelineOptions): Promise<PaymentTimeline> {
  const {payment, timeline, unavailable} = await buildTimeline(await ctx.client(), o.id, {webhooks: o.webhooks})
  ctx.print(renderTimeline(payment, timeline, ctx.color))
  noticeUnavailable(ctx, unavailable)
  return {payment, timeline, unavailable}
}
