// The hosted checkout session's page (docs/api.md#hosted-checkout-sessions): the amount, a card form, and the other methods
// the session offers as buttons. Paying creates a payment linked to the session; a decline or a
// failed step brings the customer back here with the reason in their words and the form to try
// again; a payment that succeeds (or is processing) sends them to success_url; "Back to the shop"
// to cancel_url, the session still open. No script: a form post per choice.
import type {IncomingMessage, ServerResponse} from 'node:http'
import {methodInfo} from '../../api/catalog.js'
import {formatMoney as money} from '../../api/money.js'
import type {CheckoutSessionRecord} from '../app/checkout-sessions.js'
import {sessionForPage, sessionPaymentChanged} from '../app/checkout-sessions.js'
import type {Core} from '../core/core.js'
import {createPayment} from '../app/payments.js'
import {DomainError} from '../domain/errors.js'
import {parseInstrument, type PaymentRecord} from '../domain/payment.js'
import type {RequestTarget} from '../http/request.js'
import {cardInputs, customerCardError, errorLine, esc, EXPIRY_ERROR, html, page, parseExpiry, readForm, redirect, type CardError} from './ui.js'

/** Why the last try failed, as the customer reads it. */
function failureWords(p: PaymentRecord): string {
  switch (p.failure_code) {
    case 'authentication_required':
      return 'Your bank could not confirm it was you. Try again, or use another card or way to pay.'
    case 'insufficient_funds':
      return 'Your card has insufficient funds. Try another card or another way to pay.'
    case 'expired_card':
      return 'Your card has expired. Try another card.'
    case 'incorrect_cvc':
      return "Your card's security code is incorrect. Check it and try again."
    case 'customer_canceled':
    case 'session_expired':
      return 'The payment was not completed. You can try again.'
    default:
      return p.payment_method === 'card' ? 'Your card was declined. Try another card or another way to pay.' : `${methodInfo(p.payment_method)?.name ?? 'The payment'} did not go through. Try again or choose another way to pay.`
  }
}

function sessionPage(s: CheckoutSessionRecord, error?: CardError): string {
  const others = s.payment_methods.filter((m) => m !== 'card')
  const card = s.payment_methods.includes('card')
    ? `<form method="post" aria-label="Pay by card"><input type="hidden" name="method" value="card">
${cardInputs(error?.field ? error : undefined)}
<div class="row"><button class="ok" type="submit">Pay ${esc(money(s.amount, s.currency))}</button></div></form>`
    : ''
  const alert = error && !error.field ? errorLine(error.message) : ''
  const methods = others.length
    ? `<p class="label">${card ? 'Or pay with' : 'Pay with'}</p><form method="post" aria-label="Other ways to pay"><div class="methods">${others
        .map((code) => `<button class="no" type="submit" name="method" value="${esc(code)}">${esc(methodInfo(code)?.name ?? code)}</button>`)
        .join('')}</div></form>`
    : ''
  return page(
    'Checkout',
    `<h1>Checkout</h1><p class="muted">Order ${esc(s.reference)}</p><div class="amount">${esc(money(s.amount, s.currency))}</div>${alert}${card}${methods}
<form method="post"><input type="hidden" name="outcome" value="cancel"><div class="row"><button class="back" type="submit">Back to the shop</button></div></form>`,
  )
}

const withParams = (url: string, params: Record<string, string>): string => {
  const u = new URL(url)
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v)
  return u.toString()
}


/** Where the customer goes once a try ended: on to the method's page, to success_url, or back to this page to try again. */
function after(res: ServerResponse, s: CheckoutSessionRecord, p: PaymentRecord, requestId: string): void {
  if (p.status === 'requires_action' && p.next_action) return redirect(res, p.next_action.url, requestId)
  if (p.status === 'failed' || p.status === 'canceled') return html(res, 402, sessionPage(s, {message: failureWords(p)}), requestId)
  redirect(res, withParams(s.success_url, {session: s.id, payment: p.id}), requestId)
}

