// Hosted card fields in a real browser (docs/decisions.md#browsers-and-hosted-pages): a shop's page on another origin includes
// {checkout_url}/gw.js with its publishable key, mounts the card field (an iframe of the
// gateway), and saves the card as a payment method; the number is typed in the gateway's frame
// and never reaches the shop's page. The shop's server then pays with the pm_ and its secret key.
import {once} from 'node:events'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import type {Browser} from 'playwright-core'
import {launchChromium} from './support/browser.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type TestEngine} from '../src/engine/test-support/harness.js'

// the functions given to page.evaluate run in the page, with its globals (the type check's lib is
// Node's, without the DOM's)
declare const window: any, document: any

let t: TestEngine
let a: AsKey & {id: string; publishableKey: string}
let shop: http.Server
let shopUrl: string
let browser: Browser
/** another site (framesPage) */
let other: http.Server
let otherUrl: string

/** A page of iframes (`?src=` each), recording which loaded and what messages reached it. */
function framesPage(req: http.IncomingMessage, res: http.ServerResponse) {
  const srcs = new URL(req.url ?? '/', 'http://x').searchParams.getAll('src')
  res.writeHead(200, {'Content-Type': 'text/html; charset=utf-8'})
  res.end(`<!doctype html><title>Frames</title><script>window.loaded = []; window.got = []; addEventListener('message', (e) => got.push(e.data))</script>
${srcs.map((src, i) => `<iframe id="f${i}" title="f${i}" src="${src.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" onload="loaded.push(${i})"></iframe>`).join('\n')}`)
}

/**
 * A shop's order page as examples/shop writes it: its server creates the order's
 * checkout session with the order's Idempotency-Key (a reload replays the same open session), and
 * the page pays it with the card fields, one try per click.
 */
async function orderPage(req: http.IncomingMessage, res: http.ServerResponse) {
  const order = req.url!.slice('/order/'.length)
  const s = await a.api('POST', '/checkout_sessions', {amount: 4200, currency: 'EUR', reference: order, payment_methods: ['card']}, {'idempotency-key': `order-${order}`})
  res.writeHead(200, {'Content-Type': 'text/html; charset=utf-8'})
  res.end(`<!doctype html><title>Shop: order ${order}</title>
<div id="card"></div><button id="pay">Pay</button><pre id="out"></pre>
<script src="${t.engine.checkoutUrl}/gw.js"></script>
<script>
  window.session = ${JSON.stringify(s.body.id)}
  const card = GW(${JSON.stringify(a.publishableKey)}).mountCard('#card')
  document.getElementById('pay').onclick = async () => {
    document.getElementById('out').textContent = ''
    document.getElementById('out').textContent = JSON.stringify(await card.confirmCheckoutSession(window.session))
  }
</script>`)
}

beforeAll(async () => {
  ;[t, browser] = await Promise.all([
    bootEngine({rateLimit: 0}),
    launchChromium(),
  ])
  a = await t.account('fields-shop')
  shop = http.createServer((req, res) => {
    if (req.url?.startsWith('/frame')) return framesPage(req, res)
    if (req.url?.startsWith('/order/')) return void orderPage(req, res)
    res.writeHead(200, {'Content-Type': 'text/html; charset=utf-8'})
    res.end(`<!doctype html><title>Shop: save your card</title>
<div id="card"></div><button id="save">Save card</button><pre id="out"></pre>
<script src="${t.engine.checkoutUrl}/gw.js"></script>
<script>
  const card = (window.card = GW(${JSON.stringify(a.publishableKey)}).mountCard('#card'))
  document.getElementById('save').onclick = async () => { document.getElementById('out').textContent = JSON.stringify(await card.save()) }
</script>`)
  })
  shop.listen(0, '127.0.0.1')
  await once(shop, 'listening')
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/`
  other = http.createServer(framesPage)
  other.listen(0, '127.0.0.1')
  await once(other, 'listening')
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`
})

afterAll(async () => {
  await browser?.close()
  shop?.close()
  other?.close()
  await t?.stop()
})

