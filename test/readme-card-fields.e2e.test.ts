// The README's card-fields snippet, run as written (read out of README.md) on a shop's page in
// chromium, for every kind of result: paid, paid after 3-D Secure, held for a risk review
// (`processing`, amount 4991), declined. Only its placeholders are filled in: the gateway's
// gw.js URL, the publishable key and the order's checkout session.
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {readmeBlock} from './support/readme.js'
import {shopSite, type ShopSite} from './support/shop-site.js'

// the functions given to page.evaluate run in the page, with its globals (the type check's lib is
// Node's, without the DOM's)
declare const location: any, document: any

const SNIPPET = readmeBlock('Card fields on your shop', 'html')
let site: ShopSite
let browser: Browser
let shopUrl: string

beforeAll(async () => {
  site = await shopSite('readme shop', async (req, {t, a}) => {
    if (req.url === '/thanks') return '<!doctype html><title>Thanks</title><h1>Thanks for your order</h1>'
    const amount = Number(new URL(req.url!, 'http://x').searchParams.get('amount'))
    const s = await a.api('POST', '/checkout_sessions', {amount, currency: 'EUR', payment_methods: ['card']})
    const page = SNIPPET.replace('https://127.0.0.1:8443/checkout/gw.js', `${t.engine.checkoutUrl}/gw.js`).replace("'pk_test_…'", JSON.stringify(a.publishableKey)).replace("'cs_…'", JSON.stringify(s.body.id))
    return `<!doctype html><html lang="en"><title>Order</title><body>${page}</body></html>`
  })
  ;({browser, url: shopUrl} = site)
})

afterAll(async () => site?.close())

/** The order page of `amount`, the card typed into the frame, Pay clicked; what the page then shows, and any error it threw. */
async function pay(amount: number, number: string, step?: (page: Page) => Promise<void>) {
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto(`${shopUrl}?amount=${amount}`)
  const frame = page.frameLocator('iframe[title="Card details"]')
  await frame.getByLabel('Card number').fill(number)
  await frame.getByLabel('Expiry (MM/YY)').fill('12/34')
  await frame.getByLabel('CVC').fill('123')
  await page.click('#pay')
  if (step) await step(page)
  await page.waitForFunction(() => location.pathname === '/thanks' || document.getElementById('message')?.textContent !== '')
  const shown = {url: new URL(page.url()).pathname, message: page.url().endsWith('/thanks') ? '' : await page.locator('#message').innerText()}
  await page.close()
  return {...shown, errors}
}

describe("the README's card-fields snippet handles every result", () => {
  it('succeeded: on to the thanks page', async () => {
    expect(await pay(4200, '4242424242424242')).toEqual({url: '/thanks', message: '', errors: []})
  })

  it('succeeded after 3-D Secure in the modal', async () => {
    const r = await pay(4200, '4000000000003220', (page) => page.frameLocator('iframe[title="3-D Secure"]').getByRole('button', {name: 'Complete authentication'}).click())
    expect(r).toEqual({url: '/thanks', message: '', errors: []})
  })

  it('processing (a risk review, amount 4991): the customer is thanked and told the outcome follows; nothing throws', async () => {
    expect(await pay(4991, '4242424242424242')).toEqual({url: '/', message: 'Thank you! Your payment is being checked; we will email you once it is confirmed.', errors: []})
  })

  it('declined: the reason and what to do, in the customer\'s words', async () => {
    expect(await pay(4200, '4000000000009995')).toEqual({url: '/', message: 'Your card has insufficient funds. Try another card.', errors: []})
  })
})
