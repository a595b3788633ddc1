// Finding a customer's payments (docs/decisions.md#finding-payments): by email, by reference prefix, by metadata;
// an email where a cus_ id belongs is said so; an inline {email} reuses that email's customer.
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {bootEngine, type TestEngine} from '../test-support/harness.js'
import {cardPayment, createPayment, expectError} from './helpers.js'

let t: TestEngine
let a: Pick<TestEngine, 'api'>
beforeAll(async () => {
  t = await bootEngine({rateLimit: 0})
  // a fresh account: lists hold only what this file made
  a = await t.account('support-desk')
})
afterAll(async () => t?.stop())

const ids = (r: {body: {data: {id: string}[]}}) => r.body.data.map((p) => p.id)

describe('one email, one customer', () => {
  it('an inline {email} reuses the customer with that email; a name fills one it lacked; other emails get their own', async () => {
    const first = await createPayment(a as TestEngine, cardPayment({customer: {email: 'ada@example.com'}, reference: '1007'}))
    const second = await createPayment(a as TestEngine, cardPayment({customer: {email: 'ada@example.com', name: 'Ada Lovelace'}, reference: '1008'}))
    expect(second.customer).toBe(first.customer)
    expect((await a.api('GET', `/customers/${first.customer}`)).body).toMatchObject({email: 'ada@example.com', name: 'Ada Lovelace'})
    const other = await createPayment(a as TestEngine, cardPayment({customer: {email: 'grace@example.com'}, reference: '2001'}))
    expect(other.customer).not.toBe(first.customer)
    expect((await a.api('GET', '/customers?email=ada%40example.com')).body.data).toHaveLength(1)
    // two at once naming a new email still share one customer
    const both = await Promise.all([1, 2].map((i) => createPayment(a as TestEngine, cardPayment({customer: {email: 'new@example.com'}, reference: `30${i}`}))))
    expect(both[0].customer).toBe(both[1].customer)
  })
})

describe('finding payments', () => {
  it('customer_email finds every payment of every customer with that email (also customers made before reuse)', async () => {
    // a second customer with Ada's email, made directly (as an import or an older gw would have)
    const dup = (await a.api('POST', '/customers', {email: 'ada@example.com'})).body
    const third = await createPayment(a as TestEngine, cardPayment({customer: dup.id, reference: '1009'}))
    const found = await a.api('GET', '/payments?customer_email=ada%40example.com')
    expect(found.status, found.text).toBe(200)
    expect(found.body.data.map((p: any) => p.reference)).toEqual(['1009', '1008', '1007'])
    expect(ids(found)).toContain(third.id)
    expect((await a.api('GET', '/payments?customer_email=nobody%40example.com')).body).toMatchObject({data: [], has_more: false})
  })

  it('an email given as customer is refused naming customer_email; another kind of id is named as such', async () => {
    const r = expectError(await a.api('GET', '/payments?customer=ada%40example.com'), 400, 'invalid_request_error', 'parameter_invalid')
    expect(r.param).toBe('customer')
    expect(r.message).toContain('customer_email=ada@example.com')
    const p = expectError(await a.api('GET', '/payments?customer=pay_123'), 400, 'invalid_request_error', 'parameter_invalid')
    expect(p.message).toContain("got 'pay_123'")
  })

  it('reference_prefix finds references that start with it; reference stays exact', async () => {
    const refs = (q: string) => a.api('GET', `/payments?${q}`).then((r) => r.body.data.map((p: any) => p.reference).sort())
    expect(await refs('reference_prefix=100')).toEqual(['1007', '1008', '1009'])
    expect(await refs('reference=100')).toEqual([])
    expect(await refs('reference=1008')).toEqual(['1008'])
  })

  it('metadata key:value finds payments holding it, and pages with cursors like any list', async () => {
    const tagged: string[] = []
    for (let i = 0; i < 7; i++) {
      const p = await createPayment(a as TestEngine, cardPayment({reference: `m-${i}`, metadata: {batch: i % 2 === 0 ? 'even' : 'odd', n: String(i)}}))
      if (i % 2 === 0) tagged.unshift(p.id)
    }
    const all = await a.api('GET', '/payments?metadata=batch:even&limit=100')
    expect(ids(all)).toEqual(tagged)
    const first = await a.api('GET', '/payments?metadata=batch:even&limit=2')
    expect(first.body).toMatchObject({has_more: true})
    expect(ids(first)).toEqual(tagged.slice(0, 2))
    const next = await a.api('GET', `/payments?metadata=batch:even&limit=2&starting_after=${tagged[1]}`)
    expect(ids(next)).toEqual(tagged.slice(2, 4))
    expect(next.body.has_more).toBe(false)
    const back = await a.api('GET', `/payments?metadata=batch:even&limit=1&ending_before=${tagged[2]}`)
    expect(ids(back)).toEqual([tagged[1]])
    expect((await a.api('GET', '/payments?metadata=n:3')).body.data.map((p: any) => p.reference)).toEqual(['m-3'])
    const bad = expectError(await a.api('GET', '/payments?metadata=batch'), 400, 'invalid_request_error')
    expect(bad.param).toBe('metadata')
  })
})

