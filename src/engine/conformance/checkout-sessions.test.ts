// Hosted checkout sessions (docs/api.md#hosted-checkout-sessions), over HTTPS as a shop and its customer's browser use them:
// the shop's server creates a session, the customer pays on its page (a card, 3-D Secure, a
// bank redirect), tries again after a decline, or goes back to the shop; the session completes
// or expires with its event; bad links and hostile input get a clear page, never another
// account's data.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type AsKey, type TestEngine} from '../test-support/harness.js'
import {expectError} from './helpers.js'

let t: TestEngine
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
})
afterAll(async () => t?.stop())

const SUCCESS = 'https://shop.example/thanks'
const CANCEL = 'https://shop.example/cart'
const form = (fields: Record<string, string>) => ({body: new URLSearchParams(fields).toString(), headers: {'content-type': 'application/x-www-form-urlencoded'}})
const cardFields = (number: string, extra: Record<string, string> = {}) => ({method: 'card', number, exp: '12/34', cvc: number.startsWith('3') ? '1234' : '123', ...extra})

async function session(a: AsKey, extra: Record<string, unknown> = {}) {
  const r = await a.api('POST', '/checkout_sessions', {amount: 2500, currency: 'EUR', success_url: SUCCESS, cancel_url: CANCEL, reference: 'order-1', ...extra})
  expect(r.status, r.text).toBe(201)
  return r.body
}
const get = async (a: AsKey, id: string) => (await a.api('GET', `/checkout_sessions/${id}`)).body
const events = async (a: AsKey, type: string) => ((await a.api('GET', `/events?type=${type}&limit=100`)).body.data as any[]).map((e) => e.data.object)
const location = (r: {status: number; headers: Record<string, unknown>}) => {
  expect(r.status).toBe(303)
  return new URL(String(r.headers.location))
}

