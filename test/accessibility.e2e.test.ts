// Pages every customer can use: axe-core (the rules of WCAG 2.1 A and AA) run in Debian's chromium
// on every hosted page a customer meets — the checkout session (fresh, and after a declined card),
// the card form (fresh, and after a declined card), 3-D Secure, iDEAL, PIX, Klarna, Boleto and the
// card fields — at a phone's and a desktop's width; and a checkout made with the keyboard alone.
// Each page is opened once (its payment made, its card typed, axe-core loaded into it) and checked
// at both widths, resized between: chromium's work is outside this process's CPU accounting.
import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {TestEngine} from '../src/engine/test-support/harness.js'
import {shopSite, type ShopSite} from './support/shop-site.js'

// the functions given to page.evaluate run in the page, with its globals (the type check's lib is
// Node's, without the DOM's)
declare const window: any, document: any, getComputedStyle: any

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const WIDTHS = {phone: {width: 375, height: 740}, desktop: {width: 1280, height: 800}}

let site: ShopSite
let t: TestEngine
let a: ShopSite['a']
let browser: Browser
let shopUrl: string

beforeAll(async () => {
  // a shop's page with the card fields (gw.js mounts the gateway's frame)
  site = await shopSite('accessible shop', (_req, {t, a}) => `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width,initial-scale=1"><title>Shop: pay</title></head><body><main><h1>Pay</h1><div id="card"></div></main>
<script src="${t.engine.checkoutUrl}/gw.js"></script><script>window.card = GW(${JSON.stringify(a.publishableKey)}).mountCard('#card')</script></body></html>`)
  ;({t, a, browser, url: shopUrl} = site)
})

afterAll(async () => site?.close())

type Violation = {id: string; impact: string; help: string; nodes: {target: string[]; failureSummary: string}[]}

/** axe-core's WCAG 2.1 A/AA rules on the page (or one of its frames, by URL); each violation as `rule (impact): where — what`. */
async function axe(page: Page, frameUrl?: string): Promise<string[]> {
  const frame = frameUrl ? page.frames().find((f) => f.url().startsWith(frameUrl)) : page.mainFrame()
  if (!frame) throw new Error(`no frame at ${frameUrl}`)
  // once per page (it stays for the second width)
  if (!(await frame.evaluate(() => Boolean((window as any).axe)))) await frame.evaluate(AXE)
  const found = (await frame.evaluate(() => (window as any).axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}}).then((r: any) => r.violations))) as Violation[]
  return found.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${v.help}`))
}

const card = (number: string) => ({type: 'card', card: {number, exp_month: 12, exp_year: 2034, cvc: '123'}})

/** Every hosted page a customer meets, as a way to open it in a fresh page. */
async function hostedPages(): Promise<[string, (page: Page) => Promise<string | undefined>][]> {
  const made = async (body: object) => {
    const r = await a.api('POST', '/payments', {amount: 4250, reference: `order-${Math.random().toString(36).slice(2, 8)}`, return_url: 'https://shop.example/return', ...body})
    expect(r.status, r.text).toBe(201)
    return r.body.next_action.url as string
  }
  const session = async () => (await a.api('POST', '/checkout_sessions', {amount: 4250, currency: 'EUR', reference: 'order-1042', payment_methods: ['card', 'ideal', 'klarna', 'paypal']})).body.url as string
  const typeCard = async (page: Page, number: string) => {
    await page.getByLabel('Card number').fill(number)
    await page.getByLabel('Expiry (MM/YY)').fill('12/34')
    await page.getByLabel('CVC').fill('123')
    await page.getByRole('button', {name: /^Pay /}).click()
    await page.getByRole('alert').waitFor()
  }
  const go = (url: string) => async (page: Page) => {
    await page.goto(url)
    return undefined
  }
  return [
    ['checkout session', go(await session())],
    ['checkout session after a declined card', async (page) => (await page.goto(await session()), await typeCard(page, '4000000000000002'), undefined)],
    ['card form', go(await made({currency: 'EUR', payment_method: 'card'}))],
    ['card form after a refused card', async (page) => (await page.goto(await made({currency: 'EUR', payment_method: 'card'})), await typeCard(page, '4242424242424241'), undefined)],
    ['3-D Secure', go(await made({currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000003220')}))],
    ['iDEAL bank login', go(await made({currency: 'EUR', payment_method: 'ideal'}))],
    ['PIX QR code', go(await made({currency: 'BRL', payment_method: 'pix'}))],
    ['Klarna plan', go(await made({currency: 'EUR', payment_method: 'klarna'}))],
    ['Boleto voucher', go(await made({currency: 'BRL', payment_method: 'boleto'}))],
    [
      'card fields',
      async (page) => {
        await page.goto(shopUrl)
        await page.frameLocator('iframe[title="Card details"]').getByLabel('Card number').waitFor()
        return `${t.engine.checkoutUrl}/fields`
      },
    ],
    [
      'card fields after a decline',
      async (page) => {
        await page.goto(shopUrl)
        const frame = page.frameLocator('iframe[title="Card details"]')
        await frame.getByLabel('Card number').fill('4000000000000002')
        await frame.getByLabel('Expiry (MM/YY)').fill('12/34')
        const s = (await a.api('POST', '/checkout_sessions', {amount: 1200, currency: 'EUR', payment_methods: ['card']})).body.id
        await page.evaluate((id) => (window as any).card.confirmCheckoutSession(id), s)
        await frame.getByRole('alert').waitFor()
        return `${t.engine.checkoutUrl}/fields`
      },
    ],
  ]
}

describe('hosted pages pass axe-core (WCAG 2.1 A and AA)', () => {
  // each page opened once (its payment made, its card typed) and checked at both widths: resized
  // from a phone's to a desktop's, the page lays itself out again, as a browser window does
  it(`every hosted page at a phone's and a desktop's width (${Object.values(WIDTHS).map((w) => `${w.width} px`).join(', ')})`, async () => {
    const context = await browser.newContext({viewport: WIDTHS.phone, ignoreHTTPSErrors: true})
    const found: string[] = []
    try {
      for (const [name, open] of await hostedPages()) {
        const page = await context.newPage()
        const frame = await open(page)
        for (const [width, viewport] of Object.entries(WIDTHS)) {
          await page.setViewportSize(viewport)
          for (const v of await axe(page, frame)) found.push(`${name} at a ${width}'s width: ${v}`)
        }
        await page.close()
      }
    } finally {
      await context.close()
    }
    expect(found).toEqual([])
  }, 120_000)
})