describe('finding a payment from what the customer says', () => {
  let zoe: string[]
  beforeAll(async () => {
    const made = []
    made.push(await createPayment(a as TestEngine, cardPayment({customer: {email: 'zoe@lovelace-shop.example', name: 'Zoë  Lovelace'}, reference: 'z-1'})))
    // the same person typing her email in another case is the same customer
    made.push(await createPayment(a as TestEngine, cardPayment({customer: {email: 'Zoe@Lovelace-Shop.Example'}, reference: 'z-2'}, '5555555555554444')))
    await createPayment(a as TestEngine, cardPayment({customer: {email: 'zed@other.example', name: 'Zed Lovell'}, reference: 'o-1'}))
    zoe = made.map((p) => p.id).reverse()
  })
  const find = async (query: string) => {
    const r = await a.api('GET', `/payments?${query}`)
    expect(r.status, r.text).toBe(200)
    return ids(r)
  }

  it('customer_email is compared case-insensitively; an inline email in another case reuses the customer', async () => {
    expect(await find('customer_email=ZOE%40Lovelace-Shop.example')).toEqual(zoe)
    expect(await find('customer_email=zoe%40lovelace-shop.example')).toEqual(zoe)
  })

  it('card_last4 finds card payments by their last four digits, and composes with the customer filters', async () => {
    const by4444 = await find('card_last4=4444')
    expect(by4444).toContain(zoe[0])
    expect(await find('card_last4=4444&customer_email=zoe%40lovelace-shop.example')).toEqual([zoe[0]])
    expect(await find('card_last4=4242&email_domain=lovelace-shop.example')).toEqual([zoe[1]])
    expect(await find('card_last4=0000')).toEqual([])
    const bad = expectError(await a.api('GET', '/payments?card_last4=42'), 400, 'invalid_request_error')
    expect(bad.param).toBe('card_last4')
  })

  it('email_domain (any case, @ allowed) and customer_name (a prefix of the name or its last word, accents and case ignored)', async () => {
    expect(await find('email_domain=LOVELACE-SHOP.example')).toEqual(zoe)
    expect(await find('email_domain=%40lovelace-shop.example')).toEqual(zoe)
    expect(await find('email_domain=shop.example')).toEqual([])
    expect(await find('customer_name=zoe%20love')).toEqual(zoe)
    // Ada Lovelace's payments (above) too: a family name finds every customer bearing it
    expect(await find('customer_name=Lovelace')).toEqual(expect.arrayContaining(zoe))
    expect(await find('customer_name=Lovelace&email_domain=lovelace-shop.example')).toEqual(zoe)
    const love = await find('customer_name=love')
    expect(love).toEqual(expect.arrayContaining(zoe))
    expect(await find('customer_name=love&email_domain=other.example')).toHaveLength(1)
    expect(love).toEqual(expect.arrayContaining(await find('customer_name=love&email_domain=other.example')))
    expect(await find('customer_name=elace')).toEqual([])
    const bad = expectError(await a.api('GET', '/payments?customer_name=z'), 400, 'invalid_request_error')
    expect(bad.param).toBe('customer_name')
  })

  it('pages through a customer filter with cursors like any list', async () => {
    const first = await a.api('GET', '/payments?email_domain=lovelace-shop.example&limit=1')
    expect(first.body).toMatchObject({has_more: true})
    expect(ids(first)).toEqual([zoe[0]])
    expect(await find(`email_domain=lovelace-shop.example&limit=1&starting_after=${zoe[0]}`)).toEqual([zoe[1]])
  })
})
