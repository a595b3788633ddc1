// Hosted card fields (docs/decisions.md#browsers-and-hosted-pages): {checkout_url}/gw.js, a script a shop's page includes to mount
// a card field in an iframe from {checkout_url}, so the card number never touches the shop's page
// or server. The iframe saves the card as a payment method (pm_) with the shop's publishable key
// and tells the page only the id, brand and last four digits:
//
//   <div id="card"></div>
//   <script src="https://GATEWAY/checkout/gw.js"></script>
//   <script>
//     const card = GW('pk_test_…').mountCard('#card')
//     // your server creates one checkout session per order (the order's Idempotency-Key); each try
//     // is a payment of it, so a declined card can be followed by another
//     const {payment, error} = await card.confirmCheckoutSession('cs_…')   // 3-D Secure in a modal
//     // or: the card alone, then your server pays with payment_method_id
//     const {paymentMethod, error} = await card.save()
//     // or: one payment your server created (confirm: false): one try, no second card
//     const {payment, error} = await card.confirmPayment('pay_…')
//   </script>
//
// An error is {type, code, decline_code, message, param?, payment?} as the API's are: `code` the
// API's code (a decline's is the issuer's, e.g. insufficient_funds, and `decline_code` repeats
// it; null for other errors), `message` in the customer's words for card and validation errors
// (the frame shows it on its field), the API's own message for the rest (meant for you).
import {randomBytes} from 'node:crypto'
import type {ServerResponse} from 'node:http'
import type {RequestTarget} from '../http/request.js'
import {cardInputs, esc, FOCUS, html, page, pageHeaders} from './ui.js'

/**
 * What the frame shows the customer (and the page gets as `error.message` for card and validation
 * errors). A decline says what the customer can do next, which depends on what the page pays: a
 * checkout session takes another try (`declined`), a single payment does not — the shop must start
 * a new one (`start_again`; docs/api.md#card-fields-wording).
 */
const WORDS = {
  card_number_invalid: 'Your card number is incorrect. Check it for a typo.',
  card_expiry_invalid: "Your card's expiry date is in the past or not valid.",
  cvc_invalid: "Your card's security code is incomplete.",
  expiry_format: 'Enter the expiry date as MM/YY, for example 12/30.',
  other: 'This card could not be saved. Check the details and try again.',
  // why a card was declined, by the issuer's code
  declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  authentication_required: 'Your bank could not confirm it was you.',
  // and what the customer can do then: a session takes another try; a single payment does not
  try_again: {incorrect_cvc: 'Check it and try again.', authentication_required: 'Try again or use another card.', other: 'Try another card.'},
  start_again: 'To pay, go back to the shop and start the payment again.',
  // what the customer can do about the rest
  payment_unexpected_state: 'This payment can no longer be made here. To pay, go back to the shop and start the payment again.',
  checkout_session_not_open: 'This checkout has ended: it is already paid, or it expired.',
  not_paid: 'The payment could not be made. Try again.',
}

/** A decline in the customer's words, with what they can do on this path (the same rule as the frame's script). */
export function declineWords(code: string, once: boolean): string {
  const why = code === 'insufficient_funds' || code === 'expired_card' || code === 'incorrect_cvc' || code === 'authentication_required' ? WORDS[code] : WORDS.declined
  const next = once ? WORDS.start_again : ((WORDS.try_again as Record<string, string | undefined>)[code] ?? WORDS.try_again.other)
  return `${why} ${next}`
}

/** Every decline's words on each path, for the frame's script. */
const DECLINES = Object.fromEntries(
  (['session', 'once'] as const).map((path) => [path, Object.fromEntries(['card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc', 'authentication_required', 'other'].map((code) => [code, declineWords(code, path === 'once')]))]),
)

