import {Flags} from '@oclif/core'
import type {Payment} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {followPayment} from './shared/show.js'
import {GwCommand, type Context} from '../../base/command.js'

export default class PaymentsConfirm extends GwCommand<typeof PaymentsConfirm> {
  static override summary = 'Confirm a payment created with --no-confirm; it is routed now.'
  static override operations = ['confirmPayment'] as const
  static override examples = [
    '<%= config.bin %> <%= command.id %> pay_123',
    {description: 'Confirm with a saved card', command: '<%= config.bin %> <%= command.id %> pay_123 --payment-method-id pm_456'},
  ]

  static override args = {id: idArg('pay_', 'payment')}
  static override flags = {
    'payment-method-id': Flags.string({description: 'Saved payment method (pm_...) that replaces the instrument.'}),
    'idempotency-key': idempotencyKeyFlag(),
    open: Flags.boolean({description: 'Open next_action.url in the browser when the customer must act.'}),
    wait: Flags.boolean({description: 'Follow the payment until it no longer waits for the customer or a provider.'}),
    timeout: Flags.string({description: 'How long --wait waits, e.g. 90s, 10m (default 10m).', dependsOn: ['wait']}),
  }

  async run(): Promise<Payment> {
    return paymentsConfirm(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments confirm` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsConfirmOptions {
  'payment-method-id'?: string
  'idempotency-key'?: string
  open?: boolean
  wait?: boolean
  timeout?: string
  id: string
}

export async function paymentsConfirm(ctx: Context, f: PaymentsConfirmOptions): Promise<Payment> {
  await ctx.confirmLive(`confirm payment ${f.id}`)
  const client = await ctx.client()
  const body = f['payment-method-id'] ? {payment_method_id: f['payment-method-id']} : {}
  const payment = await client.payments.confirm(f.id, body, {idempotencyKey: f['idempotency-key']})
  return followPayment(ctx, payment, {open: f.open, wait: f.wait, timeout: f.timeout})
}
