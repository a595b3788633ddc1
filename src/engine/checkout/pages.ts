import type {IncomingMessage, ServerResponse} from 'node:http'
import {methodInfo} from '../../api/catalog.js'
import {formatMoney as money} from '../../output/money.js'
import type {App} from '../app/index.js'
import {customerAction} from '../app/payments.js'
import {DomainError} from '../domain/errors.js'
import {parseInstrument, type Instrument, type PaymentRecord} from '../domain/payment.js'
import {readBody, type RequestTarget} from '../http/pipeline.js'

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]!)


const CSS = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:0 16px;color:#1a1f36}
main{max-width:420px;margin:48px auto;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:28px}
h1{font-size:20px;margin:0 0 4px}.amount{font-size:28px;font-weight:600;margin:12px 0}
.muted{color:#697386;font-size:14px}.row{display:flex;gap:8px;margin-top:20px}
button{flex:1;padding:12px;border-radius:8px;border:0;font-size:15px;cursor:pointer}
.ok{background:#635bff;color:#fff}.no{background:#e3e8ee;color:#1a1f36}
label{display:block;font-size:13px;margin:12px 0 4px}input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #ccd;border-radius:6px;font-size:15px}
.qr{font-family:monospace;white-space:pre;line-height:1;font-size:10px;text-align:center;margin:16px 0}
.box{background:#f6f8fa;border-radius:8px;padding:12px;font-family:monospace;margin:12px 0}.test{background:#fff3cd;color:#6b4f00;font-size:12px;padding:6px 10px;border-radius:6px;display:inline-block;margin-bottom:16px}
.nowrap{white-space:nowrap}.issuer{display:flex;justify-content:space-between;align-items:center;border-bottom:1px solid #e3e8ee;padding-bottom:12px;margin:0 0 16px;font-size:13px;color:#697386}
.issuer b{color:#1a1f36;letter-spacing:.02em}.label{font-size:13px;color:#697386;margin:16px 0 0}.label+.amount{margin-top:2px}`

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head><body><main><span class="test">TEST MODE</span>${body}</main></body></html>`
}

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
        html: `<h1>Log in to your bank</h1><p class="muted">${esc(m.name)}: sign in and approve the transfer.</p><label>Username</label><input name="username" value="test-user" autocomplete="off">`,
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

/** Which field a card error is about, for the form to mark it. */
type CardField = 'number' | 'exp' | 'cvc'

function cardForm(p: PaymentRecord, session: string, error?: {field?: CardField; message: string}): string {
  const bad = (f: CardField) => (error?.field === f ? ' aria-invalid="true" aria-describedby="card-error"' : '')
  return page(
    'Pay by card',
    `<h1>Pay by card</h1><div class="amount">${esc(money(p.amount, p.currency))}</div>
<form method="post">
${error ? `<p id="card-error" role="alert" style="color:#c0123c">${esc(error.message)}</p>` : ''}
<label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required${bad('number')}>
<div class="row" style="margin-top:0"><div style="flex:1"><label for="exp">Expiry (MM/YY)</label><input id="exp" name="exp" inputmode="numeric" autocomplete="cc-exp" placeholder="12/30" required${bad('exp')}></div>
<div style="flex:1"><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123"${bad('cvc')}></div></div>
<input type="hidden" name="outcome" value="approve">
<div class="row"><button class="ok" type="submit">Pay ${esc(money(p.amount, p.currency))}</button></div></form>
<form method="post"><input type="hidden" name="outcome" value="cancel"><div class="row"><button class="no" type="submit">Cancel and return</button></div></form>`,
  )
}

/** A card the engine refused, in the customer's words (not the API's field names), and the field it is about. */
export function customerCardError(e: DomainError): {field?: CardField; message: string} {
  const m = e.message
  switch (e.code) {
    case 'card_number_invalid':
      if (/missing/.test(m)) return {field: 'number', message: 'Enter your card number.'}
      if (/only digits/.test(m)) return {field: 'number', message: 'Your card number can contain only digits.'}
      if (/digits;/.test(m)) return {field: 'number', message: 'Your card number is incomplete or too long.'}
      return {field: 'number', message: 'Your card number is incorrect. Check it for a typo.'}
    case 'card_expiry_invalid':
      return /expired/i.test(m) ? {field: 'exp', message: 'Your card has expired. Use another card.'} : {field: 'exp', message: "Your card's expiry date is not valid."}
    case 'cvc_invalid': {
      const len = /must be (\d) digits/.exec(m)?.[1] ?? '3'
      return {field: 'cvc', message: `Your card's security code is ${len} digits (on the ${len === '4' ? 'front' : 'back'} of the card).`}
    }
    default:
      return {message: 'This card cannot be used. Check the details or use another card.'}
  }
}

const FORM_MAX_BYTES = 64 * 1024

/** The posted form; undefined when it is over FORM_MAX_BYTES (the rest is read and dropped). */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const raw = await readBody(req, FORM_MAX_BYTES)
  return raw && new URLSearchParams(raw.toString('utf8'))
}

function html(res: ServerResponse, status: number, body: string, requestId: string) {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Request-Id': requestId,
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https: http:",
  })
  res.end(body)
}

