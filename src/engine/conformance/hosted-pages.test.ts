// Hosted checkout pages at {checkout_url}: next_action.url serves the method's page; posting
// the outcome returns the customer to return_url; the outcome arrives as the payment's state.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {cardPayment, createPayment, eventsFor, getPayment, RETURN_URL} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine()
})
afterAll(async () => t.stop())

const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: {'content-type': 'application/x-www-form-urlencoded'},
})

async function page(url: string) {
  const r = await t.raw('GET', url)
  expect(r.status, r.text.slice(0, 300)).toBe(200)
  expect(String(r.headers['content-type'])).toMatch(/^text\/html/)
  expect(r.text.toLowerCase()).toContain('<html')
  expect(r.headers['request-id']).toMatch(/^req_/)
  return r.text
}

function expectReturn(r: {status: number; headers: Record<string, unknown>}, paymentId: string) {
  expect(r.status).toBe(303)
  const loc = new URL(String(r.headers.location))
  expect(`${loc.origin}${loc.pathname}`).toBe(RETURN_URL)
  expect(loc.searchParams.get('payment')).toBe(paymentId)
}

describe('pages behind next_action.url', () => {
  it('3-D Secure challenge page', async () => {
    const p = await createPayment(t, cardPayment({}, '4000000000003220'))
    expect(p.next_action.url.startsWith(t.engine.checkoutUrl)).toBe(true)
    const html = await page(p.next_action.url)
    expect(html).toContain('3220')
    expect(html).toContain('approve')
  })

  it.each([
    ['ideal', 'EUR'],
    ['pix', 'BRL'],
    ['boleto', 'BRL'],
    ['paypal', 'USD'],
    ['klarna', 'EUR'],
    ['sepa_credit', 'EUR'],
  ])('%s page', async (method, currency) => {
    const p = await createPayment(t, {amount: 2500, currency, payment_method: method, return_url: RETURN_URL, reference: `ref-${method}`})
    expect(p.status).toBe('requires_action')
    const html = await page(p.next_action.url)
    expect(html).toMatch(/<form/i)
  })

  it('card form for a card payment with no instrument', async () => {
    const p = await createPayment(t, {amount: 1800, currency: 'EUR', payment_method: 'card', return_url: RETURN_URL})
    expect(p.status).toBe('requires_action')
    expect(p.next_action.type).toBe('redirect')
    expect(p.provider_attempts).toEqual([])
    const html = await page(p.next_action.url)
    expect(html).toMatch(/name="number"/)
  })

  it('a link with a wrong session or an unknown payment is not a valid page', async () => {
    const p = await createPayment(t, cardPayment({}, '4000000000003220'))
    const u = new URL(p.next_action.url)
    u.searchParams.set('session', 'forged')
    expect((await t.raw('GET', u.toString())).status).toBe(404)
    expect((await t.raw('GET', `${t.engine.checkoutUrl}/3ds/pay_unknown?session=x`)).status).toBe(404)
    expect((await t.raw('GET', `${t.engine.checkoutUrl}/nothing`)).status).toBe(404)
    // still pending
    expect((await getPayment(t, p.id)).status).toBe('requires_action')
  })
})

