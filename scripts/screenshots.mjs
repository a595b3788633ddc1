#!/usr/bin/env node
// npm run screenshots: a picture of every hosted page under docs/screenshots/, so a newcomer sees
// them before running anything (the README links them). It starts the gateway in this process
// (gw/testing, from the build), makes the payments and the checkout session that lead to each
// page, and photographs them in Debian's chromium (/usr/bin/chromium) through playwright-core.
import {mkdirSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {chromium} from 'playwright-core'
import {startGateway} from '../dist/testing.js'

const OUT = process.env.GW_SCREENSHOTS_DIR || join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots')
mkdirSync(OUT, {recursive: true})
const gw = await startGateway()
const browser = await chromium.launch({executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--ignore-certificate-errors'], headless: true})
try {
  const shop = await gw.account({name: 'screenshots'})
  const ok = (r, what) => {
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`)
    return r.body
  }
  const card = (number) => ({type: 'card', card: {number, exp_month: 12, exp_year: 2034, cvc: '123'}})
  const session = ok(await shop.api('POST', '/checkout_sessions', {amount: 4250, currency: 'EUR', reference: 'order-1042'}), 'checkout session')
  const threeDs = ok(await shop.api('POST', '/payments', {amount: 4250, currency: 'EUR', payment_method: 'card', payment_method_data: card('4000000000003220'), reference: 'order-1043', return_url: 'https://shop.example/return'}), '3-D Secure payment')
  const method = (payment_method, currency, reference) => shop.api('POST', '/payments', {amount: 4250, currency, payment_method, reference, return_url: 'https://shop.example/return'})
  const pages = [
    ['checkout-session', 'Hosted checkout: a card form and every other way to pay', session.url],
    ['3ds-challenge', 'The 3-D Secure challenge', threeDs.next_action.url],
    ['ideal-bank-login', 'iDEAL: the bank login', ok(await method('ideal', 'EUR', 'order-1044'), 'ideal').next_action.url],
    ['pix-qr', 'PIX: the QR code', ok(await method('pix', 'BRL', 'order-1045'), 'pix').next_action.url],
    ['klarna-plan', 'Klarna: the instalment plan', ok(await method('klarna', 'EUR', 'order-1046'), 'klarna').next_action.url],
    ['boleto-voucher', 'Boleto: the voucher', ok(await method('boleto', 'BRL', 'order-1047'), 'boleto').next_action.url],
    ['card-form', 'A card payment without a card: the card form', ok(await shop.api('POST', '/payments', {amount: 4250, currency: 'EUR', payment_method: 'card', reference: 'order-1048', return_url: 'https://shop.example/return'}), 'card form').next_action.url],
  ]
  const page = await browser.newPage({viewport: {width: 480, height: 600}, deviceScaleFactor: 1})
  for (const [name, what, url] of pages) {
    const res = await page.goto(url)
    if (!res || res.status() !== 200) throw new Error(`${what}: ${res?.status()} at ${url}`)
    const file = join(OUT, `${name}.png`)
    await page.screenshot({path: file, fullPage: true})
    process.stdout.write(`${file}  ${what}\n`)
  }
} finally {
  await browser.close()
  await gw.stop()
}