describe('a checkout with the keyboard alone', () => {
  /** What has the focus: its accessible name (label, text) and how its focus is drawn. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement
      const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : undefined
      const style = getComputedStyle(el)
      return {name: (label ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim(), role: el.getAttribute('role'), outline: `${style.outlineStyle} ${style.outlineWidth}`}
    })
  /** Tabs to the next control; it must show where the focus is. */
  const tab = async (page: Page) => {
    await page.keyboard.press('Tab')
    const f = await focused(page)
    expect(f.outline, `the focus on ${f.name} is visible`).toBe('solid 3px')
    return f.name
  }

  it('tab order, visible focus, errors announced and focused, a decline, then paid — no mouse', async () => {
    const s = (await a.api('POST', '/checkout_sessions', {amount: 4250, currency: 'EUR', reference: 'order-keys', payment_methods: ['card', 'ideal']})).body
    const page = await browser.newPage({viewport: WIDTHS.phone})
    await page.goto(s.url)
    // the order a customer meets them in: the card fields, pay, the other way to pay, back to the shop
    const order: string[] = []
    for (let i = 0; i < 6; i++) order.push(await tab(page))
    expect(order).toEqual(['Card number', 'Expiry (MM/YY)', 'CVC', 'Pay €42.50 EUR', 'iDEAL', 'Back to the shop'])

    // a typo, typed and sent with the keyboard: the page comes back with the error focused (read out at once), the field marked
    const typeCard = async (number: string) => {
      await page.keyboard.type(number)
      await page.keyboard.press('Tab')
      await page.keyboard.type('12/34')
      await page.keyboard.press('Tab')
      await page.keyboard.type('123')
      // the form posts and the page that answers loads (a 303 or the form again, with its error)
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')])
    }
    await page.reload()
    await tab(page)
    await typeCard('4242 4242 4242 4241')
    const error = await focused(page)
    expect(error).toMatchObject({role: 'alert', name: 'Your card number is incorrect. Check it for a typo.'})
    expect(await page.getByLabel('Card number').getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByLabel('Card number').getAttribute('aria-describedby')).toBe('card-error')
    // from the error the next Tab is the field it is about
    expect(await tab(page)).toBe('Card number')

    // a declined card: the reason is focused and read out; the session is still open for another card
    await typeCard('4000 0000 0000 0002')
    expect(await focused(page)).toMatchObject({role: 'alert', name: 'Your card was declined. Try another card or another way to pay.'})
    expect(await tab(page)).toBe('Card number')
    await typeCard('4242 4242 4242 4242')
    await page.waitForURL(/returned\/success/)
    expect((await a.api('GET', `/checkout_sessions/${s.id}`)).body.status).toBe('complete')
    await page.close()
  }, 60_000)
})