/** GET and POST {checkout_url}/session/{cs_id}?account=…&token=… */
export async function sessionRoute(core: Core, id: string, url: RequestTarget, req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  const token = url.searchParams.get('token') ?? ''
  const gone = (title: string, words: string, status = 404) => html(res, status, page(title, `<h1>${esc(title)}</h1><p class="muted">${esc(words)}</p>`), requestId)
  const found = await core.store.get<CheckoutSessionRecord>('checkout_session', id)
  if (!found || found.obj._x.token !== token) return gone('Link not valid', 'This checkout link is not valid. Go back to the shop and start again.')
  const s = found.obj
  if (s.status === 'expired') return gone('Checkout expired', 'This checkout has expired. Go back to the shop and start again.', 410)
  if (s.status === 'complete') {
    if (req.method === 'GET') return redirect(res, withParams(s.success_url, {session: s.id, payment: s.payment!}), requestId)
    return gone('Already paid', 'This checkout is already paid.', 409)
  }
  if (req.method === 'GET') {
    const back = url.searchParams.get('payment')
    const last = back && back === s.payment ? (await core.store.get<PaymentRecord>('payment', back))?.obj : undefined
    if (last && last.status !== 'requires_action') return after(res, s, last, requestId)
    return html(res, 200, sessionPage(s), requestId)
  }
  if (req.method !== 'POST') return gone('Not allowed', 'Method not allowed.', 405)
  const form = await readForm(req)
  if (!form) return html(res, 413, page('Too large', '<h1>Form too large</h1><p class="muted">A checkout form is at most 64 KiB. Go back and submit the page again.</p>'), requestId)
  if (form.get('outcome') === 'cancel') return redirect(res, withParams(s.cancel_url, {session: s.id}), requestId)
  const method = form.get('method') ?? ''
  if (!s.payment_methods.some((m) => m === method)) return html(res, 400, sessionPage(s, {message: 'Choose one of the ways to pay below.'}), requestId)
  let card: {number: string; exp_month: number; exp_year: number; cvc?: string} | undefined
  if (method === 'card') {
    const exp = parseExpiry(form.get('exp') ?? '')
    if (!exp) return html(res, 400, sessionPage(s, EXPIRY_ERROR), requestId)
    card = {number: form.get('number') ?? '', exp_month: exp.month, exp_year: exp.year, cvc: form.get('cvc') || undefined}
    try {
      parseInstrument({card}, core.clock.now(), '')
    } catch (e) {
      if (!(e instanceof DomainError)) throw e
      return html(res, 400, sessionPage(s, customerCardError(e)), requestId)
    }
  }
  try {
    const {session, payment} = await core.run({}, async (u) => {
      // under the session's lock: a replayed or concurrent post sees the session as the first left it
      const {s: current} = await sessionForPage(u, s.id, token)
      if (current.status !== 'open') return {session: current, payment: undefined}
      const {payment: p} = await createPayment(
        u,
        {
          amount: current.amount,
          currency: current.currency,
          payment_method: method,
          ...(card ? {payment_method_data: {type: 'card', card}} : {}),
          reference: current.reference,
          metadata: current.metadata,
          ...(current.customer ? {customer: current.customer} : {}),
          // this page's own URL is every try's return_url: a failed step comes back here
          return_url: s.url,
        },
        {checkoutSession: current.id},
      )
      await sessionPaymentChanged(u, p)
      return {session: current, payment: p}
    })
    if (!payment) return gone(session.status === 'complete' ? 'Already paid' : 'Checkout expired', session.status === 'complete' ? 'This checkout is already paid.' : 'This checkout has expired.', 409)
    after(res, session, payment, requestId)
  } catch (e) {
    if (e instanceof DomainError) return html(res, 400, sessionPage(s, e.detail.param?.includes('card.') ? customerCardError(e) : {message: 'This payment could not be made. Try again or choose another way to pay.'}), requestId)
    throw e
  }
}
