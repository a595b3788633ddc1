import {Flags} from '@oclif/core'
import type {Refund} from '../../api/types.js'
import {amountFlag, idempotencyKeyFlag, metadataFlag} from '../../base/flags.js'
import {parseMetadata} from '../../base/parse.js'
import type {CreateRefundParams} from '../../client/params.js'
import {ApiError} from '../../client/errors.js'
import type {GwClient} from '../../client/index.js'
import {refundHint, renderRefund} from './shared/display.js'
import {formatMoney, parseDisplayAmount} from '../../api/money.js'
import {withFlagNames, type ParamFlags} from '../../base/flag-errors.js'
import {GwCommand, type Context} from '../../base/command.js'
import {UsageError} from '../../errors.js'

/** The API params of a refund and the flags that set them (a 400 naming one is a usage error). */
const REFUND_PARAMS: ParamFlags = {payment: '--payment', amount: '--amount', reason: '--reason', metadata: '--metadata', 'metadata.': '--metadata'}

export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const

export default class RefundsCreate extends GwCommand<typeof RefundsCreate> {
  static override summary = 'Refund a succeeded payment, in full or in part.'
  static override operations = ['createRefund'] as const
  static override description = `The refund is created pending and goes to the provider that processed the payment; the rail answers later (refund.succeeded or refund.failed, when the amount becomes refundable again). The payment keeps its status; its amount_refunded grows.
Without --amount the whole remaining amount is refunded. --amount is in minor units (500 = 5.00 EUR); --display-amount takes the decimal form in the payment's currency. A payment with an open chargeback cannot be refunded: the money moves through the dispute.`

  static override examples = [
    {description: 'Refund everything still refundable', command: '<%= config.bin %> <%= command.id %> --payment pay_123'},
    {description: 'A partial refund of 5.00, asked for by the customer', command: '<%= config.bin %> <%= command.id %> --payment pay_123 --amount 500 --reason requested_by_customer'},
    {description: 'The same, as a decimal, with metadata', command: '<%= config.bin %> <%= command.id %> --payment pay_123 --display-amount 5.00 --metadata ticket=SUP-42'},
  ]

  static override flags = {
    payment: Flags.string({description: 'The payment to refund (pay_...).', required: true}),
    amount: amountFlag({description: "Amount in minor units of the payment's currency (500 = 5.00 EUR); default: all that is left.", exclusive: ['display-amount']}),
    'display-amount': Flags.string({description: "Amount as a decimal in the payment's currency (5.00), instead of --amount.", exclusive: ['amount']}),
    reason: Flags.string({description: 'Why the money goes back.', options: [...REFUND_REASONS]}),
    metadata: metadataFlag,
    'idempotency-key': idempotencyKeyFlag(),
  }

  async run(): Promise<Refund> {
    return refundsCreate(this.ctx, {...this.flags, ...this.args})
  }
}

/** What `gw refunds create` takes: its flags and arguments by name (run() passes them as parsed). */
export interface RefundsCreateOptions {
  payment: string
  amount?: number
  'display-amount'?: string
  reason?: string
  metadata?: string[]
  'idempotency-key'?: string
}

export async function refundsCreate(ctx: Context, f: RefundsCreateOptions): Promise<Refund> {
  if (!f.payment.startsWith('pay_')) throw new UsageError(`--payment "${f.payment}" is not a payment id; payment ids start with pay_.`)
  const metadata = parseMetadata(f.metadata)
  const client = await ctx.client()
  let amount = f.amount
  let currency: string | undefined
  if (f['display-amount'] !== undefined) {
    // the decimal needs the payment's currency
    currency = (await client.payments.get(f.payment)).currency
    try {
      amount = parseDisplayAmount(f['display-amount'], currency)
    } catch (error) {
      throw new UsageError(`--display-amount: ${(error as Error).message}`, `${f.payment} is in ${currency}; e.g. --display-amount 5.00`)
    }
    if (amount <= 0) throw new UsageError('--display-amount must be more than zero.')
  }
  const body: CreateRefundParams = {payment: f.payment}
  if (amount !== undefined) body.amount = amount
  if (f.reason) body.reason = f.reason as CreateRefundParams['reason']
  if (metadata) body.metadata = metadata

  if (await ctx.isLive()) {
    const what = amount !== undefined ? formatMoney(amount, currency ?? (await client.payments.get(f.payment)).currency) : 'everything still refundable'
    await ctx.confirmLive(`refund ${what} of ${f.payment}`)
  }
  const refund = await withFlagNames(REFUND_PARAMS, () => client.refunds.create(body, {idempotencyKey: f['idempotency-key']})).catch(async (error: unknown) => {
    // the API counts in minor units; someone who typed --display-amount gets the answer in theirs
    if (error instanceof ApiError && error.code === 'amount_too_large' && f['display-amount'] !== undefined && amount !== undefined && currency)
      error.explanation = await refundableInWords(client, f.payment, amount, currency)
    throw error
  })
  ctx.print(renderRefund(refund, ctx.color))
  const hint = refundHint(refund)
  if (hint) ctx.notice(ctx.errColor.dim(hint))
  return refund
}

/** "You asked for €50.00 EUR; at most €25.00 EUR is still refundable on pay_1 (the chargeback dp_1 took €20.00 EUR)." */
async function refundableInWords(client: GwClient, paymentId: string, asked: number, currency: string): Promise<string> {
  const p = await client.payments.get(paymentId)
  const lost = await client.disputes
    .list({payment: paymentId, limit: 100})
    .then((l) => l.data.filter((d) => d.status === 'lost' || d.status === 'accepted'), () => [])
  const taken = lost.reduce((sum, d) => sum + d.amount, 0)
  const left = Math.max(0, p.amount_captured - p.amount_refunded - taken)
  const why = [p.amount_refunded > 0 ? `${formatMoney(p.amount_refunded, currency)} refunded or pending` : '', ...lost.map((d) => `the chargeback ${d.id} took ${formatMoney(d.amount, currency)}`)].filter(Boolean)
  return `You asked for ${formatMoney(asked, currency)}; ${left > 0 ? `at most ${formatMoney(left, currency)} is` : 'nothing is'} still refundable on ${paymentId}${why.length ? ` (${why.join('; ')})` : ''}.`
}
