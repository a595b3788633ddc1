// End to end in a real browser (docs/decisions.md#browsers-and-hosted-pages): Debian's chromium through playwright-core pays on the
// hosted checkout as a customer would. A small shop (a server on another origin than the engine)
// creates a session with its secret key and redirects; the customer pays with a frictionless
// card, retries after a decline, passes and fails 3-D Secure, pays with iDEAL and Klarna; each
// ends at the shop's page and in the state and webhook docs/api.md#hosted-checkout-sessions promises.
import {once} from 'node:events'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import type {Browser, Page} from 'playwright-core'
import {launchChromium} from './support/browser.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type TestEngine} from '../src/engine/test-support/harness.js'
import {testReceiver, type TestReceiver} from '../src/engine/test-support/tls-receiver.js'
import {waitFor} from '../src/engine/test-support/wait.js'

let t: TestEngine
let a: AsKey & {id: string}
let shop: http.Server
let shopUrl: string
let browser: Browser
let rx: TestReceiver

beforeAll(async () => {
  ;[t, browser, rx] = await Promise.all([
    bootEngine({rateLimit: 0}),
    launchChromium(),
    testReceiver(),
  ])
  a = await t.account('browser-shop')
  expect((await a.api('POST', '/webhook_endpoints', {url: rx.url, enabled_events: ['checkout.session.*']})).status).toBe(201)
  // the shop: /buy creates a session with its secret key and sends the customer to it
  shop = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', shopUrl)
    if (u.pathname === '/buy') {
      const methods = u.searchParams.get('methods')?.split(',')
      void a
        .api('POST', '/checkout_sessions', {amount: Number(u.searchParams.get('amount') ?? 2000), currency: 'EUR', reference: u.searchParams.get('order') ?? 'order', success_url: `${shopUrl}/thanks`, cancel_url: `${shopUrl}/cart`, ...(methods ? {payment_methods: methods} : {})})
        .then((r) => {
          res.writeHead(303, {Location: r.body.url})
          res.end()
        })
      return
    }
    res.writeHead(200, {'Content-Type': 'text/html; charset=utf-8'})
    res.end(`<!doctype html><title>Shop</title><h1 id="page">${u.pathname === '/thanks' ? 'Thanks for your order' : 'Your cart'}</h1>`)
  })
  shop.listen(0, '127.0.0.1')
  await once(shop, 'listening')
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`
})

afterAll(async () => {
  await browser?.close()
  shop?.close()
  await rx?.close()
  await t?.stop()
})

async function checkout(order: string, query = ''): Promise<Page> {
  const page = await browser.newPage({viewport: {width: 480, height: 900}})
  await page.goto(`${shopUrl}/buy?order=${order}${query}`)
  await expect(page.title()).resolves.toBe('Checkout')
  return page
}

async function typeCard(page: Page, number: string): Promise<void> {
  // found by their labels and autocomplete, as password managers and test tools find them
  await page.getByLabel('Card number').fill(number)
  await page.locator('input[autocomplete="cc-exp"]').fill('12/34')
  await page.locator('input[autocomplete="cc-csc"]').fill('123')
}

async function paidAtShop(page: Page): Promise<{session: string; payment: string}> {
  await page.waitForURL((u) => u.pathname === '/thanks')
  await expect(page.locator('#page').innerText()).resolves.toBe('Thanks for your order')
  const u = new URL(page.url())
  const out = {session: u.searchParams.get('session')!, payment: u.searchParams.get('payment')!}
  const s = (await a.api('GET', `/checkout_sessions/${out.session}`)).body
  expect(s).toMatchObject({status: 'complete', payment: out.payment})
  // the webhook the API promises: the return only says the customer came back (docs/api.md#payment-lifecycle)
  await waitFor('checkout.session.completed', () => rx.received.some((r) => JSON.parse(r.body).type === 'checkout.session.completed' && JSON.parse(r.body).data.object.id === out.session))
  return out
}

describe('hosted checkout in a browser', () => {
  it('a frictionless card: the shop redirects, the customer types the card, lands on the shop; the payment succeeded', async () => {
    const page = await checkout('order-card', '&amount=4250')
    await expect(page.locator('main').innerText()).resolves.toContain('€42.50')
    await typeCard(page, '4242 4242 4242 4242')
    await page.getByRole('button', {name: 'Pay €42.50'}).click()
    const {payment} = await paidAtShop(page)
    expect((await a.api('GET', `/payments/${payment}`)).body).toMatchObject({status: 'succeeded', amount: 4250, reference: 'order-card'})
    await page.close()
  })

  it('a declined card: the reason shown on the page, the form again; another card pays', async () => {
    const page = await checkout('order-decline')
    await typeCard(page, '4000 0000 0000 0002')
    await page.getByRole('button', {name: 'Pay €20.00'}).click()
    await expect(page.getByRole('alert').innerText()).resolves.toBe('Your card was declined. Try another card or another way to pay.')
    // a typo is shown on the field it is about
    await typeCard(page, '4242 4242 4242 4241')
    await page.getByRole('button', {name: 'Pay €20.00'}).click()
    await expect(page.getByRole('alert').innerText()).resolves.toBe('Your card number is incorrect. Check it for a typo.')
    await expect(page.getByLabel('Card number').getAttribute('aria-invalid')).resolves.toBe('true')
    await typeCard(page, '4242 4242 4242 4242')
    await page.getByRole('button', {name: 'Pay €20.00'}).click()
    await paidAtShop(page)
    await page.close()
  })

  it('3-D Secure failed, then approved: back on the checkout with the reason, then on to the shop', async () => {
    const page = await checkout('order-3ds')
    await typeCard(page, '4000 0000 0000 3220')
    await page.getByRole('button', {name: 'Pay €20.00'}).click()
    await expect(page.title()).resolves.toBe('3-D Secure authentication')
    await page.click('#fail')
    await expect(page.title()).resolves.toBe('Checkout')
    await expect(page.getByRole('alert').innerText()).resolves.toContain('Your bank could not confirm it was you.')
    await typeCard(page, '4000 0000 0000 3220')
    await page.getByRole('button', {name: 'Pay €20.00'}).click()
    await page.click('#approve')
    const {payment} = await paidAtShop(page)
    expect((await a.api('GET', `/payments/${payment}`)).body.status).toBe('succeeded')
    await page.close()
  })

  for (const [method, name, approve] of [['ideal', 'iDEAL', 'Log in and approve'], ['klarna', 'Klarna', 'Approve plan']] as const) {
    it(`${name}: the method's page, then the shop`, async () => {
      const page = await checkout(`order-${method}`, `&methods=card,${method}`)
      await page.getByRole('button', {name}).click()
      await page.getByRole('button', {name: approve}).click()
      const {payment} = await paidAtShop(page)
      expect((await a.api('GET', `/payments/${payment}`)).body).toMatchObject({payment_method: method})
      await page.close()
    })
  }

  it('back to the shop: the cart, the session still open', async () => {
    const page = await checkout('order-back')
    await page.getByRole('button', {name: 'Back to the shop'}).click()
    await page.waitForURL((u) => u.pathname === '/cart')
    const s = (await a.api('GET', `/checkout_sessions/${new URL(page.url()).searchParams.get('session')}`)).body
    expect(s.status).toBe('open')
    await page.close()
  })
})
