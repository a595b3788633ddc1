// Each test file: a gateway started in-process by @gw/testing (shared by the files of one worker
// would also do; one per file keeps this example simple), an account of its own, and the shop
// wired to it. Imports only the package's public exports.
import {startGateway, type GatewayAccount, type TestGateway} from '@gw/testing'
import {Shop} from '../src/shop.js'

export const CARD = {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}
export const CARD_3DS = {...CARD, number: '4000000000003220'}
export const CARD_DECLINED = {...CARD, number: '4000000000000002'}

export interface World {
  gateway: TestGateway
  account: GatewayAccount
  shop: Shop
  stop(): Promise<void>
}

export async function world(name: string): Promise<World> {
  const gateway = await startGateway()
  const account = await gateway.account({name})
  const shop = await new Shop({baseUrl: gateway.baseUrl, apiKey: account.secretKey, ca: gateway.ca, tls: await gateway.receiverTls()}).start()
  return {
    gateway,
    account,
    shop,
    async stop() {
      await shop.close()
      await gateway.stop()
    },
  }
}

/** Waits until the shop's order reaches a status (webhooks arrive on their own time). */
export async function until(shop: Shop, orderId: string, status: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (shop.orders.get(orderId)?.status !== status) {
    if (Date.now() > end) throw new Error(`order ${orderId} is ${shop.orders.get(orderId)?.status}, not ${status}, after ${ms} ms`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
