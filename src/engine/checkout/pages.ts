import {randomBytes} from 'node:crypto'
import type {IncomingMessage, ServerResponse} from 'node:http'
import {methodInfo} from '../../api/catalog.js'
import {formatMoney as money} from '../../api/money.js'
import type {App} from '../app/index.js'
import {customerAction} from '../app/payment-changes.js'
import {DomainError} from '../domain/errors.js'
import {parseInstrument, type Instrument, type PaymentRecord} from '../domain/payment.js'
import type {RequestTarget} from '../http/request.js'
import {serveFields, serveScript} from './fields.js'
import {sessionRoute} from './session-page.js'
import {cardInputs, customerCardError, esc, EXPIRY_ERROR, html, page, parseExpiry, readForm, redirect, type CardError} from './ui.js'

const BRANDS: Record<string, string> = {visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover', jcb: 'JCB', diners: 'Diners Club', unionpay: 'UnionPay', maestro: 'Maestro'}
const brandName = (b: string | undefined) => (b ? (BRANDS[b] ?? b.charAt(0).toUpperCase() + b.slice(1)) : 'card')

function fakeQr(seed: string): string {
  let h = 2166136261
  const rows: string[] = []
  for (let y = 0; y < 21; y++) {
    let row = ''
    for (let x = 0; x < 21; x++) {
      h = Math.imul(h ^ seed.charCodeAt((x + y * 21) % seed.length), 16777619)
      const finder = (x < 7 && y < 7) || (x > 13 && y < 7) || (x < 7 && y > 13)
      const on = finder ? x % 6 === 0 || y % 6 === 0 || (x % 14 > 1 && x % 14 < 5 && y % 14 > 1 && y % 14 < 5) : (h >>> 7) & 1
      row += on ? '██' : '  '
    }
    rows.push(row)
  }
  return rows.join('\n')
}

function flowContent(p: PaymentRecord, step: string): {title: string; html: string; approve: string; fail: string} {
  const m = methodInfo(p.payment_method)!
  if (step === '3ds') {
    return {
      title: '3-D Secure authentication',
      html: `<div class="issuer"><b>TEST BANK</b><span>3-D Secure</span></div><h1>Verify it's you</h1><p class="muted">Your bank asks you to confirm this payment with your ${esc(brandName(p._x.instrument?.brand))} card <span class="nowrap">•••• ${esc(p._x.instrument?.last4 ?? '')}</span>.</p><p class="label">Amount</p>`,
      approve: 'Complete authentication',
      fail: 'Fail authentication',
    }
  }
  switch (m.flow) {
    case 'bank_login':
      return {
        title: `${m.name} bank login`,
        html: `<h1>Log in to your bank</h1><p class="muted">${esc(m.name)}: sign in and approve the transfer.</p><label for="username">Username</label><input id="username" name="username" value="test-user" autocomplete="username">`,
        approve: 'Log in and approve',
        fail: 'Refuse',
      }
    case 'qr':
      return {
        title: `${m.name} QR payment`,
        html: `<h1>Scan to pay with ${esc(m.name)}</h1><div class="qr" aria-label="QR code">${fakeQr(p.id)}</div><p class="muted">Scan with your app, or simulate the app below.</p>`,
        approve: 'Simulate: paid in app',
        fail: 'Simulate: declined in app',
      }
    case 'app_approval':
    case 'wallet_sheet':
      return {
        title: `${m.name} approval`,
        html: `<h1>Approve in ${esc(m.name)}</h1><p class="muted">A request was sent to the ${esc(m.name)} app. Approve it there, or simulate the app below.</p>`,
        approve: 'Approve in app',
        fail: 'Decline in app',
      }
    case 'voucher':
      return {
        title: `${m.name} voucher`,
        html: `<h1>${esc(m.name)} voucher</h1><p class="muted">Pay this voucher at a store or in online banking before ${esc(p._x.session?.expires_at.slice(0, 10) ?? '')}.</p><div class="box">${esc(p.id.slice(4).replace(/(.{4})/g, '$1 ').trim())}</div>`,
        approve: 'Simulate: voucher paid',
        fail: 'Simulate: let it expire',
      }
    case 'bnpl_approval':
      return {
        title: `${m.name}`,
        html: `<h1>Pay later with ${esc(m.name)}</h1><p class="muted">Split ${esc(money(p.amount, p.currency))} into instalments. Sign up and approve the plan.</p>`,
        approve: 'Approve plan',
        fail: 'Decline plan',
      }
    case 'transfer_instructions':
      return {
        title: `${m.name} transfer`,
        html: `<h1>Send a bank transfer</h1><p class="muted">Transfer exactly ${esc(money(p.amount, p.currency))} with this reference:</p><div class="box">${esc(p.reference)}</div>`,
        approve: 'Simulate: transfer received',
        fail: 'Simulate: never sent',
      }
    default:
      return {title: m.name, html: `<h1>${esc(m.name)}</h1>`, approve: 'Approve', fail: 'Refuse'}
  }
}

function cardForm(p: PaymentRecord, error?: CardError): string {
  return page(
    'Pay by card',
    `<h1>Pay by card</h1><div class="amount">${esc(money(p.amount, p.currency))}</div>
<form method="post">
${cardInputs(error)}
<input type="hidden" name="outcome" value="approve">
<div class="row"><button class="ok" type="submit">Pay ${esc(money(p.amount, p.currency))}</button></div></form>
<form method="post"><input type="hidden" name="outcome" value="cancel"><div class="row"><button class="no" type="submit">Cancel and return</button></div></form>`,
  )
}

function finish(res: ServerResponse, p: PaymentRecord, requestId: string) {
  if (p.status === 'requires_action' && p.next_action) return redirect(res, p.next_action.url, requestId)
  if (p.return_url) {
    const u = new URL(p.return_url)
    u.searchParams.set('payment', p.id)
    return redirect(res, u.toString(), requestId)
  }
  // shown in the card fields' modal (gw.js), the page tells the shop's page the outcome — the id
  // and status (and a failure's code) only, to the origin whose card fields confirmed
  // the payment and to no other
  const to = p._x.frame_origin
  const nonce = to ? randomBytes(12).toString('base64') : undefined
  const outcome = {id: p.id, status: p.status, ...(p.status === 'failed' ? {failure_code: p.failure_code} : {})}
  const tell = to ? `<script nonce="${nonce}">if (window.parent !== window) window.parent.postMessage({type: 'gw:payment', payment: ${JSON.stringify(outcome)}}, ${JSON.stringify(to)})</script>` : ''
  html(
    res,
    200,
    page(
      'Payment',
      `<h1>You can close this page</h1><p class="muted">Payment ${esc(p.id)} is now <b id="status">${esc(p.status)}</b>. The merchant learns the outcome by webhook.</p>${tell}`,
    ),
    requestId,
    {nonce, frameOrigin: to},
  )
}

/** Hosted pages at {checkout_url}: 3-D Secure, bank login, QR/app approval, vouchers, BNPL, card form. */
export function createCheckout(app: App) {
  return async function checkout(req: IncomingMessage, res: ServerResponse, url: RequestTarget, requestId: string): Promise<void> {
    const [, , step, id] = url.pathname.split('/')
    // hosted card fields (docs/decisions.md#browsers-and-hosted-pages): the script a shop includes, and the frame it mounts
    if (step === 'gw.js' && id === undefined) return serveScript(res, requestId)
    if (step === 'fields' && id === undefined) return serveFields(url, app.core.urls.baseUrl, res, requestId)
    const session = url.searchParams.get('session') ?? ''
    const notFoundPage = (msg: string) => html(res, 404, page('Not found', `<h1>Link not valid</h1><p class="muted">${esc(msg)}</p>`), requestId)
    if (!step || !id || !['3ds', 'method', 'card', 'session', 'returned'].includes(step) || (step === 'returned' && id !== 'success' && id !== 'cancel')) return notFoundPage('This checkout page does not exist.')
    if (step === 'returned') {
      // the stand-in for a shop's success and cancel pages (a session created without them)
      const paid = id === 'success'
      const paymentId = url.searchParams.get('payment') ?? ''
      return html(
        res,
        200,
        page(
          'Back at the shop',
          `<h1>${paid ? 'Thanks: back at the shop' : 'Back at the shop, not paid'}</h1><p class="muted">A stand-in page of the gateway: a checkout session created without ${paid ? 'success_url' : 'cancel_url'} returns here. Your shop's page would receive:</p><div class="box">session=${esc(session)}${paymentId ? `<br>payment=${esc(paymentId)}` : ''}</div><p class="muted">The outcome reaches your server by webhook (checkout.session.completed); the return only says the customer came back.</p>`,
        ),
        requestId,
      )
    }
    if (step === 'session') {
      // a hosted checkout session: its account is in its URL, like every page's
      const named = url.searchParams.get('account') ?? ''
      const core = /^acct_[0-9A-Za-z]+$/.test(named) && id.startsWith('cs_') ? await app.account(named).catch(() => undefined) : undefined
      if (!core) return notFoundPage('This checkout link is not valid. Go back to the shop and start again.')
      return sessionRoute(core, id, url, req, res, requestId)
    }
    // a page carries no key: the payment's account is in its URL (the platform account's pages, and
    // pages made before accounts, name none: the account that holds the payment is found)
    const named = url.searchParams.get('account')
    let core
    let got
    if (named !== null) {
      core = /^acct_[0-9A-Za-z]+$/.test(named) ? await app.account(named) : undefined
      got = core && id.startsWith('pay_') ? await core.store.get<PaymentRecord>('payment', id) : undefined
    } else {
      const found = id.startsWith('pay_') ? await app.core.engineStore.locate<PaymentRecord>('payment', 'id', id) : undefined
      if (found) [core, got] = [await app.account(found.account), {obj: found.obj}]
    }
    if (!got || !core) return notFoundPage('No such payment.')
    const p = got.obj
    if (p.status !== 'requires_action' || !p._x.session) return finish(res, p, requestId)
    if (p._x.session.token !== session) return notFoundPage('This checkout session has expired or the link is incomplete.')
    const expected = {challenge: '3ds', method: 'method', card_form: 'card'}[p._x.session.step]
    if (expected !== step) return redirect(res, p.next_action!.url, requestId)
    // the 3-D Secure step of a payment the card fields confirmed: framed by that shop's page alone (its modal)
    const frameOrigin = step === '3ds' ? p._x.frame_origin : undefined
    if (req.method === 'GET') {
      if (step === 'card') return html(res, 200, cardForm(p), requestId)
      const c = flowContent(p, step)
      return html(
        res,
        200,
        page(
          c.title,
          `${c.html}<div class="amount">${esc(money(p.amount, p.currency))}</div><p class="muted">Reference ${esc(p.reference)}</p>
<form method="post"><div class="row">
<button class="ok" type="submit" name="outcome" value="approve" id="approve">${esc(c.approve)}</button>
<button class="no" type="submit" name="outcome" value="fail" id="fail">${esc(c.fail)}</button></div></form>`,
        ),
        requestId,
        {frameOrigin},
      )
    }
    if (req.method !== 'POST') return html(res, 405, page('Not allowed', '<h1>Method not allowed</h1>'), requestId)
    const form = await readForm(req)
    if (!form) return html(res, 413, page('Too large', '<h1>Form too large</h1><p class="muted">A checkout form is at most 64 KiB. Go back and submit the page again.</p>'), requestId)
    const outcome = form.get('outcome')
    if (outcome !== 'approve' && outcome !== 'fail' && outcome !== 'abandon' && outcome !== 'cancel') return html(res, 400, page('Bad request', '<h1>Unknown action</h1>'), requestId)
    try {
      let card: Instrument | undefined
      if (step === 'card' && outcome === 'approve') {
        const exp = parseExpiry(form.get('exp') ?? '')
        if (!exp) return html(res, 400, cardForm(p, EXPIRY_ERROR), requestId)
        const cvc = form.get('cvc') || undefined
        try {
          card = parseInstrument({card: {number: form.get('number') ?? '', exp_month: exp.month, exp_year: exp.year, cvc}}, core.clock.now(), '')
        } catch (e) {
          if (!(e instanceof DomainError)) throw e
          return html(res, 400, cardForm(p, customerCardError(e)), requestId)
        }
      }
      const out = await core.run({}, (u) => customerAction(u, p.id, outcome, {card, session}))
      finish(res, out, requestId)
    } catch (e) {
      if (e instanceof DomainError) return html(res, 409, page('Payment', `<h1>Cannot continue</h1><p class="muted">${esc(e.message)}</p>`), requestId, {frameOrigin})
      throw e
    }
  }
}
