// A gateway engine, an account on it, Debian's chromium and a shop's site on another origin
// (plain HTTP on 127.0.0.1) whose pages the test writes: what the browser tests of the card
// fields start from. `page(req)` answers each request with HTML.
import {once} from 'node:events'
import http from 'node:http'
import type {AddressInfo} from 'node:net'
import type {Browser} from 'playwright-core'
import {bootEngine, type AsKey, type TestEngine} from '../../src/engine/test-support/harness.js'
import {launchChromium} from './browser.js'

export interface ShopSite {
  t: TestEngine
  a: AsKey & {id: string; publishableKey: string}
  browser: Browser
  /** the shop's origin, with a trailing slash */
  url: string
  close(): Promise<void>
}

export async function shopSite(account: string, page: (req: http.IncomingMessage, site: ShopSite) => string | Promise<string>): Promise<ShopSite> {
  const [t, browser] = await Promise.all([bootEngine({rateLimit: 0}), launchChromium()])
  const a = await t.account(account)
  const site: ShopSite = {t, a, browser, url: '', close: async () => {}}
  const server = http.createServer(async (req, res) => {
    const body = await page(req, site)
    res.writeHead(200, {'Content-Type': 'text/html; charset=utf-8'})
    res.end(body)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  site.close = async () => {
    await browser.close()
    server.close()
    await t.stop()
  }
  return site
}