describe('completing the step on the page', () => {
  it('3-D Secure approve → 303 to return_url?payment=...; the payment succeeds', async () => {
    const p = await createPayment(t, cardPayment({}, '4000000000003220'))
    const r = await t.raw('POST', p.next_action.url, form({outcome: 'approve'}))
    expectReturn(r, p.id)
    const g = await getPayment(t, p.id)
    expect(g.status).toBe('succeeded')
    expect((await eventsFor(t, p.id)).map((e) => e.type).reverse()).toEqual([
      'payment.requires_action',
      'payment.processing',
      'payment.succeeded',
    ])
    // the return only signals the customer came back; a second visit just returns again
    expectReturn(await t.raw('GET', p.next_action.url), p.id)
  })

  it('3-D Secure fail → 303 back; the payment failed with authentication_required', async () => {
    const p = await createPayment(t, cardPayment({}, '4000000000003220'))
    const r = await t.raw('POST', p.next_action.url, form({outcome: 'fail'}))
    expectReturn(r, p.id)
    const g = await getPayment(t, p.id)
    expect(g.status).toBe('failed')
    expect(g.failure_code).toBe('authentication_required')
  })

  it('bank redirect approve → succeeded', async () => {
    const p = await createPayment(t, {amount: 2500, currency: 'EUR', payment_method: 'ideal', return_url: RETURN_URL})
    expectReturn(await t.raw('POST', p.next_action.url, form({outcome: 'approve'})), p.id)
    expect((await getPayment(t, p.id)).status).toBe('succeeded')
  })

  it('card form: typing 4242 → succeeded with its details', async () => {
    const p = await createPayment(t, {amount: 1800, currency: 'EUR', payment_method: 'card', return_url: RETURN_URL})
    const r = await t.raw('POST', p.next_action.url, form({outcome: 'approve', number: '4242 4242 4242 4242', exp: '12/34', cvc: '123'}))
    expectReturn(r, p.id)
    const g = await getPayment(t, p.id)
    expect(g.status).toBe('succeeded')
    expect(g.payment_method_details.card).toMatchObject({brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034})
    expect(g.risk).not.toBeNull()
  })

  it('card form: typing the 3-D Secure card → redirected on to the challenge, then approve', async () => {
    const p = await createPayment(t, {amount: 1800, currency: 'EUR', payment_method: 'card', return_url: RETURN_URL})
    const r = await t.raw('POST', p.next_action.url, form({outcome: 'approve', number: '4000000000003220', exp: '12/34', cvc: '123'}))
    expect(r.status).toBe(303)
    const next = String(r.headers.location)
    const g = await getPayment(t, p.id)
    expect(g.status).toBe('requires_action')
    expect(g.next_action.url).toBe(next)
    await page(next)
    expectReturn(await t.raw('POST', next, form({outcome: 'approve'})), p.id)
    expect((await getPayment(t, p.id)).status).toBe('succeeded')
  })

  it('card form: an invalid number re-renders the form with an error, the payment still waits', async () => {
    const p = await createPayment(t, {amount: 1800, currency: 'EUR', payment_method: 'card', return_url: RETURN_URL})
    const r = await t.raw('POST', p.next_action.url, form({outcome: 'approve', number: '4242424242424241', exp: '12/34', cvc: '123'}))
    expect(r.status).toBe(400)
    expect(r.text).toMatch(/role="alert"/)
    expect((await getPayment(t, p.id)).status).toBe('requires_action')
  })

  it('card form: the inputs follow the platform conventions (autocomplete, inputmode, labels, one submit button)', async () => {
    const p = await createPayment(t, {amount: 1800, currency: 'EUR', payment_method: 'card', return_url: RETURN_URL})
    const html = await page(p.next_action.url)
    for (const [id, ac] of [['number', 'cc-number'], ['exp', 'cc-exp'], ['cvc', 'cc-csc']]) {
      expect(html).toMatch(new RegExp(`<input id="${id}"[^>]*inputmode="numeric"[^>]*autocomplete="${ac}"`))
      expect(html).toContain(`<label for="${id}">`)
    }
    const payForm = html.slice(0, html.indexOf('</form>'))
    expect(payForm.match(/<button[^>]*type="submit"/g)).toHaveLength(1)
  })

  it('card form: errors in the customer\'s words on the field they are about, never API field names', async () => {
    const p = await createPayment(t, {amount: 1800, currency: 'EUR', payment_method: 'card', return_url: RETURN_URL})
    const cases: [Record<string, string>, string, string][] = [
      [{number: '4242424242424241', exp: '12/34', cvc: '123'}, 'number', 'Your card number is incorrect. Check it for a typo.'],
      [{number: '4242 4242', exp: '12/34', cvc: '123'}, 'number', 'Your card number is incomplete or too long.'],
      [{number: '4242424242424242', exp: '01/20', cvc: '123'}, 'exp', 'Your card has expired. Use another card.'],
      [{number: '4242424242424242', exp: 'soon', cvc: '123'}, 'exp', 'Enter the expiry date as MM/YY, for example 12/30.'],
      [{number: '378282246310005', exp: '12/34', cvc: '123'}, 'cvc', "Your card's security code is 4 digits (on the front of the card)."],
    ]
    for (const [fields, field, words] of cases) {
      const r = await t.raw('POST', p.next_action.url, form({outcome: 'approve', ...fields}))
      expect(r.status).toBe(400)
      // (the error takes the focus when the page loads: a keyboard or screen-reader user lands on it)
      expect(r.text).toContain(`<p id="card-error" role="alert" tabindex="-1" autofocus style="color:#c0123c">${words.replace("'", '&#39;')}</p>`)
      expect(r.text).toMatch(new RegExp(`<input id="${field}"[^>]*aria-invalid="true" aria-describedby="card-error"`))
      expect(r.text).not.toMatch(/card\.(number|cvc|exp_month)|Luhn/)
    }
    expect((await getPayment(t, p.id)).status).toBe('requires_action')
  })

  it('card form: "Cancel and return" fails the payment with its own code (customer_canceled), not a timeout\'s', async () => {
    const p = await createPayment(t, {amount: 1800, currency: 'EUR', payment_method: 'card', return_url: RETURN_URL})
    const html = await page(p.next_action.url)
    expect(html).toContain('<input type="hidden" name="outcome" value="cancel"><div class="row"><button class="no" type="submit">Cancel and return</button>')
    expectReturn(await t.raw('POST', p.next_action.url, form({outcome: 'cancel'})), p.id)
    const g = await getPayment(t, p.id)
    expect(g).toMatchObject({status: 'failed', failure_code: 'customer_canceled'})
    expect(await eventsFor(t, p.id)).toContainEqual(expect.objectContaining({type: 'payment.failed'}))
  })

  it('card form: a declined card → back to return_url, the payment failed', async () => {
    const p = await createPayment(t, {amount: 1800, currency: 'EUR', payment_method: 'card', return_url: RETURN_URL})
    const r = await t.raw('POST', p.next_action.url, form({outcome: 'approve', number: '4000000000000002', exp: '12/34', cvc: '123'}))
    expectReturn(r, p.id)
    const g = await getPayment(t, p.id)
    expect(g.status).toBe('failed')
    expect(g.failure_code).toBe('card_declined')
  })

  it('without a return_url the page says the outcome', async () => {
    const p = await createPayment(t, {amount: 2500, currency: 'EUR', payment_method: 'ideal'})
    const r = await t.raw('POST', p.next_action.url, form({outcome: 'approve'}))
    expect(r.status).toBe(200)
    expect(r.text).toContain('succeeded')
  })

  it('hosted pages do not count against the API key: no Authorization needed', async () => {
    const p = await createPayment(t, {amount: 2500, currency: 'EUR', payment_method: 'ideal', return_url: RETURN_URL})
    const r = await t.raw('GET', p.next_action.url)
    expect(r.status).toBe(200)
  })
})

describe('a form too large for a hosted page', () => {
  it('a 70 KB form → 413 page (the connection was once dropped with no answer and the handler left waiting); the payment still waits', async () => {
    const p = await createPayment(t, {amount: 2500, currency: 'EUR', payment_method: 'ideal', return_url: RETURN_URL})
    const r = await t.raw('POST', p.next_action.url, {body: `outcome=approve&x=${'x'.repeat(70_000)}`, headers: {'content-type': 'application/x-www-form-urlencoded'}})
    expect(r.status).toBe(413)
    expect(String(r.headers['content-type'])).toMatch(/^text\/html/)
    expect(r.headers['request-id']).toMatch(/^req_/)
    expect(r.text).toContain('64 KiB')
    expect((await getPayment(t, p.id)).status).toBe('requires_action')
    // the page still works
    expectReturn(await t.raw('POST', p.next_action.url, form({outcome: 'approve'})), p.id)
  })
})
