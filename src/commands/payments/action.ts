import {Flags} from '@oclif/core'
import type {Payment} from '../../api/types.js'
import {idArg, idempotencyKeyFlag} from '../../base/flags.js'
import {showPayment} from './shared/show.js'
import type {ActionOutcome} from '../../client/params.js'
import {GwCommand, type Context} from '../../base/command.js'

const OUTCOMES = ['approve', 'fail', 'abandon'] as const

export default class PaymentsAction extends GwCommand<typeof PaymentsAction> {
  static override summary = 'Test helper: act as the customer on a payment in requires_action.'
  static override operations = ['testPaymentAction'] as const
  static override description = 'Stands in for the customer on the hosted page (3-D Secure challenge, bank redirect, QR scan, voucher paid). Test keys only.'
  static override examples = [
    {description: 'Pass the 3-D Secure challenge', command: '<%= config.bin %> <%= command.id %> pay_123 --approve'},
    {description: 'Fail it (the payment fails with authentication_required)', command: '<%= config.bin %> <%= command.id %> pay_123 --fail'},
    {description: 'Walk away from it', command: '<%= config.bin %> <%= command.id %> pay_123 --abandon'},
  ]

  static override args = {id: idArg('pay_', 'payment')}
  static override flags = {
    approve: Flags.boolean({description: 'The customer completes the step.', exactlyOne: [...OUTCOMES]}),
    fail: Flags.boolean({description: 'The customer fails or refuses the step.', exactlyOne: [...OUTCOMES]}),
    abandon: Flags.boolean({description: 'The customer abandons the session.', exactlyOne: [...OUTCOMES]}),
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Payment> {
    return paymentsAction(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw payments action` takes: its flags and arguments by name (run() passes them as parsed). */
export interface PaymentsActionOptions {
  approve?: boolean
  fail?: boolean
  abandon?: boolean
  'idempotency-key'?: string
  id: string
}

export async function paymentsAction(ctx: Context, o: PaymentsActionOptions): Promise<Payment> {
  const outcome: ActionOutcome = o.approve ? 'approve' : o.fail ? 'fail' : 'abandon'
  const client = await ctx.client()
  const payment = await client.testHelpers.paymentAction(o.id, outcome, {idempotencyKey: o['idempotency-key']})
  showPayment(ctx, payment)
  return payment
}
