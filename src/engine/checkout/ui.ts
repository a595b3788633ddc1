// What the hosted pages share: the page frame, card inputs that follow the platform's
// conventions, card errors in the customer's words, reading a posted form, answering HTML.
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {DomainError} from '../domain/errors.js'
import {readBody} from '../http/request.js'

export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]!)


/** Where the keyboard is, always visible: a dark ring with a light gap around every focused control (WCAG 2.4.7). */
export const FOCUS = ':focus-visible{outline:3px solid #1a1f36;outline-offset:2px}[role=alert]:focus{outline:none}'

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
.issuer b{color:#1a1f36;letter-spacing:.02em}.label{font-size:13px;color:#697386;margin:16px 0 0}.label+.amount{margin-top:2px}
.methods{display:grid;grid-template-columns:1fr 1fr;gap:8px;margin-top:8px}.methods button{flex:none}.back{background:none;color:#635bff;text-decoration:underline}
${FOCUS}`

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${CSS}</style></head><body><main><span class="test">TEST MODE</span>${body}</main></body></html>`
}

/**
 * An error shown on a page the form post brought back: a live region (role=alert) that takes the
 * focus when the page loads, so a screen reader reads it at once and the keyboard goes on from
 * it to the field it is about (which names it in aria-describedby).
 */
export function errorLine(message: string): string {
  return `<p id="card-error" role="alert" tabindex="-1" autofocus style="color:#c0123c">${esc(message)}</p>`
}

/** Which field a card error is about, for the form to mark it. */
export type CardField = 'number' | 'exp' | 'cvc'
export type CardError = {field?: CardField; message: string}

/** The card inputs: labels, autocomplete cc-number / cc-exp / cc-csc, numeric keyboards, the field in error marked. */
export function cardInputs(error?: CardError): string {
  const bad = (f: CardField) => (error?.field === f ? ' aria-invalid="true" aria-describedby="card-error"' : '')
  return `${error ? errorLine(error.message) : ''}
<label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required${bad('number')}>
<div class="row" style="margin-top:0"><div style="flex:1"><label for="exp">Expiry (MM/YY)</label><input id="exp" name="exp" inputmode="numeric" autocomplete="cc-exp" placeholder="12/30" required${bad('exp')}></div>
<div style="flex:1"><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123"${bad('cvc')}></div></div>`
}

/** A card the engine refused, in the customer's words (not the API's field names), and the field it is about. */
export function customerCardError(e: DomainError): CardError {
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
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const raw = await readBody(req, FORM_MAX_BYTES)
  return raw && new URLSearchParams(raw.toString('utf8'))
}

/**
 * Who may frame a hosted page (docs/decisions.md#private-files-and-framed-pages): nobody (`frame-ancestors 'none'` and, for browsers that
 * know only it, `X-Frame-Options: DENY`) unless a page is meant to be framed — the card fields
 * anywhere (`*`), a payment's 3-D Secure step in the modal of the shop whose card fields confirmed
 * it (that origin, bound to the payment). Every hosted page's URL names a payment, a session or a
 * key, most with a token: none is ever sent on as a Referer.
 */
export function pageHeaders(frameOrigin?: string): {csp: string; headers: Record<string, string>} {
  return {
    csp: `frame-ancestors ${frameOrigin ?? "'none'"}`,
    headers: {'Referrer-Policy': 'no-referrer', ...(frameOrigin ? {} : {'X-Frame-Options': 'DENY'})},
  }
}

/** An HTML page; its one script, if any, runs by `nonce` (hosted pages otherwise run none); framed only by `frameOrigin` (pageHeaders). */
export function html(res: ServerResponse, status: number, body: string, requestId: string, opts: {nonce?: string; frameOrigin?: string} = {}) {
  const framing = pageHeaders(opts.frameOrigin)
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Request-Id': requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https: http:${opts.nonce ? `; script-src 'nonce-${opts.nonce}'` : ''}; ${framing.csp}`,
    ...framing.headers,
  })
  res.end(body)
}

/** 303 to the next page: a redirect from a page whose URL holds a token sends no Referer either. */
export function redirect(res: ServerResponse, location: string, requestId: string): void {
  res.writeHead(303, {Location: location, 'Request-Id': requestId, 'Content-Length': 0, 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff'})
  res.end()
}


/** "12/30" or "12 / 2030" -> month and four-digit year; undefined when it does not look like MM/YY. */
export function parseExpiry(text: string): {month: number; year: number} | undefined {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text)
  if (!m) return undefined
  return {month: Number(m[1]), year: m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2])}
}

export const EXPIRY_ERROR: CardError = {field: 'exp', message: 'Enter the expiry date as MM/YY, for example 12/30.'}