describe('hosted card fields (gw.js)', () => {
  it('a card typed in the gateway\'s frame is saved as a pm_ the shop\'s server can pay with; a typo is shown in the frame', async () => {
    const page = await browser.newPage()
    const requests: string[] = []
    page.on('request', (r) => requests.push(`${r.method()} ${r.url()} ${r.postData() ?? ''}`))
    await page.goto(shopUrl)
    const frame = page.frameLocator('iframe[title="Card details"]')
    await frame.getByLabel('Card number').fill('4242 4242 4242 4241')
    await frame.locator('input[autocomplete="cc-exp"]').fill('12/34')
    await frame.locator('input[autocomplete="cc-csc"]').fill('123')
    await page.click('#save')
    await page.waitForFunction(() => document.getElementById('out')!.textContent !== '')
    // an error as the API's: its type, code and field, the message in the customer's words (docs/api.md#card-fields-wording)
    expect(JSON.parse(await page.locator('#out').innerText())).toEqual({
      error: {type: 'invalid_request_error', code: 'card_number_invalid', decline_code: null, param: 'card.number', message: 'Your card number is incorrect. Check it for a typo.'},
    })
    await expect(frame.getByRole('alert').innerText()).resolves.toBe('Your card number is incorrect. Check it for a typo.')
    await expect(frame.getByLabel('Card number').getAttribute('aria-invalid')).resolves.toBe('true')

    await frame.getByLabel('Card number').fill('4242 4242 4242 4242')
    await page.evaluate(() => (document.getElementById('out')!.textContent = ''))
    await page.click('#save')
    await page.waitForFunction(() => document.getElementById('out')!.textContent !== '')
    const {paymentMethod} = JSON.parse(await page.locator('#out').innerText())
    expect(paymentMethod).toMatchObject({brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034})
    expect(paymentMethod.id).toMatch(/^pm_/)

    // the number never reached the shop's page: its own document holds no such input, and only the gateway's origin got it
    expect(await page.evaluate(() => document.querySelectorAll('input').length)).toBe(0)
    expect(requests.filter((r) => r.includes('4242424242424242')).every((r) => r.startsWith(`POST ${t.engine.baseUrl}/payment_methods`))).toBe(true)

    // the shop's server pays with it (secret key)
    const paid = await a.api('POST', '/payments', {amount: 1500, currency: 'EUR', payment_method_id: paymentMethod.id})
    expect(paid.status, paid.text).toBe(201)
    expect(paid.body).toMatchObject({status: 'succeeded', payment_method_details: {card: {last4: '4242'}}})
    await page.close()
  })

  it('pays a payment the server created: frictionless, 3-D Secure in a modal over the shop\'s page, and a decline', async () => {
    const page = await browser.newPage()
    await page.goto(shopUrl)
    const frame = page.frameLocator('iframe[title="Card details"]')
    const pay = async (number: string) => {
      const created = await a.api('POST', '/payments', {amount: 3000, currency: 'EUR', payment_method: 'card', confirm: false, reference: `fields-${number.slice(-4)}`})
      expect(created.body.status).toBe('requires_confirmation')
      await frame.getByLabel('Card number').fill(number)
      await frame.locator('input[autocomplete="cc-exp"]').fill('12/34')
      await frame.locator('input[autocomplete="cc-csc"]').fill('123')
      return {id: created.body.id as string, result: page.evaluate((id) => (window as any).card.confirmPayment(id), created.body.id as string)}
    }
    const plain = await pay('4242424242424242')
    expect(await plain.result).toEqual({payment: {id: plain.id, status: 'succeeded', next_action_url: null}})

    const challenged = await pay('4000000000003220')
    const modal = page.getByRole('dialog', {name: 'Confirm the payment with your bank'})
    await modal.waitFor()
    await page.frameLocator('iframe[title="3-D Secure"]').getByRole('button', {name: 'Complete authentication'}).click()
    expect(await challenged.result).toEqual({payment: {id: challenged.id, status: 'succeeded'}})
    await expect(modal.count()).resolves.toBe(0)
    expect((await a.api('GET', `/payments/${challenged.id}`)).body).toMatchObject({status: 'succeeded', payment_method_details: {card: {last4: '3220'}}})

    const declined = await pay('4000000000000002')
    // a single payment takes no second card: the words say what the customer can do instead
    expect(await declined.result).toEqual({error: {type: 'card_error', code: 'card_declined', decline_code: 'card_declined', message: 'Your card was declined. To pay, go back to the shop and start the payment again.', payment: declined.id}})
    await expect(frame.getByRole('alert').innerText()).resolves.toBe('Your card was declined. To pay, go back to the shop and start the payment again.')
    expect((await a.api('GET', `/payments/${declined.id}`)).body).toMatchObject({status: 'failed', failure_code: 'card_declined'})
    // the same payment cannot be tried again: the answer says what to do instead
    await frame.getByLabel('Card number').fill('4242424242424242')
    const again = (await page.evaluate((id) => (window as any).card.confirmPayment(id), declined.id)) as {error: {code: string; message: string}}
    expect(again.error.code).toBe('payment_unexpected_state')
    expect(again.error.message).toContain("card.confirmCheckoutSession('cs_…')")
    await expect(frame.getByRole('alert').innerText()).resolves.toBe('This payment can no longer be made here. To pay, go back to the shop and start the payment again.')
    await page.close()
  })

  it('a declined card, then another on the same order: the page pays the order\'s checkout session, one try per card', async () => {
    const page = await browser.newPage()
    const order = `order-${Date.now()}`
    const frame = page.frameLocator('iframe[title="Card details"]')
    const tryCard = async (number: string) => {
      await frame.getByLabel('Card number').fill(number)
      await frame.locator('input[autocomplete="cc-exp"]').fill('12/34')
      await frame.locator('input[autocomplete="cc-csc"]').fill('123')
      await page.click('#pay')
      await page.waitForFunction(() => document.getElementById('out')!.textContent !== '')
      return JSON.parse(await page.locator('#out').innerText())
    }
    await page.goto(`${shopUrl}order/${order}`)
    const session = (await page.evaluate(() => (window as any).session)) as string
    expect(session).toMatch(/^cs_/)
    const declined = await tryCard('4000000000000002')
    // what the API says, for the page: the code and the issuer's decline code besides the customer's words
    expect(declined).toEqual({error: {type: 'card_error', code: 'card_declined', decline_code: 'card_declined', message: 'Your card was declined. Try another card.', payment: expect.stringMatching(/^pay_/)}})
    await expect(frame.getByRole('alert').innerText()).resolves.toBe('Your card was declined. Try another card.')
    expect((await a.api('GET', `/checkout_sessions/${session}`)).body).toMatchObject({status: 'open', payment: declined.error.payment})

    // the customer reloads: the shop's server asks again with the order's key and gets the same open session
    await page.reload()
    expect(await page.evaluate(() => (window as any).session)).toBe(session)
    const paid = await tryCard('4242424242424242')
    expect(paid).toEqual({payment: {id: expect.stringMatching(/^pay_/), status: 'succeeded', next_action_url: null}})
    await expect(frame.getByRole('alert').isHidden()).resolves.toBe(true)

    // the session is complete with the succeeded payment; the order has two tries, one paid
    expect((await a.api('GET', `/checkout_sessions/${session}`)).body).toMatchObject({status: 'complete', payment: paid.payment.id})
    const tries = (await a.api('GET', `/payments?reference=${order}`)).body.data as {id: string; status: string}[]
    expect(tries.map((p) => p.status).sort()).toEqual(['failed', 'succeeded'])
    expect(tries.find((p) => p.status === 'succeeded')!.id).toBe(paid.payment.id)
    const completed = ((await a.api('GET', '/events?type=checkout.session.completed&limit=100')).body.data as {data: {object: {id: string}}}[]).filter((e) => e.data.object.id === session)
    expect(completed).toHaveLength(1)
    expect(completed[0].data.object).toMatchObject({id: session, status: 'complete', payment: paid.payment.id})
    // paying again is refused: nothing is paid twice
    const again = await tryCard('4242424242424242')
    expect(again.error).toMatchObject({type: 'invalid_request_error', code: 'checkout_session_not_open', decline_code: null})
    await page.close()
  })

  it('no Content-Security-Policy violation: the frame runs no inline handler, on mount, on Enter in a field, through 3-D Secure and its failure', async () => {
    const page = await browser.newPage()
    const console_: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content.Security.Policy/i.test(m.text())) console_.push(`${m.type()}: ${m.text()}`)
    })
    page.on('pageerror', (e) => console_.push(`pageerror: ${e.message}`))
    await page.goto(shopUrl)
    const frame = page.frameLocator('iframe[title="Card details"]')
    await frame.getByLabel('Card number').fill('4000000000003220')
    await frame.locator('input[autocomplete="cc-exp"]').fill('12/34')
    await frame.locator('input[autocomplete="cc-csc"]').fill('123')
    // Enter in a field submits the frame's form: nothing is sent, and no handler is refused
    await frame.getByLabel('Card number').press('Enter')
    expect(page.frames().find((f) => f.url().startsWith(`${t.engine.checkoutUrl}/fields`))).toBeDefined()
    for (const button of ['Complete authentication', 'Fail authentication']) {
      const created = await a.api('POST', '/payments', {amount: 3000, currency: 'EUR', payment_method: 'card', confirm: false})
      const result = page.evaluate((id) => (window as any).card.confirmPayment(id), created.body.id as string)
      await page.frameLocator('iframe[title="3-D Secure"]').getByRole('button', {name: button}).click()
      const r = (await result) as {payment: {status: string}; error?: {message: string; decline_code: string | null}}
      expect(r.payment).toMatchObject({id: created.body.id, status: button.startsWith('Complete') ? 'succeeded' : 'failed'})
      // a failed step on a single payment: the customer is told to start again at the shop, not to try another card here
      if (r.error) expect(r.error).toMatchObject({decline_code: null, message: 'Your bank could not confirm it was you. To pay, go back to the shop and start the payment again.'})
    }
    await page.close()
    expect(console_).toEqual([])
  })

  it('a publishable key: only what a browser needs, from any origin; never attaching to a customer; a secret key gets no CORS header', async () => {
    const pk = a.as(a.publishableKey)
    const origin = {origin: 'https://shop.example'}
    const saved = await pk.api('POST', '/payment_methods', {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034}}, origin)
    expect(saved.status, saved.text).toBe(201)
    expect(saved.headers['access-control-allow-origin']).toBe('*')
    const cus = (await a.api('POST', '/customers', {email: 'x@example.com'})).body
    const attach = await pk.api('POST', '/payment_methods', {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034}, customer: cus.id}, origin)
    expect(attach.status).toBe(403)
    for (const [method, path] of [['GET', '/payments'], ['POST', '/payments'], ['GET', `/payment_methods/${saved.body.id}`], ['POST', '/checkout_sessions'], ['GET', `/payments/${saved.body.id}`]] as const) {
      const r = await pk.api(method, path, method === 'POST' ? {} : undefined, origin)
      expect(r.status, `${method} ${path}`).toBe(403)
      expect(r.headers['access-control-allow-origin']).toBe('*')
    }
    // confirming takes the card the fields saved, and nothing else
    const unconfirmed = (await a.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'card', confirm: false})).body
    expect((await pk.api('POST', `/payments/${unconfirmed.id}/confirm`, {}, origin)).status).toBe(403)
    expect((await pk.api('POST', `/payments/${unconfirmed.id}/confirm`, {payment_method_id: saved.body.id, return_url: 'https://evil.example'}, origin)).status).toBe(403)
    const confirmed = await pk.api('POST', `/payments/${unconfirmed.id}/confirm`, {payment_method_id: saved.body.id}, origin)
    expect(confirmed.status, confirmed.text).toBe(200)
    expect(confirmed.headers['access-control-allow-origin']).toBe('*')
    // another account's publishable key finds nothing of this account's: its payment is not found, and stays as it was
    const b = await t.account('fields-other')
    const other = a.as(b.publishableKey)
    const theirs = (await a.api('POST', '/payments', {amount: 1000, currency: 'EUR', payment_method: 'card', confirm: false})).body
    const pmOfB = (await other.api('POST', '/payment_methods', {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034}}, origin)).body
    expect((await other.api('POST', `/payments/${theirs.id}/confirm`, {payment_method_id: pmOfB.id}, origin)).status).toBe(404)
    expect((await pk.api('POST', `/payments/${theirs.id}/confirm`, {payment_method_id: pmOfB.id}, origin)).status).toBe(404)
    expect((await a.api('GET', `/payments/${theirs.id}`)).body.status).toBe('requires_confirmation')
    // the browser's preflight
    const pre = await t.raw('OPTIONS', `${t.engine.baseUrl}/payment_methods`, {headers: {origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type'}})
    expect(pre.status).toBe(204)
    expect(pre.headers['access-control-allow-headers']).toContain('Authorization')
    // a secret key's answer carries none: a page could not read it
    expect((await a.api('GET', '/payments', undefined, origin)).headers['access-control-allow-origin']).toBeUndefined()
  })

  describe('who may frame the hosted pages', () => {
    /** Opens another site's page framing `urls`, once every frame has loaded (a refused one loads the browser's error page). */
    async function framedBy(base: string, urls: string[], opts: {ignoreFrameAncestors?: boolean} = {}) {
      const context = await browser.newContext({ignoreHTTPSErrors: true})
      if (opts.ignoreFrameAncestors) {
        // a browser that does not enforce frame-ancestors (an old one): the pages' own script must still tell no one else
        await context.route(`${t.engine.checkoutUrl}/**`, async (route) => {
          const response = await route.fetch()
          const headers: Record<string, string> = {...response.headers(), 'content-security-policy': response.headers()['content-security-policy']!.replace(/; frame-ancestors [^;]*/, '')}
          delete headers['x-frame-options']
          await route.fulfill({response, headers})
        })
      }
      const page = await context.newPage()
      await page.goto(`${base}?${urls.map((u) => `src=${encodeURIComponent(u)}`).join('&')}`)
      await page.waitForFunction((n) => (window as any).loaded.length === n, urls.length)
      return {page, close: () => context.close()}
    }
    const buttons = (page: import('playwright-core').Page, i: number, name: string) => page.frameLocator(`#f${i}`).getByRole('button', {name}).count()

    it('a page on another site cannot frame the checkout page or a 3-D Secure page, bound to a shop or not; the card fields it can', async () => {
      const session = (await a.api('POST', '/checkout_sessions', {amount: 1200, currency: 'EUR'})).body
      // a 3-D Secure page of a payment confirmed by the shop's server, and one by the card fields on the shop's page
      const byServer = (await a.api('POST', '/payments', {amount: 1200, currency: 'EUR', payment_method: 'card', payment_method_data: {type: 'card', card: {number: '4000000000003220', exp_month: 12, exp_year: 2034, cvc: '123'}}})).body
      const unconfirmed = (await a.api('POST', '/payments', {amount: 1200, currency: 'EUR', payment_method: 'card', confirm: false})).body
      const pk = a.as(a.publishableKey)
      const pm = (await pk.api('POST', '/payment_methods', {type: 'card', card: {number: '4000000000003220', exp_month: 12, exp_year: 2034, cvc: '123'}})).body
      const byFields = (await pk.api('POST', `/payments/${unconfirmed.id}/confirm`, {payment_method_id: pm.id}, {'gw-parent-origin': new URL(shopUrl).origin})).body
      expect([byServer.status, byFields.status]).toEqual(['requires_action', 'requires_action'])
      const fields = `${t.engine.checkoutUrl}/fields?key=${a.publishableKey}`
      const {page, close} = await framedBy(otherUrl, [session.url, byServer.next_action.url, byFields.next_action.url, fields])
      try {
        expect(await buttons(page, 0, `Pay €12.00`)).toBe(0)
        expect(await buttons(page, 1, 'Complete authentication')).toBe(0)
        expect(await buttons(page, 2, 'Complete authentication')).toBe(0)
        await expect(page.frameLocator('#f3').getByLabel('Card number').count()).resolves.toBe(1)
      } finally {
        await close()
      }
      // the payments were not touched
      for (const id of [byServer.id, byFields.id]) expect((await a.api('GET', `/payments/${id}`)).body.status).toBe('requires_action')
      // the shop the card fields confirmed from may frame its 3-D Secure page (what the modal does)
      const shopSide = await framedBy(shopUrl.replace(/\/$/, '/frame'), [byFields.next_action.url])
      try {
        expect(await buttons(shopSide.page, 0, 'Complete authentication')).toBe(1)
      } finally {
        await shopSide.close()
      }
    })

    it("the 3-D Secure modal's last page tells the outcome to the shop's origin alone", async () => {
      // a payment the card fields paid from the shop's page; its last page, framed by another site in a browser that lets it
      const pay = async (origin: string) => {
        const unconfirmed = (await a.api('POST', '/payments', {amount: 800, currency: 'EUR', payment_method: 'card', confirm: false})).body
        const pk = a.as(a.publishableKey)
        const pm = (await pk.api('POST', '/payment_methods', {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}})).body
        const paid = (await pk.api('POST', `/payments/${unconfirmed.id}/confirm`, {payment_method_id: pm.id}, {'gw-parent-origin': origin})).body
        expect(paid.status).toBe('succeeded')
        return {id: paid.id as string, last: `${t.engine.checkoutUrl}/3ds/${paid.id}?account=${a.id}`}
      }
      const forShop = await pay(new URL(shopUrl).origin)
      const forOther = await pay(new URL(otherUrl).origin)
      const {page, close} = await framedBy(otherUrl, [forShop.last], {ignoreFrameAncestors: true})
      try {
        await expect(page.frameLocator('#f0').locator('#status').innerText()).resolves.toBe('succeeded')
        // a control: a page bound to this site, framed after it, is heard; the shop's never is
        await page.evaluate((src) => {
          const f = document.createElement('iframe')
          f.src = src
          document.body.appendChild(f)
        }, forOther.last)
        await page.waitForFunction((id) => (window as any).got.some((m: any) => m?.payment?.id === id), forOther.id)
        expect(await page.evaluate(() => (window as any).got)).toEqual([{type: 'gw:payment', payment: {id: forOther.id, status: 'succeeded'}}])
      } finally {
        await close()
      }
    })
  })
})