describe('checkout sessions', () => {
  it('create: an open session with a url on {checkout_url}, every method that takes the currency (no direct debits), expiring in a day', async () => {
    const a = await t.account('cs-create')
    const s = await session(a)
    expect(s).toMatchObject({object: 'checkout_session', status: 'open', amount: 2500, currency: 'EUR', reference: 'order-1', payment: null, completed_at: null, success_url: SUCCESS, cancel_url: CANCEL, livemode: false})
    expect(s.id).toMatch(/^cs_/)
    expect(s.url.startsWith(t.engine.checkoutUrl)).toBe(true)
    expect(s.payment_methods).toEqual(expect.arrayContaining(['card', 'ideal', 'klarna']))
    expect(s.payment_methods).not.toContain('sepa_debit')
    expect(s.payment_methods).not.toContain('pix')
    expect(Date.parse(s.expires_at) - Date.parse(s.created_at)).toBe(86_400_000)
    expect(await get(a, s.id)).toEqual(s)
    const html = (await t.raw('GET', s.url)).text
    expect(html).toContain('€25.00')
    expect(html).toContain('autocomplete="cc-number"')
    expect(html).toContain('value="ideal">iDEAL</button>')
  })

  it('a card that pays: to success_url with the session and payment; complete, with checkout.session.completed', async () => {
    const a = await t.account('cs-card')
    const s = await session(a, {metadata: {order_id: '42'}})
    const to = location(await t.raw('POST', s.url, form(cardFields('4242424242424242'))))
    expect(`${to.origin}${to.pathname}`).toBe(SUCCESS)
    expect(to.searchParams.get('session')).toBe(s.id)
    const done = await get(a, s.id)
    expect(done).toMatchObject({status: 'complete', payment: to.searchParams.get('payment')})
    const p = (await a.api('GET', `/payments/${done.payment}`)).body
    expect(p).toMatchObject({status: 'succeeded', amount: 2500, currency: 'EUR', reference: 'order-1', metadata: {order_id: '42'}})
    expect(await events(a, 'checkout.session.completed')).toEqual([expect.objectContaining({id: s.id, status: 'complete', payment: p.id})])
    // paid: the page sends the customer on; a second post pays nothing more
    expect(location(await t.raw('GET', s.url)).pathname).toBe('/thanks')
    expect((await t.raw('POST', s.url, form(cardFields('4242424242424242')))).status).toBe(409)
    expect((await a.api('GET', '/payments?reference=order-1')).body.data).toHaveLength(1)
  })

  it('a declined card: the page again with the reason in the customer\'s words, the session still open; another card then pays', async () => {
    const a = await t.account('cs-decline')
    const s = await session(a)
    const declined = await t.raw('POST', s.url, form(cardFields('4000000000000002')))
    expect(declined.status).toBe(402)
    expect(declined.text).toContain('Your card was declined. Try another card or another way to pay.')
    const open = await get(a, s.id)
    expect(open.status).toBe('open')
    expect((await a.api('GET', `/payments/${open.payment}`)).body).toMatchObject({status: 'failed', failure_code: 'card_declined'})
    const to = location(await t.raw('POST', s.url, form(cardFields('4242424242424242'))))
    expect((await get(a, s.id)).status).toBe('complete')
    expect(to.searchParams.get('payment')).not.toBe(open.payment)
    expect((await a.api('GET', '/payments?reference=order-1')).body.data).toHaveLength(2)
  })

  it('3-D Secure: on to the challenge; failed, back to the page to try again; approved, to success_url', async () => {
    const a = await t.account('cs-3ds')
    const s = await session(a)
    const challenge = location(await t.raw('POST', s.url, form(cardFields('4000000000003220'))))
    expect(challenge.pathname).toContain('/3ds/')
    // the customer fails the challenge: back to the session page, told why
    const back = location(await t.raw('POST', challenge.toString(), form({outcome: 'fail'})))
    expect(back.pathname).toBe(new URL(s.url).pathname)
    const again = await t.raw('GET', back.toString())
    expect(again.status).toBe(402)
    expect(again.text).toContain('Your bank could not confirm it was you.')
    expect((await get(a, s.id)).status).toBe('open')
    // and passes it the second time
    const challenge2 = location(await t.raw('POST', s.url, form(cardFields('4000000000003220'))))
    const back2 = location(await t.raw('POST', challenge2.toString(), form({outcome: 'approve'})))
    const to = location(await t.raw('GET', back2.toString()))
    expect(`${to.origin}${to.pathname}`).toBe(SUCCESS)
    expect(await get(a, s.id)).toMatchObject({status: 'complete', payment: to.searchParams.get('payment')})
  })

  it('a bank redirect (iDEAL): the bank\'s page, then success_url; complete', async () => {
    const a = await t.account('cs-ideal')
    const s = await session(a, {payment_methods: ['ideal']})
    const html = (await t.raw('GET', s.url)).text
    expect(html).not.toContain('cc-number')
    const bank = location(await t.raw('POST', s.url, form({method: 'ideal'})))
    const back = location(await t.raw('POST', bank.toString(), form({outcome: 'approve'})))
    const to = location(await t.raw('GET', back.toString()))
    expect(`${to.origin}${to.pathname}`).toBe(SUCCESS)
    expect((await get(a, s.id)).status).toBe('complete')
  })

  it('back to the shop: to cancel_url with the session, which stays open; it expires at expires_at with checkout.session.expired', async () => {
    const a = await t.account('cs-cancel')
    const s = await session(a, {expires_in: 1800})
    const to = location(await t.raw('POST', s.url, form({outcome: 'cancel'})))
    expect(`${to.origin}${to.pathname}`).toBe(CANCEL)
    expect(to.searchParams.get('session')).toBe(s.id)
    expect((await get(a, s.id)).status).toBe('open')
    await a.advance(1801)
    expect((await get(a, s.id)).status).toBe('expired')
    expect(await events(a, 'checkout.session.expired')).toEqual([expect.objectContaining({id: s.id, status: 'expired'})])
    const page = await t.raw('GET', s.url)
    expect(page.status).toBe(410)
    expect(page.text).toContain('This checkout has expired')
  })

  it('expire: the shop ends an open session; a complete one cannot be', async () => {
    const a = await t.account('cs-expire')
    const s = await session(a)
    expect((await a.api('POST', `/checkout_sessions/${s.id}/expire`)).body.status).toBe('expired')
    expectError(await a.api('POST', `/checkout_sessions/${s.id}/expire`), 400, 'invalid_request_error', 'checkout_session_not_open')
  })

  it('without success_url and cancel_url: a stand-in page of the gateway shows what the shop would receive', async () => {
    const a = await t.account('cs-standin')
    const r = await a.api('POST', '/checkout_sessions', {amount: 1200, currency: 'EUR'})
    expect(r.status, r.text).toBe(201)
    expect(r.body.success_url).toBe(`${t.engine.checkoutUrl}/returned/success`)
    const to = location(await t.raw('POST', r.body.url, form(cardFields('4242424242424242'))))
    const page = await t.raw('GET', to.toString())
    expect(page.status).toBe(200)
    expect(page.text).toContain(`session=${r.body.id}`)
    expect(page.text).toContain(`payment=${to.searchParams.get('payment')}`)
  })

  it('bad bodies are refused naming the field', async () => {
    const a = await t.account('cs-bad')
    const base = {amount: 2500, currency: 'EUR', success_url: SUCCESS, cancel_url: CANCEL}
    expect(expectError(await a.api('POST', '/checkout_sessions', {...base, payment_methods: ['pix']}), 400, 'invalid_request_error').param).toBe('payment_methods[0]')
    expect(expectError(await a.api('POST', '/checkout_sessions', {...base, payment_methods: ['card', 'sepa_debit']}), 400, 'invalid_request_error').param).toBe('payment_methods[1]')
    expect(expectError(await a.api('POST', '/checkout_sessions', {...base, success_url: 'shop'}), 400, 'invalid_request_error').param).toBe('success_url')
    expect(expectError(await a.api('POST', '/checkout_sessions', {...base, expires_in: 60}), 400, 'invalid_request_error').param).toBe('expires_in')
    expectError(await a.api('POST', '/checkout_sessions', {...base, customer: 'cus_nowhere'}), 404, 'invalid_request_error')
  })

  it('hostile links and input: a clear page, never another account\'s session nor a stack trace; HTML in a reference is text', async () => {
    const a = await t.account('cs-hostile-a')
    const b = await t.account('cs-hostile-b')
    const s = await session(a, {reference: '<script>alert(1)</script>'})
    const html = (await t.raw('GET', s.url)).text
    expect(html).not.toContain('<script>alert(1)')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    const u = new URL(s.url)
    const wrongToken = new URL(s.url)
    wrongToken.searchParams.set('token', 'guess')
    const otherAccount = new URL(s.url)
    otherAccount.searchParams.set('account', b.id)
    const unknown = new URL(s.url.replace(s.id, 'cs_doesnotexist'))
    const badAccount = new URL(s.url)
    badAccount.searchParams.set('account', '../../etc')
    for (const link of [wrongToken, otherAccount, unknown, badAccount]) {
      const r = await t.raw('GET', link.toString())
      expect(r.status, link.toString()).toBe(404)
      expect(r.text).toContain('This checkout link is not valid')
      expect(r.text).not.toContain('€25.00')
      expect(r.text).not.toContain(s.id)
      expect(r.text).not.toMatch(/at .*\.js:\d+/)
    }
    // b's key cannot read a's session
    expectError(await b.api('GET', `/checkout_sessions/${s.id}`), 404, 'invalid_request_error')
    // a method the session does not offer, a form too large
    expect((await t.raw('POST', u.toString(), form({method: 'bitcoin'}))).status).toBe(400)
    expect((await t.raw('POST', u.toString(), form({method: 'card', number: 'x'.repeat(70_000), exp: '12/34'}))).status).toBe(413)
    expect((await get(a, s.id)).status).toBe('open')
  })

  it('list: newest first in the list envelope, by status and by payment, with cursors; another account sees none', async () => {
    const a = await t.account('cs-list')
    const paid = await session(a)
    const to = location(await t.raw('POST', paid.url, form(cardFields('4242424242424242'))))
    const open1 = await session(a)
    const open2 = await session(a)
    const all = await a.api('GET', '/checkout_sessions')
    expect(all.status, all.text).toBe(200)
    expect(all.body).toMatchObject({object: 'list', url: '/v1/checkout_sessions', has_more: false})
    expect(all.body.data.map((x: {id: string}) => x.id)).toEqual([open2.id, open1.id, paid.id])
    expect((await a.api('GET', '/checkout_sessions?status=open')).body.data.map((x: {id: string}) => x.id)).toEqual([open2.id, open1.id])
    const complete = (await a.api('GET', `/checkout_sessions?payment=${to.searchParams.get('payment')}`)).body.data
    expect(complete).toEqual([expect.objectContaining({id: paid.id, status: 'complete'})])
    const first = (await a.api('GET', '/checkout_sessions?limit=1')).body
    expect(first).toMatchObject({has_more: true, data: [expect.objectContaining({id: open2.id})]})
    expect((await a.api('GET', `/checkout_sessions?starting_after=${open2.id}&limit=1`)).body.data[0].id).toBe(open1.id)
    expect((await a.api('GET', `/checkout_sessions?ending_before=${open1.id}`)).body.data.map((x: {id: string}) => x.id)).toEqual([open2.id])
    // the engine's own part never shows, and bad filters answer 400 naming the parameter
    expect(all.text).not.toContain('"_x"') // a key, not two letters of a random token
    expect(expectError(await a.api('GET', '/checkout_sessions?status=paid'), 400, 'invalid_request_error').param).toBe('status')
    expect(expectError(await a.api('GET', '/checkout_sessions?starting_after=cs_nowhere'), 400, 'invalid_request_error').param).toBe('starting_after')
    const b = await t.account('cs-list-other')
    expect((await b.api('GET', '/checkout_sessions')).body.data).toEqual([])
  })
})