/** The script a shop's page includes. Plain ES5-style JavaScript: it runs in any browser as is. */
const SCRIPT = `/* gw.js: hosted card fields of the gw gateway (test mode). */
(function () {
  var me = document.currentScript && document.currentScript.src
  if (!me) throw new Error('gw.js: load it with a <script src> tag')
  var base = me.replace(/\\/gw\\.js([?#].*)?$/, '')
  var origin = new URL(base).origin
  var seq = 0
  function GW(publishableKey) {
    if (!/^pk_(test|live)_/.test(publishableKey || '')) throw new Error('gw.js: GW(key) takes your publishable key (pk_test_...), never a secret key')
    return {
      mountCard: function (target) {
        var el = typeof target === 'string' ? document.querySelector(target) : target
        if (!el) throw new Error('gw.js: nothing matches ' + target)
        var frame = document.createElement('iframe')
        frame.src = base + '/fields?key=' + encodeURIComponent(publishableKey)
        frame.title = 'Card details'
        frame.style.cssText = 'border:0;width:100%;height:190px'
        var loaded = new Promise(function (r) { frame.addEventListener('load', r) })
        el.appendChild(frame)
        var waiting = {}
        window.addEventListener('message', function (e) {
          if (e.origin !== origin || !e.data || e.data.type !== 'gw:done' || !waiting[e.data.id]) return
          waiting[e.data.id](e.data.result)
          delete waiting[e.data.id]
        })
        function ask(message) {
          return new Promise(function (resolve) {
            var id = ++seq
            waiting[id] = resolve
            message.id = id
            loaded.then(function () { frame.contentWindow.postMessage(message, origin) })
          })
        }
        /** 3-D Secure in a modal over the page: the challenge page of the gateway, which says the outcome when done. */
        function challenge(payment, once) {
          return new Promise(function (resolve) {
            var overlay = document.createElement('div')
            overlay.setAttribute('role', 'dialog')
            overlay.setAttribute('aria-modal', 'true')
            overlay.setAttribute('aria-label', 'Confirm the payment with your bank')
            overlay.style.cssText = 'position:fixed;inset:0;background:rgba(10,20,40,.55);display:flex;align-items:center;justify-content:center;z-index:2147483647'
            var box = document.createElement('iframe')
            box.src = payment.next_action_url
            box.title = '3-D Secure'
            box.style.cssText = 'border:0;border-radius:12px;background:#f4f5f7;width:min(480px,96vw);height:min(640px,92vh)'
            overlay.appendChild(box)
            document.body.appendChild(overlay)
            function done(e) {
              if (e.origin !== origin || e.source !== box.contentWindow || !e.data || e.data.type !== 'gw:payment' || e.data.payment.id !== payment.id) return
              window.removeEventListener('message', done)
              overlay.remove()
              var p = e.data.payment
              if (p.status !== 'failed') return resolve({payment: {id: p.id, status: p.status}})
              var code = p.failure_code || 'authentication_required'
              resolve({payment: {id: p.id, status: p.status}, error: {type: 'card_error', code: code, decline_code: code === 'authentication_required' ? null : code, message: once ? ${JSON.stringify(declineWords('authentication_required', true))} : ${JSON.stringify(declineWords('authentication_required', false))}, payment: p.id}})
            }
            window.addEventListener('message', done)
          })
        }
        /** A payment that needs 3-D Secure goes through the modal; anything else is the answer. \`once\`: a single payment (no second try). */
        function stepUp(once) {
          return function (r) {
            if (r.error || !r.payment || r.payment.status !== 'requires_action' || !r.payment.next_action_url) return r
            return challenge(r.payment, once)
          }
        }
        return {
          frame: frame,
          /** Saves the card as a payment method: {paymentMethod: {id, brand, last4, ...}} or {error}. */
          save: function () {
            return ask({type: 'gw:save'})
          },
          /**
           * Pays a checkout session your server created for the order with this card, one try; 3-D
           * Secure in a modal: {payment: {id, status}} or {error: {code, decline_code, message, ...}}.
           * After a decline the session stays open: call it again with another card.
           */
          confirmCheckoutSession: function (sessionId) {
            return ask({type: 'gw:pay', session: sessionId}).then(stepUp(false))
          },
          /** Pays one payment your server created (confirm: false) with this card; 3-D Secure in a modal: {payment: {id, status}} or {error}. A declined payment cannot be tried again: use confirmCheckoutSession for that. */
          confirmPayment: function (paymentId) {
            return ask({type: 'gw:confirm', payment: paymentId}).then(stepUp(true))
          },
        }
      },
    }
  }
  window.GW = GW
})()
`

