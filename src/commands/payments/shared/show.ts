// Showing a payment, and following one (--open, --wait) until it stops waiting for the
// customer or a provider.
import type {Payment, PaymentStatus} from '../../../api/types.js'
import {renderPayment, type PaymentRelated} from './display.js'
import {formatMoney} from '../../../api/money.js'
import type {Context} from '../../../base/context.js'
import {GwError} from '../../../errors.js'

/** Statuses where --wait stops: final ones, and the two that wait for the merchant. */
export const WAIT_DONE: ReadonlySet<PaymentStatus> = new Set(['succeeded', 'failed', 'canceled', 'requires_capture', 'requires_confirmation'])

export function showPayment(ctx: Context, payment: Payment, related?: PaymentRelated): void {
  if (ctx.json) return
  ctx.print(renderPayment(payment, ctx.color, related))
  const next = nextStepHint(payment)
  if (payment.status === 'requires_action' && payment.next_action?.url) {
    ctx.print('')
    ctx.print(`The customer must act: ${payment.next_action.url}`)
  }
  if (next) ctx.notice(ctx.errColor.dim(next))
}

export function nextStepHint(p: Payment): string | undefined {
  switch (p.status) {
    case 'requires_action':
      return `Open the URL (or re-run with --open --wait). In test mode: gw payments action ${p.id} --approve`
    case 'requires_confirmation':
      return `Confirm it with: gw payments confirm ${p.id}`
    case 'requires_capture': {
      if (p.amount_captured > 0) {
        // docs/api.md: a cancel after partial captures closes the payment as succeeded
        const left = formatMoney(p.amount - p.amount_captured, p.currency)
        return `${formatMoney(p.amount_captured, p.currency)} captured, ${left} still authorized. Capture more with: gw payments capture ${p.id}   (or close it: gw payments cancel ${p.id} — it succeeds with what was captured and releases the ${left} left)`
      }
      return `Capture it with: gw payments capture ${p.id}   (or release it: gw payments cancel ${p.id})`
    }
    case 'processing':
      return p.risk?.decision === 'review' ? `Held for risk review. In test mode: gw payments review ${p.id} --approve (or --block)` : undefined
    default:
      return undefined
  }
}

export async function followPayment(
  ctx: Context,
  initial: Payment,
  opts: {open?: boolean; wait?: boolean; timeout?: string},
): Promise<Payment> {
  const url = initial.status === 'requires_action' ? initial.next_action?.url : undefined
  // loaded only when following a payment: `gw payments get` stays lean
  const [{openUrl}, {bareSecondsNotice, parseDuration}] = await Promise.all([import('../../../base/io.js'), import('../../../base/parse.js')])
  if (opts.open && url) {
    const opened = await openUrl(url)
    ctx.notice(opened ? `Opened ${url}` : `Could not open a browser; open this URL yourself: ${url}`)
  } else if (opts.open && !opts.wait) {
    ctx.notice(`Nothing to open: ${initial.id} is ${initial.status} and needs no customer action.`)
  }
  if (!opts.wait || WAIT_DONE.has(initial.status)) {
    showPayment(ctx, initial)
    return initial
  }
  const bare = bareSecondsNotice(opts.timeout ?? '10m', '--timeout')
  if (bare) ctx.notice(ctx.errColor.yellow(bare))
  const timeoutMs = parseDuration(opts.timeout ?? '10m', '--timeout') * 1000
  if (url && !opts.open) ctx.notice(`The customer must act: ${url}`)
  const client = await ctx.client()
  const {startProgress} = await import('../../../ui/progress.js')
  const progress = await startProgress(`Waiting for ${initial.id}: ${initial.status}`, {json: ctx.json, write: (l) => ctx.notice(l)})
  const started = Date.now()
  let payment = initial
  let delay = 500
  let reviewHinted = false
  try {
    while (!WAIT_DONE.has(payment.status)) {
      if (Date.now() - started > timeoutMs) {
        throw new GwError(`Timed out after ${opts.timeout ?? '10m'} waiting for ${payment.id}; it is still ${payment.status}.`, {
          hint: `Check it later with: gw payments get ${payment.id}`,
        })
      }
      await ctx.sleep(delay)
      delay = Math.min(delay * 2, 2000)
      const next = await client.payments.get(payment.id)
      if (next.status !== payment.status) {
        progress.update(`Waiting for ${next.id}: ${next.status}`)
        progress.log(ctx.errColor.dim(`${next.id}: ${payment.status} → ${next.status}`))
      }
      if (!reviewHinted && next.status === 'processing' && next.risk?.decision === 'review') {
        reviewHinted = true
        progress.log(ctx.errColor.dim(nextStepHint(next) ?? ''))
      }
      payment = next
    }
  } finally {
    progress.stop()
  }
  showPayment(ctx, payment)
  return payment
}