describe('paying a session with a saved card (the hosted card fields)', () => {
  const pm = async (k: AsKey, number: string) => (await k.api('POST', '/payment_methods', {type: 'card', card: {number, exp_month: 12, exp_year: 2034, cvc: '123'}})).body.id as string

  it('a decline leaves the session open for another card; a success completes it; then nothing more is paid', async () => {
    const a = await t.account('cs-pay')
    const pk = a.as(a.publishableKey)
    const s = await session(a, {payment_methods: ['card', 'ideal'], metadata: {order_id: '77'}})
    const declined = await pk.api('POST', `/checkout_sessions/${s.id}/pay`, {payment_method_id: await pm(pk, '4000000000000002')}, {origin: 'https://shop.example'})
    expectError(declined, 402, 'card_error', 'card_declined')
    expect(declined.headers['access-control-allow-origin']).toBe('*')
    expect(await get(a, s.id)).toMatchObject({status: 'open', payment: declined.body.error.payment})
    const paid = await pk.api('POST', `/checkout_sessions/${s.id}/pay`, {payment_method_id: await pm(pk, '4242424242424242')})
    expect(paid.status, paid.text).toBe(201)
    // a payment of the session: its amount, reference and metadata
    expect(paid.body).toMatchObject({status: 'succeeded', amount: 2500, currency: 'EUR', reference: 'order-1', metadata: {order_id: '77'}})
    expect(await get(a, s.id)).toMatchObject({status: 'complete', payment: paid.body.id})
    expect(await events(a, 'checkout.session.completed')).toEqual([expect.objectContaining({id: s.id, payment: paid.body.id})])
    const again = await pk.api('POST', `/checkout_sessions/${s.id}/pay`, {payment_method_id: await pm(pk, '4242424242424242')})
    expect(expectError(again, 400, 'invalid_request_error', 'checkout_session_not_open').message).toContain(paid.body.id)
    expect(((await a.api('GET', '/payments?reference=order-1')).body.data as {status: string}[]).map((p) => p.status).sort()).toEqual(['failed', 'succeeded'])
  })

  it('3-D Secure: the step is bound to the shop\'s origin; a new try cancels a try still waiting, so two never both succeed', async () => {
    const a = await t.account('cs-pay-3ds')
    const pk = a.as(a.publishableKey)
    const s = await session(a)
    const first = await pk.api('POST', `/checkout_sessions/${s.id}/pay`, {payment_method_id: await pm(pk, '4000000000003220')}, {'gw-parent-origin': 'https://shop.example'})
    expect(first.body).toMatchObject({status: 'requires_action'})
    expect((await t.raw('GET', first.body.next_action.url)).headers['content-security-policy']).toContain('frame-ancestors https://shop.example')
    const second = await pk.api('POST', `/checkout_sessions/${s.id}/pay`, {payment_method_id: await pm(pk, '4000000000003220')}, {'gw-parent-origin': 'https://shop.example'})
    expect(second.body.status).toBe('requires_action')
    expect((await a.api('GET', `/payments/${first.body.id}`)).body.status).toBe('canceled')
    expect((await a.api('POST', `/test_helpers/payments/${second.body.id}/action`, {outcome: 'approve'})).body.status).toBe('succeeded')
    expect(await get(a, s.id)).toMatchObject({status: 'complete', payment: second.body.id})
  })

  it('what a publishable key may not do, and sessions it cannot pay', async () => {
    const a = await t.account('cs-pay-refused')
    const pk = a.as(a.publishableKey)
    const card = await pm(pk, '4242424242424242')
    const s = await session(a)
    // its body is the saved card alone; another account's key finds nothing
    expectError(await pk.api('POST', `/checkout_sessions/${s.id}/pay`, {payment_method_id: card, amount: 1}), 400, 'invalid_request_error', 'parameter_unknown')
    expectError(await pk.api('POST', `/checkout_sessions/${s.id}/pay`, {}), 400, 'invalid_request_error', 'parameter_missing')
    const b = await t.account('cs-pay-other')
    expectError(await b.as(b.publishableKey).api('POST', `/checkout_sessions/${s.id}/pay`, {payment_method_id: await pm(b.as(b.publishableKey), '4242424242424242')}), 404, 'invalid_request_error', 'resource_missing')
    // a session without cards, and an expired one
    const bank = await session(a, {payment_methods: ['ideal']})
    expect(expectError(await pk.api('POST', `/checkout_sessions/${bank.id}/pay`, {payment_method_id: card}), 400, 'invalid_request_error', 'parameter_invalid').param).toBe('payment_method_id')
    await a.api('POST', `/checkout_sessions/${s.id}/expire`, {})
    expectError(await pk.api('POST', `/checkout_sessions/${s.id}/pay`, {payment_method_id: card}), 400, 'invalid_request_error', 'checkout_session_not_open')
  })
})
