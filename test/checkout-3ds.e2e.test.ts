// End to end: a real browser (headless Debian chromium via playwright-core) completes the
// hosted 3-D Secure page and lands on the merchant's return_url.
import {once} from 'node:events'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import type {Browser} from 'playwright-core'
import {launchChromium} from './support/browser.js'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, card, type TestEngine} from '../src/engine/test-support/harness.js'

let t: TestEngine
let shop: http.Server
let returnUrl: string
let browser: Browser
const returns: string[] = []

beforeAll(async () => {
  ;[t, browser] = await Promise.all([
    bootEngine(),
    launchChromium(),
  ])
  // the merchant's site: records where the customer came back to
  shop = http.createServer((req, res) => {
    if (req.url?.startsWith('/order/')) returns.push(req.url)
    res.writeHead(200, {'Content-Type': 'text/html; charset=utf-8'})
    res.end('<!doctype html><title>Shop</title><h1 id="thanks">Thanks for your order</h1>')
  })
  shop.listen(0, '127.0.0.1')
  await once(shop, 'listening')
  returnUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/order/complete`
})

afterAll(async () => {
  await browser?.close()
  shop?.close()
  await t?.stop()
})

describe('hosted 3-D Secure page in a browser', () => {
  it('shows the amount, approves the challenge, returns to return_url and the payment succeeds', async () => {
    const created = await t.api('POST', '/payments', {
      amount: 4250,
      currency: 'EUR',
      payment_method: 'card',
      payment_method_data: card('4000000000003220'),
      reference: 'order-3ds-1',
      return_url: returnUrl,
    })
    expect(created.status).toBe(201)
    expect(created.body.status).toBe('requires_action')
    const id: string = created.body.id
    const actionUrl: string = created.body.next_action.url
    expect(actionUrl.startsWith(`${t.engine.checkoutUrl}/3ds/${id}?session=`)).toBe(true)

    const page = await browser.newPage({viewport: {width: 480, height: 760}})
    const opened = await page.goto(actionUrl)
    expect(opened?.status()).toBe(200)
    await expect(page.title()).resolves.toBe('3-D Secure authentication')
    const text = await page.locator('main').innerText()
    expect(text).toContain('€42.50')
    expect(text).toContain('3220')
    expect(text).toContain('order-3ds-1')
    await page.screenshot({path: '/tmp/3ds.png', fullPage: true})

    await Promise.all([page.waitForURL((u) => u.origin + u.pathname === returnUrl), page.click('#approve')])
    expect(page.url()).toBe(`${returnUrl}?payment=${id}`)
    await expect(page.locator('#thanks').innerText()).resolves.toBe('Thanks for your order')
    expect(returns).toEqual([`/order/complete?payment=${id}`])
    await page.close()

    const got = await t.api('GET', `/payments/${id}`)
    expect(got.body.status).toBe('succeeded')
    expect(got.body.amount_captured).toBe(4250)
    expect(got.body.next_action).toBeNull()
    const events = await t.api('GET', '/events?type=payment.*&limit=100')
    const mine = (events.body.data as {type: string; data: {object: {id: string}}}[])
      .filter((e) => e.data.object.id === id)
      .map((e) => e.type)
      .reverse()
    expect(mine).toEqual(['payment.requires_action', 'payment.processing', 'payment.succeeded'])
  })
})