export function serveScript(res: ServerResponse, requestId: string): void {
  res.writeHead(200, {'Content-Type': 'text/javascript; charset=utf-8', 'Content-Length': Buffer.byteLength(SCRIPT), 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': '*', 'Request-Id': requestId, 'X-Content-Type-Options': 'nosniff'})
  res.end(SCRIPT)
}

/** {checkout_url}/fields?key=pk_…: the card inputs, and a script that saves them (and pays with them) when the page asks. */
export function serveFields(url: RequestTarget, apiBase: string, res: ServerResponse, requestId: string): void {
  const key = url.searchParams.get('key') ?? ''
  if (!/^pk_(test|live)_[0-9A-Za-z]+$/.test(key)) return html(res, 400, page('Card details', '<h1>Not set up</h1><p class="muted">The card field needs your publishable key: GW(\'pk_test_...\').</p>'), requestId, {frameOrigin: '*'})
  const nonce = randomBytes(16).toString('base64')
  const script = `(function () {
  var api = ${JSON.stringify(apiBase)}, key = ${JSON.stringify(key)}, words = ${JSON.stringify(WORDS)}, declines = ${JSON.stringify(DECLINES)}
  var alert = document.getElementById('card-error')
  function show(field, message) {
    ['number', 'exp', 'cvc'].forEach(function (f) { var i = document.getElementById(f); if (f === field) { i.setAttribute('aria-invalid', 'true'); i.setAttribute('aria-describedby', 'card-error') } else { i.removeAttribute('aria-invalid'); i.removeAttribute('aria-describedby') } })
    alert.textContent = message || ''
    alert.hidden = !message
  }
  // an error as the API's: its type and code, the issuer's decline_code, and a message
  function failure(type, code, message, more) {
    var e = {type: type, code: code, decline_code: null, message: message}
    for (var k in more || {}) e[k] = more[k]
    return e
  }
  var offline = function () { return {error: failure('api_connection_error', 'network_error', words.not_paid)} }
  function save() {
    var m = /^\\s*(\\d{1,2})\\s*\\/\\s*(\\d{2}|\\d{4})\\s*$/.exec(document.getElementById('exp').value)
    if (!m) return Promise.resolve({field: 'exp', error: failure('invalid_request_error', 'card_expiry_invalid', words.expiry_format, {param: 'card.exp_month'})})
    var year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2])
    var card = {number: document.getElementById('number').value.replace(/[\\s-]/g, ''), exp_month: Number(m[1]), exp_year: year}
    var cvc = document.getElementById('cvc').value.trim()
    if (cvc) card.cvc = cvc
    return fetch(api + '/payment_methods', {method: 'POST', headers: {Authorization: 'Bearer ' + key, 'Content-Type': 'application/json'}, body: JSON.stringify({type: 'card', card: card})})
      .then(function (r) { return r.json() })
      .then(function (b) {
        if (b.error) {
          var p = b.error.param || ''
          var field = /number/.test(p) ? 'number' : /exp/.test(p) ? 'exp' : /cvc/.test(p) ? 'cvc' : undefined
          return {field: field, error: failure(b.error.type, b.error.code, words[b.error.code] || words.other, p ? {param: p} : {})}
        }
        return {paymentMethod: {id: b.id, brand: b.card.brand, last4: b.card.last4, exp_month: b.card.exp_month, exp_year: b.card.exp_year}}
      }, function () { return {error: failure('api_connection_error', 'network_error', words.other)} })
  }
  // a decline in the customer's words (declineWords): why, and what they can do — another try on a session; on a single payment, a new payment (\`once\`)
  function declined(code, once) {
    var by = once ? declines.once : declines.session
    return by[code] || by.other
  }
  // the answer of a confirm or a session's pay: the payment, or the error as the API gave it
  function paid(res, once) {
    return res.json().then(function (b) {
      if (!b.error) return {payment: {id: b.id, status: b.status, next_action_url: b.next_action && b.next_action.url}}
      var e = b.error
      // a decline: the issuer's code, in the customer's words
      if (e.type === 'card_error') return {error: failure(e.type, e.code, declined(e.code, once), {decline_code: e.code === 'authentication_required' ? null : e.code, payment: e.payment})}
      // anything else is for the shop's developer (the API's message says what to do); the customer reads words
      return {error: failure(e.type, e.code, e.message, e.param ? {param: e.param} : {}), words: words[e.code] || words.not_paid}
    }, offline)
  }
  // parent: the origin of the shop's page that asked (MessageEvent.origin, set by the browser): the
  // 3-D Secure step may be framed by that origin alone, and tells it the outcome
  function pay(path, parent, once) {
    return save().then(function (r) {
      if (r.error) return r
      var headers = {Authorization: 'Bearer ' + key, 'Content-Type': 'application/json'}
      if (/^https?:/.test(parent)) headers['Gw-Parent-Origin'] = parent
      return fetch(api + path, {method: 'POST', headers: headers, body: JSON.stringify({payment_method_id: r.paymentMethod.id})}).then(function (res) { return paid(res, once) }, offline)
    })
  }
  // the card form is never submitted: the shop's page asks (an Enter in a field does nothing)
  document.getElementById('card-form').addEventListener('submit', function (e) { e.preventDefault() })
  window.addEventListener('message', function (e) {
    var d = e.data
    if (!d || (d.type !== 'gw:save' && d.type !== 'gw:confirm' && d.type !== 'gw:pay') || e.source !== window.parent) return
    var work = d.type === 'gw:save' ? save()
      : d.type === 'gw:confirm' ? pay('/payments/' + encodeURIComponent(String(d.payment)) + '/confirm', e.origin, true)
      : pay('/checkout_sessions/' + encodeURIComponent(String(d.session)) + '/pay', e.origin, false)
    work.then(function (r) {
      show(r.field, r.error && (r.words || r.error.message))
      // only ids, the status, the brand and the last four digits leave this frame, never the number
      var result = r.error ? {error: r.error} : r.paymentMethod ? {paymentMethod: r.paymentMethod} : {payment: r.payment}
      window.parent.postMessage({type: 'gw:done', id: d.id, result: result}, e.origin)
    })
  })
})()`
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Card details</title><style>body{font-family:system-ui,sans-serif;margin:0;color:#1a1f36}label{display:block;font-size:13px;margin:8px 0 4px}input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #ccd;border-radius:6px;font-size:15px}.row{display:flex;gap:8px}[aria-invalid=true]{border-color:#c0123c}${FOCUS}</style></head><body>
<p id="card-error" role="alert" style="color:#c0123c;margin:0 0 4px" hidden></p>
<form id="card-form" aria-label="Card details">${cardInputs().replace(/ required/g, '')}</form>
<script nonce="${esc(nonce)}">${script}</script></body></html>`
  const framing = pageHeaders('*')
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Request-Id': requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    // embeddable by any shop's page; its one script is this one; it talks to the API only
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; connect-src ${new URL(apiBase).origin}; ${framing.csp}`,
    ...framing.headers,
  })
  res.end(body)
}
