// The smoke script the install tests run with an installed package, as its user would.

/** A script that starts a gateway with the test helper, pays, receives the webhook, and pays again through the SDK. */
export function SMOKE(sdk: string, testing: string): string {
  return `
import {Gateway} from '${sdk}'
import {startGateway} from '${testing}'
const gw = await startGateway()
try {
  const a = await gw.account({name: 'smoke'})
  const rx = await a.receiver({events: ['payment.*']})
  const card = {type: 'card', card: {number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123'}}
  const p = await a.api('POST', '/payments', {amount: 2000, currency: 'EUR', payment_method: 'card', payment_method_data: card})
  const ev = await rx.next('payment.succeeded', {object: p.body.id})
  const client = new Gateway({baseUrl: gw.baseUrl, apiKey: a.secretKey, ca: gw.ca})
  const q = await client.payments.create({amount: 1500, currency: 'EUR', payment_method: 'card', payment_method_data: card})
  await client.close()
  console.log(JSON.stringify({payment: p.body.status, event: ev.type, sdk: q.status}))
} finally {
  await gw.stop()
}
`
}