function finish(res: ServerResponse, p: PaymentRecord, requestId: string) {
  if (p.status === 'requires_action' && p.next_action) {
    res.writeHead(303, {Location: p.next_action.url, 'Request-Id': requestId, 'Content-Length': 0})
    res.end()
    return
  }
  if (p.return_url) {
    const u = new URL(p.return_url)
    u.searchParams.set('payment', p.id)
    res.writeHead(303, {Location: u.toString(), 'Request-Id': requestId, 'Content-Length': 0})
    res.end()
    return
  }
  html(
    res,
    200,
    page(
      'Payment',
      `<h1>You can close this page</h1><p class="muted">Payment ${esc(p.id)} is now <b id="status">${esc(p.status)}</b>. The merchant learns the outcome by webhook.</p>`,
    ),
    requestId,
  )
}

/** Hosted pages at {checkout_url}: 3-D Secure, bank login, QR/app approval, vouchers, BNPL, card form. */
export function createCheckout(app: App) {
  return async function checkout(req: IncomingMessage, res: ServerResponse, url: RequestTarget, requestId: string): Promise<void> {
    const [, , step, id] = url.pathname.split('/')
    const session = url.searchParams.get('session') ?? ''
    const notFoundPage = (msg: string) => html(res, 404, page('Not found', `<h1>Link not valid</h1><p class="muted">${esc(msg)}</p>`), requestId)
    if (!step || !id || !['3ds', 'method', 'card'].includes(step)) return notFoundPage('This checkout page does not exist.')
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
    if (expected !== step) {
      res.writeHead(303, {Location: p.next_action!.url, 'Request-Id': requestId, 'Content-Length': 0})
      res.end()
      return
    }
    if (req.method === 'GET') {
      if (step === 'card') return html(res, 200, cardForm(p, session), requestId)
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
        const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.get('exp') ?? '')
        if (!m) return html(res, 400, cardForm(p, session, {field: 'exp', message: 'Enter the expiry date as MM/YY, for example 12/30.'}), requestId)
        const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2])
        const cvc = form.get('cvc') || undefined
        try {
          card = parseInstrument({card: {number: form.get('number') ?? '', exp_month: Number(m[1]), exp_year: year, cvc}}, core.clock.now(), '')
        } catch (e) {
          if (!(e instanceof DomainError)) throw e
          return html(res, 400, cardForm(p, session, customerCardError(e)), requestId)
        }
      }
      const out = await core.run({}, (u) => customerAction(u, p.id, outcome, {card, session}))
      finish(res, out, requestId)
    } catch (e) {
      if (e instanceof DomainError) return html(res, 409, page('Payment', `<h1>Cannot continue</h1><p class="muted">${esc(e.message)}</p>`), requestId)
      throw e
    }
  }
}
